// Mutants for coverage steering (generators/mutation.h): what each stage sends, that a mutant
// never calls a tool its parent did not, and that the same seed gives the same mutant.

#include "generators/mutation.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <set>
#include <string>

#include "model/model.h"
#include "oracles/check_ids.h"

namespace mcpfuzz {
namespace {

GeneratedCase CaseOf(const char* body) {
  GeneratedCase generated;
  generated.request.transport = TransportKind::kStdio;
  generated.request.body = boost::json::parse(body);
  generated.family = "pagination";
  generated.check_id = "pagination.invalid-cursor";
  return generated;
}

boost::json::object BodyOf(const GeneratedCase& generated) {
  return std::get<boost::json::value>(generated.request.body).as_object();
}

TEST(Mutation, AHandedOutCursorGoesBackAsTheCursorAndAnythingElseIntoMeta) {
  const GeneratedCase parent = CaseOf(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})");
  const auto reply = boost::json::parse(
      R"({"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"echo"}],"nextCursor":"c2",)"
      R"("_meta":{"example/trace":"t-1"}}})");
  const std::vector<gen::HandedOut> handed = gen::HandedOutIn(reply);
  ASSERT_EQ(handed.size(), 3U) << "the tool's name, the cursor and the trace";
  gen::MutationContext context;
  std::set<std::string> sent;
  for (const gen::HandedOut& value : handed) {
    auto mutant = gen::WriteBack(parent, value, context, "case 3");
    ASSERT_TRUE(mutant.has_value()) << value.key;
    EXPECT_EQ(mutant->family, gen::kMutantFamily);
    EXPECT_EQ(mutant->check_id, check::kNoEarlyExit) << "no reply rule judges a mutant";
    EXPECT_NE(mutant->variant.find("mutant of case 3"), std::string::npos);
    EXPECT_EQ(BodyOf(*mutant).at("id"), 7) << "the id stays";
    sent.insert(boost::json::serialize(BodyOf(*mutant).at("params")));
  }
  EXPECT_TRUE(sent.contains(R"({"name":"echo"})"));
  EXPECT_TRUE(sent.contains(R"({"cursor":"c2"})"));
  EXPECT_TRUE(sent.contains(R"({"_meta":{"example/trace":"t-1"}})"));
}

TEST(Mutation, EachStringOfParamsIsSentAtTheBoundaryLengths) {
  const GeneratedCase parent = CaseOf(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc","_meta":{"n":"x"}}})");
  const std::vector<GeneratedCase> mutants = gen::BoundaryMutants(parent, {}, "case 0");
  ASSERT_EQ(mutants.size(), 9U) << "two strings at five lengths, but the length one has";
  std::set<std::size_t> cursor_lengths;
  for (const GeneratedCase& mutant : mutants) {
    const boost::json::object params = BodyOf(mutant).at("params").as_object();
    cursor_lengths.insert(params.at("cursor").as_string().size());
    EXPECT_EQ(BodyOf(mutant).at("method"), "tools/list") << "the method is not a param";
  }
  EXPECT_EQ(cursor_lengths, (std::set<std::size_t>{0, 1, 3, 64, 256, 4096}))
      << "3 is the cursor left alone while _meta.n changes";
}

TEST(Mutation, AMutantNeverCallsARealToolItsParentDidNotCall) {
  // The parent asks for a tool by an impossible name; the server handed out a real one.
  const GeneratedCase parent =
      CaseOf(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"no-such"}})");
  gen::MutationContext context;
  context.tokens = {"echo"};
  context.near = {"echo"};
  EXPECT_FALSE(gen::WriteBack(parent, {"name", "echo"}, context, "case 0").has_value());
  std::size_t mutants = 0;
  for (std::uint64_t seed = 0; seed < 2000; ++seed) {
    const auto mutant = gen::Mutate(parent, nullptr, context, seed, "case 0");
    if (!mutant) continue;
    ++mutants;
    const boost::json::object body = BodyOf(*mutant);
    if (body.contains("method") && body.at("method") == "tools/call" && body.contains("params") &&
        body.at("params").is_object() && body.at("params").as_object().contains("name")) {
      EXPECT_EQ(body.at("params").at("name"), "no-such") << mutant->variant;
    }
  }
  EXPECT_GT(mutants, 1000U) << "most draws give a mutant";
  context.call_real_tools = true;
  EXPECT_TRUE(gen::WriteBack(parent, {"name", "echo"}, context, "case 0").has_value())
      << "--call-real-tools allows it";
}

TEST(Mutation, TheSameSeedGivesTheSameMutantAndTheIdAndVersionStay) {
  const GeneratedCase parent = CaseOf(
      R"({"jsonrpc":"2.0","id":"a","method":"prompts/get","params":{"name":"p","arguments":{"x":"1"}}})");
  const GeneratedCase donor =
      CaseOf(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"q"}})");
  gen::MutationContext context;
  context.tokens = {"greeting", "test://static/hello"};
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const auto first = gen::Mutate(parent, &donor, context, seed, "case 0");
    const auto second = gen::Mutate(parent, &donor, context, seed, "case 0");
    ASSERT_EQ(first.has_value(), second.has_value());
    if (!first) continue;
    EXPECT_EQ(first->request, second->request);
    EXPECT_EQ(first->variant, second->variant);
    EXPECT_NE(first->request, parent.request) << "a mutant changes something";
    const boost::json::object body = BodyOf(*first);
    EXPECT_EQ(body.at("id"), "a") << first->variant;
    EXPECT_EQ(body.at("jsonrpc"), "2.0") << first->variant;
  }
}

TEST(Mutation, ARawBodyIsEditedAsBytes) {
  GeneratedCase parent;
  parent.request.transport = TransportKind::kStdio;
  parent.request.body = RawBody{R"({"jsonrpc":"2.0","id":1,"method":"ping")"};
  std::size_t edited = 0;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const auto mutant = gen::Mutate(parent, nullptr, {}, seed, "case 0");
    if (!mutant) continue;
    ++edited;
    EXPECT_NE(mutant->variant.find("raw:"), std::string::npos) << mutant->variant;
  }
  EXPECT_GT(edited, 40U);
}

}  // namespace
}  // namespace mcpfuzz
