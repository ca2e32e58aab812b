#include "campaign/detail/judging.h"

#include <cstdint>
#include <cstdio>

#include "oracles/check_ids.h"

namespace mcpfuzz::campaign_detail {
namespace {

// How long a stdio server is watched after answering, when a death right after the reply is
// what is being re-checked.
constexpr std::chrono::milliseconds kSettleTime{150};

bool Bad(const Verdict& verdict) {
  return verdict.kind == VerdictKind::kFail || verdict.kind == VerdictKind::kWarn;
}

}  // namespace

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

bool SentinelAnswered(const Request& sentinel, const Observation& observation) {
  return ClassifyReply(sentinel, observation).channel != Channel::kTransportFailure;
}

Judged SendAndJudge(Session& session, const Request& request, std::string_view check_id,
                    const JudgeContext& context, bool settle) {
  if (session.kind() != TransportKind::kStdio || session.out_of_order()) {
    return JudgeExchange(session, request, session.Send(request), std::nullopt, check_id, context,
                         settle);
  }
  const Request sentinel = session.Sentinel();
  PipelineResult sent = session.SendPipelined(Pipeline{{request}, sentinel});
  if (sent.observations.empty()) sent.observations.emplace_back();
  if (sent.ambiguous) {
    // What came back cannot be told apart: send the request again alone, on a fresh server,
    // and learn its silence the slow way.
    session.MarkBroken();
    return JudgeExchange(session, request, session.Send(request), std::nullopt, check_id, context,
                         settle);
  }
  return JudgeExchange(session, request, std::move(sent.observations.front()),
                       SentinelSeen{sentinel, sent.sentinel}, check_id, context, settle);
}

Judged JudgeExchange(Session& session, const Request& request, Observation sent,
                     const std::optional<SentinelSeen>& sentinel, std::string_view check_id,
                     const JudgeContext& context, bool settle) {
  Judged judged;
  judged.observation = std::move(sent);
  judged.timed_out = judged.observation.outcome == Outcome::kTimeout ||
                     judged.observation.outcome == Outcome::kAliveButDeaf;
  if (session.kind() == TransportKind::kStdio &&
      judged.observation.outcome == Outcome::kAliveButDeaf) {
    // Silence on stdio: deaf, or a message dropped on purpose? A well-formed request settles
    // it. Answered, the silence was the server's answer to this request (no reply); not
    // answered, the server stopped answering, which the sentinel's exchange shows.
    std::optional<Request> probe;
    Observation probed;
    if (sentinel) {
      probe = sentinel->request;
      probed = sentinel->observation;
    } else {
      probe = session.Sentinel();
      probed = session.Send(*probe);
    }
    if (SentinelAnswered(*probe, probed)) {
      judged.observation.outcome = Outcome::kDropped;
    } else {
      session.MarkBroken();
      judged.verdict = Judge(check::kKeepsAnswering, *probe, probed, JudgeContext{});
      judged.observation = std::move(probed);
      if (Bad(judged.verdict)) return judged;
    }
  }
  if (judged.observation.outcome == Outcome::kDropped) {
    // The oracles judge a request dropped as one answered by silence (Channel::kNoReply), the
    // situation the tables' "silent" column describes; the outcome stays in the case file.
    judged.observation.detail = "no reply; the sentinel written after it was answered";
    judged.dropped = true;
  }
  judged.verdict = Judge(check_id, request, judged.observation, context);
  if (session.kind() != TransportKind::kStdio) return judged;

  // The process itself: the stdio rows judge a death the reply rows cannot.
  const Observation& observation = judged.observation;
  std::string_view process_check;
  Observation process_observation = observation;
  if (observation.outcome == Outcome::kExited || observation.exit_code || observation.exit_signal) {
    process_check = check::kNoEarlyExit;
    // Whether the reply came out before the end or not, it is the same death.
    process_observation.outcome = Outcome::kExited;
  } else if (settle) {
    if (auto exit = session.AwaitDeath(kSettleTime)) {
      process_check = check::kNoEarlyExit;
      process_observation = ExitObservation(*exit);
    }
  }
  if (!process_check.empty()) {
    Verdict process_verdict = Judge(process_check, request, process_observation, JudgeContext{});
    if (Bad(process_verdict)) {
      judged.verdict = std::move(process_verdict);
      judged.observation = std::move(process_observation);
      return judged;
    }
  }
  // And its stdout: only JSON-RPC messages may appear there, whatever the request was.
  if (!Bad(judged.verdict) && !judged.observation.stdout_lines.empty()) {
    Verdict stdout_verdict =
        Judge(check::kStdoutOnlyJsonRpc, request, judged.observation, JudgeContext{});
    if (Bad(stdout_verdict)) judged.verdict = std::move(stdout_verdict);
  }
  return judged;
}

bool ServerSideFailure(Outcome outcome) {
  return outcome == Outcome::kTimeout || outcome == Outcome::kConnectionReset ||
         outcome == Outcome::kExited || outcome == Outcome::kAliveButDeaf;
}

bool IsFinding(const Verdict& verdict) {
  if (Bad(verdict)) return true;
  return verdict.kind == VerdictKind::kUnverified &&
         verdict.unverified_reason == UnverifiedReason::kTransportError &&
         ServerSideFailure(verdict.observed.outcome);
}

std::string Signature(const Verdict& verdict) {
  std::string signature = verdict.check_id + " | " + std::string(ToString(verdict.kind)) +
                          " | expected " + verdict.expected.text;
  // The stdio checks judge the process and its stdout, not the reply: whatever the reply was,
  // a crash is the same crash and a log line on stdout the same fault.
  if (verdict.check_id.starts_with("stdio.")) {
    if (verdict.observed.outcome != Outcome::kOk) {
      signature += " | " + std::string(ToString(verdict.observed.outcome));
    }
    return signature;
  }
  signature += " | got " + std::string(ToString(verdict.observed.channel));
  if (verdict.observed.code) signature += " " + std::to_string(*verdict.observed.code);
  if (verdict.observed.http_status != 0) {
    signature += " (HTTP " + std::to_string(verdict.observed.http_status) + ")";
  }
  if (verdict.observed.outcome != Outcome::kOk) {
    signature += " | " + std::string(ToString(verdict.observed.outcome));
  }
  return signature;
}

std::string SignatureHash(std::string_view signature) {
  // FNV-1a, 64 bits: stable across platforms and runs.
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : signature) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(text, 10);
}

}  // namespace mcpfuzz::campaign_detail
