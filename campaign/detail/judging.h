#pragma once
// Internal: sending one case and watching what it did to the server (a stdio process that died
// or went deaf on it), for the oracles' judgement of the exchange.

#include <optional>

#include "generators/generated_case.h"
#include "oracles/judgement.h"
#include "transport/session.h"

namespace mcpfuzz::campaign_detail {

/// One exchange and its judgement (oracles/judgement.h), under the campaign's finding rule.
using Judged = Judgement;

/// Sends `sent` on `session` and judges it. Over stdio a sentinel follows it, so a request the
/// server drops is known in one round trip. With `settle`, what the next request on the same
/// process got (that sentinel, or one sent now) shows whether a stdio server ended right after
/// answering, however the scheduler ordered its reply and its exit (used when re-checking a
/// death found between two exchanges). With `alone`, the case waits for its own reply under
/// the full limit (TargetSession::SendAlone).
Judged SendAndJudge(TargetSession& session, const Case& sent, bool settle, bool alone = false);

/// Judges what `sent` got (`observation`, already sent on `session`) as SendAndJudge does, with
/// `sentinel`, the sentinel written behind it and what that got, when there was one.
Judged JudgeExchange(TargetSession& session, const Case& sent, Observation observation,
                     const std::optional<Exchange>& sentinel, bool settle);

/// The observation of a stdio server that ended between exchanges, to judge its death by.
Observation ExitObservation(const ProcessExit& exit);

/// The target as `session` saw it when it opened, for the generators.
GenContext ContextOf(const TargetSession& session);

}  // namespace mcpfuzz::campaign_detail
