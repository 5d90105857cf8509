#pragma once
// Joins the results CSVs of a study's shards (runner.hpp) into the file one process would have
// written: the shards' common header, then every row ordered by its `run` column.
//
// A shard's file is the results CSV of its runs after one line that says whose shard it is:
//   # ricochet-study shard K/N of R runs, study FINGERPRINT
// (shardLine(); FINGERPRINT is studyFingerprint()). The merged file has no such line, so it is
// byte for byte the file of an unsharded run.
//
// Nothing is trusted. Every shard must be a regular file (not a FIFO, not /dev/zero) of lines no
// longer than kMaxResultsLineBytes, start with a shard line of one and the same study (same
// fingerprint, run count and shard count; each shard once), and have the same header as the others.
// Every row must have the header's number of fields, each of the kind its column holds (integers
// for run, impacts, reflected_impacts and steps; numbers for the axes, the errors, t_end and the
// final.* columns, which may be empty; a status word; the message, quoted as CSV quotes), with
// strictly increasing runs within a shard. The merged runs must be exactly 0, 1, ..., R - 1, none
// missing, none repeated. Each shard is read line by line (a k-way merge), so memory does not grow
// with the study.

#include "core/study/study.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ricochet::study {

/// The longest line a results file may have, bytes (a row of 100 bodies' final columns is about
/// 50 kB). A longer line is refused instead of being read until memory runs out.
inline constexpr std::size_t kMaxResultsLineBytes = std::size_t(4) << 20;

/// 16 hex digits that identify a study: the FNV-1a 64-bit hash of its canonical JSON
/// (studyToJson, the scenario inline), so the same study gives the same fingerprint from any
/// folder and any copy of its files.
std::string studyFingerprint(const StudyPlan& plan);

/// The first line of shard `shardIndex` (0-based) of `shardCount`, with '\n':
/// "# ricochet-study shard K/N of R runs, study FINGERPRINT" (K = shardIndex + 1).
std::string shardLine(const StudyPlan& plan, int shardIndex, int shardCount);

/// Writes the merge of `shards` to `out` (core/io/atomic_file.hpp). With `study`, the shards
/// must be of that study (its fingerprint). Empty on success, else one line naming the file, its
/// line and the field (a missing run, a header that differs, a row cut short ...); then `out` is
/// not written. `cancel` (may be null) is polled every few thousand rows: when set, the merge stops
/// with the message "merge stopped at run N" and writes nothing.
std::string mergeShards(const std::vector<std::filesystem::path>& shards,
                        const std::filesystem::path& out, const StudyPlan* study = nullptr,
                        const std::atomic<bool>* cancel = nullptr);

}  // namespace ricochet::study
