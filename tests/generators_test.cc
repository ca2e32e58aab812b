// The generator families: every case names a check the oracle table covers, breaks exactly
// the rule it names and nothing else, starts from a template that the official schema of its
// revision accepts, and keeps its family and check id while shrinking. Fixed seeds only.

#include "generators/generators.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "generators/detail/sequence_ops.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/expectations.h"
#include "support/deterministic_property.h"

namespace mcpfuzz::gen {
namespace {

namespace json = boost::json;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;

// What the reference server's catalog lists, plus a tool whose schema has every keyword the
// argument generator breaks.
std::vector<ToolInfo> Tools() {
  auto schema = [](const char* text) { return json::parse(text).as_object(); };
  return {
      {"echo", schema(R"({"type":"object","properties":{"message":{"type":"string"}},
                          "required":["message"]})")},
      {"add", schema(R"({"type":"object","properties":{"a":{"type":"number"},
                         "b":{"type":"number"}},"required":["a","b"]})")},
      {"fail_upstream", schema(R"({"type":"object","properties":{}})")},
      {"configure", schema(R"({"type":"object","properties":{
          "count":{"type":"integer","minimum":1,"maximum":10},
          "mode":{"type":"string","enum":["fast","slow"]},
          "label":{"type":"string","minLength":2,"maxLength":8},
          "ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},
          "flag":{"type":"boolean"},
          "tags":{"type":"array","items":{"type":"string"},"maxItems":3},
          "limits":{"type":"object","properties":{"max":{"type":"integer"}},"required":["max"]}},
        "required":["count","mode","limits"],"additionalProperties":false})")},
      // A pattern mcpfuzz cannot promise to satisfy: never broken, never called.
      {"lookup", schema(R"({"type":"object","properties":{"id":{"type":"string",
                           "pattern":"^[0-9a-f]{8}$"}},"required":["id"]})")},
  };
}

GenContext Context(Revision revision, TransportKind transport) {
  GenContext context;
  context.revision = revision;
  context.transport = transport;
  context.capabilities = {
      {"tools", json::object{}}, {"prompts", json::object{}}, {"resources", json::object{}}};
  if (EraOf(revision) == Era::kHandshake) context.capabilities["logging"] = json::object{};
  context.tools = Tools();
  context.prompts = {"greeting"};
  context.resource_uris = {"mcpfuzz://readme"};
  context.session_assigned = transport == kHttp && EraOf(revision) == Era::kHandshake;
  return context;
}

std::vector<GenContext> AllContexts() {
  std::vector<GenContext> contexts;
  for (Revision revision : kAllRevisions) {
    for (TransportKind transport : {kHttp, kStdio})
      contexts.push_back(Context(revision, transport));
  }
  return contexts;
}

std::string Describe(const GenContext& context) {
  return std::string(ToString(context.revision)) + " " + std::string(ToString(context.transport));
}

std::string Show(const GeneratedCase& generated) {
  std::ostringstream out;
  showValue(generated, out);
  return out.str();
}

// `count` cases of `generator`, case k drawn from seed `seed + k` at size k % 101, as the
// campaign draws them.
std::vector<GeneratedCase> Sample(const rc::Gen<GeneratedCase>& generator, int count,
                                  std::uint64_t seed = 1) {
  std::vector<GeneratedCase> cases;
  for (int k = 0; k < count; ++k) {
    try {
      cases.push_back(generator(rc::Random(seed + static_cast<std::uint64_t>(k)), k % 101).value());
    } catch (const std::exception& error) {
      ADD_FAILURE() << "generation failed: " << error.what();
    }
  }
  return cases;
}

std::vector<GeneratedCase> SampleFamily(const GenContext& context, std::string_view family,
                                        int count) {
  const FamilyInfo* info = FindFamily(family);
  if (info == nullptr || !info->applies(context)) return {};
  return Sample(info->generator(context), count);
}

std::optional<json::value> StrictParse(std::string_view text) {
  json::parse_options options;
  options.max_depth = 1'000'000;
  json::error_code error;
  json::value value = json::parse(text, error, {}, options);
  if (error) return std::nullopt;
  return value;
}

json::object BodyOf(const Request& request) {
  auto body = request.BodyJson();
  return body && body->is_object() ? body->as_object() : json::object{};
}

// Members that differ between two objects, by key: changed, added or removed.
std::set<std::string> DifferingMembers(const json::object& a, const json::object& b) {
  std::set<std::string> keys;
  for (const auto& member : a) keys.emplace(member.key());
  for (const auto& member : b) keys.emplace(member.key());
  std::set<std::string> differing;
  for (const std::string& key : keys) {
    const json::value* left = a.if_contains(key);
    const json::value* right = b.if_contains(key);
    if (left == nullptr || right == nullptr || *left != *right) differing.insert(key);
  }
  return differing;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Headers as (lowercase name → values), for comparisons that ignore name casing.
std::multimap<std::string, std::string> HeaderMap(const Headers& headers) {
  std::multimap<std::string, std::string> map;
  for (const Header& header : headers) map.emplace(Lower(header.name), header.value);
  return map;
}

std::set<std::string> DifferingHeaders(const Headers& a, const Headers& b) {
  const auto left = HeaderMap(a);
  const auto right = HeaderMap(b);
  std::set<std::string> names;
  for (const auto& [name, value] : left) names.insert(name);
  for (const auto& [name, value] : right) names.insert(name);
  std::set<std::string> differing;
  for (const std::string& name : names) {
    auto [left_first, left_last] = left.equal_range(name);
    auto [right_first, right_last] = right.equal_range(name);
    std::vector<std::string> left_values, right_values;
    for (auto it = left_first; it != left_last; ++it) left_values.push_back(it->second);
    for (auto it = right_first; it != right_last; ++it) right_values.push_back(it->second);
    if (left_values != right_values) differing.insert(name);
  }
  return differing;
}

// Runs tests/support/validate_schema.py over JSON lines.
::testing::AssertionResult ValidateWithPython(const std::vector<std::string>& lines) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("mcpfuzz-schema-" + std::to_string(getpid()) + ".jsonl");
  {
    std::ofstream out(file);
    for (const std::string& line : lines) out << line << "\n";
  }
  const std::string command = "python3 " MCPFUZZ_SOURCE_DIR "/tests/support/validate_schema.py " +
                              file.string() + " " MCPFUZZ_SOURCE_DIR "/tests/data/schemas 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return ::testing::AssertionFailure() << "cannot run " << command;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  std::filesystem::remove(file);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "validate_schema.py (exit " << WEXITSTATUS(status)
                                       << ") over " << lines.size() << " values:\n"
                                       << output.substr(0, 6000);
}

std::set<std::string> AllFamilyNames() {
  std::set<std::string> names;
  for (const FamilyInfo& family : AllFamilies()) names.emplace(family.name);
  return names;
}

// --- the registry ------------------------------------------------------------------------------

TEST(GeneratorRegistry, NamesEveryFamilyOnceAndLeavesRealToolsOut) {
  std::set<std::string> names;
  for (const FamilyInfo& family : AllFamilies()) {
    EXPECT_TRUE(names.emplace(family.name).second) << family.name;
    EXPECT_EQ(FindFamily(family.name), &family);
    // Sequences open a connection per case: asked for by name only.
    EXPECT_EQ(DefaultFamilies().contains(std::string(family.name)),
              !family.calls_real_tools && family.name != "sequences");
  }
  EXPECT_EQ(names.size(), 17U);
  EXPECT_EQ(FindFamily("no-such-family"), nullptr);
  EXPECT_FALSE(DefaultFamilies().contains("tool-arguments"));
}

TEST(GeneratorRegistry, LeavesOutFamiliesThatDoNotApply) {
  auto names = [](const GenContext& context) {
    std::set<std::string> applicable;
    for (const FamilyInfo* family : ApplicableFamilies(context, AllFamilyNames())) {
      applicable.emplace(family->name);
    }
    return applicable;
  };
  const auto stateless_http = names(Context(Revision::k2026_07_28, kHttp));
  EXPECT_TRUE(stateless_http.contains("headers"));
  EXPECT_TRUE(stateless_http.contains("meta"));
  EXPECT_FALSE(stateless_http.contains("sessions"));
  EXPECT_FALSE(stateless_http.contains("tool-arguments")) << "call_real_tools is off";
  const auto handshake_stdio = names(Context(Revision::k2025_11_25, kStdio));
  EXPECT_FALSE(handshake_stdio.contains("headers"));
  EXPECT_FALSE(handshake_stdio.contains("meta"));
  EXPECT_FALSE(handshake_stdio.contains("sessions"));
  EXPECT_TRUE(handshake_stdio.contains("log-levels"));
  EXPECT_TRUE(names(Context(Revision::k2025_11_25, kHttp)).contains("sessions"));
  EXPECT_FALSE(names(Context(Revision::k2024_11_05, kHttp)).contains("sessions"));

  GenContext real_tools = Context(Revision::k2025_11_25, kStdio);
  real_tools.call_real_tools = true;
  EXPECT_TRUE(names(real_tools).contains("tool-arguments"));
}

// --- every family ------------------------------------------------------------------------------

TEST(Generators, EveryCaseNamesASituationTheTableHasARowFor) {
  for (GenContext context : AllContexts()) {
    context.call_real_tools = true;
    for (const FamilyInfo* family : ApplicableFamilies(context, AllFamilyNames())) {
      std::set<std::string> seen;
      for (const GeneratedCase& generated : Sample(family->generator(context), 150)) {
        ASSERT_TRUE(check::IsKnown(generated.check_id)) << Show(generated);
        EXPECT_EQ(generated.family, family->name);
        EXPECT_EQ(generated.request.revision, context.revision);
        EXPECT_EQ(generated.request.transport, context.transport);
        EXPECT_NE(FindExpectation(generated.check_id, generated.request), nullptr)
            << Describe(context) << ": no row for " << Show(generated);
        EXPECT_FALSE(generated.variant.empty());
        seen.insert(generated.check_id);
      }
      EXPECT_FALSE(seen.empty()) << family->name << " in " << Describe(context);
    }
  }
}

TEST(Generators, StdioRequestsStayOnOneLine) {
  for (GenContext context : AllContexts()) {
    if (context.transport != kStdio) continue;
    context.call_real_tools = true;
    for (const GeneratedCase& generated : Sample(AnyCase(context, AllFamilyNames()), 600)) {
      const std::string wire = generated.request.WireBody();
      EXPECT_EQ(wire.find_first_of("\r\n"), std::string::npos) << Show(generated);
    }
  }
}

TEST(Generators, SameSeedSameCase) {
  for (const GenContext& context : AllContexts()) {
    const auto first = AnyCase(context, {});
    const auto second = AnyCase(context, {});
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
      const GeneratedCase a = first(rc::Random(seed), static_cast<int>(seed)).value();
      const GeneratedCase b = second(rc::Random(seed), static_cast<int>(seed)).value();
      ASSERT_EQ(a.request, b.request) << Show(a);
      ASSERT_EQ(a.check_id, b.check_id);
    }
  }
}

TEST(Generators, NoRealToolIsNamedUnlessAllowed) {
  std::set<std::string> real;
  for (const ToolInfo& tool : Tools()) real.insert(tool.name);
  for (const GenContext& context : AllContexts()) {
    for (const GeneratedCase& generated : Sample(AnyCase(context, DefaultFamilies()), 800)) {
      EXPECT_NE(generated.family, "tool-arguments");
      const json::object body = BodyOf(generated.request);
      const auto* method = body.if_contains("method");
      if (method == nullptr || *method != "tools/call") continue;
      const auto* params = body.if_contains("params");
      const auto* name = params != nullptr && params->is_object()
                             ? params->as_object().if_contains("name")
                             : nullptr;
      if (name != nullptr && name->is_string()) {
        EXPECT_FALSE(real.contains(std::string(name->as_string()))) << Show(generated);
      }
    }
  }
}

// Every operation of the sequences family is drawn where it fits within kCases cases of the
// usual seeds, in one of its lane's contexts: an operation nothing draws fails here. Which case
// draws it first is left to the draws.
TEST(Sequences, EveryOperationIsDrawnWhereItFits) {
  constexpr int kCases = 2000;
  auto declaring_all = [](Revision revision, TransportKind transport) {
    GenContext context = Context(revision, transport);
    context.capabilities["resources"] = json::object{{"subscribe", true}};
    context.speaks_both_eras = true;
    return context;
  };
  const struct {
    std::span<const detail::SequenceOp> ops;
    std::vector<GenContext> contexts;
  } lanes[] = {
      {detail::HandshakeOps(),
       {declaring_all(Revision::k2025_11_25, kHttp), declaring_all(Revision::k2025_11_25, kStdio)}},
      {detail::EraLockOps(), {declaring_all(Revision::k2026_07_28, kStdio)}},
  };
  for (const auto& lane : lanes) {
    std::set<std::string, std::less<>> seen;
    for (const GenContext& context : lane.contexts) {
      const std::vector<GeneratedCase> cases = SampleFamily(context, "sequences", kCases);
      ASSERT_EQ(cases.size(), static_cast<std::size_t>(kCases)) << Describe(context);
      for (const GeneratedCase& generated : cases) {
        std::string_view variant = generated.variant;
        for (std::size_t end = 0; !variant.empty(); variant.remove_prefix(end)) {
          end = variant.find(", ");
          seen.emplace(variant.substr(0, end));
          end = end == std::string_view::npos ? variant.size() : end + 2;
        }
      }
    }
    // A step is named by its operation, or by it and a detail (a level, a URI) where no other
    // operation's name reads that way.
    auto drawn = [&](std::string_view name) {
      const bool detailed =
          std::none_of(lane.ops.begin(), lane.ops.end(), [&](const detail::SequenceOp& other) {
            return other.name != name && std::string_view(other.name).starts_with(name);
          });
      return std::any_of(seen.begin(), seen.end(), [&](std::string_view step) {
        return step == name || (detailed && step.starts_with(std::string(name) + " "));
      });
    };
    for (const detail::SequenceOp& op : lane.ops) {
      EXPECT_TRUE(drawn(op.name)) << op.name << " in none of " << kCases << " cases";
    }
  }
}

// --- malformed JSON ------------------------------------------------------------------------------

TEST(MalformedJson, ParseErrorBodiesAreNeverJson) {
  int checked = 0;
  for (const GenContext& context : AllContexts()) {
    for (const GeneratedCase& generated : SampleFamily(context, "malformed-json", 400)) {
      if (generated.check_id != check::kParseError) continue;
      ++checked;
      const auto* raw = std::get_if<RawBody>(&generated.request.body);
      ASSERT_NE(raw, nullptr) << Show(generated);
      EXPECT_FALSE(StrictParse(raw->bytes)) << Show(generated);
      ASSERT_TRUE(generated.well_formed);
      EXPECT_TRUE(StrictParse(generated.well_formed->WireBody()));
    }
  }
  EXPECT_GT(checked, 1500);
}

// Tables F1a: the invalid-UTF-8 cases (a BOM or a duplicate jsonrpc member on top or not) are
// JSON once their bad bytes are read as U+FFFD, so they are judged by the row that tolerates
// serving them; every other parse-error case by the strict row.
TEST(MalformedJson, InvalidUtf8CasesAreJudgedByTheirOwnRow) {
  int invalid_utf8 = 0;
  for (const GenContext& context : AllContexts()) {
    for (const GeneratedCase& generated : SampleFamily(context, "malformed-json", 400)) {
      if (generated.check_id != check::kParseError) continue;
      const Expectation* row = FindExpectation(generated.check_id, generated.request);
      ASSERT_NE(row, nullptr) << Show(generated);
      const bool utf8_case = generated.variant.find("invalid UTF-8") != std::string::npos;
      invalid_utf8 += utf8_case ? 1 : 0;
      EXPECT_EQ(row->condition == RequestCondition::kInvalidUtf8InString, utf8_case)
          << Show(generated);
    }
  }
  EXPECT_GT(invalid_utf8, 50);
}

TEST(MalformedJson, OtherBodiesAreJsonAParserMayStillRefuse) {
  std::set<std::string> variants;
  for (const GenContext& context : AllContexts()) {
    for (const GeneratedCase& generated : SampleFamily(context, "malformed-json", 400)) {
      if (generated.check_id == check::kParseError) continue;
      std::string bytes = generated.request.WireBody();
      // A BOM is not JSON text (RFC 8259 §8.1 only lets parsers ignore it).
      if (bytes.starts_with("\xEF\xBB\xBF")) bytes = bytes.substr(3);
      EXPECT_TRUE(StrictParse(bytes)) << Show(generated);
      if (generated.check_id == check::kNoEarlyExit) {
        EXPECT_EQ(context.transport, kStdio) << "the process check exists over stdio only";
      } else {
        EXPECT_EQ(generated.check_id, check::kUnknownMethod) << Show(generated);
      }
      variants.insert(generated.variant.substr(0, generated.variant.find(' ')));
    }
  }
  EXPECT_GE(variants.size(), 5U);
}

// --- invalid requests ----------------------------------------------------------------------------

TEST(InvalidRequest, DiffersFromTheTemplateInExactlyOneMember) {
  std::set<std::string> check_ids;
  for (const GenContext& context : AllContexts()) {
    for (const GeneratedCase& generated : SampleFamily(context, "invalid-request", 300)) {
      check_ids.insert(generated.check_id);
      const auto body = StrictParse(generated.request.WireBody());
      ASSERT_TRUE(body) << "not JSON: " << Show(generated);
      ASSERT_TRUE(generated.well_formed);
      EXPECT_EQ(generated.request.headers, generated.well_formed->headers);
      if (generated.check_id == check::kNotAnObject) {
        EXPECT_FALSE(body->is_object() || body->is_array()) << Show(generated);
        continue;
      }
      ASSERT_TRUE(body->is_object()) << Show(generated);
      const std::set<std::string> differing =
          DifferingMembers(body->as_object(), BodyOf(*generated.well_formed));
      ASSERT_EQ(differing.size(), 1U) << Show(generated);
      const std::string member = *differing.begin();
      const json::value* value = body->as_object().if_contains(member);
      if (generated.check_id == check::kMissingJsonrpc) {
        EXPECT_EQ(member, "jsonrpc");
        EXPECT_EQ(value, nullptr);
      } else if (generated.check_id == check::kWrongJsonrpc) {
        EXPECT_EQ(member, "jsonrpc");
        ASSERT_NE(value, nullptr);
        EXPECT_NE(*value, "2.0");
      } else if (generated.check_id == check::kMissingMethod) {
        EXPECT_EQ(member, "method");
        EXPECT_TRUE(value == nullptr || !value->is_string()) << Show(generated);
      } else if (generated.check_id == check::kParamsNotObject) {
        EXPECT_EQ(member, "params");
        ASSERT_NE(value, nullptr);
        EXPECT_FALSE(value->is_object());
      } else {
        EXPECT_EQ(member, "id") << Show(generated);
        ASSERT_NE(value, nullptr);
        if (generated.check_id == check::kIdNull) {
          EXPECT_TRUE(value->is_null());
        }
        if (generated.check_id == check::kIdBool) {
          EXPECT_TRUE(value->is_bool());
        }
        if (generated.check_id == check::kIdObject) {
          EXPECT_TRUE(value->is_object() || value->is_array());
        }
        if (generated.check_id == check::kIdFloat) {
          ASSERT_TRUE(value->is_double());
          EXPECT_NE(value->as_double(), std::floor(value->as_double())) << Show(generated);
        }
      }
    }
  }
  EXPECT_EQ(check_ids.size(), 9U);
}

// --- headers, sessions, _meta --------------------------------------------------------------------

TEST(HeaderMismatch, DiffersFromTheTemplateInExactlyOneHeader) {
  const GenContext context = Context(Revision::k2026_07_28, kHttp);
  std::set<std::string> check_ids;
  for (const GeneratedCase& generated : SampleFamily(context, "headers", 1200)) {
    check_ids.insert(generated.check_id);
    ASSERT_TRUE(generated.well_formed);
    const Request& well_formed = *generated.well_formed;
    const std::set<std::string> headers =
        DifferingHeaders(generated.request.headers, well_formed.headers);
    if (headers.empty()) {
      // The one body-side disagreement: _meta names another version than the header.
      EXPECT_EQ(generated.check_id, check::kProtocolVersionHeaderMismatch);
      const auto meta = [](const Request& request) {
        return BodyOf(request).at("params").as_object().at("_meta").as_object();
      };
      EXPECT_EQ(DifferingMembers(meta(generated.request), meta(well_formed)),
                std::set<std::string>{std::string(kMetaProtocolVersion)});
      continue;
    }
    ASSERT_EQ(headers.size(), 1U) << Show(generated);
    EXPECT_EQ(generated.request.body, well_formed.body) << Show(generated);
    const std::string header = *headers.begin();
    const auto value = FindHeader(generated.request.headers, header);
    if (generated.check_id.starts_with("headers.protocol-version")) {
      EXPECT_EQ(header, Lower(std::string(kHeaderProtocolVersion)));
      EXPECT_EQ(!value, generated.check_id == check::kProtocolVersionHeaderMissing);
      if (value) {
        EXPECT_NE(*value, "2026-07-28");
      }
    } else if (generated.check_id.starts_with("headers.method")) {
      EXPECT_EQ(header, Lower(std::string(kHeaderMethod)));
      EXPECT_EQ(!value, generated.check_id == check::kMethodHeaderMissing);
      const std::string method = *generated.request.RpcMethod();
      if (generated.check_id == check::kMethodHeaderCase) {
        EXPECT_NE(*value, method);
        EXPECT_EQ(Lower(std::string(*value)), Lower(method));
      }
      if (generated.check_id == check::kMethodHeaderMismatch) {
        EXPECT_NE(Lower(std::string(*value)), Lower(method));
      }
    } else {
      EXPECT_EQ(header, Lower(std::string(kHeaderName)));
      EXPECT_EQ(!value, generated.check_id == check::kNameHeaderMissing);
      const auto original = FindHeader(well_formed.headers, kHeaderName);
      ASSERT_TRUE(original);
      const auto decoded = value ? DecodeHeaderValue(std::string(*value)) : std::nullopt;
      const auto original_decoded = DecodeHeaderValue(*original);
      if (generated.check_id == check::kNameHeaderBase64) {
        EXPECT_TRUE(value->starts_with("=?base64?"));
        EXPECT_EQ(decoded, original_decoded);
      }
      if (generated.check_id == check::kNameHeaderWhitespace) {
        EXPECT_NE(*value, *original);
        auto trimmed = std::string(*value);
        trimmed.erase(0, trimmed.find_first_not_of(" \t"));
        trimmed.erase(trimmed.find_last_not_of(" \t") + 1);
        EXPECT_EQ(trimmed, *original);
      }
      if (generated.check_id == check::kNameHeaderMismatch) {
        EXPECT_TRUE(!decoded || decoded != original_decoded) << Show(generated);
      }
    }
  }
  EXPECT_EQ(check_ids.size(), 10U);
}

TEST(SessionHeaders, LeaveTheSessionOutOrNameAnUnknownOne) {
  const GenContext context = Context(Revision::k2025_11_25, kHttp);
  std::set<std::string> check_ids;
  for (const GeneratedCase& generated : SampleFamily(context, "sessions", 200)) {
    check_ids.insert(generated.check_id);
    EXPECT_TRUE(generated.context.capability_declared);
    if (generated.check_id == check::kSessionMissing) {
      EXPECT_EQ(generated.request.session, SessionBinding::kOmit);
      EXPECT_FALSE(FindHeader(generated.request.headers, kHeaderSessionId));
    } else {
      ASSERT_EQ(generated.check_id, check::kSessionUnknown);
      const auto id = FindHeader(generated.request.headers, kHeaderSessionId);
      ASSERT_TRUE(id);
      EXPECT_TRUE(std::all_of(id->begin(), id->end(), [](char c) { return c > 0x20 && c < 0x7F; }));
    }
  }
  EXPECT_EQ(check_ids.size(), 2U);
}

TEST(MetaEnvelope, ChangesExactlyOneProtocolField) {
  for (TransportKind transport : {kHttp, kStdio}) {
    const GenContext context = Context(Revision::k2026_07_28, transport);
    std::set<std::string> check_ids;
    for (const GeneratedCase& generated : SampleFamily(context, "meta", 300)) {
      check_ids.insert(generated.check_id);
      const json::object body = BodyOf(generated.request);
      const json::object expected_body = BodyOf(*generated.well_formed);
      const auto* params = body.if_contains("params");
      const auto* meta = params != nullptr ? params->as_object().if_contains("_meta") : nullptr;
      const json::object& expected_meta =
          expected_body.at("params").as_object().at("_meta").as_object();
      if (generated.check_id == check::kMetaMissing) {
        EXPECT_TRUE(meta == nullptr || !meta->is_object()) << Show(generated);
        continue;
      }
      ASSERT_TRUE(meta != nullptr && meta->is_object()) << Show(generated);
      const std::set<std::string> differing = DifferingMembers(meta->as_object(), expected_meta);
      ASSERT_EQ(differing.size(), 1U) << Show(generated);
      const std::string field = *differing.begin();
      if (generated.check_id == check::kMetaPartial) {
        EXPECT_TRUE(field == kMetaProtocolVersion || field == kMetaClientCapabilities);
        const auto* value = meta->as_object().if_contains(field);
        EXPECT_TRUE(value == nullptr || !value->is_object()) << Show(generated);
      } else if (generated.check_id == check::kVersionUnsupported) {
        EXPECT_EQ(field, kMetaProtocolVersion);
        const std::string version(meta->as_object().at(field).as_string());
        EXPECT_FALSE(ParseRevision(version)) << version;
        if (transport == kHttp) {
          EXPECT_EQ(FindHeader(generated.request.headers, kHeaderProtocolVersion), version);
        }
      } else {
        EXPECT_EQ(generated.check_id, check::kMetaClientInfoOptional);
        EXPECT_EQ(field, kMetaClientInfo);
        EXPECT_EQ(generated.request.RpcMethod(), "server/discover");
      }
    }
    EXPECT_EQ(check_ids.size(), 4U);
  }
}

// --- tool arguments ------------------------------------------------------------------------------

json::object Arguments(const Request& request) {
  const json::object body = BodyOf(request);
  const auto* arguments = body.at("params").as_object().if_contains("arguments");
  return arguments != nullptr && arguments->is_object() ? arguments->as_object() : json::object{};
}

TEST(ToolArguments, BreakExactlyTheNamedPropertyOfAValidCall) {
  GenContext context = Context(Revision::k2025_11_25, kStdio);
  context.call_real_tools = true;
  std::map<std::string, json::object> schemas;
  for (const ToolInfo& tool : context.tools) schemas[tool.name] = tool.input_schema;
  std::vector<std::string> lines;
  std::set<std::string> tools_broken;
  for (const GeneratedCase& generated : SampleFamily(context, "tool-arguments", 400)) {
    const json::object body = BodyOf(generated.request);
    const std::string tool(body.at("params").as_object().at("name").as_string());
    ASSERT_TRUE(schemas.contains(tool));
    if (generated.check_id == check::kToolArgumentsNotObject) {
      EXPECT_FALSE(body.at("params").as_object().at("arguments").is_object());
      continue;
    }
    EXPECT_NE(tool, "lookup") << "its pattern cannot be satisfied for certain";
    ASSERT_EQ(generated.check_id, check::kToolBadArguments);
    tools_broken.insert(tool);
    const json::object valid = Arguments(*generated.well_formed);
    const json::object broken = Arguments(generated.request);
    EXPECT_EQ(DifferingMembers(valid, broken),
              std::set<std::string>{generated.context.argument_name})
        << Show(generated);
    lines.push_back(json::serialize(
        json::object{{"schema", schemas[tool]}, {"instance", valid}, {"valid", true}}));
    lines.push_back(json::serialize(
        json::object{{"schema", schemas[tool]}, {"instance", broken}, {"valid", false}}));
  }
  EXPECT_EQ(tools_broken, (std::set<std::string>{"echo", "add", "configure"}));
  EXPECT_TRUE(ValidateWithPython(lines));
}

// --- the official schema -------------------------------------------------------------------------

TEST(Generators, WellFormedTemplatesValidateAgainstTheOfficialSchema) {
  std::vector<std::string> lines;
  std::set<std::string> methods;
  for (GenContext context : AllContexts()) {
    context.call_real_tools = true;
    for (const FamilyInfo* family : ApplicableFamilies(context, AllFamilyNames())) {
      for (const GeneratedCase& generated : Sample(family->generator(context), 12, 1000)) {
        if (!generated.well_formed) continue;
        const auto body = generated.well_formed->BodyJson();
        if (!body || !body->is_object()) continue;  // A bodiless DELETE.
        methods.insert(std::string(body->as_object().at("method").as_string()));
        lines.push_back(json::serialize(
            json::object{{"revision", ToString(context.revision)}, {"message", *body}}));
      }
    }
  }
  EXPECT_GE(methods.size(), 12U);
  EXPECT_TRUE(ValidateWithPython(lines));
}

// --- shrinking -----------------------------------------------------------------------------------

TEST(Shrinking, KeepsTheFamilyAndTheCheckId) {
  for (Revision revision : {Revision::k2026_07_28, Revision::k2025_11_25, Revision::k2025_03_26}) {
    for (TransportKind transport : {kHttp, kStdio}) {
      GenContext context = Context(revision, transport);
      context.call_real_tools = true;
      const rc::Gen<GeneratedCase> generator = AnyCase(context, AllFamilyNames());
      test_support::CheckDeterministically(
          [&](std::uint64_t seed) {
            const rc::Shrinkable<GeneratedCase> root =
                generator(rc::Random(seed), static_cast<int>(seed % 101));
            const GeneratedCase original = root.value();
            // The campaign's descent when every candidate keeps failing: the first shrink,
            // again and again. Every candidate looked at keeps family and check id.
            rc::Shrinkable<GeneratedCase> current = root;
            for (int step = 0; step < 25; ++step) {
              auto candidates = current.shrinks();
              std::optional<rc::Shrinkable<GeneratedCase>> first;
              for (int looked = 0; looked < 6; ++looked) {
                auto candidate = candidates.next();
                if (!candidate) break;
                const GeneratedCase shrunk = candidate->value();
                RC_ASSERT(shrunk.family == original.family);
                RC_ASSERT(shrunk.check_id == original.check_id);
                RC_ASSERT(shrunk.context.argument_name.empty() ==
                          original.context.argument_name.empty());
                if (!first) first = *candidate;
              }
              if (!first) break;
              current = *first;
            }
          },
          20261129, 40);
    }
  }
}

TEST(Shrinking, MovesTowardShorterBodies) {
  // Deep unbalanced nesting shrinks to a shallow one, a long unknown name to a short one.
  const GenContext context = Context(Revision::k2025_11_25, kStdio);
  int deep = 0;
  for (const auto* family : {"malformed-json", "unknown-names"}) {
    const rc::Gen<GeneratedCase> generator = FindFamily(family)->generator(context);
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      rc::Shrinkable<GeneratedCase> current = generator(rc::Random(seed), 100);
      const GeneratedCase original = current.value();
      if (original.request.WireBody().size() < 2000) continue;
      ++deep;
      for (int step = 0; step < 200; ++step) {
        auto first = current.shrinks().next();
        if (!first) break;
        current = *first;
      }
      EXPECT_LT(current.value().request.WireBody().size() * 4, original.request.WireBody().size())
          << "from " << Show(original) << "\nto " << Show(current.value());
    }
  }
  EXPECT_GT(deep, 20);
}

}  // namespace
}  // namespace mcpfuzz::gen
