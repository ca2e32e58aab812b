#include "campaign/detail/judging.h"

#include <utility>

namespace mcpfuzz::campaign_detail {

Observation ExitObservation(const ProcessExit& exit) {
  Observation observation;
  observation.outcome = Outcome::kExited;
  observation.detail = "the server ended right after answering";
  observation.exit_code = exit.exit_code;
  observation.exit_signal = exit.signal;
  observation.killed_by_mcpfuzz = exit.killed_by_mcpfuzz;
  observation.stderr_tail = exit.stderr_tail;
  return observation;
}

Judged SendAndJudge(Session& session, const Case& sent, bool settle) {
  if (session.kind() != TransportKind::kStdio || session.out_of_order()) {
    return JudgeExchange(session, sent, session.Send(sent.request), std::nullopt, settle);
  }
  const Request sentinel = session.Sentinel();
  PipelineResult result = session.SendPipelined(Pipeline{{sent.request}, sentinel});
  if (result.observations.empty()) result.observations.emplace_back();
  if (result.ambiguous) {
    // What came back cannot be told apart: send the request again alone, on a fresh server,
    // and learn its silence the slow way.
    session.MarkBroken();
    return JudgeExchange(session, sent, session.Send(sent.request), std::nullopt, settle);
  }
  return JudgeExchange(session, sent, std::move(result.observations.front()),
                       SentinelSeen{sentinel, result.sentinel}, settle);
}

Judged JudgeExchange(Session& session, const Case& sent, Observation observation,
                     const std::optional<SentinelSeen>& sentinel, bool settle) {
  if (session.kind() != TransportKind::kStdio) {
    return JudgeCase(sent, std::move(observation), std::nullopt);
  }
  ProcessHistory process;
  if (observation.outcome == Outcome::kAliveButDeaf) {
    // Silence on stdio: deaf, or a message dropped on purpose? A well-formed request behind it
    // settles it; one pipelined behind it already did, else one is sent now.
    if (sentinel) {
      process.sentinel = SentinelExchange{sentinel->request, sentinel->observation};
    } else {
      Request probe = session.Sentinel();
      Observation probed = session.Send(probe);
      process.sentinel = SentinelExchange{std::move(probe), std::move(probed)};
    }
    if (!SentinelAnswered(process.sentinel->request, process.sentinel->observation)) {
      session.MarkBroken();
    }
  }
  if (!settle) return JudgeCase(sent, std::move(observation), process);
  Judged judged = JudgeCase(sent, observation, process);
  // A death right after the reply shows in what the next request gets: the sentinel behind
  // this one, or a probe sent now. Not needed when the server already stopped answering or
  // the observation shows the end.
  if (judged.judged_by == JudgedBy::kKeepsAnswering || ProcessEnded(judged.observation)) {
    return judged;
  }
  if (auto exit = session.EndedAfterReply(sentinel ? &sentinel->observation : nullptr)) {
    process.ended_after_reply = ExitObservation(*exit);
    judged = JudgeCase(sent, std::move(observation), process);
  }
  return judged;
}

}  // namespace mcpfuzz::campaign_detail
