#include "fuzz-targets/harness.h"

#include <boost/json/serialize.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string_view>
#include <utility>

#include "model/case_file.h"
#include "oracles/oracle.h"
#include "reports/finding_file.h"

namespace mcpfuzz::fuzzing {

Judged JudgeFuzzCase(FuzzCase fuzz_case, Observation observation) {
  // The harness sends without a sentinel and does not watch the process: no process history.
  Judgement judgement = JudgeCase(fuzz_case, std::move(observation), std::nullopt,
                                  FindingRule::kHarness, VerdictText::kUnlessPass);
  return Judged{std::move(judgement), std::move(fuzz_case)};
}

void Describe(const Judged& judged) {
  std::cerr << "mcpfuzz: " << Summarize(judged.verdict) << "\n";
  if (judged.observation.outcome != Outcome::kOk) {
    std::cerr << "  outcome: " << ToString(judged.observation.outcome) << " "
              << judged.observation.detail << "\n";
  }
  std::cerr << "  request: " << boost::json::serialize(RequestToJson(judged.fuzz_case.request))
            << "\n";
}

boost::json::value FindingJson(const Judged& judged) {
  FindingRecord record;
  record.origin = "libFuzzer";
  record.check_id = judged.fuzz_case.check_id;
  record.context = judged.fuzz_case.context;
  record.request = judged.fuzz_case.request;
  record.verdict = judged.verdict;
  return FindingToJson(record);
}

void AbortOnFinding(const Judged& judged) {
  Describe(judged);
  if (const char* path = std::getenv("MCPFUZZ_FINDING_FILE"); path != nullptr && *path != '\0') {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << boost::json::serialize(FindingJson(judged)) << "\n";
  }
  std::abort();
}

refserver::FaultSet FaultsFromEnvironment() {
  refserver::FaultSet faults;
  const char* names = std::getenv("MCPFUZZ_FAULTS");
  std::string_view rest = names != nullptr ? names : "";
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (name.empty()) continue;
    auto fault = refserver::FaultFromName(name);
    if (!fault) {
      std::cerr << "MCPFUZZ_FAULTS: no fault named '" << name
                << "' (mcpfuzz refserver --list-faults)\n";
      std::exit(2);
    }
    faults.insert(*fault);
  }
  return faults;
}

}  // namespace mcpfuzz::fuzzing
