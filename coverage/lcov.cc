#include "coverage/lcov.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace mcpfuzz::coverage {
namespace {

int HexValue(char digit) {
  if (digit >= '0' && digit <= '9') return digit - '0';
  if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
  if (digit >= 'A' && digit <= 'F') return digit - 'A' + 10;
  return -1;
}

// Where each line's first character that is not a space lies, in UTF-16 code units (V8 counts
// offsets so); a line of blanks only has none.
std::vector<std::optional<std::int64_t>> FirstCharacters(std::string_view source) {
  std::vector<std::optional<std::int64_t>> lines(1);
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < source.size();) {
    const auto byte = static_cast<unsigned char>(source[i]);
    std::size_t length = 1;
    std::int64_t units = 1;
    if (byte >= 0xF0) {
      length = 4;
      units = 2;  // a surrogate pair
    } else if (byte >= 0xE0) {
      length = 3;
    } else if (byte >= 0xC0) {
      length = 2;
    }
    if (byte == '\n') {
      lines.emplace_back();
    } else if (byte != ' ' && byte != '\t' && byte != '\r' && !lines.back()) {
      lines.back() = offset;
    }
    offset += units;
    i += length;
  }
  return lines;
}

}  // namespace

std::optional<std::string> ScriptPath(std::string_view url) {
  if (url.starts_with('/')) return std::string(url);
  if (!url.starts_with("file://")) return std::nullopt;
  url.remove_prefix(7);
  if (!url.starts_with('/')) return std::nullopt;  // file://host/… names another machine
  std::string path;
  for (std::size_t i = 0; i < url.size(); ++i) {
    if (url[i] == '%' && i + 2 < url.size() && HexValue(url[i + 1]) >= 0 &&
        HexValue(url[i + 2]) >= 0) {
      path += static_cast<char>(HexValue(url[i + 1]) * 16 + HexValue(url[i + 2]));
      i += 2;
    } else {
      path += url[i];
    }
  }
  return path;
}

std::string LcovRecord(const std::string& path, std::string_view source,
                       const ScriptCoverage& script) {
  std::map<std::size_t, bool> lines;  // 1-based line → hit
  if (script.url.ends_with(".py")) {
    for (const auto& [line, end] : script.ranges) {
      if (line > 0) lines[static_cast<std::size_t>(line)] = true;
    }
  } else {
    const std::vector<std::optional<std::int64_t>> starts = FirstCharacters(source);
    struct Block {
      std::int64_t start;
      std::int64_t end;
      bool ran;
    };
    std::vector<Block> blocks;
    for (const auto& [start, end] : script.ranges) blocks.push_back({start, end, true});
    for (const auto& [start, end] : script.unrun) blocks.push_back({start, end, false});
    // Outermost first, so that each line ends up with its innermost block's state.
    std::stable_sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) {
      return a.end - a.start > b.end - b.start;
    });
    // The lines that hold a character, by where it lies: in offset order, as lines are.
    std::vector<std::pair<std::int64_t, std::size_t>> by_offset;
    for (std::size_t line = 0; line < starts.size(); ++line) {
      if (starts[line]) by_offset.emplace_back(*starts[line], line);
    }
    std::vector<std::optional<bool>> state(starts.size());
    for (const Block& block : blocks) {
      auto line = std::lower_bound(by_offset.begin(), by_offset.end(),
                                   std::pair<std::int64_t, std::size_t>{block.start, 0});
      for (; line != by_offset.end() && line->first < block.end; ++line) {
        state[line->second] = block.ran;
      }
    }
    for (std::size_t line = 0; line < state.size(); ++line) {
      if (state[line]) lines[line + 1] = *state[line];
    }
  }
  std::string record = "TN:\nSF:" + path + "\n";
  std::size_t hit = 0;
  for (const auto& [line, ran] : lines) {
    record += "DA:" + std::to_string(line) + "," + (ran ? "1" : "0") + "\n";
    if (ran) ++hit;
  }
  record +=
      "LF:" + std::to_string(lines.size()) + "\nLH:" + std::to_string(hit) + "\nend_of_record\n";
  return record;
}

}  // namespace mcpfuzz::coverage
