#include "fuzz-targets/harness.h"

#include <algorithm>
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

bool IsFailure(const Judged& judged) {
  if (judged.verdict.kind == VerdictKind::kFail) return true;
  const ExpectedAnswer& expected = judged.verdict.expected;
  auto allows_silence = [&] {
    return std::find(expected.channels.begin(), expected.channels.end(), Channel::kNoReply) !=
               expected.channels.end() ||
           std::find(expected.tolerated.begin(), expected.tolerated.end(), Channel::kNoReply) !=
               expected.tolerated.end();
  };
  switch (judged.observation.outcome) {
    case Outcome::kTimeout:
    case Outcome::kAliveButDeaf:
      // A stdio server may drop a message it finds invalid where the row tolerates silence:
      // from outside that is indistinguishable from a hang, so it is not called one.
      return !judged.observation.killed_by_mcpfuzz && !allows_silence();
    case Outcome::kConnectionReset:
    case Outcome::kExited:
      return !judged.observation.killed_by_mcpfuzz;
    default:
      return false;
  }
}

Judged JudgeCase(FuzzCase fuzz_case, Observation observation) {
  Judged judged{std::move(fuzz_case), std::move(observation), Verdict{}};
  const auto judge = [&](VerdictText text) {
    return Judge(judged.fuzz_case.check_id, judged.fuzz_case.request, judged.observation,
                 judged.fuzz_case.context, text);
  };
  judged.verdict = judge(VerdictText::kUnlessPass);
  if (judged.verdict.kind == VerdictKind::kPass && IsFailure(judged)) {
    judged.verdict = judge(VerdictText::kAlways);
  }
  return judged;
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
