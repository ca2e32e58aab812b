#pragma once
// The report of one `mcpfuzz fuzz` run: the JSON document (format mcpfuzz-fuzz-report,
// version 1; each finding in the case-file form of campaign/finding_file.h) and the terminal
// summary.

#include <boost/json/value.hpp>
#include <ostream>

#include "campaign/campaign.h"
#include "reports/check_report.h"

namespace mcpfuzz::reports {

inline constexpr std::string_view kFuzzReportFormat = "mcpfuzz-fuzz-report";
inline constexpr int kFuzzReportVersion = 1;

boost::json::value FuzzReportToJson(const RunInfo& info, const CampaignOptions& options,
                                    const CampaignResult& result);

/// The seed, the eras, the counts and cases/s, then each finding: check, signature, stable or
/// flaky, the case file, and the reproducer of its minimal case.
void PrintFuzzReport(const RunInfo& info, const CampaignOptions& options,
                     const CampaignResult& result, std::ostream& out);

}  // namespace mcpfuzz::reports
