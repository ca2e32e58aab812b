// What the cheap paths of the oracle keep: a verdict judged with VerdictText::kUnlessPass is the
// full verdict unless it is a PASS, and then lacks only its text; the excerpt of a long reply
// and the description of a row are what the whole serialization and a fresh description give.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "oracle_test_support.h"
#include "oracles/expectations.h"

namespace mcpfuzz {
namespace {

using test_support::ErrorReply;
using test_support::NotJson;
using test_support::Replied;
using test_support::ResultReply;
using test_support::Silent;
namespace json = boost::json;

void ExpectSameExpected(const ExpectedAnswer& a, const ExpectedAnswer& b, bool with_text) {
  EXPECT_EQ(a.channels, b.channels);
  EXPECT_EQ(a.tolerated, b.tolerated);
  EXPECT_EQ(a.codes, b.codes);
  EXPECT_EQ(a.forbidden_codes, b.forbidden_codes);
  EXPECT_EQ(a.http_statuses, b.http_statuses);
  EXPECT_EQ(a.tolerated_http_statuses, b.tolerated_http_statuses);
  EXPECT_EQ(a.data_members, b.data_members);
  if (with_text) {
    EXPECT_EQ(a.text, b.text);
  }
}

// Answers of every channel, for any request.
std::vector<Observation> Answers(const Request& request) {
  std::vector<Observation> answers;
  answers.push_back(Replied(request, ResultReply(1, {})));
  answers.push_back(
      Replied(request, ResultReply(1, test_support::ToolResult(request.revision, "nope", true))));
  answers.push_back(Replied(request, ErrorReply(1, -32602, "Unknown tool: nope")));
  answers.push_back(Replied(request, ErrorReply(1, -32601, "Method not found"), 404));
  answers.push_back(Replied(request, ErrorReply(nullptr, -32700, "Parse error"), 400));
  answers.push_back(NotJson(request, "<html>oops</html>", 500));
  answers.push_back(Silent(request));
  Observation timeout;
  timeout.outcome = Outcome::kTimeout;
  timeout.detail = "no reply within 5000 ms";
  answers.push_back(timeout);
  return answers;
}

TEST(VerdictText, OnlyAPassLosesItsTextAndNothingElse) {
  int passes = 0;
  int others = 0;
  for (const Expectation& row : AllExpectations()) {
    for (TransportKind transport : {TransportKind::kHttp, TransportKind::kStdio}) {
      if (!Covers(row.transports, transport)) continue;
      const Request request = MakeRequest(row.revisions.first, transport, "tools/call",
                                          {{"name", "nope"}, {"arguments", json::object{}}}, 1);
      for (const Observation& answer : Answers(request)) {
        const Verdict full = Judge(row.id, request, answer);
        const Verdict terse = Judge(row.id, request, answer, {}, VerdictText::kUnlessPass);
        SCOPED_TRACE(Summarize(full));
        EXPECT_EQ(terse.kind, full.kind);
        EXPECT_EQ(terse.strength, full.strength);
        EXPECT_EQ(terse.unverified_reason, full.unverified_reason);
        EXPECT_EQ(terse.notes, full.notes);
        ASSERT_EQ(terse.findings.size(), full.findings.size());
        for (std::size_t i = 0; i < full.findings.size(); ++i) {
          EXPECT_EQ(terse.findings[i].text, full.findings[i].text);
        }
        EXPECT_EQ(terse.observed.channel, full.observed.channel);
        EXPECT_EQ(terse.observed.code, full.observed.code);
        EXPECT_EQ(terse.observed.http_status, full.observed.http_status);
        EXPECT_EQ(terse.observed.outcome, full.observed.outcome);
        const bool pass = full.kind == VerdictKind::kPass;
        ExpectSameExpected(terse.expected, full.expected, !pass);
        if (pass) {
          ++passes;
          EXPECT_TRUE(terse.expected.text.empty());
          EXPECT_TRUE(terse.observed.excerpt.empty());
          EXPECT_TRUE(terse.spec_reference.empty());
        } else {
          ++others;
          EXPECT_EQ(Summarize(terse), Summarize(full));
          EXPECT_EQ(terse.observed.excerpt, full.observed.excerpt);
          EXPECT_EQ(terse.spec_reference, full.spec_reference);
        }
      }
    }
  }
  EXPECT_GT(passes, 50);
  EXPECT_GT(others, 500);
}

// A success without text content is excerpted from its serialization, which is cut at the
// limit without splitting a character: whatever byte the limit falls on.
TEST(VerdictText, TheExcerptOfALongResultIsTheStartOfItsSerialization) {
  const Request request =
      MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "tools/list", {}, 1);
  for (std::size_t pad = 0; pad < 4; ++pad) {
    json::array tools;
    for (int i = 0; i < 40; ++i) {
      tools.push_back(json::object{
          {"name", std::string(pad, 'x') + "\xC3\xA9t\xE2\x82\xAC" + std::to_string(i)}});
    }
    const json::value reply = ResultReply(1, {{"tools", std::move(tools)}});
    const Verdict verdict = Judge("methods.unknown", request, Replied(request, reply));
    ASSERT_NE(verdict.kind, VerdictKind::kNotApplicable) << Summarize(verdict);
    EXPECT_EQ(verdict.observed.excerpt, Excerpt(json::serialize(reply))) << "pad " << pad;
  }
  // A short one whole.
  const json::value reply = ResultReply(1, {});
  EXPECT_EQ(Judge("methods.unknown", request, Replied(request, reply)).observed.excerpt,
            json::serialize(reply));
}

TEST(VerdictText, ARowMadeByHandIsDescribedLikeTheTableRowItCopies) {
  for (const Expectation& row : AllExpectations()) {
    const Expectation copy = row;
    for (TransportKind transport : {TransportKind::kHttp, TransportKind::kStdio}) {
      ExpectSameExpected(DescribeExpected(copy, transport), DescribeExpected(row, transport), true);
    }
  }
}

}  // namespace
}  // namespace mcpfuzz
