// The checklist: which checks exist, in which order they run, which revisions they run in, and
// the selection by --only / --skip.

#include <algorithm>
#include <array>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "checks/checks.h"
#include "checks/detail/beside_probe.h"
#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks {
namespace {

namespace d = detail;

using Progress = std::function<void(const CheckResult&)>;

// One check and the scenario that asks its question. Consecutive entries sharing a scenario
// are answered by one run of it (the handshake control judges two checks at once, say), and
// the first of them names what the scenario does first on connections of its own, if anything.
struct Entry {
  CheckInfo info;
  d::Scenario scenario;
  d::Ahead ahead = nullptr;
};

// The stdio process checks come last: they judge everything the run before them did.
constexpr std::array kEntries = {
    Entry{{check::kParseError, "invalid JSON gets -32700"}, d::ParseError},
    Entry{{check::kNotAnObject, "JSON that is not an object gets -32600"}, d::NotAnObject},
    Entry{{check::kMissingJsonrpc, "a request without jsonrpc gets -32600"}, d::InvalidRequests},
    Entry{{check::kWrongJsonrpc, "a request with jsonrpc other than \"2.0\" gets -32600"},
          d::InvalidRequests},
    Entry{{check::kMissingMethod, "a request without method gets -32600"}, d::InvalidRequests},
    Entry{{check::kIdNull, "a request with id null is refused"}, d::InvalidRequests},
    Entry{{check::kIdFloat, "a request with a fractional id is refused"}, d::InvalidRequests},
    Entry{{check::kIdBool, "a request with a boolean id is refused"}, d::InvalidRequests},
    Entry{{check::kIdObject, "a request with an object id is refused"}, d::InvalidRequests},
    Entry{{check::kParamsNotObject, "params that are not an object get -32602"},
          d::ParamsNotObject},
    Entry{{check::kNotificationNoReply, "notifications get no response"}, d::NotificationNoReply},
    Entry{{check::kBatchAccepted, "2025-03-26 answers a batch element by element"}, d::Batches},
    Entry{{check::kBatchEmpty, "2025-03-26 answers an empty batch with one -32600"}, d::Batches},
    Entry{{check::kBatchRejected, "outside 2025-03-26 a batch is refused"}, d::Batches},
    Entry{{check::kInitialize, "initialize answers the version asked"}, d::Initialize},
    Entry{{check::kInitializeUnsupportedVersion,
           "initialize with an unsupported version falls back to a supported one"},
          d::InitializeUnsupportedVersion,
          d::InitializeUnsupportedVersionAhead},
    Entry{{check::kPingBeforeInit, "ping works before initialization"},
          d::HandshakeControl,
          d::HandshakeControlAhead},
    Entry{{check::kRequestBeforeInit, "a request before initialization neither crashes nor hangs"},
          d::HandshakeControl},
    Entry{{check::kPing, "ping works in an initialized session"},
          d::InitializedSession,
          d::OneOpened},
    Entry{{check::kReinitialize, "a second initialize does not change the session's version"},
          d::InitializedSession},
    Entry{{check::kCancelledNoReply,
           "stdio: a request cancelled while in flight gets no response after the cancellation"},
          d::CancelledInFlight},
    Entry{{check::kProgressAfterResponse,
           "stdio: no progress for a request's token after the request was answered"},
          d::ProgressAfterResponse,
          d::OneOpened},
    Entry{{check::kInitializeAfterEraLock,
           "stdio: initialize on a connection an enveloped request locked to 2026-07-28 is "
           "refused"},
          d::EraLockedConnection},
    Entry{{check::kEnvelopeAfterInitialize,
           "stdio: an enveloped request after initialize does not switch the connection's era"},
          d::EraLockedConnection},
    Entry{{check::kMetaMissing, "a request without _meta gets -32602 (HTTP 400)"}, d::MetaMissing},
    Entry{{check::kMetaPartial, "_meta without protocolVersion or clientCapabilities gets -32602"},
          d::MetaPartial},
    Entry{{check::kMetaClientInfoOptional, "_meta without clientInfo is served"},
          d::MetaClientInfoOptional},
    Entry{{check::kVersionUnsupported, "an unsupported protocolVersion gets -32022 with data"},
          d::VersionUnsupported},
    Entry{{check::kDiscoverResult, "server/discover returns a complete DiscoverResult"},
          d::DiscoverResult},
    Entry{{check::kListenAcknowledged,
           "subscriptions/listen is acknowledged first, stamped with its id"},
          d::ListenAcknowledged},
    Entry{{check::kCapabilityUnadvertised, "a method of an undeclared capability gets -32601"},
          d::CapabilityUnadvertised},
    Entry{{check::kClientCapabilityRequired,
           "a request needing an undeclared client capability gets -32021"},
          d::ClientCapabilityRequired},
    Entry{{check::kUnknownMethod, "an unknown method gets -32601"}, d::UnknownMethod},
    Entry{{check::kRemovedMethod,
           "2026-07-28: initialize, ping, logging/setLevel, resources/(un)subscribe get -32601"},
          d::RemovedMethods},
    Entry{{check::kUnknownTool, "an unknown tool is a protocol error, consistently"},
          d::UnknownTool},
    Entry{{check::kToolMissingName, "tools/call without a name gets -32602"}, d::ToolMissingName},
    Entry{{check::kToolArgumentsNotObject, "tools/call with non-object arguments gets -32602"},
          d::ToolArgumentsNotObject},
    Entry{{check::kToolBadArguments,
           "arguments failing the inputSchema get an error naming the argument (calls a real "
           "tool: only with --call-real-tools)"},
          d::ToolBadArguments},
    Entry{{check::kUnknownResource, "resources/read of an unknown URI is refused"},
          d::UnknownResource},
    Entry{{check::kUnsubscribe,
           "resources/unsubscribe after resources/subscribe is served, and the updates stop"},
          d::Unsubscribe,
          d::UnsubscribeAhead},
    Entry{{check::kUnknownPrompt, "prompts/get of an unknown prompt gets -32602"},
          d::UnknownPrompt},
    Entry{{check::kPromptMissingArguments, "prompts/get without a required argument gets -32602"},
          d::PromptMissingArguments},
    Entry{{check::kInvalidCursor, "a garbage cursor gets -32602"}, d::InvalidCursor},
    Entry{{check::kCursorReused, "a list's nextCursor sent back twice gets a result both times"},
          d::CursorReused,
          d::CursorReusedAhead},
    Entry{{check::kInvalidLogLevel, "an unknown log level gets -32602"}, d::InvalidLogLevel},
    Entry{{check::kSessionLogLevel,
           "after logging/setLevel, no log message below the level set comes"},
          d::SessionLogLevel,
          d::SessionLogLevelAhead},
    Entry{{check::kProtocolVersionHeaderMismatch,
           "MCP-Protocol-Version disagreeing with _meta gets -32020 (HTTP 400)"},
          d::ProtocolVersionHeaders},
    Entry{{check::kProtocolVersionHeaderInvalid, "an invalid MCP-Protocol-Version gets HTTP 400"},
          d::ProtocolVersionHeaders},
    Entry{{check::kProtocolVersionHeaderMissing,
           "a request without MCP-Protocol-Version is handled as the spec says"},
          d::ProtocolVersionHeaders},
    Entry{{check::kMethodHeaderMissing, "a request without Mcp-Method gets HTTP 400"},
          d::MethodHeaders},
    Entry{{check::kMethodHeaderMismatch, "Mcp-Method disagreeing with the body gets HTTP 400"},
          d::MethodHeaders},
    Entry{{check::kMethodHeaderCase, "Mcp-Method is compared case-sensitively"}, d::MethodHeaders},
    Entry{{check::kNameHeaderMissing, "a call without Mcp-Name gets HTTP 400"}, d::NameHeaders},
    Entry{{check::kNameHeaderMismatch, "Mcp-Name disagreeing with the body gets HTTP 400"},
          d::NameHeaders},
    Entry{{check::kNameHeaderBase64, "Mcp-Name in =?base64?...?= form is accepted"},
          d::NameHeaders},
    Entry{{check::kNameHeaderWhitespace, "Mcp-Name with surrounding whitespace is accepted"},
          d::NameHeaders},
    Entry{{check::kSessionMissing, "a request without the session id gets HTTP 400"},
          d::Sessions,
          d::SessionsAhead},
    Entry{{check::kSessionUnknown, "an unknown session id gets HTTP 404"}, d::Sessions},
    Entry{{check::kSessionDelete, "DELETE ends the session (or gets 405)"}, d::Sessions},
    Entry{{check::kAcceptMissing, "a POST without Accept gets a 4xx"}, d::HttpEndpoint},
    Entry{{check::kContentTypeWrong, "a POST that is not application/json gets a 4xx"},
          d::HttpEndpoint},
    Entry{{check::kHttpGet, "GET opens an event stream or gets 405"}, d::HttpEndpoint},
    Entry{{check::kOriginInvalid, "a foreign Origin gets HTTP 403"}, d::HttpEndpoint},
    Entry{{check::kUnknownNameConsistent,
           "__proto__, constructor and toString get the answer a random unknown name gets"},
          d::UnknownNameConsistent},
    Entry{{check::kDeepNesting,
           "valid JSON nested 100,000 deep is answered or refused, not "
           "failed"},
          d::DeepNesting},
    Entry{{check::kOversizedRequest,
           "a 100,000-character id and a body over 10 MiB are served or refused, not failed"},
          d::OversizedRequest,
          d::OversizedRequestAhead},
    Entry{{check::kKeepsAnswering, "after hostile input the server still answers"},
          d::KeepsAnswering},
    Entry{{check::kNoEarlyExit, "the server process survives every input"}, d::NoEarlyExit},
    Entry{{check::kStdoutOnlyJsonRpc, "stdout carries only JSON-RPC messages"},
          d::StdoutOnlyJsonRpc},
};

constexpr std::array<CheckInfo, kEntries.size()> Infos() {
  std::array<CheckInfo, kEntries.size()> infos{};
  for (std::size_t i = 0; i < kEntries.size(); ++i) infos[i] = kEntries[i].info;
  return infos;
}
constexpr std::array kInfos = Infos();
static_assert(kInfos.size() == check::kAll.size(), "every check id has exactly one entry");

bool MatchesAny(std::string_view id, const std::set<std::string>& selectors) {
  for (const std::string& selector : selectors) {
    if (SelectorMatches(selector, id)) return true;
  }
  return false;
}

// The revisions PlanRevisions chose; in the one kept for batches only its batch checks run.
std::vector<d::RevisionPlan> PlanRevisions(const EraReport& eras, const CheckOptions& options) {
  std::vector<d::RevisionPlan> plans;
  for (const PlannedRevision& planned : mcpfuzz::PlanRevisions(eras, options.revision)) {
    plans.emplace_back();
    plans.back().revision = planned.revision;
    if (planned.batches_only) {
      plans.back().restricted_to = {check::kBatchAccepted, check::kBatchEmpty};
    }
  }
  return plans;
}

bool Interrupted(const CheckOptions& options) {
  return options.stop != nullptr && options.stop->load();
}

// The checks of the scenario group starting at `first` that its scenario is to report, and
// where the group ends.
struct Group {
  std::set<std::string_view> pending;
  std::size_t end = 0;
};
template <typename Reports>
Group PendingIn(std::size_t first, const Reports& reports) {
  Group group;
  group.end = first;
  while (group.end < kEntries.size() && kEntries[group.end].scenario == kEntries[first].scenario) {
    const std::string_view id = kEntries[group.end++].info.id;
    if (reports(id)) group.pending.insert(id);
  }
  return group;
}
Group PendingIn(const d::RevisionRun& run, std::size_t first, bool connected) {
  return PendingIn(
      first, [&](std::string_view id) { return connected && run.Wants(id) && run.HasRow(id); });
}

// What every scenario will do first on connections of its own, for the checks `reports` says
// the run reports, each group's Ahead asking `view` (given the group's pending checks).
template <typename Reports, typename View>
d::FreshSteps StepsAhead(const Reports& reports, const View& view) {
  d::FreshSteps steps;
  for (std::size_t first = 0; first < kEntries.size();) {
    Group group = PendingIn(first, reports);
    if (!group.pending.empty() && kEntries[first].ahead != nullptr) {
      kEntries[first].ahead(view(std::move(group.pending)), steps);
    }
    first = group.end;
  }
  return steps;
}

// Has what every scenario will do first on connections of its own done at once, taking first
// what was made beside the era probe.
void PrepareFreshConnections(d::RevisionRun& run, d::FreshPool ahead) {
  const d::FreshSteps steps = StepsAhead(
      [&run](std::string_view id) { return run.Wants(id) && run.HasRow(id); },
      [&run](std::set<std::string_view> pending) { return d::AheadView(run, std::move(pending)); });
  run.connections().Prepare(steps, std::move(ahead));
}

// The revision whose fresh sessions are made beside the era probe: the one asked for, else the
// newest of the handshake era, whose checks open the most sessions of their own.
Revision LikelyRevision(const CheckOptions& options) {
  if (options.revision) return *options.revision;
  for (auto it = kAllRevisions.rbegin(); it != kAllRevisions.rend(); ++it) {
    if (EraOf(*it) == Era::kHandshake) return *it;
  }
  return kLatestRevision;
}

// The era probe ended a session it opened: one whose initialize was answered in another
// revision than asked (AskHandshake closes it).
bool ProbeEndedASession(const EraReport& eras) {
  return std::any_of(eras.attempts.begin(), eras.attempts.end(), [](const EraAttempt& attempt) {
    return attempt.method == "initialize" && attempt.channel == Channel::kSuccess &&
           attempt.answered && *attempt.answered != attempt.asked;
  });
}

// What the run in `revision` over HTTP could make first on connections of its own, whatever the
// target declares (AheadView's supposition).
d::FreshSteps SupposedSteps(const CheckOptions& options, Revision revision) {
  return StepsAhead(
      [&](std::string_view id) {
        return Selected(id, options) && d::HasRow(id, revision, TransportKind::kHttp);
      },
      [&](std::set<std::string_view> pending) {
        return d::AheadView(revision, TransportKind::kHttp, std::move(pending));
      });
}

void RunRevision(TargetLink& link, const CheckOptions& options, d::RevisionPlan plan,
                 d::FreshPool ahead, CheckRun& out, const Progress& progress) {
  d::RevisionRun run(link, options, std::move(plan), out, progress);
  bool any_wanted = false;
  for (const Entry& entry : kEntries) any_wanted = any_wanted || run.Wants(entry.info.id);
  if (!any_wanted) return;
  const bool connected = !run.gave_up() && run.Start();
  if (connected) PrepareFreshConnections(run, std::move(ahead));

  for (std::size_t first = 0; first < kEntries.size();) {
    if (Interrupted(options)) return;
    const Group group = PendingIn(run, first, connected);
    for (std::size_t i = first; i < group.end; ++i) {
      const std::string_view id = kEntries[i].info.id;
      if (!run.Wants(id) || group.pending.contains(id)) continue;
      run.set_pending({id});
      if (!connected) {
        run.ReportUnreachable(id);
      } else {
        run.ReportNotApplicable(id, "the tables define no expectation for this check in " +
                                        std::string(ToString(run.revision())) + " over " +
                                        std::string(ToString(run.kind())));
      }
    }
    const std::set<std::string_view>& pending = group.pending;
    if (!pending.empty()) {
      run.set_pending(pending);
      run.set_current_check(*pending.begin());
      const std::size_t reported_before = out.results.size();
      kEntries[first].scenario(run);
      if (std::any_of(out.results.begin() + static_cast<std::ptrdiff_t>(reported_before),
                      out.results.end(), [](const CheckResult& result) {
                        return result.verdict.kind == VerdictKind::kFail;
                      })) {
        run.RetireMain();
      }
      // A scenario reports every check it was given; this only guards against an omission.
      for (std::string_view id : pending) {
        if (run.Pending(id)) run.ReportNotApplicable(id, "the scenario reached no verdict");
      }
    }
    first = group.end;
  }
  run.JudgeRepeats();
  if (const std::size_t ended = run.main_sessions_ended()) {
    out.notes.push_back(EndedSessionsNote(run.revision(), ended) +
                        "; sessions.delete judges whether another session's DELETE ends it");
  }
}

std::string GaveUpNote(Revision revision) {
  return "gave up on the target in " + std::string(ToString(revision)) + ": " +
         TargetLink::GaveUpReason() + "; nothing more was sent, so the checks left are UNVERIFIED";
}

// RunRevision, noting when mcpfuzz gave up on the target during it.
void RunAndNote(TargetLink& link, const CheckOptions& options, d::RevisionPlan plan,
                d::FreshPool ahead, CheckRun& out, const Progress& progress) {
  const bool answering = !link.gave_up();
  const Revision revision = plan.revision;
  RunRevision(link, options, std::move(plan), std::move(ahead), out, progress);
  if (answering && link.gave_up()) out.notes.push_back(GaveUpNote(revision));
}

// The era probe reached the target over stdio.
bool OverStdio(const EraReport& eras) {
  return std::any_of(eras.attempts.begin(), eras.attempts.end(),
                     [](const EraAttempt& attempt) { return attempt.stdio_opening.has_value(); });
}

// A revision run at the same time as the first: its own link (observer, give-up count, and what
// it learns of the target's replies), its own results.
struct ConcurrentRevision {
  ConcurrentRevision(const TransportFactory& connect, const d::RevisionPlan& plan,
                     const EraReport& eras)
      : link(connect), revision(plan.revision), restricted_to(plan.restricted_to) {
    run.eras = eras;
  }
  /// The plan again, for a run that sends nothing, or runs after the first for want of a thread.
  d::RevisionPlan Plan() const {
    d::RevisionPlan plan;
    plan.revision = revision;
    plan.restricted_to = restricted_to;
    return plan;
  }
  TargetLink link;
  Revision revision;
  std::set<std::string_view> restricted_to;
  CheckRun run;
  std::thread thread;
};

// Over stdio the revisions share nothing but the server's program, so each runs at once on
// server processes of its own. The results are taken in plan order, as if the revisions had
// run one after the other: progress is told in that order, and a revision after one in which
// mcpfuzz gave up on the target is reported as it would have been then, with nothing sent,
// whatever its thread did. Each revision learns on its own link what one after the other learn
// once (whether the target's sentinels prove drops); those proofs wait at the same time. The
// links share `connect` (StartingAhead), which takes their calls one at a time.
void RunAtOnce(const TransportFactory& connect, TargetLink& link,
               std::vector<d::RevisionPlan> plans, const CheckOptions& options, CheckRun& out,
               const Progress& progress) {
  const Progress untold;
  std::vector<std::unique_ptr<ConcurrentRevision>> concurrent;
  for (std::size_t i = 1; i < plans.size(); ++i) {
    ConcurrentRevision& later =
        *concurrent.emplace_back(std::make_unique<ConcurrentRevision>(connect, plans[i], out.eras));
    try {
      later.thread = std::thread([&later, &options, &untold, plan = std::move(plans[i])]() mutable {
        RunRevision(later.link, options, std::move(plan), {}, later.run, untold);
      });
    } catch (const std::system_error&) {
      // No thread to be had: it runs after the first.
    }
  }
  RunAndNote(link, options, std::move(plans.front()), {}, out, progress);
  TargetLink* gave_up = link.gave_up() ? &link : nullptr;
  for (const std::unique_ptr<ConcurrentRevision>& later : concurrent) {
    if (later->thread.joinable()) {
      later->thread.join();
    } else if (gave_up == nullptr) {
      RunRevision(later->link, options, later->Plan(), {}, later->run, untold);
    }
    if (gave_up != nullptr) {
      RunRevision(*gave_up, options, later->Plan(), {}, out, progress);
      continue;
    }
    CheckRun& run = later->run;
    for (CheckResult& result : run.results) {
      out.results.push_back(std::move(result));
      if (progress) progress(out.results.back());
    }
    std::move(run.handshake_controls.begin(), run.handshake_controls.end(),
              std::back_inserter(out.handshake_controls));
    std::move(run.notes.begin(), run.notes.end(), std::back_inserter(out.notes));
    if (!out.server_info) out.server_info = std::move(run.server_info);
    if (later->link.gave_up()) {
      out.notes.push_back(GaveUpNote(later->revision));
      gave_up = &later->link;
    }
  }
}

}  // namespace

std::span<const CheckInfo> AllChecks() { return kInfos; }

std::span<const std::string_view> ImpossibleToolNames() {
  static constexpr std::array kNames = {
      d::kImpossibleTool,    d::kSecondImpossibleTool, d::kImpossibleToolNeedingBase64,
      d::kPrototypeNames[0], d::kPrototypeNames[1],    d::kPrototypeNames[2],
      d::kPrototypeNames[3]};
  return kNames;
}

bool SelectorMatches(std::string_view selector, std::string_view id) {
  if (selector.empty() || !id.starts_with(selector)) return false;
  return id.size() == selector.size() || selector.back() == '.' || id[selector.size()] == '.';
}

bool Selected(std::string_view id, const CheckOptions& options) {
  if (!options.only.empty() && !MatchesAny(id, options.only)) return false;
  return !MatchesAny(id, options.skip);
}

CheckRun RunChecks(const TransportFactory& given, const CheckOptions& options,
                   const std::function<void(const CheckResult&)>& progress) {
  // The checks start servers one after the other, each on the last one's heels.
  const TransportFactory connect = StartingAhead(given);
  CheckRun out;
  TargetLink link(connect);
  // A revision run goes on with the era probe's connection in it rather than opening another
  // (over stdio, starting another server), and the fresh sessions of the likely revision are
  // opened beside the probe over HTTP: a server slow to open sessions costs one opening in
  // all, not one for the probe and one for the checks.
  // A question the probe asks again alone finds none of them there: a server serving a few
  // connections at a time may have left it unanswered for them.
  const Revision likely = LikelyRevision(options);
  d::BesideProbe beside(link, likely,
                        [&options, likely] { return SupposedSteps(options, likely); });
  ProbedConnections probed;
  out.eras = DetectEras(beside.Watching(connect), &probed, [&beside] { beside.Withdraw(); });
  // Ends its sessions unused at the end of the run when no revision run takes it.
  d::FreshPool ahead = beside.Take();
  // A server may end every session with one DELETE: the sessions made beside the probe stand
  // only if the probe ended none of its own.
  const bool ahead_stands = !ProbeEndedASession(out.eras);
  std::vector<d::RevisionPlan> plans = PlanRevisions(out.eras, options);
  for (d::RevisionPlan& plan : plans) {
    if (auto kept = probed.find(plan.revision); kept != probed.end()) {
      plan.probed = std::move(kept->second);
    }
  }
  // Over HTTP the rest end their sessions when the run ends, as the checks' own do: a server may
  // end every session with one DELETE, among them those made beside the probe. Over stdio each
  // is a server process that would only sit idle: stopped now.
  const bool over_stdio = OverStdio(out.eras);
  if (over_stdio) probed.clear();
  if (plans.empty() && Selected(check::kStdoutOnlyJsonRpc, options)) {
    // Nothing else can be judged without a revision; stdout framing binds them all.
    if (auto stdout_only = d::StdoutWithoutRevision(out.eras)) {
      out.notes.push_back("the target speaks no revision mcpfuzz knows: only " +
                          std::string(check::kStdoutOnlyJsonRpc) +
                          ", which binds every revision, was judged (from the era probe's "
                          "exchanges); no other check ran");
      out.results.push_back(std::move(*stdout_only));
      if (progress) progress(out.results.back());
    }
  }
  if (Selected(check::kDiscoverResult, options) && !options.revision) {
    if (auto unlisted = d::UnlistedDiscover(out.eras)) {
      out.results.push_back(std::move(*unlisted));
      if (progress) progress(out.results.back());
    }
  }
  if (options.revisions_at_once && over_stdio && plans.size() > 1) {
    RunAtOnce(connect, link, std::move(plans), options, out, progress);
    return out;
  }
  for (d::RevisionPlan& plan : plans) {
    if (Interrupted(options)) break;
    const Revision revision = plan.revision;
    RunAndNote(link, options, std::move(plan),
               ahead_stands && revision == ahead.revision ? std::move(ahead) : d::FreshPool{}, out,
               progress);
  }
  return out;
}

}  // namespace mcpfuzz::checks
