#pragma once
// Joins the results CSVs of a study's shards (runner.hpp) into the file one process would have
// written: the shards' common header, then every row ordered by its `run` column.
//
// Each shard file is read line by line (a k-way merge, so memory does not grow with the study)
// and must have the same header as the others and strictly increasing runs. The merged runs must
// be exactly 0, 1, 2, ... with none missing or repeated; with `expectedRuns` >= 0 (the study's
// run count) the last ones are checked too, so a missing last shard cannot go unnoticed.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ricochet::study {

/// Writes the merge of `shards` to `out` atomically. Empty on success, else one line naming the
/// file and the run (a missing run, a header that differs, a row that is not a results row ...);
/// then `out` is not written.
std::string mergeShards(const std::vector<std::filesystem::path>& shards, const std::filesystem::path& out,
                        std::int64_t expectedRuns = -1);

}  // namespace ricochet::study
