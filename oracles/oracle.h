#pragma once
// The oracle: a pure function from (check, request, observation) to a verdict.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/observation.h"
#include "model/request.h"
#include "oracles/name_answer.h"
#include "oracles/verdict.h"

namespace mcpfuzz {

/// What the caller knows about the target beyond this one exchange.
struct JudgeContext {
  /// The target declared what the check exercises: the tools, prompts, resources or logging
  /// capability, or (sessions.*) it assigned an Mcp-Session-Id. For capabilities.unadvertised,
  /// whether it declared the capability the probed method belongs to. Ignored by checks
  /// that need nothing.
  bool capability_declared = true;
  /// The target speaks the request's revision (from the era probe). When false, every verdict
  /// is UNVERIFIED era_not_spoken, but for stdio.stdout-only-jsonrpc on stdout that breaks
  /// its MUST: stdout framing binds every revision, so that FAIL stands without one.
  bool era_spoken = true;
  /// tools.bad-arguments: the argument the request got wrong, which the error should name.
  std::string argument_name;
  /// names.unknown-consistent: what the target answered to a random name of the same method,
  /// which the answer to an impossible one must match up to the name.
  std::optional<NameAnswer> random_name_answer;
  /// Handshake era, in a sequence: the level a logging/setLevel the server answered set for the
  /// session this request travels in. A log message below it is tolerated only (tables §7 G4).
  std::optional<std::string> session_log_level;
  /// Handshake era, in a sequence: the resource URIs a resources/unsubscribe the server answered
  /// ended in this session. An update for one of them after that is tolerated only (§7 R4s).
  std::vector<std::string> unsubscribed_uris;
  /// In a sequence over stdio: the progressTokens of requests the server answered. A progress
  /// notification carrying one of them breaks a MUST (tables §4a L10a).
  std::vector<boost::json::value> finished_progress_tokens;
  /// Handshake era over HTTP: the Mcp-Session-Id the request travelled in (Exchange::session_id),
  /// so an answer naming another one opened a new session (tables §4a L8a). Empty: none, or
  /// not known.
  std::string session_id;
};

/// How much of a verdict Judge writes for people.
enum class VerdictText {
  /// Every verdict complete: what `check` reports show for each check, PASS included.
  kAlways,
  /// A PASS leaves expected.text, observed.excerpt and spec_reference empty (its kind,
  /// strength, structured expectation, observed channel, code and status, findings and notes
  /// are all there); every other verdict is complete. For callers that act on the other
  /// verdicts only, such as the fuzz targets, where the text costs a good part of a verdict.
  kUnlessPass,
};

/// Judges `observation`, the answer to `request`, as the check `check_id` (check_ids.h).
///
/// Looks up the row for (check_id, revision, transport); none gives NOT_APPLICABLE. Then, in
/// order: era not spoken → UNVERIFIED (unless stdout broke its framing MUST); capability not
/// declared → NOT_APPLICABLE; a failed exchange → UNVERIFIED transport_error (except checks about
/// the process itself); HTTP 401/403 → UNVERIFIED credential_required and 429/503 → rate_limited,
/// unless the row expects exactly that status. Otherwise channel, code, HTTP status, error data,
/// the check's shape check, the reply envelope and leaks are judged; the verdict is the worst
/// finding.
Verdict Judge(std::string_view check_id, const Request& request, const Observation& observation,
              const JudgeContext& context = {}, VerdictText text = VerdictText::kAlways);

}  // namespace mcpfuzz
