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

// A sequence's mutant edits one request: never initialize, a notification, a request written
// with its cancellation or one carrying a captured cursor, since those make the state the
// other steps are judged in. The edited step keeps its id and is judged by the process rules;
// every other step is as it was, and the same seed gives the same mutant.
TEST(Mutation, ASequencesMutantEditsOneOfItsRequestsAndSaysSo) {
  const Revision revision = Revision::k2025_11_25;
  const TransportKind stdio = TransportKind::kStdio;
  GeneratedCase parent;
  parent.family = "sequences";
  auto step = [](Request request, const char* check_id) {
    SequenceStep made;
    made.request = std::move(request);
    made.check_id = check_id;
    made.row = "row";
    return made;
  };
  parent.steps.push_back(step(MakeInitialize(revision, stdio, 1), "lifecycle.initialize"));
  parent.steps.push_back(
      step(MakeNotification(revision, stdio, "notifications/initialized"), "none"));
  parent.steps.push_back(
      step(MakeRequest(revision, stdio, "prompts/list", {}, 2), "lifecycle.after-init"));
  SequenceStep captured = step(MakeRequest(revision, stdio, "prompts/list", {}, 3), "c2");
  captured.cursor_from = 2;
  parent.steps.push_back(captured);
  SequenceStep pipelined =
      step(MakeRequest(revision, stdio, "tools/list", {}, 4), "cancellation.no-reply");
  pipelined.pipelined = true;
  parent.steps.push_back(pipelined);
  parent.steps.push_back(step(CancellationOf(pipelined.request), "cancellation.no-reply"));
  parent.steps.push_back(step(MakeRequest(revision, stdio, "ping", {}, 5), "lifecycle.ping"));
  parent.request = parent.steps.back().request;
  parent.check_id = parent.steps.back().check_id;

  gen::MutationContext context;
  context.tokens = {"greeting"};
  std::set<std::size_t> edited_steps;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const auto mutant = gen::MutateSequence(parent, nullptr, context, seed, "case 9");
    const auto again = gen::MutateSequence(parent, nullptr, context, seed, "case 9");
    ASSERT_EQ(mutant.has_value(), again.has_value());
    if (!mutant) continue;
    EXPECT_EQ(mutant->steps, again->steps);
    EXPECT_EQ(mutant->family, gen::kMutantFamily);
    ASSERT_EQ(mutant->steps.size(), parent.steps.size());
    std::size_t changed = 0;
    for (std::size_t at = 0; at < parent.steps.size(); ++at) {
      const SequenceStep& was = parent.steps[at];
      const SequenceStep& now = mutant->steps[at];
      if (now == was) continue;
      ++changed;
      edited_steps.insert(at);
      EXPECT_TRUE(now.mutated);
      EXPECT_EQ(now.check_id, check::kNoEarlyExit);
      EXPECT_EQ(now.request.RpcId(), was.request.RpcId()) << mutant->variant;
      EXPECT_NE(mutant->variant.find("case 9 step " + std::to_string(at + 1)), std::string::npos)
          << mutant->variant;
    }
    EXPECT_EQ(changed, 1U) << mutant->variant;
    EXPECT_EQ(mutant->request, mutant->steps.back().request);
  }
  // Only the two plain requests were ever edited.
  EXPECT_EQ(edited_steps, (std::set<std::size_t>{2, 6}));

  GeneratedCase handshake_only;
  handshake_only.steps = {parent.steps[0], parent.steps[1]};
  EXPECT_FALSE(gen::MutateSequence(handshake_only, nullptr, context, 1, "case 0"));
}

}  // namespace
}  // namespace mcpfuzz
