// Methods 2026-07-28 removed (tables §4b V6): each sent as a well-formed 2026-07-28 request
// with the params it took in the handshake era, so the method is the one thing wrong.

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

struct Removed {
  std::string method;
  boost::json::object params;
};

// A dual-era stdio server fixes a connection's era with its first era-distinctive request
// (server/discover does not count), and `initialize` can fix the handshake era. A well-formed
// enveloped request first makes the connection a 2026-07-28 one, so what follows is judged as
// that era's; over HTTP every request names its era itself.
std::optional<std::string> LockingMethod(const RevisionRun& run) {
  for (const char* capability : {"tools", "prompts", "resources"}) {
    if (run.Declares(capability)) return std::string(capability) + "/list";
  }
  return std::nullopt;
}

}  // namespace

void RemovedMethods(RevisionRun& run) {
  const std::string_view id = check::kRemovedMethod;
  if (!run.Pending(id)) return;
  run.set_current_check(id);
  const boost::json::object initialize{
      {"protocolVersion", ToString(run.revision())},
      {"capabilities", boost::json::object{}},
      {"clientInfo", boost::json::object{{"name", "mcpfuzz"}, {"version", "0"}}}};
  // The URI names nothing, so a server that still serves subscriptions subscribes to nothing.
  const boost::json::object uri{{"uri", "mcpfuzz://no-such-resource/4f1c9a"}};
  // initialize last: a server that still treats it as a handshake is judged on it alone.
  const std::vector<Removed> removed = {{"ping", {}},
                                        {"logging/setLevel", {{"level", "info"}}},
                                        {"resources/subscribe", uri},
                                        {"resources/unsubscribe", uri},
                                        {"initialize", initialize}};
  const std::optional<std::string> lock = run.stdio() ? LockingMethod(run) : std::nullopt;
  ResultBuilder result(run, id);
  for (const Removed& call : removed) {
    Connection* main = run.Main();
    if (main == nullptr) {
      if (!result.judged_any()) return run.ReportUnreachable(id);
      result.Note(call.method + " was not sent: " + run.MainFailure());
      continue;
    }
    if (lock) result.Add(main->Send(main->client().Make(*lock)));
    const Verdict& verdict = result.Judge(main->Send(main->client().Make(call.method, call.params)),
                                          run.Context(), call.method);
    // The next method must not inherit what a wrongly served one did to the connection.
    if (verdict.kind == VerdictKind::kFail) run.RetireMain();
  }
  run.Report(std::move(result));
}

}  // namespace mcpfuzz::checks::detail
