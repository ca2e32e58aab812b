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
#include <map>
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

// Strings are read eight bytes at a time where no byte needs a look: a quote, a backslash or a
// control character is found wherever it falls against those steps, and a string is judged as
// Boost.JSON judges it.
TEST(JsonDepth, AStringIsReadAlikeWhereverItsSpecialBytesFall) {
  const std::vector<std::string> specials = {
      "\"",   "\\\"", "\\\\",     "\\n",  "\\u00e9",          "\\x",  "\x01",
      "\x1f", "\n",   "\xC3\xA9", "\xC3", "\xF0\x9F\x98\x80", "\x7f", " "};
  for (const std::string& special : specials) {
    for (std::size_t before = 0; before <= 17; ++before) {
      for (std::size_t after : {0U, 1U, 7U, 8U, 9U, 16U}) {
        const std::string text =
            "[\"" + std::string(before, 'a') + special + std::string(after, 'b') + "\"]";
        const bool parses = ParseJson(text).has_value();
        EXPECT_EQ(IsJsonText(text), parses) << text;
        EXPECT_EQ(ParseRpcEnvelope(text).has_value(), parses) << text;
        if (parses) {
          EXPECT_EQ(JsonNestingDepth(text), 1U) << text;
        }
      }
    }
  }
  // A quote inside a string opens nothing: the depth counts only what lies outside strings.
  EXPECT_EQ(JsonNestingDepth("[\"" + std::string(20, 'a') + "[[\\\"[[" + std::string(9, 'b') +
                             "\",[[1]]]"),
            3U);
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

// A large raw body is read for its id and method alone: the other members' values are null,
// whatever the keys' escapes, and what the id and method are is what a whole parse gives.
TEST(JsonDepth, TheRpcEnvelopeKeepsTheIdAndMethodAndNothingElse) {
  const auto envelope =
      ParseRpcEnvelope(R"({"jsonrpc":"2.0","\u0069d":{"a":[1]},"params":{"x":"yyy"},"method":"m",)"
                       R"("extra":[1,{"b":2}],"n":7})");
  ASSERT_TRUE(envelope);
  EXPECT_EQ(*envelope, json::parse(R"({"jsonrpc":"2.0","id":{"a":[1]},"params":null,)"
                                   R"("method":"m","extra":null,"n":null})"));
  EXPECT_FALSE(ParseRpcEnvelope(R"({"id":1,"params":{"x":"y"})"));
  EXPECT_FALSE(ParseRpcEnvelope("{\"id\":1,\"params\":\"\xFF\"}")) << "invalid UTF-8 is not JSON";
  EXPECT_EQ(ParseRpcEnvelope("[1,{\"id\":2}]"), json::parse("[1,{\"id\":2}]"))
      << "a batch is not an envelope: every member of its messages stays";

  // Above 64 KiB a raw body is read this way: a padded request gives the id and method a whole
  // parse gives, a notification stays one, and a long id is kept whole.
  for (const std::size_t bytes : {std::size_t{100} << 10, std::size_t{10} * kMiB}) {
    const std::string padding = "\"" + std::string(bytes, 'a') + "\"";
    const Request request = WithMeta(kR4, kStdio, padding, 42);
    const auto whole = ParseJson(request.WireBody());
    ASSERT_TRUE(whole);
    EXPECT_EQ(request.RpcId(), whole->at("id"));
    EXPECT_EQ(request.RpcMethod(), whole->at("method").as_string());
    EXPECT_FALSE(request.IsNotification());
    Request notification;
    notification.body =
        RawBody{R"({"jsonrpc":"2.0","method":"notifications/x","params":{"p":)" + padding + "}}"};
    EXPECT_TRUE(notification.IsNotification());
    EXPECT_EQ(notification.RpcMethod(), "notifications/x");
    Request long_id;
    long_id.body = RawBody{R"({"jsonrpc":"2.0","id":)" + padding + R"(,"method":"ping"})"};
    ASSERT_TRUE(long_id.RpcId());
    EXPECT_EQ(long_id.RpcId()->as_string().size(), bytes);
  }
}

// The oracles read a raw body above 64 KiB for its envelope alone (ParseRawEnvelope), and parse
// it whole only for the notifications that name its _meta: every verdict is the one its JSON
// twin, read in place, gets. (Under 1 MiB: above it a raw body may be answered with id null.)
TEST(JsonDepth, TheOraclesJudgeALargeRawBodyAsItsJsonTwin) {
  const json::value progress = json::parse(
      R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}})");
  for (const std::size_t bytes : {std::size_t{100} << 10, std::size_t{900} << 10}) {
    for (const TransportKind transport : {kHttp, kStdio}) {
      const Request raw = WithMeta(kR4, transport, "\"" + std::string(bytes, 'a') + "\"", 42);
      Request twin = raw;
      twin.body = *ParseJson(raw.WireBody());
      const std::vector<std::vector<json::value>> answers = {
          {ResultReply(42, json::object{})},
          {ResultReply(7, json::object{})},
          {ErrorReply(nullptr, kInvalidRequestCode, "Invalid Request")},
          {ErrorReply(nullptr, kParseErrorCode, "Parse error")},
          {progress, ResultReply(42, json::object{})},
      };
      std::size_t failing = 0;
      for (const std::vector<json::value>& answer : answers) {
        const Verdict judged = Judge(check::kOversizedRequest, raw, Replied(raw, answer));
        EXPECT_EQ(Show(judged), Show(Judge(check::kOversizedRequest, twin, Replied(twin, answer))));
        failing += judged.kind == VerdictKind::kFail ? 1 : 0;
      }
      // Not vacuous: id 7 and id null fail (the id 42 was read), and over HTTP the progress
      // nobody asked for (the _meta without a progressToken was read).
      EXPECT_EQ(failing, transport == kHttp ? 3U : 2U) << bytes;
    }
  }
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

// A campaign draws its cases with big_bodies_unwritten and draws again without it the ones it
// sends: the two draws must be the same case, the first only lacking a megabyte body's bytes.
TEST(LimitsFamily, ADrawWithBigBodiesUnwrittenIsTheSameCaseWithoutTheBytes) {
  for (TransportKind transport : {kHttp, kStdio}) {
    GenContext context = Context(kR4, transport);
    const auto written = Sample(gen::FindFamily("limits")->generator(context), 300);
    context.big_bodies_unwritten = true;
    const auto unwritten = Sample(gen::FindFamily("limits")->generator(context), 300);
    ASSERT_EQ(written.size(), unwritten.size());
    std::size_t left_unwritten = 0;
    for (std::size_t k = 0; k < written.size(); ++k) {
      const GeneratedCase& whole = written[k];
      const GeneratedCase& preview = unwritten[k];
      EXPECT_EQ(whole.unwritten_bytes, 0U);
      EXPECT_EQ(preview.check_id, whole.check_id);
      EXPECT_EQ(preview.variant, whole.variant);
      EXPECT_EQ(preview.request.headers, whole.request.headers);
      EXPECT_EQ(preview.well_formed, whole.well_formed);
      if (preview.unwritten_bytes == 0) {
        EXPECT_EQ(preview.request, whole.request) << whole.variant;
        continue;
      }
      ++left_unwritten;
      EXPECT_EQ(preview.unwritten_bytes, whole.request.WireSize()) << whole.variant;
      EXPECT_GE(preview.unwritten_bytes, kMiB) << "only megabyte bodies are left unwritten";
      EXPECT_EQ(preview.request.WireSize(), 0U);
    }
    EXPECT_GT(left_unwritten, 3U) << "no megabyte body drawn: the test shows nothing";
  }
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

// Greedy shrinking, as the campaign walks the tree: the first smaller case of the same check that
// still `fails`, until none does.
template <class Fails>
GeneratedCase Shrunk(rc::Shrinkable<GeneratedCase> node, const Fails& fails) {
  for (bool shrunk = true; shrunk;) {
    shrunk = false;
    rc::Seq<rc::Shrinkable<GeneratedCase>> candidates = node.shrinks();
    while (rc::Maybe<rc::Shrinkable<GeneratedCase>> next = candidates.next()) {
      if (next->value().check_id == node.value().check_id && fails(next->value())) {
        node = *next;
        shrunk = true;
        break;
      }
    }
  }
  return node.value();
}

TEST(LimitsFamily, ALongIdShrinksToTheShortestIdThatStillFails) {
  // A server that dies on a string id of more than 4,096 bytes: greedy shrinking ends one byte
  // past it, whatever length was drawn.
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
    const GeneratedCase shrunk = Shrunk(node, dies);
    EXPECT_EQ(shrunk.request.RpcId()->as_string().size(), 4097U);
    EXPECT_EQ(shrunk.variant, "a string id of 4097 characters");
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

// --- method names, tool names, _meta keys and header values ---

// The axis a case grew along (its variant up to the length) and the length measured on the
// request itself; nothing for a case of another variant.
struct Grown {
  std::string axis;
  std::size_t length = 0;
};

std::optional<Grown> GrownAlong(const GeneratedCase& generated) {
  const std::string& variant = generated.variant;
  auto meta_keys = [&generated] {
    std::vector<std::string> keys;
    const json::value body = json::parse(generated.request.WireBody());
    for (const auto& member : body.at("params").at("_meta").as_object()) {
      if (member.key().starts_with("mcpfuzz/")) keys.emplace_back(member.key());
    }
    return keys;
  };
  if (variant.starts_with("a method name of ")) {
    return Grown{"a method name", generated.request.RpcMethod()->size()};
  }
  if (variant.starts_with("a tool name of ")) {
    const json::value body = json::parse(generated.request.WireBody());
    return Grown{"a tool name", body.at("params").at("name").as_string().size()};
  }
  if (variant.starts_with("a _meta key of ")) {
    const std::vector<std::string> keys = meta_keys();
    EXPECT_EQ(keys.size(), 1U) << variant;
    return Grown{"a _meta key", keys.empty() ? 0 : keys.front().size()};
  }
  if (variant.starts_with("a _meta object of ")) return Grown{"_meta keys", meta_keys().size()};
  if (variant.starts_with("a header value of ")) {
    const auto value = FindHeader(generated.request.headers, "X-Mcpfuzz-Padding");
    return Grown{"a header value", value ? value->size() : 0};
  }
  return std::nullopt;
}

// Which of the scale's four steps a length falls in: bytes, bytes in a header, or a count of
// _meta members of at most 20 bytes.
std::size_t Step(std::size_t length, const std::array<std::size_t, 4>& ceilings) {
  return static_cast<std::size_t>(std::lower_bound(ceilings.begin(), ceilings.end(), length) -
                                  ceilings.begin());
}
constexpr std::array<std::size_t, 4> kBytes = {1024, 10240, 102400, kMiB};
constexpr std::array<std::size_t, 4> kHeaderBytes = {1024, 10240, 102400, kMiB / 2};
constexpr std::array<std::size_t, 4> kKeys = {1024 / 20, 10240 / 20, 102400 / 20, kMiB / 20};

TEST(LimitsFamily, NamesKeysAndHeaderValuesGrowOnTheScaleOfSizes) {
  for (Revision revision : {kR4, kR5}) {
    for (TransportKind transport : {kHttp, kStdio}) {
      SCOPED_TRACE(std::string(ToString(revision)) + " " + std::string(ToString(transport)));
      GenContext context = Context(revision, transport);
      context.max_request_bytes = kMiB;
      // Over 2026-07-28 HTTP the method and the tool's name are header values too.
      const bool header_bound = revision == kR5 && transport == kHttp;
      std::map<std::string, std::set<std::size_t>> steps;
      for (const GeneratedCase& generated :
           Sample(gen::FindFamily("limits")->generator(context), 800)) {
        const std::optional<Grown> grown = GrownAlong(generated);
        if (!grown) continue;
        EXPECT_EQ(generated.check_id, check::kOversizedRequest) << generated.variant;
        EXPECT_NE(generated.variant.find(" " + std::to_string(grown->length) + " "),
                  std::string::npos)
            << generated.variant << " measured " << grown->length;
        EXPECT_LE(generated.request.WireBody().size(), kMiB) << generated.variant;
        EXPECT_TRUE(IsJsonText(generated.request.WireBody())) << generated.variant;
        EXPECT_EQ(generated.request.RpcId(), generated.well_formed->RpcId()) << generated.variant;
        const bool in_header =
            grown->axis == "a header value" ||
            (header_bound && grown->axis != "a _meta key" && grown->axis != "_meta keys");
        if (grown->axis == "_meta keys") {
          EXPECT_GE(grown->length, 1U);
          EXPECT_LE(grown->length, kKeys.back());
          steps[grown->axis].insert(Step(grown->length, kKeys));
          continue;
        }
        steps[grown->axis].insert(Step(grown->length, in_header ? kHeaderBytes : kBytes));
        if (header_bound && grown->axis == "a method name") {
          EXPECT_EQ(FindHeader(generated.request.headers, "Mcp-Method"),
                    generated.request.RpcMethod());
        }
        if (header_bound && grown->axis == "a tool name") {
          EXPECT_EQ(FindHeader(generated.request.headers, "Mcp-Name")->size(), grown->length);
        }
      }
      std::map<std::string, std::set<std::size_t>> expected;
      for (const char* axis : {"a method name", "a tool name", "a _meta key", "_meta keys"}) {
        expected[axis] = {0, 1, 2, 3};
      }
      if (transport == kHttp) expected["a header value"] = {0, 1, 2, 3};
      EXPECT_EQ(steps, expected);
    }
  }
}

TEST(LimitsFamily, NamesKeysAndHeaderValuesStayWithinTheMaximumRequestSize) {
  for (std::size_t max : {std::size_t{1023}, std::size_t{5000}, std::size_t{200000}}) {
    GenContext context = Context(kR5, kHttp);
    context.max_request_bytes = max;
    std::size_t grown = 0;
    for (const GeneratedCase& generated :
         Sample(gen::FindFamily("limits")->generator(context), 300)) {
      const std::optional<Grown> along = GrownAlong(generated);
      if (!along) continue;
      ++grown;
      EXPECT_LE(generated.request.WireBody().size(), max) << generated.variant;
      EXPECT_LE(along->length, max) << generated.variant;
    }
    EXPECT_EQ(grown > 0, max >= 1024) << max;
  }
}

TEST(LimitsFamily, EachAxisShrinksToTheShortestValueThatStillFails) {
  // A server that dies on a name, a key or a header value of more than 4,096 bytes, or on more
  // than 300 _meta keys: greedy shrinking ends one past it, whatever length was drawn.
  for (TransportKind transport : {kHttp, kStdio}) {
    SCOPED_TRACE(ToString(transport));
    const rc::Gen<GeneratedCase> limits =
        gen::FindFamily("limits")->generator(Context(kR5, transport));
    std::map<std::string, std::size_t> shrunk_axes;
    for (std::uint64_t seed = 1; seed < 3000 && shrunk_axes.size() < 5; ++seed) {
      rc::Shrinkable<GeneratedCase> node = limits(rc::Random(seed), 50);
      const std::optional<Grown> drawn = GrownAlong(node.value());
      if (!drawn || shrunk_axes.contains(drawn->axis)) continue;
      const std::size_t limit = drawn->axis == "_meta keys" ? 300 : 4096;
      const auto dies = [&drawn, limit](const GeneratedCase& generated) {
        const std::optional<Grown> grown = GrownAlong(generated);
        return grown && grown->axis == drawn->axis && grown->length > limit;
      };
      if (!dies(node.value())) continue;
      const GeneratedCase shrunk = Shrunk(node, dies);
      EXPECT_EQ(GrownAlong(shrunk)->length, limit + 1) << shrunk.variant;
      EXPECT_NE(shrunk.variant.find(std::to_string(limit + 1)), std::string::npos)
          << shrunk.variant;
      shrunk_axes[drawn->axis] = GrownAlong(shrunk)->length;
    }
    EXPECT_EQ(shrunk_axes.size(), transport == kHttp ? 5U : 4U);
  }
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
