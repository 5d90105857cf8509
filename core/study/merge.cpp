#include "core/study/merge.hpp"

#include "core/io/atomic_file.hpp"

#include <charconv>
#include <fstream>
#include <memory>

namespace ricochet::study {

namespace {

struct Shard {
  std::filesystem::path path;
  std::ifstream in;
  std::string line;
  std::int64_t run = -1;  ///< of `line`; -1 at the end of the file
  std::int64_t lineNumber = 1;
};

/// Reads the shard's next row. Empty on success (run = -1 at the end), else a message.
std::string advance(Shard& s) {
  const std::int64_t previous = s.run;
  if (!std::getline(s.in, s.line)) {
    if (s.in.bad()) return s.path.string() + ": read error after line " + std::to_string(s.lineNumber);
    s.run = -1;
    return {};
  }
  ++s.lineNumber;
  const auto comma = s.line.find(',');
  std::int64_t run = -1;
  const char* end = s.line.data() + (comma == std::string::npos ? s.line.size() : comma);
  const auto res = std::from_chars(s.line.data(), end, run);
  if (comma == std::string::npos || res.ec != std::errc() || res.ptr != end || run < 0) {
    return s.path.string() + ": line " + std::to_string(s.lineNumber) + " is not a results row (no run number first)";
  }
  if (run <= previous) {
    return s.path.string() + ": line " + std::to_string(s.lineNumber) + ": run " + std::to_string(run) +
           " comes after run " + std::to_string(previous) + " (a shard's runs must increase)";
  }
  s.run = run;
  return {};
}

}  // namespace

std::string mergeShards(const std::vector<std::filesystem::path>& paths, const std::filesystem::path& out,
                        std::int64_t expectedRuns) {
  if (paths.empty()) return "nothing to merge: give the shards' results files";
  std::vector<std::unique_ptr<Shard>> shards;
  std::string header;
  for (const auto& p : paths) {
    auto s = std::make_unique<Shard>();
    s->path = p;
    s->in.open(p, std::ios::binary);
    if (!s->in) return p.string() + ": cannot open";
    std::string h;
    if (!std::getline(s->in, h)) return p.string() + ": empty file (no header)";
    if (h.rfind("run,status,", 0) != 0) return p.string() + ": not a study results file (its header does not start with run,status)";
    if (header.empty()) {
      header = h;
    } else if (h != header) {
      return p.string() + ": its header differs from " + paths.front().string() + "'s (shards of different studies?)";
    }
    if (std::string e = advance(*s); !e.empty()) return e;
    shards.push_back(std::move(s));
  }
  io::AtomicFile file;
  if (std::string e = file.open(out); !e.empty()) return e;
  std::string buffer = header + "\n";
  std::int64_t expected = 0;
  for (;;) {
    Shard* best = nullptr;
    for (auto& s : shards) {
      if (s->run >= 0 && (!best || s->run < best->run)) best = s.get();
    }
    if (!best) break;
    if (best->run != expected) {
      return best->run < expected ? best->path.string() + ": run " + std::to_string(best->run) + " is in two shards"
                                  : "run " + std::to_string(expected) + " is in none of the shards (the next is run " +
                                        std::to_string(best->run) + " in " + best->path.string() + ")";
    }
    buffer += best->line;
    buffer += '\n';
    ++expected;
    if (buffer.size() >= (std::size_t(1) << 20)) {
      if (std::string e = file.write(buffer); !e.empty()) return e;
      buffer.clear();
    }
    if (std::string e = advance(*best); !e.empty()) return e;
  }
  if (expectedRuns >= 0 && expected != expectedRuns) {
    return "the shards hold runs 0 to " + std::to_string(expected - 1) + " but the study has " +
           std::to_string(expectedRuns) + " runs: run " + std::to_string(expected) + " is in none of them";
  }
  if (std::string e = file.write(buffer); !e.empty()) return e;
  return file.commit();
}

}  // namespace ricochet::study
