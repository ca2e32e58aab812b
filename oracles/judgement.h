#pragma once
// The judgement of one exchange, the one place every command reaches it (check, fuzz, replay,
// the libFuzzer harnesses): the case's own verdict, or the process or stdout verdict that
// overrides it; whether that is a finding; and what makes two findings the same. Pure: the
// caller sends, watches the process and passes what it saw as data.

#include <optional>
#include <string>
#include <string_view>

#include "model/observation.h"
#include "model/request.h"
#include "model/revision.h"
#include "oracles/oracle.h"
#include "oracles/verdict.h"

namespace mcpfuzz {

/// One request, the check whose rule it breaks, and what the judge knows about the target.
struct Case {
  Request request;
  /// The check (check_ids.h); Judge is asked exactly this.
  std::string check_id;
  JudgeContext context;
};

/// A well-formed request written behind another on stdio, and what it got.
struct SentinelExchange {
  Request request;
  Observation observation;
};

/// What the caller saw of a stdio server's process around one exchange. Only a stdio server has
/// a process to judge: over HTTP there is no history (std::nullopt).
struct ProcessHistory {
  /// For a request met with silence (Outcome::kAliveButDeaf): the sentinel sent behind it.
  /// Answered, the silence was the server's answer to the request (it dropped it); not
  /// answered, the server stopped answering (stdio.keeps-answering). Read only on silence.
  std::optional<SentinelExchange> sentinel;
  /// The process's end seen while watching it briefly after the reply (an Outcome::kExited
  /// observation). An end the observation itself shows needs no watching.
  std::optional<Observation> ended_after_reply;
};

/// Which verdict the judgement reached.
enum class JudgedBy {
  kCase,            ///< The case's own check.
  kKeepsAnswering,  ///< stdio.keeps-answering: the server stopped answering on the request.
  kProcess,         ///< stdio.no-early-exit: the process ended on it.
  kStdout,          ///< stdio.stdout-only-jsonrpc: stdout carried more than JSON-RPC messages.
};

/// What counts as a finding. The two rules exist because their callers do different things
/// with a finding; both are kept as they were, and this is the only place they differ.
enum class FindingRule {
  /// `mcpfuzz fuzz`, its shrinking and replay: a finding is listed, re-sent and shrunk, so a
  /// WARN counts; and so does an exchange the server broke off or never answered (the oracles
  /// can only call it UNVERIFIED transport_error). A stdio silence has been settled by the
  /// sentinel already (a drop or deafness), so silence needs no exception here.
  kCampaign,
  /// The libFuzzer harnesses: a finding aborts the process, so only a FAIL counts (a WARN would
  /// end every run at the first SHOULD); a timeout or deafness counts unless the row tolerates
  /// silence (without a sentinel a dropped message looks like a hang); a reset or exit counts;
  /// and none of these counts when mcpfuzz itself ended the server.
  kHarness,
};

/// The judgement of one exchange.
struct Judgement {
  /// The verdict reached: the case's, or the process or stdout verdict that overrides it.
  Verdict verdict;
  /// The observation `verdict` was judged on: the one given; for kKeepsAnswering the
  /// sentinel's; for kProcess the process's end.
  Observation observation;
  JudgedBy judged_by = JudgedBy::kCase;
  /// The exchange ended without a reply in time (the server was slow, hung, or, over stdio,
  /// silently dropped a message it found invalid).
  bool timed_out = false;
  /// The verdict rests on a drop learnt from the sentinel: a server that answers out of order
  /// may have answered the request late.
  bool dropped = false;
  bool finding = false;
  /// For a finding: what makes two failures the same, check id, verdict, expected answer,
  /// observed channel, code and HTTP status, and the outcome of a failed exchange (the stdio
  /// checks, which judge the process and not the reply, leave the reply out). Empty otherwise.
  std::string signature;
  /// A short, stable hash of `signature` (10 hex digits); empty when it is.
  std::string signature_hash;
};

/// Judges `observation`, the answer to `sent.request`, as `sent.check_id`, then, with a
/// process history, the process: a death (stdio.no-early-exit) or deafness
/// (stdio.keeps-answering) that is FAIL or WARN replaces the case's verdict, whatever it was;
/// and stdout (stdio.stdout-only-jsonrpc), whose FAIL or WARN replaces the case's verdict only
/// when that was neither. With VerdictText::kUnlessPass a PASS that is a finding all the same
/// (a crash) is judged again in full, since its text is reported.
Judgement JudgeCase(const Case& sent, Observation observation,
                    const std::optional<ProcessHistory>& process,
                    FindingRule rule = FindingRule::kCampaign,
                    VerdictText text = VerdictText::kAlways);

/// The verdict of a check that sent nothing because the target has nothing it exercises:
/// NOT_APPLICABLE with `reason`, the row for (check id, revision, transport) described.
Verdict NotApplicableVerdict(std::string_view check_id, Revision revision, TransportKind transport,
                             std::string reason);
/// The verdict of a check that sent nothing because the target could not be reached or was
/// given up on: UNVERIFIED transport_error (era_not_spoken when the target does not speak the
/// revision), noting "nothing was sent: `why`".
Verdict UnreachableVerdict(std::string_view check_id, Revision revision, TransportKind transport,
                           bool era_spoken, std::string_view why);

// SentinelAnswered and ProcessEnded are model/channel.h's.

/// An exchange that ended without an answer because of the server: a timeout, a reset
/// connection, a process that exited or stopped answering.
bool ServerSideFailure(Outcome outcome);

}  // namespace mcpfuzz
