#include "app/cli/cli_args.hpp"

#include <charconv>

namespace ricochet::cli {

bool ParsedArgs::has(std::string_view name) const {
  for (const auto& o : options) {
    if (o.first == name) return true;
  }
  return false;
}

std::optional<std::string> ParsedArgs::value(std::string_view name) const {
  for (const auto& o : options) {
    if (o.first == name) return o.second;
  }
  return std::nullopt;
}

std::vector<std::string> ParsedArgs::values(std::string_view name) const {
  std::vector<std::string> v;
  for (const auto& o : options) {
    if (o.first == name) v.push_back(o.second);
  }
  return v;
}

ParsedArgs parseArgs(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                     std::string_view command) {
  ParsedArgs r;
  bool onlyPositionals = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (onlyPositionals || a.size() < 2 || a[0] != '-' || (a[1] != '-' && a != "-h")) {
      // "-0.5" and other words starting with one dash are positionals, not options.
      r.positionals.push_back(a);
      continue;
    }
    if (a == "--") {
      onlyPositionals = true;
      continue;
    }
    std::string name = a == "-h" ? std::string("--help") : a;
    std::optional<std::string> inlineValue;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      inlineValue = name.substr(eq + 1);
      name.resize(eq);
    }
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : specs) {
      if (name == s.name) spec = &s;
    }
    if (!spec) {
      r.error = "unknown option '" + name + "' for '" + std::string(command) +
                "' (see `ricochet-cli help`)";
      return r;
    }
    if (!spec->repeatable && r.has(name)) {
      r.error = "option '" + name + "' given twice";
      return r;
    }
    if (!spec->takesValue) {
      if (inlineValue) {
        r.error = "option '" + name + "' takes no value (got '" + *inlineValue + "')";
        return r;
      }
      r.options.emplace_back(name, std::string());
      continue;
    }
    if (!inlineValue) {
      if (i + 1 >= args.size()) {
        r.error = "option '" + name + "' needs a value";
        return r;
      }
      inlineValue = args[++i];
    }
    r.options.emplace_back(name, *inlineValue);
  }
  return r;
}

std::optional<double> parseNumber(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return std::nullopt;
  double x = 0.0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), x);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size()) return std::nullopt;
  return x;
}

std::optional<std::int64_t> parseInteger(std::string_view text) {
  std::int64_t n = 0;
  if (text.empty()) return std::nullopt;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), n);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size()) return std::nullopt;
  return n;
}

}  // namespace ricochet::cli
