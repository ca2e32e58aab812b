// The handshake era's lifecycle (tables §4a): initialize, version fallback, requests before
// initialization and the handshake control; and capabilities (tables §5 M2, §4b V4).

#include <boost/json.hpp>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "model/channel.h"
#include "model/logging.h"
#include "model/request_builder.h"
#include "model/request_edit.h"
#include "model/sequence.h"
#include "oracles/check_ids.h"
#include "oracles/pre_init.h"
#include "oracles/sequence.h"

namespace mcpfuzz::checks::detail {
namespace {

constexpr std::string_view kUnsupportedVersion = "1900-01-01";

// A method of each capability mcpfuzz can ask about without side effects, most common first.
struct CapabilityProbe {
  std::string_view capability;
  std::string_view method;
  bool handshake_only = false;
};
constexpr CapabilityProbe kCapabilityProbes[] = {
    {"prompts", "prompts/list"},
    {"resources", "resources/list"},
    {"tools", "tools/list"},
    {"completions", "completion/complete"},
    // 2026-07-28 removed logging/setLevel altogether, which methods.unknown covers.
    {"logging", "logging/setLevel", true},
};

boost::json::object ProbeParams(std::string_view method) {
  if (method == "completion/complete") {
    return {{"ref", {{"type", "ref/prompt"}, {"name", "mcpfuzz_no_such_prompt_4f1c9a"}}},
            {"argument", {{"name", "mcpfuzz"}, {"value", ""}}}};
  }
  if (method == "logging/setLevel") return {{"level", "info"}};
  return {};
}

// initialize asking for a version no server speaks, on a connection of its own.
Request UnsupportedInitialize(Revision revision, TransportKind kind) {
  Request request = MakeInitialize(revision, kind, 1);
  Params(request)["protocolVersion"] = kUnsupportedVersion;
  // It opens the connection: a reproducer sends it alone, not inside a session of its own.
  request.session = SessionBinding::kOmit;
  return request;
}

// The handshake control's initialize over HTTP, which opens the session its requests before
// notifications/initialized go in.
Request ControlInitialize(Revision revision, TransportKind kind) {
  return MakeInitialize(revision, kind, 0);
}

// Several checks judged on one connection's exchanges: each by the exchange at its index (all
// of them shown), or unreachable where the connection ended before that request was sent.
void ReportEachAt(RevisionRun& run, const std::vector<Exchange>& exchanges,
                  std::initializer_list<std::pair<std::string_view, std::optional<std::size_t>>> at,
                  const std::string& note = {}, bool one_connection = false) {
  for (const auto& [id, index] : at) {
    if (!run.Pending(id)) continue;
    if (!index) {
      run.ReportUnreachable(id);
      continue;
    }
    ResultBuilder result(run, id);
    for (const Exchange& exchange : exchanges) result.Add(exchange);
    result.JudgeAt(*index, run.Context());
    if (!note.empty()) result.Note(note);
    if (one_connection) result.OnOneConnection();
    run.Report(std::move(result));
  }
}

}  // namespace

void Initialize(RevisionRun& run) { ReportFirstOpen(run, check::kInitialize); }

void InitializeUnsupportedVersion(RevisionRun& run) {
  const std::string_view id = check::kInitializeUnsupportedVersion;
  // A fresh connection: the main one is initialized already.
  Exchange exchange;
  std::unique_ptr<Connection> fresh =
      run.FreshSending(UnsupportedInitialize(run.revision(), run.kind()), exchange);
  if (!fresh) return run.ReportUnreachable(id);
  ResultBuilder result(run, id);
  // A session it opened anyway is ended, so the check leaves nothing behind.
  std::optional<std::string> session;
  if (auto header = FindHeader(exchange.observation.http_headers, kHeaderSessionId)) {
    session = std::string(*header);
  }
  result.Judge(std::move(exchange), run.Context());
  if (session) {
    fresh->session().set_session_id(*session);
    run.CloseLater(std::move(fresh));
  }
  run.Report(std::move(result));
}

void InitializeUnsupportedVersionAhead(const AheadView& run, FreshSteps& steps) {
  steps.sent.push_back(UnsupportedInitialize(run.revision(), run.kind()));
}

void HandshakeControl(RevisionRun& run) {
  // Over Streamable HTTP the lifecycle lives in the session initialize creates: a session-less
  // request only asks sessions.missing's question. So over HTTP "before initialization" is the
  // window between the initialize response and notifications/initialized, which L4 names too;
  // over stdio it is a fresh process that has seen nothing.
  run.set_current_check(check::kPingBeforeInit);
  std::vector<Exchange> exchanges;
  std::unique_ptr<Connection> fresh;
  if (run.http()) {
    Exchange initialize;
    fresh = run.FreshSending(ControlInitialize(run.revision(), run.kind()), initialize);
    if (fresh) exchanges.push_back(std::move(initialize));
  } else {
    fresh = run.Fresh();
  }
  if (!fresh) return run.ReportPendingUnreachable();
  Connection& connection = *fresh;
  McpClient& client = connection.client();

  auto send = [&](const Request& request, Owed owed) -> std::optional<std::size_t> {
    // A server that died or went deaf gets no further requests on this connection.
    if (connection.Dead()) return std::nullopt;
    exchanges.push_back(connection.Send(request, owed));
    return exchanges.size() - 1;
  };

  if (run.http()) {
    const auto session = FindHeader(exchanges.back().observation.http_headers, kHeaderSessionId);
    if (session) connection.session().set_session_id(std::string(*session));
  }
  const Request ping = client.Make("ping");
  const std::optional<std::size_t> ping_index = send(ping, Owed::kReply);
  run.set_current_check(check::kRequestBeforeInit);
  const Request list = client.Make("tools/list");
  const std::optional<std::size_t> list_index = send(list, Owed::kNothing);
  if (run.http()) {
    send(client.MakeNotification("notifications/initialized"), Owed::kNothing);
  } else if (!connection.Dead()) {
    connection.Open(&exchanges);
  }
  // The control: the very same request after the handshake.
  const std::optional<std::size_t> control_index = send(list, Owed::kNothing);
  run.CloseLater(std::move(fresh));

  std::string control_note =
      run.http() ? "sent after initialize, before notifications/initialized, in the session it "
                   "opened"
                 : "sent to a fresh server process before initialize";
  if (list_index) {
    const Observation* after = control_index ? &exchanges[*control_index].observation : nullptr;
    const PreInitClassification pre_init =
        ClassifyPreInit(list, exchanges[*list_index].observation, after);
    control_note += "; handshake control: rejects_pre_init " +
                    std::string(ToString(pre_init.rejects)) + " (" +
                    std::string(ToString(pre_init.grounds)) + "): " + pre_init.reason;
    run.AddHandshakeControl({run.revision(), pre_init});
  }
  ReportEachAt(run, exchanges,
               {{check::kPingBeforeInit, ping_index}, {check::kRequestBeforeInit, list_index}},
               control_note, /*one_connection=*/true);
}

void HandshakeControlAhead(const AheadView& run, FreshSteps& steps) {
  if (run.http()) steps.sent.push_back(ControlInitialize(run.revision(), run.kind()));
}

void InitializedSession(RevisionRun& run) {
  // A session of its own: a second initialize may change the session it is sent in.
  run.set_current_check(check::kPing);
  std::vector<Exchange> exchanges;
  bool opened = false;
  std::unique_ptr<Connection> fresh = run.FreshOpened(exchanges, opened);
  if (!fresh) {
    for (std::string_view id : {check::kPing, check::kReinitialize}) {
      if (run.Pending(id)) run.ReportUnreachable(id);
    }
    return;
  }
  Connection& connection = *fresh;
  std::optional<std::size_t> ping_index;
  std::optional<std::size_t> again_index;
  if (opened && !connection.Dead()) {
    exchanges.push_back(connection.Send(connection.client().Make("ping"), Owed::kReply));
    ping_index = exchanges.size() - 1;
  }
  run.set_current_check(check::kReinitialize);
  if (opened && !connection.Dead()) {
    // Judged as a request of the session's revision, asking for another one (tables §4a L8a).
    Request again = MakeInitialize(run.revision(), run.kind(), "mcpfuzz-reinitialize");
    Params(again)["protocolVersion"] = ToString(AnotherHandshakeRevision(run.revision()));
    exchanges.push_back(connection.Send(again, Owed::kReply));
    again_index = exchanges.size() - 1;
  }
  run.CloseLater(std::move(fresh));
  ReportEachAt(run, exchanges, {{check::kPing, ping_index}, {check::kReinitialize, again_index}});
}

void OneOpened(const AheadView& /*run*/, FreshSteps& steps) { ++steps.opened; }

void CancelledInFlight(RevisionRun& run) {
  const std::string_view id = check::kCancelledNoReply;
  if (!run.stdio()) {
    return run.ReportNotApplicable(
        id,
        "over HTTP a request's POST holds its connection until it is answered: cancelling it "
        "in flight would need a second connection at the same time (tables §4a L9)");
  }
  // A process of its own: the request is cancelled before anything else can be in flight.
  std::unique_ptr<Connection> fresh = run.Fresh();
  if (!fresh) return run.ReportUnreachable(id);
  std::vector<Exchange> exchanges;
  if (!fresh->Open(&exchanges) || fresh->Dead()) return run.ReportUnreachable(id);
  // ping is gone in 2026-07-28 (tables §4b V6); tools/list is answered there by any server.
  const std::string_view method = run.stateless() ? "tools/list" : "ping";
  const Request cancelled = fresh->client().Make(method);
  Pipeline pipeline{{cancelled, CancellationOf(cancelled)}, fresh->client().Make(method)};
  // A cancelled request is owed nothing: its silence is no incident of the process.
  std::vector<Exchange> made;
  const PipelineResult sent = fresh->SendPipelined(pipeline, made);
  ResultBuilder result(run, id);
  for (Exchange& exchange : exchanges) result.Add(std::move(exchange));
  const std::size_t at = result.size();
  for (Exchange& exchange : made) result.Add(std::move(exchange));
  if (sent.ambiguous || made.empty() || sent.answered_after_sentinel.empty()) {
    result.Merge(NotApplicableVerdict(id, run.revision(), run.kind(),
                                      "what came back could not be told apart per message"),
                 at);
  } else {
    result.Merge(JudgeCancelled(cancelled, result.exchanges()[at].observation,
                                sent.answered_after_sentinel[0])
                     .verdict,
                 at);
  }
  run.Report(std::move(result));
}

// Over stdio, on a process of its own: a ping with a progressToken, then a ping after its answer,
// whose output may carry no progress for that token any more (tables §4a L10a). Over HTTP each
// later reply stream is judged by L10 already (no row here).
void ProgressAfterResponse(RevisionRun& run) {
  ReportOnOwnConnection(
      run, check::kProgressAfterResponse, [&run](Connection& connection, ResultBuilder& result) {
        const boost::json::value token("mcpfuzz-progress-4f1c9a");
        Request tokened = connection.client().Make("ping");
        Meta(tokened)[kMetaProgressToken] = token;
        const Exchange& first = result.exchanges()[result.Add(connection.Send(tokened))];
        if (!IsResponse(ClassifyReply(first.request, first.observation).channel)) {
          return result.Note(
              "the ping with a progressToken got no answer, so its request may still be active");
        }
        if (connection.Dead()) return;
        JudgeContext context = run.Context();
        context.finished_progress_tokens = {token};
        result.Judge(connection.Send(connection.client().Make("ping")), context,
                     "a ping after the one with a progressToken was answered");
      });
}

void EraLockedConnection(RevisionRun& run) {
  const std::string_view locked = check::kInitializeAfterEraLock;
  const std::string_view reverse = check::kEnvelopeAfterInitialize;
  if (!run.stdio()) {
    for (std::string_view id : {locked, reverse}) {
      if (run.Pending(id)) {
        run.ReportNotApplicable(id,
                                "over HTTP each request claims its own era (tables §10 X6): a "
                                "connection has none to lock");
      }
    }
    return;
  }
  if (run.Pending(locked)) {
    // Open() sends server/discover, then a declared list request that locks the connection to
    // 2026-07-28 at a server speaking both eras (tables §4b V16).
    std::unique_ptr<Connection> fresh = run.Fresh();
    std::vector<Exchange> exchanges;
    std::optional<std::size_t> at;
    run.set_current_check(locked);
    const bool opened = fresh && fresh->Open(&exchanges) && !fresh->Dead();
    if (opened && !fresh->client().era_locked()) {
      run.ReportNotApplicable(locked,
                              "no declared list request was served after server/discover, so "
                              "the connection's era was never locked (tables §4b V16)");
    } else {
      if (opened) {
        // What a handshake-era client sends; on this connection a 2026-07-28 request (V16a).
        Request initialize =
            MakeInitialize(Revision::k2025_11_25, run.kind(), "mcpfuzz-initialize-after-lock");
        initialize.revision = run.revision();
        exchanges.push_back(fresh->Send(initialize, Owed::kReply));
        at = exchanges.size() - 1;
      }
      ReportEachAt(run, exchanges, {{locked, at}}, {}, /*one_connection=*/true);
    }
  }
  if (run.Pending(reverse)) {
    // Only at a target seen answering initialize as well (tables §4b V16b).
    const std::optional<Revision> handshake = run.NewestSpoken(Era::kHandshake);
    if (!handshake) {
      return run.ReportNotApplicable(reverse,
                                     "the target answered no initialize: it speaks "
                                     "2026-07-28 only, and no connection of the "
                                     "handshake era can be opened");
    }
    std::unique_ptr<Connection> fresh = run.Fresh();
    std::vector<Exchange> exchanges;
    std::optional<std::size_t> at;
    run.set_current_check(reverse);
    if (fresh) {
      exchanges.push_back(
          fresh->Send(MakeInitialize(*handshake, run.kind(), "mcpfuzz-initialize"), Owed::kReply));
      const bool served =
          ClassifyReply(exchanges.back().request, exchanges.back().observation).channel ==
          Channel::kSuccess;
      if (served && !fresh->Dead()) {
        exchanges.push_back(fresh->Send(
            MakeNotification(*handshake, run.kind(), "notifications/initialized"), Owed::kNothing));
        // A 2026-07-28 request every server answers, with the envelope (V16b).
        const std::string_view method = run.Declares("tools")     ? "tools/list"
                                        : run.Declares("prompts") ? "prompts/list"
                                                                  : "resources/list";
        exchanges.push_back(fresh->Send(fresh->client().Make(method), Owed::kReply));
        at = exchanges.size() - 1;
      }
    }
    ReportEachAt(run, exchanges, {{reverse, at}}, {}, /*one_connection=*/true);
  }
}

void CapabilityUnadvertised(RevisionRun& run) {
  const std::string_view id = check::kCapabilityUnadvertised;
  if (!run.capabilities_known()) return run.ReportUnreachable(id);
  for (const CapabilityProbe& probe : kCapabilityProbes) {
    if (probe.handshake_only && run.stateless()) continue;
    if (run.Declares(probe.capability)) continue;
    JudgeContext context = run.Context(/*capability_declared=*/false);
    const std::string method(probe.method);
    return ReportVariants(run, id,
                          {{method + " (\"" + std::string(probe.capability) + "\" not declared)",
                            [method](Connection& connection) {
                              return connection.client().Make(method, ProbeParams(method));
                            },
                            Owed::kReply}},
                          context);
  }
  run.ReportNotApplicable(id,
                          "the server declared every capability mcpfuzz can probe (prompts, "
                          "resources, tools, completions, logging), so none is unadvertised");
}

void ClientCapabilityRequired(RevisionRun& run) {
  run.ReportNotApplicable(check::kClientCapabilityRequired,
                          "needs a request for which this particular server requires a client "
                          "capability (elicitation, sampling, roots); no such request is known "
                          "for an arbitrary server, so nothing is sent");
}

}  // namespace mcpfuzz::checks::detail
