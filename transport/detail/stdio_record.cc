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

namespace {

// How much of a multi-line message an observation keeps to show it: enough for a person to
// see the indentation, a constant whatever the message's size.
constexpr std::size_t kMultiLineExcerptBytes = 240;

// The line opens a JSON object or array: the start of a pretty-printed message, maybe.
bool OpensContainer(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t\r");
  return first != std::string_view::npos && (line[first] == '{' || line[first] == '[');
}

}  // namespace

std::vector<StdoutFramer::Framed> StdoutFramer::Feed(std::string line) {
  std::vector<Framed> done;
  if (parser_) {
    boost::system::error_code error;
    parser_->write("\n", 1, error);
    if (!error) parser_->write(line.data(), line.size(), error);
    if (!error) {
      open_lines_.push_back(std::move(line));
      if (parser_->done()) {
        Framed framed{std::exchange(open_lines_, {}), parser_->release()};
        parser_.reset();
        done.push_back(std::move(framed));
      }
      return done;
    }
    // This line breaks the text: what came before it was not JSON, and the line starts over.
    done.push_back(*Flush());
  }
  if (std::optional<boost::json::value> parsed = ParseLine(line)) {
    done.push_back({{std::move(line)}, std::move(parsed)});
    return done;
  }
  if (OpensContainer(line)) {
    parser_.emplace();
    boost::system::error_code error;
    parser_->write(line.data(), line.size(), error);
    if (!error && !parser_->done()) {
      open_lines_.push_back(std::move(line));
      return done;
    }
    parser_.reset();
  }
  done.push_back({{std::move(line)}, std::nullopt});
  return done;
}

std::optional<StdoutFramer::Framed> StdoutFramer::Flush() {
  if (!parser_) return std::nullopt;
  parser_.reset();
  return Framed{std::exchange(open_lines_, {}), std::nullopt};
}

const boost::json::value* RecordFramed(Observation& observation, StdoutFramer::Framed framed) {
  if (framed.lines.size() == 1) {
    return RecordLine(observation, std::move(framed.lines.front()), std::move(framed.value));
  }
  if (!framed.value) {
    for (std::string& line : framed.lines) RecordLine(observation, std::move(line), std::nullopt);
    return nullptr;
  }
  std::string excerpt;
  for (const std::string& line : framed.lines) {
    if (excerpt.size() >= kMultiLineExcerptBytes) break;
    if (!excerpt.empty()) excerpt += '\n';
    excerpt += line.substr(0, kMultiLineExcerptBytes - excerpt.size());
  }
  observation.multi_line_messages.push_back(std::move(excerpt));
  for (std::string& line : framed.lines) observation.stdout_lines.push_back(std::move(line));
  observation.messages.push_back(std::move(*framed.value));
  return &observation.messages.back();
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
