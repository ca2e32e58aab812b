#include "campaign/finding_file.h"

#include <string>

namespace mcpfuzz {

FindingRecord RecordOf(const CampaignFinding& finding, std::uint64_t seed) {
  FindingRecord record;
  record.origin =
      "fuzz seed=" + std::to_string(seed) + " case=" + std::to_string(finding.case_index);
  record.check_id = finding.check_id;
  record.context = finding.context;
  record.request = finding.minimal;
  record.verdict = finding.verdict;
  record.steps = finding.steps;
  CampaignFacts& facts = record.campaign.emplace();
  facts.family = finding.family;
  facts.case_check_id = finding.case_check_id;
  facts.variant = finding.variant;
  facts.original = finding.original;
  facts.signature = finding.signature;
  facts.stable = finding.stable;
  facts.reproduced = finding.reproduced;
  facts.resends = finding.resends;
  facts.shrink_steps = finding.shrink_steps;
  facts.seed = seed;
  facts.case_index = finding.case_index;
  facts.reproducer = finding.reproducer;
  return record;
}

}  // namespace mcpfuzz
