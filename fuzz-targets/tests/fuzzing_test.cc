#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz-targets/case_spec.h"
#include "fuzz-targets/harness.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::fuzzing {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> Bytes(std::string_view text) { return {text.begin(), text.end()}; }

std::vector<fs::path> Seeds() {
  std::vector<fs::path> seeds;
  for (const auto& entry : fs::directory_iterator(fs::path(MCPFUZZ_SOURCE_DIR) /
                                                  "fuzz-targets/corpus/refserver_handler")) {
    seeds.push_back(entry.path());
  }
  std::sort(seeds.begin(), seeds.end());
  return seeds;
}

CaseSpec ReadSpec(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return DecodeSpec(Bytes(text.str()));
}

CaseSpec Spec(BrokenRule rule, std::string payload, Revision revision = kLatestRevision) {
  CaseSpec spec;
  spec.rule = rule;
  for (std::size_t i = 0; i < kAllRevisions.size(); ++i) {
    if (kAllRevisions[i] == revision) spec.revision = static_cast<std::uint8_t>(i);
  }
  spec.payload = std::move(payload);
  return spec;
}

RC_GTEST_PROP(CaseSpecs, EncodeThenDecodeGivesTheSpecBack,
              (std::uint8_t check, std::uint8_t revision, std::uint8_t transport,
               std::uint8_t variant, std::string payload)) {
  CaseSpec spec;
  spec.rule = static_cast<BrokenRule>(check % static_cast<int>(BrokenRule::kCount));
  spec.revision = static_cast<std::uint8_t>(revision % kAllRevisions.size());
  spec.transport = static_cast<std::uint8_t>(transport % 2);
  spec.variant = variant;
  spec.payload = payload;
  RC_ASSERT(DecodeSpec(Bytes(EncodeSpec(spec))) == spec);
}

TEST(CaseSpecs, EveryByteStringDecodesEvenTheEmptyOne) {
  const CaseSpec spec = DecodeSpec({});
  EXPECT_EQ(spec.rule, BrokenRule::kParseError);
  EXPECT_TRUE(spec.payload.empty());
}

TEST(CaseSpecs, AParseErrorPayloadThatIsJsonBuildsNoCase) {
  EXPECT_FALSE(BuildCase(Spec(BrokenRule::kParseError, R"({"a":1})"), kLatestRevision,
                         TransportKind::kHttp, {}));
  // A BOM in front of valid JSON is something a parser may accept, so not a parse error either.
  EXPECT_FALSE(BuildCase(Spec(BrokenRule::kParseError, "\xEF\xBB\xBF[]"), kLatestRevision,
                         TransportKind::kHttp, {}));
  auto broken = BuildCase(Spec(BrokenRule::kParseError, R"({"a":)"), kLatestRevision,
                          TransportKind::kHttp, {});
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->check_id, check::kParseError);
  EXPECT_EQ(broken->request.WireBody(), R"({"a":)");
}

TEST(CaseSpecs, OverStdioAParseErrorStaysOnOneLine) {
  auto fuzz_case = BuildCase(Spec(BrokenRule::kParseError, "{\n"), Revision::k2025_11_25,
                             TransportKind::kStdio, {});
  ASSERT_TRUE(fuzz_case);
  EXPECT_EQ(fuzz_case->request.WireBody(), "{ ");
  EXPECT_FALSE(BuildCase(Spec(BrokenRule::kParseError, "\n\r"), Revision::k2025_11_25,
                         TransportKind::kStdio, {}));
}

TEST(CaseSpecs, AnUnknownNameIsNeverOneTheTargetHas) {
  // Bytes outside visible ASCII map onto it: ' ' (0x20) → 0x21 + 0x20 % 94 = 'A'.
  const KnownNames known{{"echoA"}, {}, {}};
  EXPECT_FALSE(BuildCase(Spec(BrokenRule::kUnknownTool, "echo "), kLatestRevision,
                         TransportKind::kHttp, known));
  EXPECT_FALSE(BuildCase(Spec(BrokenRule::kUnknownTool, "ECHOA"), kLatestRevision,
                         TransportKind::kHttp, known));
  auto other = BuildCase(Spec(BrokenRule::kUnknownTool, "echo"), kLatestRevision,
                         TransportKind::kHttp, known);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->check_id, check::kUnknownTool);
  EXPECT_EQ(other->capability, "tools");
}

TEST(CaseSpecs, AnUnknownMethodIsNoMethodOfAnyRevisionInAnyCase) {
  EXPECT_FALSE(BuildCase(Spec(BrokenRule::kUnknownMethod, "tools/list"), kLatestRevision,
                         TransportKind::kHttp, {}));
  EXPECT_FALSE(BuildCase(Spec(BrokenRule::kUnknownMethod, "TOOLS/LIST"), kLatestRevision,
                         TransportKind::kHttp, {}));
  auto unknown = BuildCase(Spec(BrokenRule::kUnknownMethod, "tools/lisst"), kLatestRevision,
                           TransportKind::kHttp, {});
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->request.RpcMethod(), "tools/lisst");
}

TEST(CaseSpecs, HeaderAndSessionSituationsPickTheirEraAndHttp) {
  CaseSpec header = Spec(BrokenRule::kMethodHeaderMismatch, "x", Revision::k2024_11_05);
  header.transport = 1;
  EXPECT_EQ(SpecRevision(header), Revision::k2026_07_28);
  EXPECT_EQ(SpecTransport(header), TransportKind::kHttp);
  const CaseSpec session = Spec(BrokenRule::kSessionUnknown, "x", Revision::k2026_07_28);
  EXPECT_EQ(EraOf(SpecRevision(session)), Era::kHandshake);
  // The 2024-11-05 revision has no Streamable HTTP.
  EXPECT_EQ(SpecRevision(Spec(BrokenRule::kIdNull, "", Revision::k2024_11_05)),
            Revision::k2025_03_26);
}

TEST(HandlerSeeds, EachBuildsTheCaseItsNameSaysAndPassesOnTheConformantServer) {
  InProcessServer server;
  const std::vector<fs::path> seeds = Seeds();
  ASSERT_GE(seeds.size(), 17U);
  std::set<BrokenRule> covered;
  for (const fs::path& seed : seeds) {
    SCOPED_TRACE(seed.filename().string());
    const CaseSpec spec = ReadSpec(seed);
    EXPECT_TRUE(seed.filename().string().starts_with(std::string(ToString(spec.rule))));
    auto judged = server.Run(spec);
    ASSERT_TRUE(judged) << "the seed builds no case";
    EXPECT_EQ(judged->verdict.kind, VerdictKind::kPass) << Summarize(judged->verdict);
    EXPECT_FALSE(judged->finding);
    covered.insert(spec.rule);
  }
  EXPECT_EQ(covered.size(), static_cast<std::size_t>(BrokenRule::kCount));
}

struct PlantedFault {
  std::string_view fault;
  std::string_view seed;
};

class HandlerFaults : public testing::TestWithParam<PlantedFault> {};

TEST_P(HandlerFaults, TheSeedOfTheFaultsSituationFailsWithTheFaultOn) {
  const auto fault = refserver::FaultFromName(GetParam().fault);
  ASSERT_TRUE(fault);
  const CaseSpec spec = ReadSpec(fs::path(MCPFUZZ_SOURCE_DIR) /
                                 "fuzz-targets/corpus/refserver_handler" / GetParam().seed);
  auto judged = InProcessServer({*fault}).Run(spec);
  ASSERT_TRUE(judged);
  EXPECT_TRUE(judged->finding) << Summarize(judged->verdict);
}

INSTANTIATE_TEST_SUITE_P(
    Planted, HandlerFaults,
    testing::Values(PlantedFault{"unknown-tool-is-error", "unknown-tool-http-2025-11"},
                    PlantedFault{"unknown-method-200", "unknown-method-http-2026"},
                    PlantedFault{"parse-error-wrong-id", "parse-error-truncated-http-2026"},
                    PlantedFault{"missing-meta-served", "meta-missing-http-2026"},
                    PlantedFault{"header-mismatch-served", "method-header-mismatch-2026"},
                    PlantedFault{"stale-session-served", "session-unknown-2025-11"},
                    PlantedFault{"notification-answered", "notification-http-2026"},
                    PlantedFault{"hang-on-unknown-tool", "unknown-tool-stdio-2025-06"}),
    [](const testing::TestParamInfo<PlantedFault>& planted) {
      std::string name(planted.param.fault);
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

}  // namespace
}  // namespace mcpfuzz::fuzzing
