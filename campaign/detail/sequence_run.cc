#include "campaign/detail/sequence_run.h"

#include <boost/json/string.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "model/request_builder.h"
#include "oracles/sequence.h"

namespace mcpfuzz::campaign_detail {
namespace {

// The step as sent: its placeholder cursor replaced by the one captured from its cursor_from
// step's reply (kept when that reply handed none out: the model then leaves the step unjudged).
SequenceStep WithCapturedCursor(const SequenceState& state, const SequenceStep& step) {
  if (!step.cursor_from) return step;
  const std::optional<std::string> cursor = CapturedCursor(state, *step.cursor_from);
  if (!cursor) return step;
  SequenceStep sent = step;
  sent.request = WithCursor(std::move(sent.request), *cursor);
  return sent;
}

// `sequence` without step `drop`, its cursor references renumbered; nothing when a later step
// carries the cursor of the dropped one.
std::optional<Sequence> WithoutStep(const Sequence& sequence, std::size_t drop) {
  Sequence out;
  for (std::size_t index = 0; index < sequence.size(); ++index) {
    if (index == drop) continue;
    SequenceStep step = sequence[index];
    if (step.cursor_from) {
      if (*step.cursor_from == drop) return std::nullopt;
      if (*step.cursor_from > drop) --*step.cursor_from;
    }
    out.push_back(std::move(step));
  }
  return out;
}

struct CancelledExchange {
  Observation request;
  Observation cancellation;
  bool answered_after_ping = false;
  /// False when the replies could not be told apart (PipelineResult::ambiguous).
  bool attributed = true;
};

// The request, its cancellation and a ping written back to back before any reply is read.
CancelledExchange SendCancelled(TargetSession& session, const Request& request,
                                const Request& cancellation, std::size_t index) {
  Pipeline pipeline;
  pipeline.requests = {request, cancellation};
  // A string id: the steps' ids are integers, so no reply can be mistaken for the ping's.
  const boost::json::string id("mcpfuzz-after-cancel-" + std::to_string(index));
  pipeline.sentinel = MakeRequest(request.revision, request.transport, "ping", {}, id);
  PipelineResult result = session.SendPipelined(pipeline);
  CancelledExchange exchange;
  exchange.attributed = !result.ambiguous && result.observations.size() == 2;
  if (result.observations.size() == 2) {
    exchange.request = std::move(result.observations[0]);
    exchange.cancellation = std::move(result.observations[1]);
  }
  exchange.answered_after_ping =
      !result.answered_after_sentinel.empty() && result.answered_after_sentinel[0];
  return exchange;
}

// Output that could not be attributed to the request or its cancellation: recorded, not judged.
Judged Unattributed(const Request& request, Observation observation) {
  Judged judged;
  judged.verdict = NotApplicableVerdict(
      "", request.revision, request.transport,
      "recorded, not judged: what came back could not be told apart per message");
  judged.observation = std::move(observation);
  return judged;
}

}  // namespace

SequenceRun RunSequence(TargetLink& link, const Sequence& sequence, bool take_coverage, bool all) {
  SequenceRun run;
  if (sequence.empty()) return run;
  // Its own connection, never reopened: what the steps did to it is what is judged.
  SessionPolicy policy;
  policy.reopen = false;
  TargetSession session(link, sequence.front().request.revision, policy);
  if (!session.Connect()) {
    run.error = session.why();
    return run;
  }
  SequenceState state;
  Revision revision = kLatestRevision;
  // The session a later initialize without a session opened beside the first
  // (SessionBinding::kSecond): the transport attaches only the first, so it is written here.
  std::string second_session;
  for (std::size_t index = 0; index < sequence.size(); ++index) {
    const SequenceStep step = WithCapturedCursor(state, sequence[index]);
    revision = step.request.revision;
    if (step.pipelined && index + 1 < sequence.size() &&
        Cancels(sequence[index + 1].request, step.request)) {
      // Judged at the cancellation: the request's own step only records what it got.
      const Request& cancellation = sequence[index + 1].request;
      CancelledExchange exchange = SendCancelled(session, step.request, cancellation, index);
      state = AdvanceSequence(state, step.request, exchange.request);
      state = AdvanceSequence(state, cancellation, exchange.cancellation);
      Judged recorded;
      recorded.verdict = NotApplicableVerdict(
          "", step.request.revision, step.request.transport,
          "written with its notifications/cancelled right behind it: judged at the cancellation");
      recorded.observation = exchange.request;
      run.steps.push_back(std::move(recorded));
      Judged judged = exchange.attributed
                          ? JudgeCancelled(step.request, std::move(exchange.request),
                                           exchange.answered_after_ping)
                          : Unattributed(step.request, std::move(exchange.cancellation));
      ++index;
      const bool finding = judged.finding;
      run.steps.push_back(std::move(judged));
      if (finding) {
        run.failing = run.steps.size() - 1;
        break;
      }
      continue;
    }
    Request sent = step.request;
    if (sent.session == SessionBinding::kSecond && !second_session.empty() &&
        !FindHeader(sent.headers, kHeaderSessionId)) {
      sent.headers.push_back({std::string(kHeaderSessionId), second_session});
    }
    const bool opens_second = sent.session == SessionBinding::kOmit &&
                              sent.RpcMethod() == "initialize" && !session.session_id().empty();
    // A mutated step is sent as a lone mutant is, with a sentinel behind it over stdio: a drop
    // is known in one round trip, not at the time limit.
    Observation observation =
        step.mutated ? session.SendUnrecovered(sent, Owed::kNothing) : session.SendExactly(sent);
    if (auto assigned = FindHeader(observation.http_headers, kHeaderSessionId)) {
      if (session.session_id().empty()) {
        session.set_session_id(std::string(*assigned));
      } else if (opens_second && second_session.empty()) {
        second_session = std::string(*assigned);
      }
    }
    const SequenceState before = state;
    state = AdvanceSequence(state, step.request, observation);
    // A server that stopped answering or ended answers no later step: sending them would only
    // wait out a limit each.
    const bool gone = observation.outcome == Outcome::kAliveButDeaf ||
                      observation.outcome == Outcome::kTimeout || ProcessEnded(observation);
    Judged judged = step.mutated ? JudgeExchange(session, Case{sent, step.check_id, {}},
                                                 std::move(observation), session.last_sentinel(),
                                                 /*settle=*/false)
                                 : JudgeStep(before, step.request, std::move(observation));
    const bool finding = judged.finding;
    run.steps.push_back(std::move(judged));
    if (finding) {
      run.failing = run.steps.size() - 1;
      break;
    }
    if (gone) break;
  }
  // Nothing left behind: a session still live is ended, as McpClient::Close ends one.
  if (state.session == SequenceState::Session::kLive && !session.session_id().empty()) {
    static_cast<void>(session.SendExactly(MakeBodyless(revision, "DELETE")));
  }
  if (state.second == SequenceState::Session::kLive && !second_session.empty()) {
    Request end = MakeBodyless(revision, "DELETE");
    end.session = SessionBinding::kOmit;
    end.headers.push_back({std::string(kHeaderSessionId), second_session});
    static_cast<void>(session.SendExactly(end));
  }
  if (take_coverage) run.coverage = session.TakeCoverage(all);
  return run;
}

ShrunkSequence ShrinkSequence(TargetLink& link, const Sequence& sequence, const SequenceRun& run,
                              const std::string& signature, const ShrinkBudget& budget) {
  const auto start = std::chrono::steady_clock::now();
  ShrunkSequence shrunk;
  shrunk.judged = run.steps[*run.failing];
  // Sending stopped at the failing step: what came after it played no part.
  shrunk.minimal.assign(sequence.begin(),
                        sequence.begin() + static_cast<std::ptrdiff_t>(*run.failing + 1));
  bool progress = true;
  while (progress) {
    progress = false;
    // The failing step is the last one; every other is a candidate for removal.
    for (std::size_t drop = 0; drop + 1 < shrunk.minimal.size(); ++drop) {
      if (shrunk.sends >= budget.max_sends ||
          std::chrono::steady_clock::now() - start >= budget.max_time || budget.Stopped()) {
        return shrunk;
      }
      std::optional<Sequence> without = WithoutStep(shrunk.minimal, drop);
      if (!without) continue;
      Sequence candidate = std::move(*without);
      ++shrunk.sends;
      const SequenceRun again = RunSequence(link, candidate);
      const Judged* found = again.finding();
      if (found == nullptr || found->signature != signature) continue;
      candidate.resize(*again.failing + 1);
      shrunk.minimal = std::move(candidate);
      shrunk.judged = *found;
      ++shrunk.steps;
      progress = true;
      break;
    }
  }
  return shrunk;
}

}  // namespace mcpfuzz::campaign_detail
