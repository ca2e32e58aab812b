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

/// Prints every generator family with its description (`fuzz --list-families`).
void ListFamilies(std::ostream& out);

/// Returns 0 (no finding fails the run under `policy`: none, only WARNs under --fail-on fail,
/// only flaky or known ones; or a baseline was written), 1 (findings that fail it) or 2 (could
/// not run, or a file could not be read or written).
int RunFuzz(const FuzzSettings& settings, const ExitPolicy& policy, Target& target,
            std::ostream& out, std::ostream& err);

/// Returns 0 (no case still fails the run under `policy`), 1 (some do) or 2 (unreadable file,
/// unreachable target). Each case is "still fails", "still warns", "fixed" or an error;
/// `report_files` get the outcome of every case.
int RunReplay(const std::string& path, const std::vector<ReportFile>& report_files,
              const ExitPolicy& policy, Target& target, std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
