// Methods 2026-07-28 removed (tables §4b V6): each sent as a well-formed 2026-07-28 request
// with the params it took in the handshake era, so the method is the one thing wrong.

#include <boost/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

Variant Removed(std::string method, boost::json::object params) {
  std::string label = method;
  return {
      std::move(label),
      [method, params](Connection& connection) { return connection.client().Make(method, params); },
      Owed::kReply};
}

}  // namespace

void RemovedMethods(RevisionRun& run) {
  const boost::json::object initialize{
      {"protocolVersion", ToString(run.revision())},
      {"capabilities", boost::json::object{}},
      {"clientInfo", boost::json::object{{"name", "mcpfuzz"}, {"version", "0"}}}};
  // The URI names nothing, so a server that still serves subscriptions subscribes to nothing.
  const boost::json::object uri{{"uri", "mcpfuzz://no-such-resource/4f1c9a"}};
  ReportVariants(run, check::kRemovedMethod,
                 {Removed("initialize", initialize), Removed("ping", {}),
                  Removed("logging/setLevel", {{"level", "info"}}),
                  Removed("resources/subscribe", uri), Removed("resources/unsubscribe", uri)});
}

}  // namespace mcpfuzz::checks::detail
