#pragma once
// Builds the one report model (reports/report.h) from what `check`, `fuzz` and `replay`
// return. Credentials are redacted here, once, so no writer can forget to.

#include <boost/json/value.hpp>

#include "campaign/campaign.h"
#include "checks/checks.h"
#include "reports/baseline.h"
#include "reports/report.h"

namespace mcpfuzz::reports {

/// The section of one target checked by `mcpfuzz check`.
TargetSection CheckSection(const RunInfo& info, const checks::CheckRun& run,
                           const BaselineComparison* baseline);

Report BuildCheckReport(const RunInfo& info, const checks::CheckRun& run,
                        const BaselineComparison* baseline);
Report BuildFuzzReport(const RunInfo& info, const CampaignOptions& options,
                       const CampaignResult& result);
Report BuildReplayReport(const RunInfo& info, const ReplayResult& result);

/// A request as JSON (model/case_file.h) with secret header values redacted.
boost::json::value RedactedRequestJson(const Request& request);
/// An observation as JSON with secret response header values redacted.
boost::json::value RedactedObservationJson(const Observation& observation);

}  // namespace mcpfuzz::reports
