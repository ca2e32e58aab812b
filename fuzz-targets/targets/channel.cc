// The reply classifier: any JSON a server could send, alone or as the body of an HTTP reply,
// lands on exactly one channel, and the channel agrees with what the message holds.

#include "model/channel.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/request_builder.h"

namespace {

void Require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcpfuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto message = ParseJson(text);
  if (message) {
    const Reply reply = ClassifyMessage(*message);
    Require(reply.error_code.has_value() == (reply.channel == Channel::kProtocolError));
    if (reply.channel == Channel::kSuccess || reply.channel == Channel::kExecutionError) {
      Require(reply.message.has_value() && reply.message->is_object() &&
              reply.message->as_object().contains("result"));
    }
  }

  // The same bytes as a reply to a request, as the transport would record it.
  const Request request = MakeRequest(kLatestRevision, TransportKind::kHttp, "tools/list", {}, 7);
  Observation observation;
  observation.http_status = 200;
  observation.body = std::string(text);
  if (message) {
    observation.messages.push_back(*message);
  } else {
    observation.non_json.emplace_back(text);
  }
  const Reply reply = ClassifyReply(request, observation);
  Require(reply.error_code.has_value() == (reply.channel == Channel::kProtocolError));
  if (!message)
    Require(reply.channel == Channel::kNotJsonRpc || reply.channel == Channel::kNoReply);
  return 0;
}
