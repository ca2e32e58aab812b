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

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream stream(text);
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

}  // namespace

Result<std::vector<TargetSpec>> ParseTargetsFile(std::string_view text,
                                                 const TargetSpec& defaults) {
  std::vector<TargetSpec> targets;
  std::istringstream lines{std::string(text)};
  int number = 0;
  for (std::string raw; std::getline(lines, raw);) {
    ++number;
    const std::string line = Trimmed(raw);
    if (line.empty() || line.starts_with("#")) continue;
    TargetSpec target = defaults;
    if (line.starts_with("http://") || line.starts_with("https://")) {
      if (line.find_first_of(" \t") != std::string::npos) {
        return Error{"line " + std::to_string(number) + ": a URL has no spaces: '" + line + "'"};
      }
      target.kind = TargetSpec::Kind::kHttpUrl;
      target.url = line;
    } else if (line.starts_with("stdio:")) {
      target.kind = TargetSpec::Kind::kStdioCommand;
      target.argv = Words(line.substr(6));
      if (target.argv.empty()) {
        return Error{"line " + std::to_string(number) + ": 'stdio:' needs a command"};
      }
    } else {
      return Error{"line " + std::to_string(number) +
                   ": a target is an http:// or https:// URL or 'stdio: COMMAND', not '" + line +
                   "'"};
    }
    targets.push_back(std::move(target));
  }
  if (targets.empty()) return Error{"no target in the file"};
  return targets;
}

}  // namespace mcpfuzz::cli
