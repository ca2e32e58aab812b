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

GenContext ContextOf(const TargetSession& session) {
  GenContext context;
  context.revision = session.revision();
  context.transport = session.kind();
  context.capabilities = session.capabilities();
  context.session_assigned = session.session_assigned();
  for (const ListedFeatures::Tool& tool : session.listed().tools) {
    context.tools.push_back({tool.name, tool.input_schema});
  }
  context.prompts = session.listed().prompts;
  context.resource_uris = session.listed().resource_uris;
  return context;
}

Judged SendAndJudge(TargetSession& session, const Case& sent, bool settle, bool alone) {
  // A case breaks a rule: whether it is owed a reply is what is being tested.
  Observation observation =
      alone ? session.SendAlone(sent.request) : session.Send(sent.request, Owed::kNothing);
  return JudgeExchange(session, sent, std::move(observation), session.last_sentinel(), settle);
}

Judged JudgeExchange(TargetSession& session, const Case& sent, Observation observation,
                     const std::optional<Exchange>& sentinel, bool settle) {
  if (!session.stdio()) return JudgeCase(sent, std::move(observation), std::nullopt);
  ProcessHistory process;
  // Silence on stdio: deaf, or a message dropped on purpose? The sentinel settled it (the
  // session made a drop of it when answered); unanswered, it is the keeps-answering verdict's.
  if (sentinel && observation.outcome == Outcome::kAliveButDeaf) {
    process.sentinel = SentinelExchange{sentinel->request, sentinel->observation};
  }
  if (!settle) return JudgeCase(sent, std::move(observation), process);
  Judged judged = JudgeCase(sent, observation, process);
  // A death right after the reply shows in what the next request gets: the sentinel behind
  // this one, or one sent now. Not needed when the server already stopped answering or the
  // observation shows the end.
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
