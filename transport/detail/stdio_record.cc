#include "transport/detail/stdio_record.h"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string_view>
#include <utility>

#include "model/request.h"
#include "transport/detail/excerpt.h"

namespace mcpfuzz::transport_detail {

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

std::size_t WindowReadBudget(std::size_t max_response_bytes) {
  constexpr std::size_t kFloor = std::size_t{256} << 20U;
  constexpr std::size_t kFactor = 64;
  return std::max(kFloor, max_response_bytes * kFactor);
}

std::string DescribeWindowCap(std::size_t lines, std::size_t kept_bytes, const Limits& limits) {
  if (lines >= limits.max_reply_lines) {
    return "more than " + std::to_string(limits.max_reply_lines) + " lines";
  }
  if (kept_bytes >= limits.max_response_bytes) {
    return "more than " + std::to_string(limits.max_response_bytes) + " bytes of lines";
  }
  return "more than " + std::to_string(WindowReadBudget(limits.max_response_bytes)) +
         " bytes (most of them in over-long lines)";
}

std::string DescribeTooLong(const LinePiece& piece, std::size_t cap) {
  return "a stdout line exceeded " + std::to_string(cap) + " bytes (" + std::to_string(piece.size) +
         " seen; it began \"" + EscapedExcerpt(piece.line) +
         "\"); the rest of that line was dropped";
}

std::string DescribeWriteFailure(std::optional<int> error, std::size_t written, std::size_t total) {
  if (!error) return "";
  return "; writing the request failed after " + std::to_string(written) + " of " +
         std::to_string(total) + " bytes (" +
         (*error == EPIPE ? std::string("EPIPE") : std::to_string(*error)) + ")";
}

}  // namespace mcpfuzz::transport_detail
