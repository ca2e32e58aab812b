#pragma once
// Internal: sending one case and judging the answer, including what the answer did to the
// server (a stdio process that died or went deaf on it), and what makes two failures the same.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "campaign/detail/session.h"
#include "oracles/oracle.h"
#include "oracles/verdict.h"

namespace mcpfuzz::campaign_detail {

/// One exchange and the verdict that decides whether it is a finding.
struct Judged {
  Observation observation;
  /// The case's own verdict; or, over stdio, stdio.no-early-exit / stdio.keeps-answering when
  /// the server died or went deaf on the request, or stdio.stdout-only-jsonrpc when the case
  /// passed but stdout carried something else than JSON-RPC messages.
  Verdict verdict;
  /// The exchange ended without a reply in time (the server was slow, hung, or, over stdio,
  /// silently dropped a message it found invalid).
  bool timed_out = false;
  /// The verdict rests on a drop learnt from the sentinel behind the request: a server that
  /// answers out of order may have answered it late.
  bool dropped = false;
};

/// Sends `request` on `session` and judges it as `check_id`. Over stdio a sentinel follows it,
/// so a request the server drops is known in one round trip. With `settle`, a stdio server is
/// watched briefly after answering, so a death right after the reply is seen (used when
/// re-checking a death found between two exchanges).
Judged SendAndJudge(Session& session, const Request& request, std::string_view check_id,
                    const JudgeContext& context, bool settle);

/// The sentinel written behind a stdio request, and what it got.
struct SentinelSeen {
  const Request& request;
  const Observation& observation;
};

/// Judges what `request` got (`observation`, already sent on `session`) as SendAndJudge does.
/// Without `sentinel`, a stdio request left unanswered is followed by one now.
Judged JudgeExchange(Session& session, const Request& request, Observation observation,
                     const std::optional<SentinelSeen>& sentinel, std::string_view check_id,
                     const JudgeContext& context, bool settle);

/// True when the server answered `sentinel`: it read past the request written before it.
bool SentinelAnswered(const Request& sentinel, const Observation& observation);

/// The observation of a stdio server that ended between exchanges, to judge its death by.
Observation ExitObservation(const ProcessExit& exit);

/// True for an exchange that ended without an answer because of the server: a timeout, a
/// reset connection, a process that exited or stopped answering.
bool ServerSideFailure(Outcome outcome);

/// FAIL or WARN; or, over HTTP, an exchange the server broke off or never answered (a crash
/// or a hang), which the oracles can only call UNVERIFIED.
bool IsFinding(const Verdict& verdict);

/// What makes two failures the same: check id, verdict, expected answer, observed channel,
/// code and HTTP status, and the outcome of a failed exchange. For the stdio checks, which
/// judge the process and not the reply, the reply is left out.
std::string Signature(const Verdict& verdict);
/// A short, stable hash of a signature (10 hex digits).
std::string SignatureHash(std::string_view signature);

}  // namespace mcpfuzz::campaign_detail
