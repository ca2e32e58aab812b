#pragma once
// The one report model (reports/report.h) built from what `check`, `fuzz` and `replay` return,
// here where runs are assembled, so reports/ knows nothing of checks/ or campaign/.
// Credentials are redacted here, once (model/reproducer.h's RedactSecrets), so no writer can
// forget to; each reproducer is the one made when the result was.

#include "campaign/campaign.h"
#include "checks/checks.h"
#include "reports/baseline.h"
#include "reports/report.h"

namespace mcpfuzz::cli {

/// The section of one target checked by `mcpfuzz check`.
reports::TargetSection CheckSection(const reports::RunInfo& info, const checks::CheckRun& run,
                                    const reports::BaselineComparison* baseline);

// Each report is built judged by the default policy (--fail-on fail, no baseline); a run with
// other flags applies its own with ApplyExitPolicy.
reports::Report BuildCheckReport(const reports::RunInfo& info, const checks::CheckRun& run,
                                 const reports::BaselineComparison* baseline);
reports::Report BuildFuzzReport(const reports::RunInfo& info, const CampaignOptions& options,
                                const CampaignResult& result);
reports::Report BuildReplayReport(const reports::RunInfo& info, const ReplayResult& result);

/// The baseline of a check run: every result whose verdict fails the run under `fail_on`.
reports::Baseline BaselineOf(const checks::CheckRun& run,
                             reports::FailOn fail_on = reports::FailOn::kFail);

/// A check run measured against a baseline: a later run fails on a FAIL (under --fail-on warn,
/// a WARN too) not listed and on a listed entry that no longer fails.
reports::BaselineComparison Compare(const checks::CheckRun& run, const reports::Baseline& baseline,
                                    reports::FailOn fail_on = reports::FailOn::kFail);

/// The one exit policy, applied to a built report: sets its `fail_on`, marks each item that
/// fails the run (ReportItem::failing) or is known, and for fuzz and replay compares the
/// findings with `baseline` by signature (Report::baseline). A check's comparison is made
/// before (Compare, kept in its section); its listed entries are marked known here.
void ApplyExitPolicy(reports::Report& report, reports::FailOn fail_on,
                     const reports::Baseline* baseline);

/// The baseline a fuzz or replay report gives: every finding whose verdict fails the run under
/// its `fail_on`, flaky ones too (a later run may see them again), by signature.
reports::Baseline FindingsBaselineOf(const reports::Report& report);

/// 0 or 1 by the report's policy: 1 when an item or diff row fails the run, or a check's
/// baseline lists an entry that no longer fails; always 0 under --fail-on never. Reports of
/// runs that could not run are the callers' to turn into 2.
int FindingsExitCode(const reports::Report& report);

}  // namespace mcpfuzz::cli
