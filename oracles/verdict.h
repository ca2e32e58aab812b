#pragma once
// What an oracle concludes about one observed answer. Every check gets its own verdict; verdicts
// are never merged into a score.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/channel.h"
#include "model/observation.h"

namespace mcpfuzz {

/// How strongly the spec asks for something (RFC 2119). MUST NOT folds into kMust and SHOULD NOT
/// into kShould: what matters to a verdict is whether breaking it fails or warns.
enum class Strength {
  kMust,    ///< Breaking it is a FAIL.
  kShould,  ///< Breaking it is a WARN.
  kMay,     ///< Informational; never changes a verdict.
};
std::string_view ToString(Strength strength);

/// The outcome of one check. Never combined across checks.
enum class VerdictKind {
  kPass,           ///< The answer is fully conformant.
  kWarn,           ///< A SHOULD was broken, or only a tolerated alternative was given.
  kFail,           ///< A MUST was broken.
  kUnverified,     ///< The check could not see the server's own answer; see UnverifiedReason.
  kNotApplicable,  ///< The target never claimed what the check needs, or no row covers it.
};
std::string_view ToString(VerdictKind kind);
/// How much a verdict matters, for "the worst verdict wins": FAIL 4, WARN 3, UNVERIFIED 2,
/// PASS 1, NOT_APPLICABLE 0.
int Severity(VerdictKind kind);

/// Why a check could not see the server's own answer.
enum class UnverifiedReason {
  kNone,
  kCredentialRequired,  ///< HTTP 401/403: turned away before the check was reached.
  kRateLimited,         ///< HTTP 429/503: the server declined to answer now.
  kTransportError,      ///< The exchange did not complete (timeout, refused, reset, exited).
  kEraNotSpoken,        ///< The caller found that the target does not speak the revision.
};
std::string_view ToString(UnverifiedReason reason);

/// Which part of an answer a finding is about.
enum class Aspect {
  kChannel,     ///< Protocol error vs execution error vs result vs silence.
  kCode,        ///< error.code.
  kHttpStatus,  ///< The HTTP status line.
  kData,        ///< Required members of error.data.
  kShape,       ///< The shape of a result, a batch reply, stdout, or the process.
  kEnvelope,    ///< JSON-RPC framing rules every reply obeys (id, jsonrpc, result/error).
  kLeak,        ///< Internal details (stack traces, paths, hosts) in error text.
};
std::string_view ToString(Aspect aspect);

/// One problem found in an answer.
struct Finding {
  Aspect aspect = Aspect::kChannel;
  /// The strength of the rule that was broken; a tolerated alternative counts as kShould.
  Strength strength = Strength::kMust;
  std::string text;
};

/// The effect a finding of `strength` has on a verdict: kFail, kWarn or kPass (for kMay).
VerdictKind EffectOf(Strength strength);

/// An inclusive range of HTTP status codes: {404, 404} or {400, 499}.
struct StatusRange {
  int low = 0;
  int high = 0;
  bool Contains(int status) const { return status >= low && status <= high; }
  bool operator==(const StatusRange&) const = default;
};
/// "404", "4xx", "200-204".
std::string ToString(StatusRange range);

/// What the check's row expects, copied into the verdict so reports stand alone.
struct ExpectedAnswer {
  std::vector<Channel> channels;   ///< Fully conformant channels; empty means not asserted.
  std::vector<Channel> tolerated;  ///< Accepted with a WARN.
  std::vector<std::int64_t> codes;
  std::vector<std::int64_t> forbidden_codes;
  std::vector<StatusRange> http_statuses;  ///< Empty when the spec pins none (or on stdio).
  std::vector<StatusRange> tolerated_http_statuses;
  std::vector<std::string> data_members;
  /// For people: "protocol_error -32602 (HTTP 400)", "success (HTTP 2xx) [discover_result]",
  /// "execution_error; tolerated: protocol_error -32602".
  std::string text;
};

/// What came back, reduced to what a verdict talks about.
struct ObservedAnswer {
  Outcome outcome = Outcome::kOk;
  Channel channel = Channel::kNoReply;
  std::optional<std::int64_t> code;
  int http_status = 0;
  /// The error message, the first text of a result, or the start of a non-JSON reply; capped.
  std::string excerpt;
};

/// The judgement of one check on one exchange.
struct Verdict {
  std::string check_id;
  VerdictKind kind = VerdictKind::kNotApplicable;
  /// The strength of the rule that decided the verdict: the broken rule for FAIL and WARN, the
  /// row's channel rule otherwise.
  Strength strength = Strength::kMust;
  UnverifiedReason unverified_reason = UnverifiedReason::kNone;
  ExpectedAnswer expected;
  ObservedAnswer observed;
  /// The tables' keys, e.g. "R4:server/tools.mdx; tables §6 T1".
  std::string spec_reference;
  /// Every individual problem, in the order found. A PASS, WARN or FAIL is the worst of them.
  std::vector<Finding> findings;
  /// Context that is not a problem: why a verdict is UNVERIFIED or NOT_APPLICABLE, or that a
  /// bare HTTP 4xx counted as a permitted refusal.
  std::vector<std::string> notes;
};

/// "protocol_error -32602 (HTTP 400)" for what a verdict observed (model/channel.h).
std::string DescribeObserved(const ObservedAnswer& observed);

/// One line for people: "FAIL tools.unknown-name: expected protocol_error -32602, got success;
/// MUST: answered with success (result); expected protocol_error".
std::string Summarize(const Verdict& verdict);

/// The longest excerpt a verdict keeps, in bytes.
inline constexpr std::size_t kExcerptLimit = 200;
/// `text` cut to at most `limit` bytes without splitting a UTF-8 sequence; "…" marks a cut.
std::string Excerpt(std::string_view text, std::size_t limit = kExcerptLimit);

}  // namespace mcpfuzz
