#pragma once
// Internal: sending one case and watching what it did to the server (a stdio process that died
// or went deaf on it), for the oracles' judgement of the exchange.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "campaign/detail/session.h"
#include "oracles/judgement.h"

namespace mcpfuzz::campaign_detail {

/// One exchange and its judgement (oracles/judgement.h), under the campaign's finding rule.
using Judged = Judgement;

/// Sends `sent` on `session` and judges it. Over stdio a sentinel follows it, so a request the
/// server drops is known in one round trip. With `settle`, what the next request on the same
/// process got (that sentinel, or a probe) shows whether a stdio server ended right after
/// answering, however the scheduler ordered its reply and its exit (used when re-checking a
/// death found between two exchanges).
Judged SendAndJudge(Session& session, const Case& sent, bool settle);

/// The sentinel written behind a stdio request, and what it got.
struct SentinelSeen {
  const Request& request;
  const Observation& observation;
};

/// Judges what `sent` got (`observation`, already sent on `session`) as SendAndJudge does.
/// Without `sentinel`, a stdio request left unanswered is followed by one now.
Judged JudgeExchange(Session& session, const Case& sent, Observation observation,
                     const std::optional<SentinelSeen>& sentinel, bool settle);

/// The observation of a stdio server that ended between exchanges, to judge its death by.
Observation ExitObservation(const ProcessExit& exit);

}  // namespace mcpfuzz::campaign_detail
