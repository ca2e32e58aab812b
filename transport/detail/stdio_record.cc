#include "transport/detail/stdio_record.h"

#include <optional>
#include <string_view>
#include <utility>

#include "model/request.h"

namespace mcpfuzz::detail {

std::optional<boost::json::value> ParseLine(std::string_view line) {
  // CRLF framing is tolerated when parsing; stdout_lines keeps the bytes exact.
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return ParseJson(line);
}

const boost::json::value* RecordLine(Observation& observation, std::string line,
                                     std::optional<boost::json::value> parsed) {
  const boost::json::value* stored = nullptr;
  if (parsed) {
    observation.messages.push_back(std::move(*parsed));
    stored = &observation.messages.back();
  } else {
    observation.non_json.push_back(line);
  }
  observation.stdout_lines.push_back(std::move(line));
  return stored;
}

const boost::json::value* RecordLine(Observation& observation, std::string line) {
  std::optional<boost::json::value> parsed = ParseLine(line);
  return RecordLine(observation, std::move(line), std::move(parsed));
}

std::string DescribeExit(const ExitStatus& exit) {
  if (exit.code) return "the server exited with code " + std::to_string(*exit.code);
  if (exit.signal) return "the server was killed by signal " + std::to_string(*exit.signal);
  return "the server exited (status unknown: reaped elsewhere)";
}

}  // namespace mcpfuzz::detail
