#include "transport/http_exchange.h"

#include <algorithm>
#include <boost/json/parse_options.hpp>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "model/json_depth.h"
#include "model/subscription.h"
#include "model/text.h"
#include "transport/detail/excerpt.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;

bool IsResponseTo(const json::value& message, const json::value& id) {
  const json::object* object = message.if_object();
  if (object == nullptr || object->contains("method")) return false;
  if (!object->contains("result") && !object->contains("error")) return false;
  const json::value* message_id = object->if_contains("id");
  return message_id != nullptr && *message_id == id;
}

bool AnswersId(const json::value& message, const json::value& id) {
  if (IsResponseTo(message, id)) return true;
  const json::array* batch = message.if_array();
  return batch != nullptr && std::any_of(batch->begin(), batch->end(),
                                         [&](const json::value& m) { return IsResponseTo(m, id); });
}

}  // namespace

bool IsEventStream(std::string_view content_type) {
  const std::size_t semicolon = content_type.find(';');
  return AsciiLowercase(TrimWhitespace(content_type.substr(0, semicolon))) == "text/event-stream";
}

namespace {

// What an exchange waits for, read from the request's body with one parse (a megabyte body is
// parsed once per send): the ids a reply must echo, and a subscriptions/listen's id.
struct BodyIds {
  std::vector<json::value> awaited;
  std::optional<json::value> listen;
};

// A raw body as JSON, for its ids. A large object is read for its envelope alone, as RpcId
// reads it: a whole parse copied a sent megabyte body once more per exchange. Only where the
// whole parse would succeed too (ParseJson refuses a body nested past the parser's depth), so
// the ids are the same.
std::optional<json::value> RawBodyJson(const Request& request, const RawBody& raw) {
  if (raw.bytes.size() > kWholeParseBytes &&
      JsonNestingDepth(raw.bytes) <= json::parse_options{}.max_depth) {
    std::optional<json::value> envelope = ParseRawEnvelope(raw.bytes);
    if (envelope && envelope->is_object()) return envelope;
  }
  return request.BodyJson();
}

BodyIds ReadBodyIds(const Request& request) {
  BodyIds ids;
  std::optional<json::value> parsed;
  const json::value* body = std::get_if<json::value>(&request.body);
  if (const auto* raw = std::get_if<RawBody>(&request.body)) {
    parsed = RawBodyJson(request, *raw);
    body = parsed ? &*parsed : nullptr;
  }
  if (body == nullptr) {
    // Nested past the parser's depth, its envelope may still name a listen.
    if (IsListen(request)) ids.listen = *request.RpcId();
    return ids;
  }
  if (body->is_object()) {
    const json::object& object = body->as_object();
    const bool is_response =
        !object.contains("method") && (object.contains("result") || object.contains("error"));
    if (is_response) return ids;  // a client's answer to a server request gets no reply
    const json::value* id = object.if_contains("id");
    if (id == nullptr) return ids;
    ids.awaited.push_back(*id);
    const json::value* method = object.if_contains("method");
    if (method != nullptr && method->is_string() && method->get_string() == kListenMethod) {
      ids.listen = *id;
    }
  } else if (body->is_array()) {
    for (const json::value& element : body->as_array()) {
      const json::object* object = element.if_object();
      if (object == nullptr || !object->contains("method")) continue;
      if (const json::value* id = object->if_contains("id")) ids.awaited.push_back(*id);
    }
  }
  return ids;
}

}  // namespace

std::vector<json::value> AwaitedIds(const Request& request) { return ReadBodyIds(request).awaited; }

HttpExchange::HttpExchange(Observation& observation, const Request& request,
                           std::size_t max_body_bytes, std::size_t max_events)
    : observation_(observation),
      max_body_bytes_(max_body_bytes),
      max_events_(max_events),
      opens_stream_(request.http_method == "GET" &&
                    FindHeader(request.headers, "Accept").value_or("").find("text/event-stream") !=
                        std::string_view::npos) {
  BodyIds ids = ReadBodyIds(request);
  awaited_ids_ = std::move(ids.awaited);
  expects_reply_ = !awaited_ids_.empty();
  if (ids.listen) listen_id_ = std::move(*ids.listen);
}

void HttpExchange::OnHeaderLine(std::string_view line) {
  last_activity_ = Clock::now();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  Headers& headers = observation_.http_headers;
  if (line.starts_with("HTTP/")) {
    headers.clear();  // a new response; an interim 1xx one came before
    is_sse_ = false;
    headers_complete_ = false;
  } else if (line.empty()) {
    is_sse_ = IsEventStream(FindHeader(headers, "Content-Type").value_or(""));
    headers_complete_ = true;
  } else if ((line.front() == ' ' || line.front() == '\t') && !headers.empty()) {
    headers.back().value += " ";  // obsolete line folding continues the previous header
    headers.back().value += TrimWhitespace(line);
  } else {
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      headers.push_back({std::string(line), ""});
    } else {
      headers.push_back({std::string(line.substr(0, colon)),
                         std::string(TrimWhitespace(line.substr(colon + 1)))});
    }
  }
}

bool HttpExchange::OnBody(std::string_view bytes) {
  last_activity_ = Clock::now();
  received_bytes_ += bytes.size();
  if (too_large_) return false;  // curl may deliver what it had buffered before it stops
  std::string& body = observation_.body;
  const std::size_t kept = std::min(bytes.size(), max_body_bytes_ - body.size());
  body.append(bytes.substr(0, kept));
  if (is_sse_) {
    std::vector<SseEvent> events;
    parser_.Feed(bytes.substr(0, kept), events);
    TakeSseEvents(std::move(events));
  }
  if (kept < bytes.size()) StopTooLarge();
  return !answered_ && !too_large_;
}

void HttpExchange::StopTooLarge() {
  too_large_ = true;
  // Every observation is kept for the reports, so a capped body kept whole would cost the cap
  // per exchange; its start is what a person needs, and the SSE events keep their data.
  std::string& body = observation_.body;
  body.resize(std::min(body.size(), transport_detail::kExcerptBytes));
  body.shrink_to_fit();
}

void HttpExchange::TakeSseEvents(std::vector<SseEvent> events) {
  for (SseEvent& event : events) {
    if (observation_.sse_events.size() >= max_events_) {
      if (answered_) return;  // reading stops anyway; the reply is whole, not too large
      too_many_events_ = true;
      StopTooLarge();
      return;
    }
    observation_.sse_events.push_back(std::move(event));
    const std::string& data = observation_.sse_events.back().data;
    auto message = ParseJson(data);
    if (!message) {
      // An event without data (SSE priming: just an id or a retry) is not a failed JSON value.
      if (!data.empty()) observation_.non_json.push_back(data);
      continue;
    }
    const std::size_t awaited_before = awaited_ids_.size();
    std::erase_if(awaited_ids_, [&](const json::value& id) { return AnswersId(*message, id); });
    if (awaited_before > 0 && awaited_ids_.empty()) answered_ = true;
    if (!listen_id_.is_null() && AcknowledgesListen(*message, listen_id_)) acknowledged_ = true;
    observation_.messages.push_back(std::move(*message));
  }
}

std::string HttpExchange::DescribeTooLarge() const {
  if (!too_large_) return "";
  const std::string cap = too_many_events_ ? std::to_string(max_events_) + " SSE events"
                                           : std::to_string(max_body_bytes_) + " bytes";
  return "reply exceeded " + cap + " (" + std::to_string(received_bytes_) +
         " bytes received); it began \"" + transport_detail::EscapedExcerpt(observation_.body) +
         "\"";
}

bool HttpExchange::Finish() {
  observation_.content_type =
      std::string(FindHeader(observation_.http_headers, "Content-Type").value_or(""));
  if (is_sse_) {
    std::vector<SseEvent> none;  // the standard dispatches nothing at the end of a stream
    return parser_.Finish(none);
  }
  // An over-cap body is cut short: neither JSON nor a whole piece of anything.
  if (!observation_.body.empty() && !too_large_) {
    if (auto message = ParseJson(observation_.body)) {
      observation_.messages.push_back(std::move(*message));
    } else {
      observation_.non_json.push_back(observation_.body);
    }
  }
  return false;
}

}  // namespace mcpfuzz
