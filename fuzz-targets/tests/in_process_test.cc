// The in-process reference server reused across inputs (ServerLifetime::kReused, what the
// refserver_handler target runs) judges every input exactly as a fresh server and handshake
// per input would: the seed corpus and the regression cases, conformant and with each fault
// switch, in order and in reverse, compared input by input.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz-targets/case_spec.h"
#include "fuzz-targets/harness.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/oracle.h"
#include "reports/finding_file.h"

namespace mcpfuzz::fuzzing {
namespace {

namespace fs = std::filesystem;

// One input of the target: a CaseSpec from the seed corpus or a case file's request.
struct Input {
  std::string name;
  std::optional<CaseSpec> spec;
  std::optional<FuzzCase> stored;
};

std::vector<fs::path> FilesUnder(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<Input> Inputs() {
  std::vector<Input> inputs;
  const fs::path source(MCPFUZZ_SOURCE_DIR);
  for (const fs::path& path : FilesUnder(source / "fuzz-targets/corpus/refserver_handler")) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string text = bytes.str();
    inputs.push_back({path.filename().string(),
                      DecodeSpec({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}),
                      std::nullopt});
  }
  for (const fs::path& path : FilesUnder(source / "corpus/regression")) {
    auto stored = ReadCaseFile(path);
    EXPECT_TRUE(stored.ok()) << path << ": " << stored.error().message;
    if (!stored.ok()) continue;
    // A sequence's last step means nothing without the steps before it, which this harness
    // does not send; `mcpfuzz replay` does (the replay.* tests).
    if (!stored->steps.empty()) continue;
    inputs.push_back({path.parent_path().filename().string() + "/" + path.filename().string(),
                      std::nullopt, FuzzCase{*stored, ""}});
  }
  return inputs;
}

std::optional<Judged> RunInput(InProcessServer& server, const Input& input) {
  return input.spec ? server.Run(*input.spec) : server.Send(*input.stored);
}

// Everything a finding or report shows of the judgement, and the reply it judged. The harness
// leaves a PASS without text (VerdictText::kUnlessPass), so the case is judged again in full.
std::string Fingerprint(const std::optional<Judged>& judged) {
  if (!judged) return "no case";
  Judged full = *judged;
  full.verdict = Judge(full.fuzz_case.check_id, full.fuzz_case.request, full.observation,
                       full.fuzz_case.context);
  EXPECT_EQ(full.verdict.kind, judged->verdict.kind);
  const Verdict& verdict = full.verdict;
  std::string text = boost::json::serialize(FindingJson(full));
  text += "\nspec: " + verdict.spec_reference + "\nexpected: " + verdict.expected.text;
  for (const Finding& finding : verdict.findings) text += "\nfinding: " + finding.text;
  for (const std::string& note : verdict.notes) text += "\nnote: " + note;
  const Observation& observation = judged->observation;
  text += "\nstatus " + std::to_string(observation.http_status) + " body: " + observation.body;
  for (const std::string& line : observation.stdout_lines) text += "\nstdout: " + line;
  return text;
}

std::vector<std::string> FreshFingerprints(const refserver::FaultSet& faults,
                                           const std::vector<Input>& inputs) {
  InProcessServer fresh(faults, ServerLifetime::kFreshPerCase);
  std::vector<std::string> prints;
  for (const Input& input : inputs) prints.push_back(Fingerprint(RunInput(fresh, input)));
  return prints;
}

void ExpectReuseMatchesFresh(const refserver::FaultSet& faults, std::string_view label) {
  const std::vector<Input> inputs = Inputs();
  ASSERT_GE(inputs.size(), 40U);
  const std::vector<std::string> fresh = FreshFingerprints(faults, inputs);
  std::size_t judged = 0;
  for (const std::string& print : fresh) judged += print != "no case" ? 1U : 0U;
  // Nearly every input builds a case; a harness that opened no session would build none.
  EXPECT_GE(judged, inputs.size() - 2) << label;

  InProcessServer reused(faults, ServerLifetime::kReused);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(Fingerprint(RunInput(reused, inputs[i])), fresh[i])
        << label << ", in order: " << inputs[i].name;
  }
  // Again on the same servers, backwards: whatever an input leaves behind meets other inputs.
  for (std::size_t i = inputs.size(); i-- > 0;) {
    EXPECT_EQ(Fingerprint(RunInput(reused, inputs[i])), fresh[i])
        << label << ", reversed: " << inputs[i].name;
  }
}

TEST(InProcessReuse, EveryInputJudgesAsOnAFreshServerWhenConformant) {
  ExpectReuseMatchesFresh({}, "conformant");
}

TEST(InProcessReuse, EveryInputJudgesAsOnAFreshServerWithEachFault) {
  for (const refserver::FaultInfo& fault : refserver::AllFaults()) {
    ExpectReuseMatchesFresh({fault.fault}, fault.name);
  }
}

// A stdio `initialize` in 2026-07-28 (no _meta), on a connection the session's opening locked
// to 2026-07-28, is refused by a conformant server; with initialize-relocks-era it is served and
// locks the connection to the handshake era, after which messages without _meta are answered
// by the handshake era. The next input must not see that.
TEST(InProcessReuse, AnInputThatInitializesStdioLeavesNothingBehind) {
  const refserver::FaultSet relocks{refserver::Fault::kInitializeRelocksEra};
  CaseSpec meta_missing;
  meta_missing.rule = BrokenRule::kMetaMissing;
  meta_missing.revision = static_cast<std::uint8_t>(
      std::find(kAllRevisions.begin(), kAllRevisions.end(), Revision::k2026_07_28) -
      kAllRevisions.begin());
  meta_missing.transport = 1;
  ASSERT_EQ(SpecTransport(meta_missing), TransportKind::kStdio);

  InProcessServer fresh(relocks, ServerLifetime::kFreshPerCase);
  const std::optional<Judged> expected = fresh.Run(meta_missing);
  ASSERT_TRUE(expected);
  ASSERT_EQ(expected->verdict.kind, VerdictKind::kPass) << Summarize(expected->verdict);

  // A handshake-era initialize (no _meta), sent on the 2026-07-28 stdio server.
  Request initialize = MakeInitialize(Revision::k2025_11_25, TransportKind::kStdio, 1);
  initialize.revision = Revision::k2026_07_28;

  InProcessServer reused(relocks, ServerLifetime::kReused);
  ASSERT_TRUE(reused.Run(meta_missing));
  const std::optional<Judged> initialized =
      reused.Send(FuzzCase{{initialize, std::string(check::kMetaMissing), {}}, ""});
  ASSERT_TRUE(initialized);
  ASSERT_EQ(initialized->verdict.observed.channel, Channel::kSuccess)
      << "the initialize did not initialize: " << Summarize(initialized->verdict);
  EXPECT_EQ(Fingerprint(reused.Run(meta_missing)), Fingerprint(expected));
}

// A PASS comes without its text, which nobody reads; what a finding reports is complete.
TEST(InProcessReuse, OnlyTheVerdictsThatAreReportedCarryText) {
  for (const refserver::FaultSet& faults :
       {refserver::FaultSet{}, refserver::FaultSet{refserver::Fault::kUnknownToolIsError}}) {
    InProcessServer server(faults);
    std::size_t passes = 0;
    std::size_t failures = 0;
    for (const Input& input : Inputs()) {
      const std::optional<Judged> judged = RunInput(server, input);
      if (!judged) continue;
      const Verdict full = Judge(judged->fuzz_case.check_id, judged->fuzz_case.request,
                                 judged->observation, judged->fuzz_case.context);
      if (judged->verdict.kind == VerdictKind::kPass && !judged->finding) {
        ++passes;
        EXPECT_TRUE(judged->verdict.expected.text.empty()) << input.name;
        EXPECT_FALSE(full.expected.text.empty()) << input.name;
      } else {
        failures += judged->finding ? 1U : 0U;
        EXPECT_EQ(Summarize(judged->verdict), Summarize(full)) << input.name;
        EXPECT_EQ(judged->verdict.observed.excerpt, full.observed.excerpt) << input.name;
      }
    }
    EXPECT_GT(passes, 20U);
    EXPECT_EQ(failures > 0, !faults.empty());
  }
}

}  // namespace
}  // namespace mcpfuzz::fuzzing
