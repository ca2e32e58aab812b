#include "oracles/detail/batch.h"

#include <algorithm>

#include "model/channel.h"

namespace mcpfuzz::oracles_detail {
namespace {

bool Contains(const std::vector<boost::json::value>& values, const boost::json::value& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

void MatchResponse(const boost::json::value& message, BatchAnswer& answer) {
  if (!message.is_object()) return;
  const auto* id = message.as_object().if_contains("id");
  if (id == nullptr || !Contains(answer.request_ids, *id) || Contains(answer.answered_ids, *id)) {
    return;
  }
  if (IsResponse(ClassifyMessage(message).channel)) answer.answered_ids.push_back(*id);
}

}  // namespace

BatchAnswer AnalyzeBatch(const Request& request, const Observation& observation) {
  BatchAnswer answer;
  const std::optional<boost::json::value> body = request.BodyJson();
  if (!body || !body->is_array()) return answer;
  answer.is_batch = true;
  for (const auto& element : body->as_array()) {
    if (!element.is_object()) continue;
    const auto& object = element.as_object();
    const auto* id = object.if_contains("id");
    if (object.contains("method") && id != nullptr) answer.request_ids.push_back(*id);
  }
  for (const auto& message : observation.messages) {
    if (!message.is_array()) {
      MatchResponse(message, answer);
      continue;
    }
    answer.array_reply = true;
    for (const auto& element : message.as_array()) {
      const Channel channel = ClassifyMessage(element).channel;
      if (channel == Channel::kNotJsonRpc) ++answer.malformed_elements;
      MatchResponse(element, answer);
    }
  }
  return answer;
}

}  // namespace mcpfuzz::oracles_detail
