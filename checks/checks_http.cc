// Streamable HTTP (tables §9, §10): each check copies a well-formed request and alters exactly
// one header (or the HTTP method); body, session and every other header stay as they were.

#include <boost/json.hpp>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/oracle.h"

namespace mcpfuzz::checks::detail {
namespace {

constexpr std::string_view kForeignOrigin = "http://mcpfuzz-foreign-origin.example";
constexpr std::string_view kUnknownSessionId = "mcpfuzz-unknown-session-4f1c9a";

// A harmless request with `change` applied to it.
template <class Change>
Variant Altered(std::string label, Change change, Owed owed = Owed::kNothing) {
  return {std::move(label),
          [change](Connection& connection) {
            Request request =
                connection.client().Make(HarmlessMethod(connection.client().revision()));
            change(request);
            return request;
          },
          owed};
}

Variant WithHeader(std::string label, std::string_view name, std::string value) {
  return Altered(std::move(label),
                 [name, value](Request& request) { SetHeader(request.headers, name, value); });
}

// A call carrying Mcp-Name for `name`, with `change` applied to it.
template <class Change>
Variant NamedCallVariant(const RevisionRun& run, std::string label, std::string_view name,
                         Change change) {
  NamedCall call = ImpossibleNamedCall(run, name);
  return {std::move(label), [call, change](Connection& connection) {
            Request request = connection.client().Make(call.method, call.params);
            change(request);
            return request;
          }};
}

void NoChange(Request& /*request*/) {}

// What a reproducer sends for a ping in the main session after another session's DELETE:
// a session opened for the ping, then the exchanges before `at` (the other session opened and
// deleted) moved to a second session, then the ping (model/reproducer.h: $sid and $sid2).
std::vector<Request> TwoSessions(const std::vector<Exchange>& exchanges, std::size_t at) {
  const Request& ping = exchanges[at].request;
  std::vector<Request> steps = MakeHttpOpening(ping.revision);
  for (std::size_t index = 0; index < at; ++index) {
    Request step = exchanges[index].request;
    step.session =
        step.RpcMethod() == "initialize" ? SessionBinding::kOmit : SessionBinding::kSecond;
    steps.push_back(std::move(step));
  }
  steps.push_back(ping);
  return steps;
}

}  // namespace

void ProtocolVersionHeaders(RevisionRun& run) {
  if (run.stateless()) {
    // The header names a real revision that disagrees with _meta's.
    ReportVariants(run, check::kProtocolVersionHeaderMismatch,
                   {WithHeader("MCP-Protocol-Version 2025-11-25, _meta 2026-07-28",
                               kHeaderProtocolVersion, "2025-11-25")});
    ReportVariants(
        run, check::kProtocolVersionHeaderInvalid,
        {WithHeader("a malformed value", kHeaderProtocolVersion, "mcpfuzz-not-a-version")});
  } else {
    ReportVariants(
        run, check::kProtocolVersionHeaderInvalid,
        {WithHeader("a malformed value", kHeaderProtocolVersion, "mcpfuzz-not-a-version"),
         WithHeader("an unsupported version", kHeaderProtocolVersion, "1900-01-01")});
  }
  ReportVariants(run, check::kProtocolVersionHeaderMissing,
                 {Altered("no MCP-Protocol-Version", [](Request& request) {
                   RemoveHeader(request.headers, kHeaderProtocolVersion);
                 })});
}

void MethodHeaders(RevisionRun& run) {
  // The harmless request is server/discover in 2026-07-28, the only era with these headers.
  ReportVariants(run, check::kMethodHeaderMissing, {Altered("no Mcp-Method", [](Request& request) {
                   RemoveHeader(request.headers, kHeaderMethod);
                 })});
  ReportVariants(
      run, check::kMethodHeaderMismatch,
      {WithHeader("Mcp-Method tools/list for server/discover", kHeaderMethod, "tools/list")});
  ReportVariants(run, check::kMethodHeaderCase,
                 {WithHeader("Mcp-Method SERVER/DISCOVER", kHeaderMethod, "SERVER/DISCOVER")});
}

void NameHeaders(RevisionRun& run) {
  ReportVariants(run, check::kNameHeaderMissing,
                 {NamedCallVariant(run, "no Mcp-Name", kImpossibleTool, [](Request& request) {
                   RemoveHeader(request.headers, kHeaderName);
                 })});
  ReportVariants(
      run, check::kNameHeaderMismatch,
      {NamedCallVariant(run, "Mcp-Name naming another tool", kImpossibleTool, [](Request& request) {
        SetHeader(request.headers, kHeaderName, kSecondImpossibleTool);
      })});
  // MakeRequest writes a name with a non-ASCII letter in the =?base64?…?= form.
  ReportVariants(
      run, check::kNameHeaderBase64,
      {NamedCallVariant(run, "a name that needs Base64", kImpossibleToolNeedingBase64, NoChange)});
  ReportVariants(
      run, check::kNameHeaderWhitespace,
      {NamedCallVariant(
          run, "Mcp-Name with surrounding spaces", kImpossibleTool, [](Request& request) {
            const std::string value(FindHeader(request.headers, kHeaderName).value_or(""));
            SetHeader(request.headers, kHeaderName, "  " + value + "  ");
          })});
}

void Sessions(RevisionRun& run) {
  if (run.stateless()) {
    // 2026-07-28 has no sessions; a DELETE from an older client gets 405.
    ReportVariants(run, check::kSessionDelete, {{"DELETE", [](Connection& connection) {
                                                   return MakeBodyless(
                                                       connection.client().revision(), "DELETE");
                                                 }}});
    return;
  }
  if (!run.capabilities_known()) return run.ReportPendingUnreachable();
  if (!run.session_assigned()) {
    const std::set<std::string_view> pending = {check::kSessionMissing, check::kSessionUnknown,
                                                check::kSessionDelete};
    for (std::string_view id : pending) {
      if (run.Pending(id)) {
        run.ReportNotApplicable(id, "the server assigned no Mcp-Session-Id at initialize");
      }
    }
    return;
  }
  ReportVariants(run, check::kSessionMissing, {Altered("no Mcp-Session-Id", [](Request& request) {
                   request.session = SessionBinding::kOmit;
                 })});
  ReportVariants(
      run, check::kSessionUnknown,
      {WithHeader("an unknown Mcp-Session-Id", kHeaderSessionId, std::string(kUnknownSessionId))});
  if (!run.Pending(check::kSessionDelete)) return;

  // A throwaway session, so the main one lives on.
  run.set_current_check(check::kSessionDelete);
  std::vector<Exchange> opened;
  bool open = false;
  std::unique_ptr<Connection> throwaway = run.FreshOpened(opened, open);
  if (!throwaway) return run.ReportUnreachable(check::kSessionDelete);
  ResultBuilder result(run, check::kSessionDelete);
  for (Exchange& exchange : opened) result.Add(std::move(exchange));
  if (!open || throwaway->session().session_id().empty()) {
    return run.ReportNotApplicable(
        check::kSessionDelete, "a second session could not be opened: " + throwaway->OpenFailure());
  }
  const Verdict& deleted = result.Judge(
      throwaway->Send(MakeBodyless(run.revision(), "DELETE"), Owed::kNothing), run.Context());
  // H14: once DELETE ended it (2xx), a request naming the session gets 404 (H13), judged by
  // sessions.unknown's row and reported here, where the DELETE is.
  const bool ended = result.exchanges().back().observation.http_status / 100 == 2 &&
                     deleted.kind != VerdictKind::kUnverified;
  if (ended) {
    Exchange after = throwaway->Send(throwaway->client().Make("ping"), Owed::kReply);
    Verdict verdict =
        Judge(check::kSessionUnknown, after.request, after.observation, run.Context());
    verdict.check_id = std::string(check::kSessionDelete);
    const std::size_t index = result.Add(std::move(after));
    result.Merge(std::move(verdict), index, "a request in the session after its DELETE");
    // Its answer needs the session opened and deleted before it.
    result.ReplaysFrom(index, 0);
    // Sessions are isolated: the main session lives on and still answers a ping (tables §4a
    // L6, L6a), judged by lifecycle.ping's row and reported here too.
    if (Connection* main = run.Main()) {
      Exchange other = main->SendUnrecovered(main->client().Make("ping"), Owed::kReply);
      Verdict alive = Judge(check::kPing, other.request, other.observation, run.Context());
      alive.check_id = std::string(check::kSessionDelete);
      const std::size_t at = result.Add(std::move(other));
      result.Merge(std::move(alive), at, "a ping in another session after this one's DELETE");
      result.ReplaysAs(at, TwoSessions(result.exchanges(), at));
    }
  }
  throwaway->session().set_session_id("");
  run.Report(std::move(result));
}

void SessionsAhead(const AheadView& run, FreshSteps& steps) {
  if (!run.stateless() && run.capabilities_known() && run.session_assigned() &&
      run.Pending(check::kSessionDelete)) {
    ++steps.opened;
  }
}

void HttpEndpoint(RevisionRun& run) {
  ReportVariants(
      run, check::kAcceptMissing,
      {Altered("no Accept", [](Request& request) { RemoveHeader(request.headers, "Accept"); })});
  ReportVariants(run, check::kContentTypeWrong,
                 {WithHeader("Content-Type text/plain", "Content-Type", "text/plain")});
  ReportVariants(run, check::kHttpGet, {{"GET", [](Connection& connection) {
                                           return MakeBodyless(connection.client().revision(),
                                                               "GET");
                                         }}});
  ReportVariants(run, check::kOriginInvalid,
                 {WithHeader("a foreign Origin", "Origin", std::string(kForeignOrigin))});
}

}  // namespace mcpfuzz::checks::detail
