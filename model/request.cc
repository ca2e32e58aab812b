#include "model/request.h"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "model/json_depth.h"

namespace mcpfuzz {
namespace {

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) {
             return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
           };
           return lower(x) == lower(y);
         });
}

}  // namespace

std::string_view ToString(TransportKind kind) {
  return kind == TransportKind::kHttp ? "http" : "stdio";
}

std::optional<std::string_view> FindHeader(const Headers& headers, std::string_view name) {
  for (const Header& header : headers) {
    if (EqualsIgnoringCase(header.name, name)) return header.value;
  }
  return std::nullopt;
}

std::size_t RemoveHeader(Headers& headers, std::string_view name) {
  return std::erase_if(headers, [&](const Header& h) { return EqualsIgnoringCase(h.name, name); });
}

void SetHeader(Headers& headers, std::string_view name, std::string_view value) {
  auto first = std::find_if(headers.begin(), headers.end(),
                            [&](const Header& h) { return EqualsIgnoringCase(h.name, name); });
  if (first == headers.end()) {
    headers.push_back({std::string(name), std::string(value)});
    return;
  }
  first->name = std::string(name);
  first->value = std::string(value);
  auto position = first - headers.begin();
  headers.erase(std::remove_if(headers.begin() + position + 1, headers.end(),
                               [&](const Header& h) { return EqualsIgnoringCase(h.name, name); }),
                headers.end());
}

std::string Request::WireBody() const {
  if (const auto* json = std::get_if<boost::json::value>(&body))
    return boost::json::serialize(*json);
  if (const auto* raw = std::get_if<RawBody>(&body)) return raw->bytes;
  return {};
}

std::string_view Request::WireView(std::string& scratch) const {
  if (const auto* raw = std::get_if<RawBody>(&body)) return raw->bytes;
  scratch = WireBody();
  return scratch;
}

std::size_t Request::WireSize() const {
  std::string scratch;
  return WireView(scratch).size();
}

std::optional<boost::json::value> Request::BodyJson() const {
  if (const auto* json = std::get_if<boost::json::value>(&body)) return *json;
  if (const auto* raw = std::get_if<RawBody>(&body)) return ParseJson(raw->bytes);
  return std::nullopt;
}

std::optional<boost::json::value> ParseRawEnvelope(std::string_view bytes) {
  return bytes.size() > kWholeParseBytes ? ParseRpcEnvelope(bytes) : ParseJsonEnvelope(bytes);
}

namespace {

// The body's JSON object without copying a JSON body (the oracles ask for the id and method of
// every request they judge); raw bytes are parsed into `parsed`.
const boost::json::object* BodyObject(const Request& request,
                                      std::optional<boost::json::value>& parsed) {
  if (const auto* json = std::get_if<boost::json::value>(&request.body)) return json->if_object();
  if (const auto* raw = std::get_if<RawBody>(&request.body)) {
    // Its id and method, also for a valid body nested deeper than the parser goes; of a large
    // one without the copy a whole parse makes (a sent megabyte body is read for its id again
    // and again).
    parsed = ParseRawEnvelope(raw->bytes);
    return parsed ? parsed->if_object() : nullptr;
  }
  return nullptr;
}

}  // namespace

std::optional<boost::json::value> Request::RpcId() const {
  std::optional<boost::json::value> parsed;
  const boost::json::object* object = BodyObject(*this, parsed);
  if (object == nullptr) return std::nullopt;
  if (const auto* id = object->if_contains("id")) return *id;
  return std::nullopt;
}

std::optional<std::string> Request::RpcMethod() const {
  std::optional<boost::json::value> parsed;
  const boost::json::object* object = BodyObject(*this, parsed);
  const auto* method = object != nullptr ? object->if_contains("method") : nullptr;
  if (method == nullptr || !method->is_string()) return std::nullopt;
  return std::string(method->as_string());
}

bool Request::IsNotification() const {
  std::optional<boost::json::value> parsed;
  const boost::json::object* object = BodyObject(*this, parsed);
  return object != nullptr && object->contains("method") && !object->contains("id");
}

std::optional<boost::json::value> ParseJson(std::string_view text) {
  boost::system::error_code error;
  boost::json::value value = boost::json::parse(text, error);
  if (error) return std::nullopt;
  return value;
}

}  // namespace mcpfuzz
