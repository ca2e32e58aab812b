#pragma once
// The report of a differential run (`mcpfuzz diff`), as plain data: the disagreement matrix,
// checks × targets, each cell one target's answer with the oracle's verdict on it. Built in
// cli/diff.cc from what campaign/differential.h returns; every writer renders it (diff_*.cc).

#include <algorithm>
#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"
#include "transport/client.h"

namespace mcpfuzz::reports {

struct Report;

/// One target's side of a disagreement.
struct DiffCellReport {
  /// "protocol_error -32602 (HTTP 200)".
  std::string answer;
  /// The oracle's verdict on it: "PASS", "FAIL", …
  std::string verdict;
  /// PASS or WARN: the conformant cells the matrix marks.
  bool accepted = false;
  /// A shell command sending the minimal request to this target.
  std::string reproducer;
  /// With a baseline server (the last target): "inherited" (the baseline's answer too) or
  /// "own"; empty without one, and for the baseline itself.
  std::string provenance;
};

/// One row of the matrix: one distinct disagreement (a check and a tuple of answers).
struct DiffRow {
  std::string check_id;
  /// "merely-different", "some-wrong", "all-wrong", or with a baseline "agreeing".
  std::string label;
  std::string family;
  std::string variant;
  std::string revision;
  std::size_t case_index = 0;
  std::size_t repeats = 0;
  std::size_t shrink_steps = 0;
  /// Wire bytes of the first request sent and of the minimal one (first target's).
  std::size_t original_bytes = 0;
  std::size_t minimal_bytes = 0;
  /// The minimal request as the first target got it, in the case-file form.
  boost::json::value minimal_request;
  /// In target order.
  std::vector<DiffCellReport> cells;
  bool WrongSide() const { return label == "some-wrong" || label == "all-wrong"; }
  /// Some side's answer is only tolerated or breaks a SHOULD.
  bool SomeSideWarns() const {
    return std::any_of(cells.begin(), cells.end(),
                       [](const DiffCellReport& cell) { return cell.verdict == "WARN"; });
  }
};

/// Per check: cases compared and how many disagreed.
struct DiffCheckReport {
  std::string check_id;
  std::size_t cases = 0;
  std::size_t disagreeing = 0;
};

struct DiffTargetReport {
  std::string name;
  /// "http" or "stdio".
  std::string transport;
  /// What the target announced itself as when its session opened (as in a check report);
  /// nothing when it announced nothing or was not reached.
  std::optional<ServerInfo> server_info;
  /// Set when the target could not be judged: why, as a survey's TargetSection::error.
  std::string error;
};

struct DiffSection {
  std::uint64_t seed = 0;
  /// "2025-11-25"; empty when none was shared.
  std::string revision;
  /// Case indices drawn, and those not comparable across transports.
  std::size_t cases = 0;
  std::size_t incomparable = 0;
  /// "K/N" when the run was one shard of N; empty otherwise.
  std::string shard;
  std::vector<DiffTargetReport> targets;
  std::vector<DiffCheckReport> checks;
  /// Rows in the order found.
  std::vector<DiffRow> rows;
  std::vector<std::string> notes;
  /// The last target is the baseline server (`--baseline-server`).
  bool baseline = false;
  std::size_t WrongSideCount() const;
};

// The renderings of a diff report, one per writer (each writer calls its own for kDiff).
boost::json::value DiffToJson(const Report& report);
void WriteDiffTerminal(const Report& report, std::ostream& out);
void WriteDiffMarkdown(const Report& report, std::ostream& out);
void WriteDiffHtml(const Report& report, std::ostream& out);
void WriteDiffJunit(const Report& report, std::ostream& out);
/// `sarif_root` as SarifOptions::root (reports/writers.h): a diff row has no case file.
void WriteDiffSarif(const Report& report, std::ostream& out, std::string_view sarif_root);

/// A diff report read back from its JSON (DiffToJson), for `mcpfuzz merge`.
Result<Report> DiffReportFromJson(const boost::json::value& value);

/// The reports of the shards of one run (same seed, revision and targets; each shard 1..N once,
/// as ShardProblem in reports/merge.h says) as the unsharded run writes it: cases and per-check
/// counts summed; each disagreement (check and tuple of answers) kept once, from the shard that met
/// it at the lowest case index, with the others' cases added to its repeats; rows ordered by that
/// index. The run's start is the earliest shard's, its duration the longest shard's (shards run
/// side by side): the two members that differ from an unsharded run's.
Result<Report> MergeDiffReports(const std::vector<Report>& shards);

}  // namespace mcpfuzz::reports
