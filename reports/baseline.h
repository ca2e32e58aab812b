#pragma once
// Known failures, so CI can fail only on what is new: a baseline lists the checks that FAIL
// today; a later `check` fails on a FAIL not listed and on a listed entry that no longer fails
// (so fixed failures leave the baseline instead of hiding a regression later). For `fuzz` and
// `replay` it lists findings by signature: a listed one does not fail the run, and one listed
// but not seen is reported as stale without failing it (a fuzz run samples: not seeing a
// finding proves no fix).

#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "model/request.h"
#include "model/result.h"
#include "model/revision.h"

namespace mcpfuzz::reports {

/// One known failure: a check id in one revision over one transport; or a fuzz or replay
/// finding, keyed by its signature alone (the same finding may turn up in any revision), with
/// `revision` and `transport` left at their defaults.
struct BaselineEntry {
  std::string id;
  Revision revision = kLatestRevision;
  TransportKind transport = TransportKind::kHttp;
  /// A finding's signature (oracles/judgement.h); empty for a check's entry.
  std::string signature;
  bool operator==(const BaselineEntry&) const = default;
};

/// "tools.unknown-name@2025-11-25/http", or a finding's signature.
std::string ToString(const BaselineEntry& entry);

struct Baseline {
  /// `check`: FAILs (under --fail-on warn, WARNs too) by check, revision and transport.
  std::vector<BaselineEntry> known_failures;
  /// `fuzz` and `replay`: findings by signature.
  std::vector<BaselineEntry> known_findings;
};

/// {"format":"mcpfuzz-baseline","version":1,"known_failures":[{"id":…,"revision":…,"transport":…}],
///  "known_findings":[{"id":…,"signature":…}]} (known_findings only when there are some)
boost::json::value BaselineToJson(const Baseline& baseline);
Result<Baseline> BaselineFromJson(const boost::json::value& json);

/// A run measured against a baseline.
struct BaselineComparison {
  /// FAILs the baseline does not list: these fail CI.
  std::vector<BaselineEntry> new_failures;
  /// Listed entries judged PASS or WARN in this run: these fail CI too, until removed.
  std::vector<BaselineEntry> no_longer_failing;
  /// Listed entries this run did not judge (the check, revision or transport was not run, or
  /// was NOT_APPLICABLE or UNVERIFIED): nothing is known about them, so they are neither fixed
  /// nor failing, and they do not fail CI.
  std::vector<BaselineEntry> not_run;
  /// Listed entries that still FAIL (fuzz, replay: findings seen again): known, tolerated.
  std::vector<BaselineEntry> still_failing;
  /// Fuzz and replay: listed findings this run did not see. Reported so the baseline can be
  /// pruned; they do not fail the run.
  std::vector<BaselineEntry> stale;
  bool Clean() const { return new_failures.empty() && no_longer_failing.empty(); }
};

}  // namespace mcpfuzz::reports
