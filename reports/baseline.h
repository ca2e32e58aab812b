#pragma once
// Known failures, so CI can fail only on what is new: a baseline lists the checks that FAIL
// today; a later run fails on a FAIL not listed and on a listed entry that no longer fails
// (so fixed failures leave the baseline instead of hiding a regression later).

#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "model/request.h"
#include "model/result.h"
#include "model/revision.h"

namespace mcpfuzz::reports {

/// One known failure: a check id in one revision over one transport.
struct BaselineEntry {
  std::string id;
  Revision revision = kLatestRevision;
  TransportKind transport = TransportKind::kHttp;
  bool operator==(const BaselineEntry&) const = default;
};

/// "tools.unknown-name@2025-11-25/http"
std::string ToString(const BaselineEntry& entry);

struct Baseline {
  std::vector<BaselineEntry> known_failures;
};

/// {"format":"mcpfuzz-baseline","version":1,"known_failures":[{"id":…,"revision":…,"transport":…}]}
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
  /// Listed entries that still FAIL: known, tolerated.
  std::vector<BaselineEntry> still_failing;
  bool Clean() const { return new_failures.empty() && no_longer_failing.empty(); }
};

}  // namespace mcpfuzz::reports
