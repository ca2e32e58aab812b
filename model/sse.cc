#include "model/sse.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace mcpfuzz {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool AllAsciiDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void SseParser::Feed(std::string_view chunk, std::vector<SseEvent>& out) {
  if (!bom_checked_) {
    // The BOM may itself arrive split across chunks, so hold bytes back until it is decided.
    head_.append(chunk);
    const std::size_t compared = std::min(head_.size(), kByteOrderMark.size());
    const bool could_be_bom = head_.compare(0, compared, kByteOrderMark, 0, compared) == 0;
    if (could_be_bom && head_.size() < kByteOrderMark.size()) return;
    bom_checked_ = true;
    std::string head = std::exchange(head_, {});
    std::string_view rest = head;
    if (could_be_bom) rest.remove_prefix(kByteOrderMark.size());
    FeedLines(rest, out);
    return;
  }
  FeedLines(chunk, out);
}

void SseParser::FeedLines(std::string_view chunk, std::vector<SseEvent>& out) {
  if (last_was_cr_ && !chunk.empty()) {
    last_was_cr_ = false;
    if (chunk.front() == '\n') chunk.remove_prefix(1);
  }
  while (!chunk.empty()) {
    const std::size_t end = chunk.find_first_of("\r\n");
    if (end == std::string_view::npos) {
      line_.append(chunk);
      return;
    }
    line_.append(chunk.substr(0, end));
    const bool is_cr = chunk[end] == '\r';
    chunk.remove_prefix(end + 1);
    if (is_cr) {
      if (chunk.empty()) {
        last_was_cr_ = true;
      } else if (chunk.front() == '\n') {
        chunk.remove_prefix(1);
      }
    }
    // A line is complete as soon as its terminator arrives, so a CR-terminated event dispatches
    // without waiting for the next chunk.
    std::string line = std::exchange(line_, {});
    ProcessLine(line, out);
  }
}

void SseParser::ProcessLine(std::string_view line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    Dispatch(out);
    return;
  }
  if (line.front() == ':') return;
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) {
    ProcessField(line, {});
    return;
  }
  std::string_view value = line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  ProcessField(line.substr(0, colon), value);
}

void SseParser::ProcessField(std::string_view field, std::string_view value) {
  if (field == "event") {
    event_type_ = value;
  } else if (field == "data") {
    data_.append(value);
    data_.push_back('\n');
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) last_event_id_ = value;
  } else if (field == "retry") {
    long retry = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), retry);
    // A value too large for a long is ignored rather than clamped: no real delay is that long.
    if (AllAsciiDigits(value) && error == std::errc() && end == value.data() + value.size()) {
      retry_ms_ = retry;
    }
  }
}

void SseParser::Dispatch(std::vector<SseEvent>& out) {
  if (data_.empty()) {
    event_type_.clear();
    return;
  }
  data_.pop_back();  // the '\n' appended after the last data line
  SseEvent event;
  if (!event_type_.empty()) event.event = std::move(event_type_);
  event.data = std::move(data_);
  event.id = last_event_id_;
  event.retry_ms = retry_ms_;
  out.push_back(std::move(event));
  event_type_.clear();
  data_.clear();
}

bool SseParser::Finish(std::vector<SseEvent>& out) {
  // Bytes still held as a possible BOM are an unterminated line like any other.
  if (!bom_checked_ && !head_.empty()) line_ = head_;
  const bool open_line = !line_.empty() && line_.front() != ':';
  const bool discarded = open_line || !data_.empty() || !event_type_.empty();
  static_cast<void>(out);  // the standard dispatches nothing at end of stream
  *this = SseParser();
  return discarded;
}

std::vector<SseEvent> ParseSse(std::string_view body) {
  SseParser parser;
  std::vector<SseEvent> events;
  parser.Feed(body, events);
  static_cast<void>(parser.Finish(events));
  return events;
}

}  // namespace mcpfuzz
