#include "model/methods.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "model/text.h"

namespace mcpfuzz {
namespace {

constexpr std::string_view kKnownMethods[] = {
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "logging/setLevel",
    "completion/complete",
    "roots/list",
    "sampling/createMessage",
    "elicitation/create",
    "tasks/get",
    "tasks/result",
    "tasks/cancel",
    "tasks/list",
    "server/discover",
    "subscriptions/listen",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/message",
    "notifications/roots/list_changed",
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/elicitation/complete",
    "notifications/tasks/status",
    "notifications/subscriptions/acknowledged",
    "input/request",
    "input/response",
};

}  // namespace

std::span<const std::string_view> KnownMethods() { return kKnownMethods; }

bool IsKnownMethod(std::string_view method) {
  return std::find(std::begin(kKnownMethods), std::end(kKnownMethods), method) !=
         std::end(kKnownMethods);
}

bool ResemblesKnownMethod(std::string_view method) {
  const std::string lower = AsciiLowercase(method);
  return lower.starts_with("notifications/") ||
         std::any_of(std::begin(kKnownMethods), std::end(kKnownMethods),
                     [&](std::string_view known) { return AsciiLowercase(known) == lower; });
}

}  // namespace mcpfuzz
