#pragma once
// Differential runs behind `mcpfuzz diff`: the same seeded cases sent to several targets, each
// target's answer reduced to (channel, JSON-RPC code, HTTP status), and every case whose answers
// differ kept as a disagreement, labelled by what the oracle thinks of each side.
//
// Comparable cases. The targets may speak different revisions and list different tools, so
// cases are drawn from one context common to all of them: the one revision every target speaks
// (the newest, or --revision), the capabilities, tools, prompts and resources they all declare,
// and only the families that apply to every target. Targets on one transport get the very same
// case (one generator); targets on another transport get the case of the same seed index drawn
// from the same context with that transport, the family picked identically, and a case index
// whose check differs between transports is counted as not comparable instead of compared.
// Mixing HTTP and stdio leaves the HTTP status out of the comparison (stdio has none).
//
// A disagreement is deduplicated by (check, tuple of answers), shrunk through the generator's
// shrink tree to the smallest request whose answers keep the same tuple (when every target is
// on one transport: one request, one shrink tree), and carries one reproducer per target.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/channel.h"
#include "model/observation.h"
#include "model/reproducer.h"
#include "model/request.h"
#include "model/revision.h"
#include "oracles/verdict.h"
#include "transport/client.h"
#include "transport/era_probe.h"

namespace mcpfuzz {

/// One target of a differential run.
struct DiffTarget {
  /// For people and reports: the URL or "stdio: command".
  std::string name;
  TransportFactory connect;
  /// Where its reproducers send the request (cli/target.h Target::ReproduceAt).
  ReproducerTarget reproducer;
};

struct DiffOptions {
  std::uint64_t seed = 1;
  std::size_t max_cases = 1000;
  std::optional<std::chrono::milliseconds> duration;
  /// Generator families by name; empty means every family that calls no real tool. Only those
  /// that apply to every target are drawn from.
  std::set<std::string> families;
  /// The revision to compare in; nothing means the newest revision every target speaks.
  std::optional<Revision> revision;
  /// Requests (per target) spent shrinking one disagreement.
  std::size_t max_shrink_sends = 60;
  std::chrono::milliseconds max_shrink_time{20000};
  const std::atomic<bool>* stop = nullptr;
  /// The last target is a baseline (`--baseline-server`: a minimal server on the same SDK and
  /// version): every other target's answer is marked inherited when it equals the baseline's,
  /// and cases whose answers all agree are kept too when some side FAILs or WARNs, so a
  /// deviation every target inherits from the SDK is listed as well.
  bool last_is_baseline = false;
  /// Shard K of N (1-based) of the case indices: only indices i with i % N == K - 1 are sent.
  std::size_t shard_index = 1;
  std::size_t shard_count = 1;
};

/// One target's answer to one case, normalised for comparison.
struct DiffAnswer {
  Channel channel = Channel::kNoReply;
  std::optional<std::int64_t> code;
  /// 0 over stdio, and whenever the run mixes transports.
  int http_status = 0;
  /// Set only when the exchange failed (a timeout, a reset, an exit).
  std::optional<Outcome> failure;
  bool operator==(const DiffAnswer&) const = default;
};
/// "protocol_error -32602 (HTTP 200)", "no_reply (timeout)".
std::string ToString(const DiffAnswer& answer);

/// How the oracle sees the two (or more) sides of a disagreement.
enum class DiffLabel {
  /// No side FAILs (each PASS or WARN, or a verdict the oracle could not reach): the answers
  /// are merely different.
  kMerelyDifferent,
  kSomeWrong,  ///< At least one FAIL and at least one answer that is not.
  kAllWrong,   ///< Every answer a FAIL.
  /// Every target gave the same answer; kept only with a baseline (last_is_baseline), because
  /// some side FAILs or WARNs: a deviation every target inherits.
  kAgreeing,
};
/// "merely-different", "some-wrong", "all-wrong", "agreeing".
std::string_view ToString(DiffLabel label);

/// One target's side of a disagreement.
struct DiffCell {
  DiffAnswer answer;
  /// The oracle's verdict on this target's answer (to the minimal request).
  Verdict verdict;
  /// PASS or WARN: the oracle accepts this answer.
  bool accepted = false;
  /// A shell command sending the minimal request to this target.
  std::string reproducer;
  /// With a baseline: the same answer as the baseline's (inherited from the SDK); false for the
  /// target's own answer and for the baseline's cell.
  bool inherited = false;
};

/// One distinct disagreement: a check and a tuple of answers.
struct Disagreement {
  std::string check_id;
  std::string family;
  std::string variant;
  Revision revision = kLatestRevision;
  /// The first case index that showed it.
  std::size_t case_index = 0;
  DiffLabel label = DiffLabel::kMerelyDifferent;
  /// One per target, in target order.
  std::vector<DiffCell> cells;
  /// The smallest request with the same tuple of answers, and the body size of the one first
  /// sent: one per transport, in the order the targets first use it (every target of a
  /// transport is sent the same request, and one may be megabytes).
  std::vector<Request> minimal;
  std::vector<std::size_t> original_bytes;
  std::size_t shrink_steps = 0;
  std::size_t shrink_sends = 0;
  /// Later cases with the same check and tuple (not shrunk again).
  std::size_t repeats = 0;
};

/// Per check: how many cases were compared, and how many of them disagreed.
struct DiffCheckCount {
  std::string check_id;
  std::size_t cases = 0;
  std::size_t disagreeing = 0;
};

struct DiffResult {
  std::vector<std::string> targets;
  std::vector<TransportKind> transports;
  /// What each target announced when its session opened (McpClient::server_info), in target
  /// order; nothing for a target that announced nothing or whose session did not open.
  std::vector<std::optional<ServerInfo>> server_info;
  /// The revision compared in; nothing when the targets share none (see notes).
  std::optional<Revision> revision;
  std::size_t cases = 0;
  /// Case indices drawn whose check differed between transports, or failed to generate.
  std::size_t incomparable = 0;
  std::vector<Disagreement> disagreements;
  /// In check-id order.
  std::vector<DiffCheckCount> checks;
  std::vector<std::string> notes;
  std::chrono::milliseconds elapsed{0};
  /// Some target could not be opened: nothing was compared.
  bool unreachable = false;
  /// Per target, in target order, once the run got that far: its era probe (none with
  /// --revision), where why a target was not reached is; and why it could not be judged, ""
  /// for one that could.
  std::vector<EraReport> eras;
  std::vector<std::string> not_judged;
};

/// Runs a differential campaign. Never throws; targets that cannot be reached end up in
/// `notes` with `unreachable` set.
DiffResult RunDiff(const std::vector<DiffTarget>& targets, const DiffOptions& options);

/// True when some disagreement has a wrong side (kSomeWrong or kAllWrong; an agreeing row is
/// no disagreement).
bool AnyWrongSide(const DiffResult& result);

}  // namespace mcpfuzz
