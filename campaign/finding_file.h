#pragma once
// A campaign's finding as the case-file record of reports/finding_file.h: what the campaign
// writes into --corpus and the fuzz report carries.

#include <cstdint>

#include "campaign/campaign.h"
#include "reports/finding_file.h"

namespace mcpfuzz {

/// The record of `finding`, found in the campaign of `seed`.
FindingRecord RecordOf(const CampaignFinding& finding, std::uint64_t seed);

}  // namespace mcpfuzz
