#include "oracles/judgement.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "oracles/check_ids.h"
#include "oracles/expectations.h"

namespace mcpfuzz {
namespace {

bool Bad(const Verdict& verdict) {
  return verdict.kind == VerdictKind::kFail || verdict.kind == VerdictKind::kWarn;
}

bool AllowsSilence(const ExpectedAnswer& expected) {
  auto has = [](const std::vector<Channel>& channels) {
    return std::find(channels.begin(), channels.end(), Channel::kNoReply) != channels.end();
  };
  return has(expected.channels) || has(expected.tolerated);
}

bool IsFinding(const Verdict& verdict, const Observation& observation, FindingRule rule) {
  switch (rule) {
    case FindingRule::kCampaign:
      if (Bad(verdict)) return true;
      return verdict.kind == VerdictKind::kUnverified &&
             verdict.unverified_reason == UnverifiedReason::kTransportError &&
             ServerSideFailure(verdict.observed.outcome);
    case FindingRule::kHarness:
      if (verdict.kind == VerdictKind::kFail) return true;
      switch (observation.outcome) {
        case Outcome::kTimeout:
        case Outcome::kAliveButDeaf:
          // A stdio server may drop a message it finds invalid where the row tolerates
          // silence: from outside that is indistinguishable from a hang, so it is not one.
          return !observation.killed_by_mcpfuzz && !AllowsSilence(verdict.expected);
        case Outcome::kConnectionReset:
        case Outcome::kExited:
          return !observation.killed_by_mcpfuzz;
        default:
          return false;
      }
  }
  return false;
}

// The only computation of a failure signature: the campaign deduplicates, re-sends, shrinks
// and replays by it, so it must not depend on who judged.
std::string Signature(const Verdict& verdict) {
  std::string signature = verdict.check_id + " | " + std::string(ToString(verdict.kind)) +
                          " | expected " + verdict.expected.text;
  // The stdio checks judge the process and its stdout, not the reply: whatever the reply was,
  // a crash is the same crash and a log line on stdout the same fault.
  if (!verdict.check_id.starts_with("stdio.")) {
    signature += " | got " + DescribeObserved(verdict.observed);
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

// The case's verdict, or the process's or stdout's that overrides it.
Judgement Reach(const Case& sent, Observation observation,
                const std::optional<ProcessHistory>& process, VerdictText text) {
  Judgement judgement;
  judgement.observation = std::move(observation);
  const Observation& seen = judgement.observation;
  // A drop learnt only after the whole limit passed cost a time limit as a hang does.
  judgement.timed_out =
      seen.outcome == Outcome::kTimeout || seen.outcome == Outcome::kAliveButDeaf ||
      (seen.outcome == Outcome::kDropped && seen.limit.count() > 0 && seen.elapsed >= seen.limit);
  if (process && process->sentinel && judgement.observation.outcome == Outcome::kAliveButDeaf) {
    // Silence on stdio: deaf, or a message dropped on purpose? The sentinel settles it.
    const SentinelExchange& sentinel = *process->sentinel;
    if (SentinelAnswered(sentinel.request, sentinel.observation)) {
      judgement.observation.outcome = Outcome::kDropped;
    } else {
      judgement.verdict =
          Judge(check::kKeepsAnswering, sentinel.request, sentinel.observation, JudgeContext{});
      judgement.observation = sentinel.observation;
      if (Bad(judgement.verdict)) {
        judgement.judged_by = JudgedBy::kKeepsAnswering;
        return judgement;
      }
    }
  }
  if (judgement.observation.outcome == Outcome::kDropped) {
    // The oracles judge a request dropped as one answered by silence (Channel::kNoReply), the
    // check the tables' "silent" column describes; the outcome stays in the case file.
    if (judgement.observation.detail.find("sentinel") == std::string::npos) {
      judgement.observation.detail = "no reply; the sentinel written after it was answered";
    }
    judgement.dropped = true;
  }
  judgement.verdict = Judge(sent.check_id, sent.request, judgement.observation, sent.context, text);
  if (!process) return judgement;

  // The process itself: the stdio rows judge a death the reply rows cannot.
  std::optional<Observation> end;
  if (ProcessEnded(judgement.observation)) {
    end = judgement.observation;
    // Whether the reply came out before the end or not, it is the same death.
    end->outcome = Outcome::kExited;
  } else if (process->ended_after_reply) {
    end = *process->ended_after_reply;
  }
  if (end) {
    Verdict died = Judge(check::kNoEarlyExit, sent.request, *end, JudgeContext{}, text);
    if (Bad(died)) {
      judgement.verdict = std::move(died);
      judgement.observation = std::move(*end);
      judgement.judged_by = JudgedBy::kProcess;
      return judgement;
    }
  }
  // And its stdout: only JSON-RPC messages may appear there, whatever the request was.
  if (!Bad(judgement.verdict) && !judgement.observation.stdout_lines.empty()) {
    Verdict stdout_verdict =
        Judge(check::kStdoutOnlyJsonRpc, sent.request, judgement.observation, JudgeContext{}, text);
    if (Bad(stdout_verdict)) {
      judgement.verdict = std::move(stdout_verdict);
      judgement.judged_by = JudgedBy::kStdout;
    }
  }
  return judgement;
}

// What the tables say about a check in a revision over a transport, for a check that sent
// nothing: the row a request with no headers would get.
Verdict Unsent(std::string_view check_id, Revision revision, TransportKind transport,
               VerdictKind kind, UnverifiedReason reason, std::string note) {
  Verdict verdict;
  verdict.check_id = std::string(check_id);
  verdict.kind = kind;
  verdict.unverified_reason = reason;
  Request bare;
  bare.revision = revision;
  bare.transport = transport;
  if (const Expectation* row = FindExpectation(check_id, bare)) {
    verdict.expected = DescribeExpected(*row, transport);
    verdict.spec_reference = std::string(row->reference);
  }
  verdict.notes.push_back(std::move(note));
  return verdict;
}

}  // namespace

Judgement JudgeCase(const Case& sent, Observation observation,
                    const std::optional<ProcessHistory>& process, FindingRule rule,
                    VerdictText text) {
  Judgement judgement = Reach(sent, std::move(observation), process, text);
  judgement.finding = IsFinding(judgement.verdict, judgement.observation, rule);
  if (!judgement.finding) return judgement;
  if (text == VerdictText::kUnlessPass && judgement.verdict.kind == VerdictKind::kPass) {
    // Only the case's own verdict can be a PASS reached; it is reported, so it gets its text.
    judgement.verdict = Judge(sent.check_id, sent.request, judgement.observation, sent.context,
                              VerdictText::kAlways);
  }
  judgement.signature = Signature(judgement.verdict);
  judgement.signature_hash = SignatureHash(judgement.signature);
  return judgement;
}

Verdict NotApplicableVerdict(std::string_view check_id, Revision revision, TransportKind transport,
                             std::string reason) {
  return Unsent(check_id, revision, transport, VerdictKind::kNotApplicable, UnverifiedReason::kNone,
                std::move(reason));
}

Verdict UnreachableVerdict(std::string_view check_id, Revision revision, TransportKind transport,
                           bool era_spoken, std::string_view why) {
  return Unsent(check_id, revision, transport, VerdictKind::kUnverified,
                era_spoken ? UnverifiedReason::kTransportError : UnverifiedReason::kEraNotSpoken,
                "nothing was sent: " + std::string(why));
}

bool ServerSideFailure(Outcome outcome) {
  return outcome == Outcome::kTimeout || outcome == Outcome::kConnectionReset ||
         outcome == Outcome::kExited || outcome == Outcome::kAliveButDeaf;
}

}  // namespace mcpfuzz
