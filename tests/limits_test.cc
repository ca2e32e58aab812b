// Issue #13 items 5-7 without I/O: JSON at any depth read without recursion, long bodies kept
// small in case files and reproducers, the oracles of names.unknown-consistent and limits.*,
// and the cases the limits and unknown-names families draw for them.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "generators/registry.h"
#include "model/body_runs.h"
#include "model/json_depth.h"
#include "model/model.h"
#include "model/reproducer.h"
#include "model/request_edit.h"
#include "oracles/check_ids.h"
#include "oracles/error_codes.h"
#include "tests/oracle_test_support.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::ErrorReply;
using test_support::HasFinding;
using test_support::NotJson;
using test_support::Replied;
using test_support::ResultReply;
using test_support::Show;
using test_support::Silent;
using test_support::ToolResult;

constexpr Revision kR4 = Revision::k2025_11_25;
constexpr Revision kR5 = Revision::k2026_07_28;
constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;
constexpr std::size_t kMiB = std::size_t{1} << 20;

std::string Arrays(std::size_t depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}

// A valid request whose params._meta holds `raw`, as raw bytes.
Request WithMeta(Revision revision, TransportKind transport, const std::string& raw, int id = 9) {
  Request request = MakeRequest(revision, transport, "tools/list", {}, id);
  Meta(request)["mcpfuzz/x"] = "placeholder";
  std::string body = request.WireBody();
  body.replace(body.find("\"placeholder\""), 13, raw);
  request.body = RawBody{std::move(body)};
  return request;
}

// --- JSON at any depth ------------------------------------------------------------------------

TEST(JsonDepth, ValidatesAHundredThousandLevelsWithoutRecursion) {
  EXPECT_TRUE(IsJsonText(Arrays(100000)));
  std::string objects;
  for (int level = 0; level < 100000; ++level) objects += "{\"a\":";
  objects += "null" + std::string(100000, '}');
  EXPECT_TRUE(IsJsonText(objects));
  EXPECT_EQ(JsonNestingDepth(objects), 100000U);
}

TEST(JsonDepth, RejectsWhatIsNotJsonWhateverTheDepth) {
  for (const std::string& text :
       std::vector<std::string>{Arrays(50000).substr(1), "[" + Arrays(50000), "[1,]", "{\"a\" 1}",
                                "01", "1.", "-", "\"\\x\"", "\"a\nb\"", "\"\xC3\"", "[1] 2", "tru",
                                "{\"a\":1,}", "[" + Arrays(40) + "x]"}) {
    EXPECT_FALSE(IsJsonText(text)) << text.substr(0, 40);
  }
  for (const std::string& text : std::vector<std::string>{
           "1", " {\"a\":[1,2.5e-3,true,null,\"\\u00e9\"]} ", "\"\xC3\xA9\""}) {
    EXPECT_TRUE(IsJsonText(text)) << text;
  }
}

TEST(JsonDepth, TheEnvelopeOfADeepRequestIsReadable) {
  const Request request = WithMeta(kR4, kStdio, Arrays(100000), 42);
  // Boost.JSON alone cannot read it (past its depth limit, and recursive beyond)...
  EXPECT_FALSE(ParseJson(request.WireBody()));
  // ...the envelope reader keeps everything above 16 levels.
  EXPECT_EQ(request.RpcId(), json::value(42));
  EXPECT_EQ(request.RpcMethod(), "tools/list");
  const auto shallow = WithoutDeepNesting("{\"a\":[[[1]]],\"b\":2}", 2);
  ASSERT_TRUE(shallow);
  EXPECT_EQ(*shallow, "{\"a\":[null],\"b\":2}");
  // Not JSON stays unreadable: a deep body with garbage inside it.
  EXPECT_FALSE(ParseJsonEnvelope("{\"id\":1,\"a\":" + Arrays(100) + "x}"));
  EXPECT_FALSE(ParseJsonEnvelope("{\"id\":1,\"a\":" + std::string(100, '[') + "}"));
}

// --- long bodies in case files and reproducers ------------------------------------------------

TEST(BodyRuns, ACaseFileKeepsSixteenMebibytesInAFewHundredBytes) {
  Request request = WithMeta(kR4, kHttp, "\"" + std::string(16 * kMiB, 'a') + "\"");
  const std::string file = json::serialize(RequestToJson(request));
  EXPECT_LT(file.size(), 1000U) << file.substr(0, 300);
  EXPECT_NE(file.find("body_runs"), std::string::npos);
  auto decoded = RequestFromJson(json::parse(file));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(*decoded, request);
  // Deep nesting too: two runs of brackets.
  Request deep = WithMeta(kR5, kStdio, Arrays(100000));
  const std::string deep_file = json::serialize(RequestToJson(deep));
  EXPECT_LT(deep_file.size(), 1500U);
  auto deep_decoded = RequestFromJson(json::parse(deep_file));
  ASSERT_TRUE(deep_decoded.ok());
  EXPECT_EQ(*deep_decoded, deep);
}

TEST(BodyRuns, ACaseFileThatExpandsPast256MiBOrIsMalformedIsRefused) {
  for (const char* runs :
       {R"(["{", {"repeat": "a", "count": 300000000}])", R"(["{", {"repeat": "ab", "count": 3}])",
        R"([{"count": 3}])", R"([7])", R"("abc")"}) {
    const std::string file = std::string(R"({"transport":"http","revision":"2025-11-25",)") +
                             R"("body_runs":)" + runs + "}";
    EXPECT_FALSE(RequestFromJson(json::parse(file)).ok()) << runs;
  }
}

// The output of `command` run by the shell, the first `size` bytes of it.
std::string RunShell(const std::string& command, std::size_t size) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {};
  std::string out(size, '\0');
  out.resize(std::fread(out.data(), 1, size, pipe));
  ::pclose(pipe);
  return out;
}

// The reproducer of a 10 MiB line is a line a person can read, and writes exactly the case's
// bytes: its output hashes like the bytes themselves.
TEST(BodyRuns, TheReproducerWritesTheSameBytes) {
  Request request = WithMeta(kR4, kStdio, "\"" + std::string(10 * kMiB + 1, 'a') + "\"");
  request.session = SessionBinding::kOmit;
  ReproducerTarget target;
  target.kind = kStdio;
  target.argv = {"sha256sum"};
  const std::string command = Reproducer(request, target);
  EXPECT_LT(command.size(), 1000U) << command.substr(0, 300);
  const std::string file = ::testing::TempDir() + "mcpfuzz-limits-line";
  {
    FILE* out = std::fopen(file.c_str(), "wb");
    ASSERT_NE(out, nullptr);
    const std::string line = request.WireBody() + "\n";
    ASSERT_EQ(std::fwrite(line.data(), 1, line.size(), out), line.size());
    std::fclose(out);
  }
  const std::string expected = RunShell("sha256sum < " + file, 64);
  std::remove(file.c_str());
  ASSERT_EQ(expected.size(), 64U);
  EXPECT_EQ(RunShell(command, 64), expected) << command.substr(0, 300);
}

// --- names.unknown-consistent -----------------------------------------------------------------

Request Call(Revision revision, TransportKind transport, std::string_view name) {
  return MakeRequest(revision, transport, "tools/call", NameParams("tools/call", name), 5);
}

JudgeContext WithRandom(const Request& random, const Observation& answer) {
  JudgeContext context;
  context.random_name_answer = ReadNameAnswer(random, answer);
  return context;
}

TEST(UnknownNameConsistent, TheRandomNamesAnswerUpToTheNamePasses) {
  for (TransportKind transport : {kHttp, kStdio}) {
    const Request random = Call(kR5, transport, RandomNameFor("tools/call"));
    const JudgeContext context = WithRandom(
        random, Replied(random, ErrorReply(5, kInvalidParamsCode,
                                           "Unknown tool: mcpfuzz_no_such_tool_4f1c9a")));
    EXPECT_EQ(context.random_name_answer->name, "mcpfuzz_no_such_tool_4f1c9a");
    const Request proto = Call(kR5, transport, "__proto__");
    const Verdict same = Judge(
        check::kUnknownNameConsistent, proto,
        Replied(proto, ErrorReply(5, kInvalidParamsCode, "Unknown tool: __proto__")), context);
    EXPECT_EQ(same.kind, VerdictKind::kPass) << Show(same);
  }
}

TEST(UnknownNameConsistent, DisabledIsAShapeWarningAndAnotherChannelFails) {
  const Request random = Call(kR4, kHttp, RandomNameFor("tools/call"));
  const JudgeContext context = WithRandom(
      random, Replied(random, ResultReply(5, ToolResult(kR4,
                                                        "Tool mcpfuzz_no_such_tool_4f1c9a "
                                                        "not found",
                                                        true))));
  const Request proto = Call(kR4, kHttp, "__proto__");
  const Verdict disabled = Judge(
      check::kUnknownNameConsistent, proto,
      Replied(proto, ResultReply(5, ToolResult(kR4, "Tool __proto__ disabled", true))), context);
  EXPECT_EQ(disabled.kind, VerdictKind::kWarn) << Show(disabled);
  EXPECT_TRUE(HasFinding(disabled, Aspect::kShape, Strength::kShould)) << Show(disabled);
  EXPECT_NE(Show(disabled).find("says the name exists"), std::string::npos) << Show(disabled);

  const Verdict other_channel =
      Judge(check::kUnknownNameConsistent, proto,
            Replied(proto, ErrorReply(5, kInvalidParamsCode, "Unknown tool: __proto__")), context);
  EXPECT_EQ(other_channel.kind, VerdictKind::kFail) << Show(other_channel);
  EXPECT_TRUE(HasFinding(other_channel, Aspect::kChannel, Strength::kMust));
}

TEST(UnknownNameConsistent, WithoutARandomNamesAnswerNothingIsJudged) {
  const Request proto = Call(kR4, kHttp, "constructor");
  const Verdict verdict =
      Judge(check::kUnknownNameConsistent, proto,
            Replied(proto, ErrorReply(5, kInvalidParamsCode, "Tool constructor disabled")));
  EXPECT_EQ(verdict.kind, VerdictKind::kNotApplicable) << Show(verdict);
}

// --- limits.deep-nesting and limits.oversized-request -----------------------------------------

TEST(Limits, AnyJsonRpcAnswerOrRefusalPasses) {
  for (std::string_view id : {check::kDeepNesting, check::kOversizedRequest}) {
    for (Revision revision : {kR4, kR5}) {
      const Request http = WithMeta(revision, kHttp, Arrays(20000), 9);
      // A parser's refusal: -32700 with id null, which it could not read.
      EXPECT_EQ(
          Judge(id, http, Replied(http, ErrorReply(nullptr, kParseErrorCode, "Parse error"), 400))
              .kind,
          VerdictKind::kPass);
      EXPECT_EQ(Judge(id, http, Replied(http, ErrorReply(9, kInvalidParamsCode), 200)).kind,
                VerdictKind::kPass);
      EXPECT_EQ(Judge(id, http, NotJson(http, "Payload Too Large", 413, "text/plain")).kind,
                VerdictKind::kPass);
      const Request stdio = WithMeta(revision, kStdio, Arrays(20000), 9);
      EXPECT_EQ(Judge(id, stdio, Silent(stdio)).kind, VerdictKind::kPass);
    }
  }
}

TEST(Limits, A500WarnsAndABodyThatIsNotJsonRpcFails) {
  const Request http = WithMeta(kR5, kHttp, Arrays(100000), 9);
  const Verdict internal = Judge(check::kDeepNesting, http,
                                 Replied(http, ErrorReply(nullptr, -32603, "Internal error"), 500));
  EXPECT_EQ(internal.kind, VerdictKind::kWarn) << Show(internal);
  EXPECT_TRUE(HasFinding(internal, Aspect::kHttpStatus, Strength::kShould)) << Show(internal);
  const Verdict html =
      Judge(check::kDeepNesting, http, NotJson(http, "<h1>Internal Server Error</h1>", 500));
  EXPECT_EQ(html.kind, VerdictKind::kFail) << Show(html);
  const Request stdio = WithMeta(kR4, kStdio, Arrays(100000), 9);
  const Verdict text = Judge(check::kDeepNesting, stdio,
                             NotJson(stdio, "RangeError: Maximum call stack size exceeded"));
  EXPECT_EQ(text.kind, VerdictKind::kFail) << Show(text);
}

// Tables §15 Z2: a string id of any length is served with that id, or refused.
TEST(Limits, ALongStringIdIsAnsweredWithItUnchanged) {
  for (TransportKind transport : {kHttp, kStdio}) {
    const json::string id(10000, 'a');
    const Request request = MakeRequest(kR4, transport, "tools/list", {}, id);
    const json::object tools{{"tools", json::array()}};
    const Verdict served =
        Judge(check::kOversizedRequest, request, Replied(request, ResultReply(id, tools)));
    EXPECT_EQ(served.kind, VerdictKind::kPass) << Show(served);
    const Verdict refused = Judge(check::kOversizedRequest, request,
                                  Replied(request, ErrorReply(id, kInvalidRequestCode)));
    EXPECT_EQ(refused.kind, VerdictKind::kPass) << Show(refused);
    // An id copied into a buffer of 4,096 bytes comes back cut short.
    const Verdict cut = Judge(check::kOversizedRequest, request,
                              Replied(request, ResultReply(json::string(4096, 'a'), tools)));
    EXPECT_EQ(cut.kind, VerdictKind::kFail) << Show(cut);
    EXPECT_TRUE(HasFinding(cut, Aspect::kEnvelope, Strength::kMust)) << Show(cut);
    // The id was read: an invalid-request error owes it back.
    const Verdict nulled = Judge(check::kOversizedRequest, request,
                                 Replied(request, ErrorReply(nullptr, kInvalidRequestCode)));
    EXPECT_EQ(nulled.kind, VerdictKind::kFail) << Show(nulled);
  }
}

// Tables §15 Z3: an integer id past 2^64-1 owes nothing but the process's survival.
TEST(Limits, AnIntegerIdPast64BitsOwesOnlySurvival) {
  Request request = MakeRequest(kR4, kStdio, "tools/list", {}, 1);
  std::string body = request.WireBody();
  body.replace(body.find("\"id\":1"), 6, "\"id\":1" + std::string(30, '0'));
  request.body = RawBody{std::move(body)};
  for (const json::value& reply :
       {ErrorReply(nullptr, kInvalidRequestCode), ErrorReply(nullptr, kParseErrorCode),
        ResultReply(1e30, json::object{{"tools", json::array()}})}) {
    const Verdict verdict = Judge(check::kNoEarlyExit, request, Replied(request, reply));
    EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  }
}

// --- the generators ---------------------------------------------------------------------------

GenContext Context(Revision revision, TransportKind transport) {
  GenContext context;
  context.revision = revision;
  context.transport = transport;
  context.capabilities = {{"tools", json::object{}}, {"prompts", json::object{}}};
  context.prompts = {"greeting"};
  return context;
}

std::vector<GeneratedCase> Sample(const rc::Gen<GeneratedCase>& generator, int count) {
  std::vector<GeneratedCase> cases;
  for (int k = 0; k < count; ++k) {
    cases.push_back(generator(rc::Random(static_cast<std::uint64_t>(k) + 1), k % 101).value());
  }
  return cases;
}

TEST(LimitsFamily, DeepCasesAreValidJsonTenToAHundredThousandDeepWithAReadableId) {
  for (TransportKind transport : {kHttp, kStdio}) {
    GenContext context = Context(kR5, transport);
    context.max_request_bytes = 0;  // deep cases only
    std::set<std::string> wheres;
    for (const GeneratedCase& generated :
         Sample(gen::FindFamily("limits")->generator(context), 40)) {
      ASSERT_EQ(generated.check_id, check::kDeepNesting);
      const std::string body = generated.request.WireBody();
      EXPECT_TRUE(IsJsonText(body)) << generated.variant;
      EXPECT_GE(JsonNestingDepth(body), 10000U);
      EXPECT_LE(JsonNestingDepth(body), 100003U);
      EXPECT_EQ(generated.request.RpcId(), generated.well_formed->RpcId()) << generated.variant;
      wheres.insert(generated.variant.substr(generated.variant.rfind(' ') + 1));
    }
    EXPECT_EQ(wheres, (std::set<std::string>{"arguments", "_meta"}));
  }
}

TEST(LimitsFamily, SizesAreTheCommonLimitsAndOneByteMoreUpToTheMaximum) {
  GenContext context = Context(kR4, kStdio);
  context.capabilities = {};
  context.max_request_bytes = 4 * kMiB + 1;
  std::set<std::size_t> sizes;
  for (const GeneratedCase& generated :
       Sample(gen::FindFamily("limits")->generator(context), 150)) {
    if (generated.variant.find("_meta padding") == std::string::npos) continue;
    sizes.insert(generated.request.WireBody().size());
    EXPECT_TRUE(IsJsonText(generated.request.WireBody()));
  }
  EXPECT_EQ(sizes, (std::set<std::size_t>{kMiB, kMiB + 1, 4 * kMiB, 4 * kMiB + 1}));
}

// --- long ids ---

bool LongId(const GeneratedCase& generated) {
  return generated.variant.find(" id of ") != std::string::npos;
}

// The id as it stands on the wire: a string's quotes and characters, or an integer's digits.
std::string RawId(const Request& request) {
  const std::string body = request.WireBody();
  const std::size_t at = body.find("\"id\":") + 5;
  std::size_t end = at + 1;
  if (body[at] == '"') {
    end = body.find('"', at + 1) + 1;
  } else {
    while (end < body.size() && body[end] >= '0' && body[end] <= '9') ++end;
  }
  return body.substr(at, end - at);
}

TEST(LimitsFamily, LongIdsAreStringsOverBothTransportsAndIntegersPast64BitsOverStdio) {
  constexpr std::array<std::size_t, 4> kCeilings = {1024, 10240, 102400, kMiB};
  for (TransportKind transport : {kHttp, kStdio}) {
    GenContext context = Context(kR5, transport);
    context.max_request_bytes = kMiB;
    std::size_t strings = 0;
    std::size_t numbers = 0;
    std::set<std::size_t> scales;
    for (const GeneratedCase& generated :
         Sample(gen::FindFamily("limits")->generator(context), 200)) {
      if (!LongId(generated)) continue;
      const std::string id = RawId(generated.request);
      const bool string = id.starts_with('"');
      const std::size_t length = string ? id.size() - 2 : id.size();
      EXPECT_NE(generated.variant.find(" " + std::to_string(length) + " "), std::string::npos)
          << generated.variant;
      if (string) {
        ++strings;
        EXPECT_EQ(generated.check_id, check::kOversizedRequest);
        EXPECT_EQ(id, "\"" + std::string(length, 'a') + "\"");
      } else {
        ++numbers;
        EXPECT_EQ(generated.check_id, check::kNoEarlyExit);
        EXPECT_GE(length, 21U);
        EXPECT_EQ(id, "1" + std::string(length - 1, '0'));
      }
      EXPECT_LE(generated.request.WireBody().size(), kMiB);
      scales.insert(static_cast<std::size_t>(
          std::lower_bound(kCeilings.begin(), kCeilings.end(), length) - kCeilings.begin()));
      // Only the id differs from the well-formed request.
      std::string expected = generated.well_formed->WireBody();
      const std::string small_id = json::serialize(*generated.well_formed->RpcId());
      expected.replace(expected.find("\"id\":" + small_id), 5 + small_id.size(), "\"id\":" + id);
      EXPECT_EQ(generated.request.WireBody(), expected) << generated.variant;
      EXPECT_TRUE(IsJsonText(generated.request.WireBody())) << generated.variant;
    }
    EXPECT_GT(strings, 10U) << ToString(transport);
    EXPECT_EQ(numbers > 0, transport == kStdio) << numbers;
    EXPECT_EQ(scales, (std::set<std::size_t>{0, 1, 2, 3})) << ToString(transport);
  }
}

TEST(LimitsFamily, LongIdsStayWithinTheMaximumRequestSize) {
  for (std::size_t max : {std::size_t{1023}, std::size_t{5000}, std::size_t{200000}}) {
    GenContext context = Context(kR4, kStdio);
    context.max_request_bytes = max;
    std::size_t long_ids = 0;
    for (const GeneratedCase& generated :
         Sample(gen::FindFamily("limits")->generator(context), 150)) {
      if (!LongId(generated)) continue;
      ++long_ids;
      EXPECT_LE(generated.request.WireBody().size(), max) << generated.variant;
    }
    EXPECT_EQ(long_ids > 0, max >= 1024) << max;
  }
}

TEST(LimitsFamily, ALongIdShrinksToTheShortestIdThatStillFails) {
  // A server that dies on a string id of more than 4,096 bytes: greedy shrinking, as the
  // campaign walks the tree, ends one byte past it, whatever length was drawn.
  const auto dies = [](const GeneratedCase& generated) {
    const std::optional<json::value> id = generated.request.RpcId();
    return id && id->is_string() && id->as_string().size() > 4096;
  };
  const rc::Gen<GeneratedCase> limits = gen::FindFamily("limits")->generator(Context(kR4, kStdio));
  std::set<std::size_t> drawn;
  for (std::uint64_t seed = 1; seed < 300 && drawn.size() < 3; ++seed) {
    rc::Shrinkable<GeneratedCase> node = limits(rc::Random(seed), 50);
    if (!dies(node.value())) continue;
    drawn.insert(node.value().request.RpcId()->as_string().size());
    for (bool shrunk = true; shrunk;) {
      shrunk = false;
      rc::Seq<rc::Shrinkable<GeneratedCase>> candidates = node.shrinks();
      while (rc::Maybe<rc::Shrinkable<GeneratedCase>> next = candidates.next()) {
        if (next->value().check_id == node.value().check_id && dies(next->value())) {
          node = *next;
          shrunk = true;
          break;
        }
      }
    }
    EXPECT_EQ(node.value().request.RpcId()->as_string().size(), 4097U);
    EXPECT_EQ(node.value().variant, "a string id of 4097 characters");
  }
  EXPECT_EQ(drawn.size(), 3U);
}

TEST(LimitsFamily, TheSameSeedDrawsTheSameLongIds) {
  GenContext context = Context(kR5, kStdio);
  context.max_request_bytes = kMiB;
  const rc::Gen<GeneratedCase> limits = gen::FindFamily("limits")->generator(context);
  const std::vector<GeneratedCase> first = Sample(limits, 100);
  const std::vector<GeneratedCase> second = Sample(limits, 100);
  std::size_t long_ids = 0;
  for (std::size_t k = 0; k < first.size(); ++k) {
    if (!LongId(first[k])) continue;
    ++long_ids;
    EXPECT_EQ(first[k].request.WireBody(), second[k].request.WireBody()) << first[k].variant;
  }
  EXPECT_GT(long_ids, 0U);
}

TEST(UnknownNamesFamily, PrototypeNamesAreComparedWithTheRandomNamesAnswer) {
  GenContext context = Context(kR4, kHttp);
  const auto draw = [&context] {
    std::vector<GeneratedCase> consistent;
    for (const GeneratedCase& generated :
         Sample(gen::FindFamily("unknown-names")->generator(context), 300)) {
      if (generated.check_id == check::kUnknownNameConsistent) consistent.push_back(generated);
    }
    return consistent;
  };
  EXPECT_TRUE(draw().empty()) << "no random name's answer, nothing to compare with";
  const Request random = MakeRequest(kR4, kHttp, "prompts/get",
                                     NameParams("prompts/get", RandomNameFor("prompts/get")), 1);
  context.random_name_answers = {
      ReadNameAnswer(random, Replied(random, ErrorReply(1, kInvalidParamsCode, "Unknown prompt")))};
  const std::vector<GeneratedCase> consistent = draw();
  ASSERT_FALSE(consistent.empty());
  for (const GeneratedCase& generated : consistent) {
    ASSERT_TRUE(generated.context.random_name_answer);
    EXPECT_EQ(generated.request.RpcMethod(), "prompts/get");
    EXPECT_EQ(generated.well_formed->WireBody().find("mcpfuzz_no_such_prompt") != std::string::npos,
              true);
  }
}

}  // namespace
}  // namespace mcpfuzz
