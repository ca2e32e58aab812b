#pragma once
// `mcpfuzz fuzz` and `mcpfuzz replay`.

#include <ostream>
#include <string>
#include <vector>

#include "campaign/campaign.h"
#include "cli/options.h"
#include "cli/target.h"
#include "reports/report.h"

namespace mcpfuzz::cli {

/// The campaign `settings` ask for: a fresh random seed unless --seed was given; with --time
/// and no --cases, no case limit.
CampaignOptions ToCampaignOptions(const FuzzSettings& settings, ReproducerTarget reproducer);

/// 1 when a finding was seen again on a re-send (or none was asked for), 0 otherwise: a
/// finding re-sent 0 of N times is still reported, labelled flaky, without failing the run.
int FindingsExitCode(const CampaignResult& result);
/// The same, for a campaign's report (a merged one too: `mcpfuzz merge`).
int FindingsExitCode(const reports::Report& report);

/// Prints every generator family with its description (`fuzz --list-families`).
void ListFamilies(std::ostream& out);

/// Returns 0 (no finding), 1 (findings) or 2 (could not run, or a file could not be written).
int RunFuzz(const FuzzSettings& settings, Target& target, std::ostream& out, std::ostream& err);

/// Returns 0 (no case still fails), 1 (some still fail) or 2 (unreadable file, unreachable
/// target).
/// `report_files` get the outcome of every case.
int RunReplay(const std::string& path, const std::vector<ReportFile>& report_files, Target& target,
              std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
