#include "cli/targets_file.h"

#include <sstream>

namespace mcpfuzz::cli {
namespace {

std::string Trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c != ' ' && c != '\t') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool StartsWithIgnoringCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char c = text[i];
    const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower != prefix[i]) return false;
  }
  return true;
}

}  // namespace

bool IsHttpUrl(std::string_view word) {
  return StartsWithIgnoringCase(word, "http://") || StartsWithIgnoringCase(word, "https://");
}

std::optional<TargetSpec> ParseTargetWord(std::string_view word, const TargetSpec& defaults) {
  TargetSpec target = defaults;
  if (IsHttpUrl(word)) {
    target.kind = TargetSpec::Kind::kHttpUrl;
    target.url = std::string(word);
    return target;
  }
  if (!word.starts_with("stdio:")) return std::nullopt;
  target.kind = TargetSpec::Kind::kStdioCommand;
  target.argv = Words(word.substr(6));
  return target;
}

Result<std::vector<TargetSpec>> ParseTargetsFile(std::string_view text,
                                                 const TargetSpec& defaults) {
  std::vector<TargetSpec> targets;
  std::istringstream lines{std::string(text)};
  int number = 0;
  for (std::string raw; std::getline(lines, raw);) {
    ++number;
    const std::string line = Trimmed(raw);
    if (line.empty() || line.starts_with("#")) continue;
    std::optional<TargetSpec> target = ParseTargetWord(line, defaults);
    if (!target) {
      return Error{"line " + std::to_string(number) +
                   ": a target is an http:// or https:// URL or 'stdio: COMMAND', not '" + line +
                   "'"};
    }
    if (IsHttpUrl(line) && line.find_first_of(" \t") != std::string::npos) {
      return Error{"line " + std::to_string(number) + ": a URL has no spaces: '" + line + "'"};
    }
    if (target->kind == TargetSpec::Kind::kStdioCommand && target->argv.empty()) {
      return Error{"line " + std::to_string(number) + ": 'stdio:' needs a command"};
    }
    targets.push_back(std::move(*target));
  }
  if (targets.empty()) return Error{"no target in the file"};
  return targets;
}

}  // namespace mcpfuzz::cli
