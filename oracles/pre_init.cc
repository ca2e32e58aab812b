#include "oracles/pre_init.h"

#include <algorithm>
#include <boost/json.hpp>

#include "model/channel.h"
#include "oracles/error_codes.h"
#include "oracles/verdict.h"

namespace mcpfuzz {
namespace {

std::string Lowered(std::string_view text) {
  std::string lowered(text);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; });
  return lowered;
}

std::string ErrorMessage(const Reply& reply) {
  if (!reply.message || !reply.message->is_object()) return {};
  const auto* error = reply.message->as_object().if_contains("error");
  if (error == nullptr || !error->is_object()) return {};
  const auto* message = error->as_object().if_contains("message");
  return message != nullptr && message->is_string() ? std::string(message->as_string()) : "";
}

// "Server not initialized", "Received request before initialization was complete", "Bad
// Request: No valid session ID provided".
bool MentionsOrdering(std::string_view message) {
  const std::string lowered = Lowered(message);
  return lowered.find("initiali") != std::string::npos ||
         lowered.find("session") != std::string::npos;
}

bool Served(Channel channel) {
  return channel == Channel::kSuccess || channel == Channel::kExecutionError;
}

PreInitClassification Make(RejectsPreInit rejects, RefusalGrounds grounds, std::string reason) {
  return PreInitClassification{rejects, grounds, std::move(reason)};
}

}  // namespace

std::string_view ToString(RejectsPreInit rejects) {
  switch (rejects) {
    case RejectsPreInit::kYes:
      return "yes";
    case RejectsPreInit::kNo:
      return "no";
    case RejectsPreInit::kIndeterminate:
      return "indeterminate";
  }
  return "unknown";
}

std::string_view ToString(RefusalGrounds grounds) {
  switch (grounds) {
    case RefusalGrounds::kNotRefused:
      return "not_refused";
    case RefusalGrounds::kOrdering:
      return "ordering";
    case RefusalGrounds::kName:
      return "name";
    case RefusalGrounds::kUnclear:
      return "unclear";
  }
  return "unknown";
}

PreInitClassification ClassifyPreInit(const Request& request, const Observation& before_init,
                                      const Observation* after_init) {
  const Reply before = ClassifyReply(request, before_init);
  const std::string before_text =
      DescribeObserved(before.channel, before.error_code, before_init.http_status);
  if (Served(before.channel)) {
    return Make(RejectsPreInit::kNo, RefusalGrounds::kNotRefused,
                "served before the handshake: " + before_text);
  }

  std::optional<Reply> control;
  std::string control_text;
  if (after_init != nullptr) {
    control = ClassifyReply(request, *after_init);
    control_text = DescribeObserved(control->channel, control->error_code, after_init->http_status);
  }
  const bool control_served = control && Served(control->channel);
  const bool control_refused_alike =
      control && control->channel == before.channel && control->error_code == before.error_code;
  const std::string versus = control ? "; after it: " + control_text : "";

  const bool http_refusal = request.transport == TransportKind::kHttp &&
                            before_init.http_status >= 400 && before_init.http_status <= 499;
  const bool refused = before.channel == Channel::kProtocolError ||
                       (http_refusal && (before.channel == Channel::kNotJsonRpc ||
                                         before.channel == Channel::kNoReply));
  if (!refused) {
    return Make(RejectsPreInit::kIndeterminate, RefusalGrounds::kUnclear,
                "no answer before the handshake: " + before_text + versus);
  }
  if (control_served) {
    return Make(RejectsPreInit::kYes, RefusalGrounds::kOrdering,
                "refused before the handshake (" + before_text + ") but served after it (" +
                    control_text + ")");
  }
  if (MentionsOrdering(ErrorMessage(before))) {
    return Make(RejectsPreInit::kYes, RefusalGrounds::kOrdering,
                "the refusal names the missing handshake: " + before_text + versus);
  }
  const bool names_request =
      before.error_code == kMethodNotFoundCode || before.error_code == kInvalidParamsCode;
  if (names_request) {
    return Make(
        RejectsPreInit::kIndeterminate, RefusalGrounds::kName,
        "refused for the method or its params, not visibly for ordering: " + before_text + versus);
  }
  if (control_refused_alike) {
    return Make(RejectsPreInit::kIndeterminate, RefusalGrounds::kUnclear,
                "refused the same way before and after the handshake: " + before_text);
  }
  return Make(RejectsPreInit::kYes, RefusalGrounds::kOrdering,
              "refused before the handshake: " + before_text + versus);
}

}  // namespace mcpfuzz
