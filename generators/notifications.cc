// Notifications, known and unknown: none may get a response.

#include <rapidcheck.h>

#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "notifications";

rc::Gen<std::pair<std::string, boost::json::object>> KnownNotification() {
  return rc::gen::mapcat(
      rc::gen::inRange(0, 5), [](int kind) -> rc::Gen<std::pair<std::string, boost::json::object>> {
        switch (kind) {
          case 0:
            return rc::gen::just(std::pair<std::string, boost::json::object>{
                "notifications/roots/list_changed", {}});
          case 1:
            // Cancelling a request that is not in flight: the receiver MAY ignore it.
            return rc::gen::map(detail::RequestIdValue(), [](const boost::json::value& id) {
              return std::pair<std::string, boost::json::object>{
                  "notifications/cancelled", {{"requestId", id}, {"reason", "mcpfuzz"}}};
            });
          case 2:
            return rc::gen::map(
                rc::gen::pair(detail::Token(1, 20), rc::gen::inRange<std::int64_t>(0, 100)),
                [](const std::pair<std::string, std::int64_t>& drawn) {
                  return std::pair<std::string, boost::json::object>{
                      "notifications/progress",
                      {{"progressToken", "mcpfuzz-" + drawn.first}, {"progress", drawn.second}}};
                });
          case 3:
            return rc::gen::just(
                std::pair<std::string, boost::json::object>{"notifications/initialized", {}});
          default:
            // A request method sent without an id: still a notification. Only methods that
            // read nothing, in case a server runs it anyway.
            return rc::gen::map(rc::gen::inRange(0, 2), [](int index) {
              return std::pair<std::string, boost::json::object>{index == 0 ? "ping" : "tools/list",
                                                                 {}};
            });
        }
      });
}

rc::Gen<std::pair<std::string, boost::json::object>> UnknownNotification() {
  return rc::gen::apply(
      [](int kind, const std::string& token, const boost::json::object& params) {
        std::string method = kind == 0 ? "notifications/mcpfuzz/" + token : "mcpfuzz/" + token;
        return std::pair{method, params};
      },
      rc::gen::inRange(0, 2), detail::Token(1, 30), detail::SmallObject());
}

}  // namespace

rc::Gen<GeneratedCase> Notifications(const GenContext& context) {
  auto drawn = rc::gen::mapcat(rc::gen::inRange(0, 2), [](int kind) {
    return kind == 0 ? KnownNotification() : UnknownNotification();
  });
  return rc::gen::map(drawn, [context](const std::pair<std::string, boost::json::object>& chosen) {
    Request request = context.MakeNotification(chosen.first, chosen.second);
    return MakeCase(kFamily, check::kNotificationNoReply, request,
                    "the notification " + chosen.first, request);
  });
}

}  // namespace mcpfuzz::gen
