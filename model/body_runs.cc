#include "model/body_runs.h"

namespace mcpfuzz {

std::vector<BodyRun> SplitRuns(std::string_view bytes, std::size_t min_run) {
  std::vector<BodyRun> runs;
  std::size_t literal_start = 0;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    std::size_t end = pos + 1;
    while (end < bytes.size() && bytes[end] == bytes[pos]) ++end;
    if (end - pos >= min_run) {
      if (pos > literal_start) {
        runs.push_back({std::string(bytes.substr(literal_start, pos - literal_start))});
      }
      runs.push_back({std::string(), bytes[pos], end - pos});
      literal_start = end;
    }
    pos = end;
  }
  if (literal_start < bytes.size() || runs.empty()) {
    runs.push_back({std::string(bytes.substr(literal_start))});
  }
  return runs;
}

bool HasLongRun(std::string_view bytes, std::size_t min_run) {
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    std::size_t end = pos + 1;
    while (end < bytes.size() && bytes[end] == bytes[pos]) ++end;
    if (end - pos >= min_run) return true;
    pos = end;
  }
  return false;
}

std::string JoinRuns(const std::vector<BodyRun>& runs) {
  std::size_t size = 0;
  for (const BodyRun& run : runs) size += run.count > 0 ? run.count : run.literal.size();
  std::string bytes;
  bytes.reserve(size);
  for (const BodyRun& run : runs) {
    if (run.count > 0) {
      bytes.append(run.count, run.repeated);
    } else {
      bytes += run.literal;
    }
  }
  return bytes;
}

}  // namespace mcpfuzz
