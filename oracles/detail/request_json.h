#pragma once
// The JSON of a request's envelope, read once per judgement: a JSON body is read in place and
// raw bytes are parsed once (ParseRawEnvelope), where asking the Request for its id, method and
// body again and again copied or parsed the body each time (most of what a verdict cost).

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/channel.h"
#include "model/json_depth.h"
#include "model/observation.h"
#include "model/request.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

class RequestJson {
 public:
  explicit RequestJson(const Request& request) {
    if (const auto* json = std::get_if<boost::json::value>(&request.body)) {
      json_ = json;
    } else if (const auto* raw = std::get_if<RawBody>(&request.body)) {
      parsed_ = ParseRawEnvelope(raw->bytes);
      if (parsed_) json_ = &*parsed_;
    }
  }
  RequestJson(const RequestJson&) = delete;
  RequestJson& operator=(const RequestJson&) = delete;

  /// The body as JSON, or nullptr (no body, or bytes that are not JSON). Of raw bytes above
  /// 64 KiB, the id, method and jsonrpc members alone (the other members' values are null).
  const boost::json::value* json() const { return json_; }
  /// As Request::RpcId.
  std::optional<boost::json::value> id() const {
    const auto* member = Member("id");
    return member != nullptr ? std::optional<boost::json::value>(*member) : std::nullopt;
  }
  /// As Request::RpcMethod, "" for none.
  std::string method() const {
    const auto* member = Member("method");
    return member != nullptr && member->is_string() ? std::string(member->get_string())
                                                    : std::string();
  }

 private:
  const boost::json::value* Member(std::string_view key) const {
    const auto* object = json_ != nullptr ? json_->if_object() : nullptr;
    return object != nullptr ? object->if_contains(key) : nullptr;
  }

  std::optional<boost::json::value> parsed_;
  const boost::json::value* json_ = nullptr;
};

/// envelope.h's checks, for a judgement that has read the body already.
std::vector<Finding> CheckEnvelope(const Request& request, const RequestJson& body,
                                   const boost::json::value& message);
std::vector<Finding> CheckReplyEnvelope(const Request& request, const RequestJson& body,
                                        const Observation& observation, const Reply& reply);

}  // namespace mcpfuzz::oracles_detail
