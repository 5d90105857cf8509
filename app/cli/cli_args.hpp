#pragma once
// Command-line parsing shared by the ricochet-cli commands: options of the form `--name VALUE` or
// `--name=VALUE`, flags, positionals, and strict number parsing. Errors are one line, meant for
// stderr with exit code 2 (bad input).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet::cli {

/// Exit codes (README, "Command line"): success, bad input, integrator failure.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitIntegratorFailed = 3;
/// Interrupted by SIGINT (the shell convention 128 + 2); no output file is left behind.
inline constexpr int kExitInterrupted = 130;
/// `video` only: the encoder or the disk failed during the export (ffmpeg died, disk full); no
/// output file is left behind. Bad options, a missing ffmpeg or display are bad input (2).
inline constexpr int kExitExportFailed = 4;

struct OptionSpec {
  const char* name;  ///< with the dashes, e.g. "--csv"
  bool takesValue;
  bool repeatable;
};

struct ParsedArgs {
  std::vector<std::string> positionals;
  std::vector<std::pair<std::string, std::string>> options;  ///< (name, value) in order
  std::string error;                                         ///< empty when parsing succeeded

  bool has(std::string_view name) const;
  /// The value of a non-repeatable option, if given.
  std::optional<std::string> value(std::string_view name) const;
  /// Every value of a repeatable option, in order.
  std::vector<std::string> values(std::string_view name) const;
};

/// Parses `args` (the words after the command name) against `specs`. `command` names the command
/// in messages. "--" ends option parsing.
ParsedArgs parseArgs(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                     std::string_view command);

/// A decimal number (std::from_chars: "0.01", "1e-3", also "nan" and "inf" so that the range
/// checks can name them); a leading '+' is accepted. nullopt when the text is not a number.
std::optional<double> parseNumber(std::string_view text);

/// A decimal integer without sign or with '-', no trailing characters. nullopt otherwise.
std::optional<std::int64_t> parseInteger(std::string_view text);

}  // namespace ricochet::cli
