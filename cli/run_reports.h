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

reports::Report BuildCheckReport(const reports::RunInfo& info, const checks::CheckRun& run,
                                 const reports::BaselineComparison* baseline);
reports::Report BuildFuzzReport(const reports::RunInfo& info, const CampaignOptions& options,
                                const CampaignResult& result);
reports::Report BuildReplayReport(const reports::RunInfo& info, const ReplayResult& result);

/// The baseline of a run: every FAIL in it.
reports::Baseline BaselineOf(const checks::CheckRun& run);

/// A run measured against a baseline: a later run fails on a FAIL not listed and on a listed
/// entry that no longer fails.
reports::BaselineComparison Compare(const checks::CheckRun& run, const reports::Baseline& baseline);

}  // namespace mcpfuzz::cli
