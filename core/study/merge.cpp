#include "core/study/merge.hpp"

#include "core/io/atomic_file.hpp"
#include "core/io/json.hpp"
#include "core/study/study_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include <fcntl.h>     // open (POSIX)
#include <sys/stat.h>  // fstat
#include <unistd.h>    // read, close

namespace ricochet::study {

namespace {

constexpr std::string_view kShardPrefix = "# ricochet-study shard ";
/// The columns every results file has between the axes and the final.* columns.
constexpr std::string_view kFixedColumns[] = {"impacts",
                                              "reflected_impacts",
                                              "first_impact_t",
                                              "max_abs_energy_rel_error",
                                              "energy_final_rel_error",
                                              "steps",
                                              "t_end"};
constexpr std::int64_t kCancelCheckRows = 4096;

/// Lines of a regular file, each at most kMaxResultsLineBytes, read in blocks.
class LineReader {
 public:
  enum class Read { Line, End, TooLong, Cut, Error };

  LineReader() = default;
  ~LineReader() {
    if (fd_ >= 0) ::close(fd_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// Empty on success, else why the file cannot be a shard (missing, a FIFO, a device ...).
  std::string open(const std::filesystem::path& path) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer before it is refused.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) return "cannot open: " + std::string(std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return "cannot read: " + std::string(std::strerror(errno));
    if (!S_ISREG(st.st_mode)) {
      const char* what = S_ISFIFO(st.st_mode)   ? "a FIFO"
                         : S_ISCHR(st.st_mode)  ? "a character device"
                         : S_ISDIR(st.st_mode)  ? "a directory"
                         : S_ISBLK(st.st_mode)  ? "a block device"
                         : S_ISSOCK(st.st_mode) ? "a socket"
                                                : "not a regular file";
      return std::string("is ") + what + ", not a results file (shards are regular files)";
    }
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    buffer_.resize(std::size_t(1) << 16);
    return {};
  }

  /// The next line, without its '\n'. Cut: the file ends without a line break after `line`.
  Read next(std::string& line) {
    line.clear();
    for (;;) {
      if (pos_ == len_) {
        const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
        if (n < 0) {
          if (errno == EINTR) continue;
          return Read::Error;
        }
        if (n == 0) return line.empty() ? Read::End : Read::Cut;
        pos_ = 0;
        len_ = static_cast<std::size_t>(n);
      }
      const char* begin = buffer_.data() + pos_;
      const void* newline = std::memchr(begin, '\n', len_ - pos_);
      const std::size_t take =
          newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - begin)
                  : len_ - pos_;
      if (line.size() + take > kMaxResultsLineBytes) return Read::TooLong;
      line.append(begin, take);
      pos_ += take;
      if (newline) {
        ++pos_;
        return Read::Line;
      }
    }
  }

 private:
  int fd_ = -1;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, len_ = 0;
};

/// What a column holds.
enum class ColumnKind { Run, Status, Count, Number, OptionalNumber, Name, Message };

/// The fields of a CSV line (RFC 4180 quoting, as io::csvField writes it), as views into `line`
/// (quoted fields keep their quotes). False when a quote is out of place.
bool splitFields(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t i = 0;
  for (;;) {
    const std::size_t start = i;
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) return false;  // no closing quote
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        ++i;
      }
      if (i < line.size() && line[i] != ',') return false;  // text after the closing quote
    } else {
      while (i < line.size() && line[i] != ',') {
        if (line[i] == '"') return false;  // a quote inside an unquoted field
        ++i;
      }
    }
    fields.push_back(line.substr(start, i - start));
    if (i == line.size()) return true;
    ++i;  // the comma
  }
}

bool isCount(std::string_view text) {
  std::int64_t n = -1;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
  return !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size() && n >= 0;
}

bool isNumber(std::string_view text) {
  double x = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
  return !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size();
}

bool isWord(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

/// The kind of each column of a results header; nullopt when it is not one.
std::optional<std::vector<ColumnKind>> columnKinds(const std::vector<std::string_view>& header) {
  const std::size_t fixed = std::size(kFixedColumns);
  if (header.size() < 2 + fixed + 1 || header[0] != "run" || header[1] != "status" ||
      header.back() != "message") {
    return std::nullopt;
  }
  std::size_t first = 2;  // of the fixed columns, after the axes
  while (first + fixed < header.size() &&
         !std::equal(kFixedColumns, kFixedColumns + fixed, header.begin() + first)) {
    ++first;
  }
  if (first + fixed >= header.size()) return std::nullopt;
  std::vector<ColumnKind> kinds = {ColumnKind::Run, ColumnKind::Status};
  for (std::size_t c = 2; c < first; ++c) {
    kinds.push_back(header[c] == "integrator" ? ColumnKind::Name : ColumnKind::Number);
  }
  for (std::string_view name : kFixedColumns) {
    kinds.push_back(name == "impacts" || name == "reflected_impacts" || name == "steps"
                        ? ColumnKind::Count
                        : ColumnKind::Number);
  }
  for (std::size_t c = first + fixed; c + 1 < header.size(); ++c) {
    if (header[c].substr(0, 7) != "\"final." && header[c].substr(0, 6) != "final.")
      return std::nullopt;
    kinds.push_back(ColumnKind::OptionalNumber);
  }
  kinds.push_back(ColumnKind::Message);
  return kinds;
}

/// Empty when `field` is of `kind`, else what it should have been.
const char* fieldProblem(ColumnKind kind, std::string_view field) {
  switch (kind) {
    case ColumnKind::Run:
    case ColumnKind::Count:
      return isCount(field) ? nullptr : "is not a whole number >= 0";
    case ColumnKind::Status:
      return isWord(field) ? nullptr : "is not a status word";
    case ColumnKind::Number:
      return isNumber(field) ? nullptr : "is not a number";
    case ColumnKind::OptionalNumber:
      return field.empty() || isNumber(field) ? nullptr : "is not a number";
    case ColumnKind::Name:
      return field.empty() ? "is empty" : nullptr;
    case ColumnKind::Message:
      return nullptr;
  }
  return nullptr;
}

struct ShardLine {
  int index = 0;  ///< 0-based
  int count = 0;
  std::int64_t runs = 0;
  std::string fingerprint;
};

std::optional<ShardLine> parseShardLine(std::string_view line) {
  if (line.substr(0, kShardPrefix.size()) != kShardPrefix) return std::nullopt;
  const char* p = line.data() + kShardPrefix.size();
  const char* end = line.data() + line.size();
  ShardLine s;
  int k = 0;
  const auto expect = [&](std::string_view word) {
    if (static_cast<std::size_t>(end - p) < word.size() || std::string_view(p, word.size()) != word)
      return false;
    p += word.size();
    return true;
  };
  const auto integer = [&](auto& into) {
    const auto r = std::from_chars(p, end, into);
    if (r.ec != std::errc() || r.ptr == p) return false;
    p = r.ptr;
    return true;
  };
  if (!integer(k) || !expect("/") || !integer(s.count) || !expect(" of ") || !integer(s.runs) ||
      !expect(" runs, study ")) {
    return std::nullopt;
  }
  s.fingerprint.assign(p, end);
  if (s.count < 1 || k < 1 || k > s.count || s.runs < 0 || s.fingerprint.size() != 16 ||
      !std::all_of(s.fingerprint.begin(), s.fingerprint.end(),
                   [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); })) {
    return std::nullopt;
  }
  s.index = k - 1;
  return s;
}

struct Shard {
  std::filesystem::path path;
  LineReader in;
  ShardLine id;
  std::string line;
  std::int64_t run = -1;  ///< of `line`; -1 at the end of the file
  std::int64_t lineNumber = 0;

  std::string where() const { return path.string() + ": line " + std::to_string(lineNumber); }
};

/// Reads `s`'s first lines: its shard line and its header. Empty on success.
std::string readHead(Shard& s, std::string& header) {
  std::string line;
  const auto read = [&](const char* what) -> std::string {
    const LineReader::Read r = s.in.next(line);
    ++s.lineNumber;
    if (r == LineReader::Read::Line) return {};
    if (r == LineReader::Read::TooLong) {
      return s.where() + " is longer than " + std::to_string(kMaxResultsLineBytes) +
             " bytes: not a results file";
    }
    if (r == LineReader::Read::Error)
      return s.path.string() + ": read error: " + std::strerror(errno);
    return s.path.string() + ": ends before its " + what;
  };
  if (std::string e = read("shard line"); !e.empty()) return e;
  const auto id = parseShardLine(line);
  if (!id) {
    return s.path.string() +
           ": not a shard of a study: its first line is not '# ricochet-study shard K/N of R runs, "
           "study "
           "FINGERPRINT' (shards are what `ricochet-cli study --shard K/N` writes)";
  }
  s.id = *id;
  if (std::string e = read("header"); !e.empty()) return e;
  header = std::move(line);
  return {};
}

/// Reads the shard's next row and checks every field. Empty on success (run = -1 at the end).
std::string advance(Shard& s, const std::vector<ColumnKind>& kinds,
                    const std::vector<std::string_view>& names,
                    std::vector<std::string_view>& fields) {
  const std::int64_t previous = s.run;
  const LineReader::Read r = s.in.next(s.line);
  if (r == LineReader::Read::End) {
    s.run = -1;
    return {};
  }
  ++s.lineNumber;
  if (r == LineReader::Read::TooLong) {
    return s.where() + " is longer than " + std::to_string(kMaxResultsLineBytes) +
           " bytes: not a results row";
  }
  if (r == LineReader::Read::Error)
    return s.path.string() + ": read error: " + std::strerror(errno);
  if (r == LineReader::Read::Cut)
    return s.where() + " does not end with a line break: the file was cut short";
  if (!splitFields(s.line, fields))
    return s.where() + ": a quote is out of place: not a results row";
  if (fields.size() != kinds.size()) {
    return s.where() + " has " + std::to_string(fields.size()) + " fields, the header " +
           std::to_string(kinds.size()) +
           (fields.size() < kinds.size() ? " (a row cut short?)" : "");
  }
  for (std::size_t c = 0; c < fields.size(); ++c) {
    if (const char* problem = fieldProblem(kinds[c], fields[c])) {
      return s.where() + ", column '" + std::string(names[c]) + "': '" +
             std::string(fields[c].substr(0, 40)) + (fields[c].size() > 40 ? "...'" : "'") + " " +
             problem;
    }
  }
  std::int64_t run = -1;
  std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), run);
  if (run <= previous) {
    return s.where() + ": run " + std::to_string(run) + " comes after run " +
           std::to_string(previous) + " (a shard's runs must increase)";
  }
  if (run >= s.id.runs || run % s.id.count != s.id.index) {
    return s.where() + ": run " + std::to_string(run) + " is not one of shard " +
           std::to_string(s.id.index + 1) + "/" + std::to_string(s.id.count) + "'s runs";
  }
  s.run = run;
  return {};
}

}  // namespace

std::string studyFingerprint(const StudyPlan& plan) {
  const std::string text = json::write(studyToJson(plan.study), -1);
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  static const char digits[] = "0123456789abcdef";
  for (int i = 15; i >= 0; --i, h >>= 4) hex[i] = digits[h & 0xf];
  hex[16] = '\0';
  return hex;
}

std::string shardLine(const StudyPlan& plan, int shardIndex, int shardCount) {
  return std::string(kShardPrefix) + std::to_string(shardIndex + 1) + "/" +
         std::to_string(shardCount) + " of " + std::to_string(plan.runs) + " runs, study " +
         studyFingerprint(plan) + "\n";
}

std::string mergeShards(const std::vector<std::filesystem::path>& paths,
                        const std::filesystem::path& out, const StudyPlan* study,
                        const std::atomic<bool>* cancel) {
  if (paths.empty()) return "nothing to merge: give the shards' results files";
  std::vector<std::unique_ptr<Shard>> shards;
  std::string header;
  std::vector<std::string_view> names, fields;
  std::vector<ColumnKind> kinds;
  std::vector<const Shard*> byIndex;
  const std::string expectedFingerprint = study ? studyFingerprint(*study) : std::string();
  for (const auto& p : paths) {
    auto s = std::make_unique<Shard>();
    s->path = p;
    if (std::string e = s->in.open(p); !e.empty()) return p.string() + ": " + e;
    std::string h;
    if (std::string e = readHead(*s, h); !e.empty()) return e;
    const Shard* first = shards.empty() ? nullptr : shards.front().get();
    if (!first) {
      if (!splitFields(h, names))
        return s->where() + ": not a study results header (a quote is out of place)";
      const auto k = columnKinds(names);
      if (!k) {
        return s->where() +
               ": not a study results header "
               "(run,status,<axes>,impacts,...,t_end,final.<column>...,message)";
      }
      kinds = *k;
      header = std::move(h);
      names.clear();
      splitFields(header, names);  // views into the kept header
      if (study && s->id.fingerprint != expectedFingerprint) {
        return p.string() + ": a shard of another study (study " + s->id.fingerprint +
               "; the study given has " + expectedFingerprint + ")";
      }
      if (study && s->id.runs != study->runs) {
        return p.string() + ": its study has " + std::to_string(s->id.runs) +
               " runs, the study given " + std::to_string(study->runs);
      }
      byIndex.assign(static_cast<std::size_t>(s->id.count), nullptr);
    } else {
      if (s->id.fingerprint != first->id.fingerprint || s->id.runs != first->id.runs) {
        return p.string() + ": a shard of another study than " + first->path.string() + " (study " +
               s->id.fingerprint + " of " + std::to_string(s->id.runs) + " runs, not " +
               first->id.fingerprint + " of " + std::to_string(first->id.runs) + ")";
      }
      if (s->id.count != first->id.count) {
        return p.string() + ": shard " + std::to_string(s->id.index + 1) + "/" +
               std::to_string(s->id.count) + " of a split into " + std::to_string(s->id.count) +
               ", " + first->path.string() + " of one into " + std::to_string(first->id.count);
      }
      if (h != header)
        return s->where() + ": its header differs from " + first->path.string() + "'s";
    }
    const Shard*& slot = byIndex[static_cast<std::size_t>(s->id.index)];
    if (slot) {
      return p.string() + ": shard " + std::to_string(s->id.index + 1) + "/" +
             std::to_string(s->id.count) + " is given twice (also " + slot->path.string() + ")";
    }
    slot = s.get();
    if (std::string e = advance(*s, kinds, names, fields); !e.empty()) return e;
    shards.push_back(std::move(s));
  }
  const std::int64_t runs = shards.front()->id.runs;
  const int count = shards.front()->id.count;
  // " (shard K/N is missing)" when the shard that holds `run` was not given.
  const auto missingShard = [&](std::int64_t run) {
    const std::int64_t k = run % count;
    return byIndex[static_cast<std::size_t>(k)]
               ? std::string()
               : " (shard " + std::to_string(k + 1) + "/" + std::to_string(count) + " is missing)";
  };
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
      return "run " + std::to_string(expected) + " is in none of the shards (the next is run " +
             std::to_string(best->run) + " in " + best->path.string() + ")" +
             missingShard(expected);
    }
    buffer += best->line;
    buffer += '\n';
    ++expected;
    if (buffer.size() >= (std::size_t(1) << 20)) {
      if (std::string e = file.write(buffer); !e.empty()) return e;
      buffer.clear();
    }
    if (cancel && expected % kCancelCheckRows == 0 && cancel->load(std::memory_order_relaxed)) {
      return "merge stopped at run " + std::to_string(expected);
    }
    if (std::string e = advance(*best, kinds, names, fields); !e.empty()) return e;
  }
  if (expected != runs) {
    return "the shards hold runs 0 to " + std::to_string(expected - 1) + " but the study has " +
           std::to_string(runs) + " runs: run " + std::to_string(expected) + " is in none of them" +
           missingShard(expected);
  }
  if (std::string e = file.write(buffer); !e.empty()) return e;
  return file.commit();
}

}  // namespace ricochet::study
