#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <boost/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "support/deterministic_property.h"
#include "transport/detail/dropped_ids.h"
#include "transport/detail/line_splitter.h"
#include "transport/detail/reply_rule.h"

namespace mcpfuzz::transport_detail {
namespace {

namespace json = boost::json;

std::vector<std::string> TakeLines(LineSplitter& splitter) {
  std::vector<std::string> lines;
  while (auto piece = splitter.Next()) {
    lines.push_back(piece->kind == LinePiece::Kind::kLine ? piece->line : "<too long>");
  }
  return lines;
}

TEST(LineSplitter, JoinsLinesAcrossChunksAndKeepsCarriageReturns) {
  LineSplitter splitter(100);
  splitter.Feed("{\"a\"");
  EXPECT_TRUE(TakeLines(splitter).empty());
  EXPECT_EQ(splitter.pending_bytes(), 4U);
  splitter.Feed(":1}\r\n\nnext");
  EXPECT_EQ(TakeLines(splitter), (std::vector<std::string>{"{\"a\":1}\r", ""}));
  EXPECT_EQ(splitter.TakeRemainder(), "next");
  EXPECT_EQ(splitter.TakeRemainder(), std::nullopt);
}

TEST(LineSplitter, OverlongLineIsReportedOnceAndDroppedThroughItsNewline) {
  LineSplitter splitter(8);
  splitter.Feed("0123456789");
  EXPECT_EQ(TakeLines(splitter), std::vector<std::string>{"<too long>"});
  EXPECT_TRUE(splitter.discarding());
  splitter.Feed("still the same line");
  EXPECT_TRUE(TakeLines(splitter).empty());
  splitter.Feed("...end\nok\n");
  EXPECT_FALSE(splitter.discarding());
  EXPECT_EQ(TakeLines(splitter), std::vector<std::string>{"ok"});
}

TEST(LineSplitter, OverlongCompleteLineInOneChunkLeavesTheNextLinesIntact) {
  LineSplitter splitter(4);
  splitter.Feed("toolong\nfine\nrest");
  EXPECT_EQ(TakeLines(splitter), (std::vector<std::string>{"<too long>", "fine"}));
  EXPECT_FALSE(splitter.discarding());
  EXPECT_EQ(splitter.TakeRemainder(), "rest");
}

std::vector<std::string> SplitInChunks(const std::vector<std::string>& chunks,
                                       std::size_t max_line_bytes) {
  LineSplitter splitter(max_line_bytes);
  std::vector<std::string> lines;
  for (const std::string& chunk : chunks) {
    splitter.Feed(chunk);
    for (std::string& line : TakeLines(splitter)) lines.push_back(std::move(line));
  }
  if (auto rest = splitter.TakeRemainder()) lines.push_back("<rest>" + *rest);
  return lines;
}

TEST(LineSplitterProperty, ChunkingNeverChangesTheLinesOrTheOverlongVerdicts) {
  mcpfuzz::test_support::CheckDeterministically(
      [] {
        const auto pieces = *rc::gen::container<std::vector<std::string>>(
            rc::gen::element<std::string>("a", "bc", "defgh", "\n", "\r", "\r\n", "{}"));
        std::string stream;
        for (const std::string& piece : pieces) stream += piece;
        const std::size_t max_line_bytes = *rc::gen::inRange<std::size_t>(1, 12);
        auto cuts = *rc::gen::container<std::vector<std::size_t>>(
            rc::gen::inRange<std::size_t>(0, stream.size() + 1));
        std::sort(cuts.begin(), cuts.end());
        std::vector<std::string> chunks;
        std::size_t start = 0;
        for (std::size_t cut : cuts) {
          chunks.push_back(stream.substr(start, cut - start));
          start = cut;
        }
        chunks.push_back(stream.substr(start));
        RC_ASSERT(SplitInChunks(chunks, max_line_bytes) == SplitInChunks({stream}, max_line_bytes));
      },
      0x57D10);
}

TEST(ReplyRule, RequestWithIdWaitsForThatIdOrANullIdError) {
  Request request = MakeRequest(kLatestHandshakeRevision, TransportKind::kStdio, "ping", {}, 9);
  ReplyRule rule = ReplyRuleFor(request);
  EXPECT_EQ(rule.kind, ReplyRule::Kind::kMatchingId);
  EXPECT_TRUE(EndsExchange(rule, json::parse(R"({"jsonrpc":"2.0","id":9,"result":{}})")));
  EXPECT_FALSE(EndsExchange(rule, json::parse(R"({"jsonrpc":"2.0","id":8,"result":{}})")));
  EXPECT_FALSE(EndsExchange(rule, json::parse(R"({"jsonrpc":"2.0","id":9,"method":"ping"})")));
  EXPECT_TRUE(EndsExchange(
      rule, json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}})")));
  EXPECT_FALSE(EndsExchange(rule, json::parse(R"({"jsonrpc":"2.0","id":null,"result":{}})")));
}

TEST(ReplyRule, UnreadableBodyTakesTheFirstResponseAndNotificationsTakeNone) {
  Request raw;
  raw.body = RawBody{"{\"id\":"};
  ReplyRule raw_rule = ReplyRuleFor(raw);
  EXPECT_EQ(raw_rule.kind, ReplyRule::Kind::kFirstResponse);
  EXPECT_TRUE(EndsExchange(raw_rule, json::parse(R"({"jsonrpc":"2.0","id":3,"result":{}})")));
  EXPECT_FALSE(EndsExchange(raw_rule, json::parse(R"({"jsonrpc":"2.0","method":"log"})")));
  EXPECT_TRUE(EndsExchange(raw_rule, json::parse(R"([{"jsonrpc":"2.0","id":1,"result":{}}])")));

  Request notification =
      MakeNotification(kLatestHandshakeRevision, TransportKind::kStdio, "notifications/x");
  ReplyRule silent = ReplyRuleFor(notification);
  EXPECT_EQ(silent.kind, ReplyRule::Kind::kSilence);
  EXPECT_FALSE(EndsExchange(silent, json::parse(R"({"jsonrpc":"2.0","id":null,"error":{}})")));
}

TEST(SpelledIds, AMemberIdSpellsItsValueWholeAndNothingElse) {
  const std::vector<json::value> ids = {3, 33, json::value("a"), 7};
  const auto spelled = [&ids](std::string_view bytes) {
    const std::vector<bool> flags = SpelledIds(bytes, ids);
    std::string which;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (flags[i]) which += json::serialize(ids[i]) + " ";
    }
    return which;
  };
  EXPECT_EQ(spelled(R"({"jsonrpc":"2.0","id":33,"method")"), "33 ");  // not 3
  EXPECT_EQ(spelled(R"([{"id": "a"}, {"id" : 3}])"), "3 \"a\" ");
  EXPECT_EQ(spelled(R"({"id":7)"), "7 ");  // the line may end with it
  EXPECT_EQ(spelled(R"({"id":"ab","x":7,"method":"id"})"), "");
  EXPECT_EQ(spelled(R"({"id":3e1})"), "");
}

// A reply carrying a remembered id is a late or repeated reply, unless a request about to be
// sent may be answered with it: its own id, or one a request whose id cannot be echoed spells.
TEST(DroppedIds, ARequestAboutToBeSentTakesTheIdsItMayBeAnsweredWith) {
  const auto reply = [](int id) {
    return json::parse(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{}})");
  };
  DroppedIds dropped;
  dropped.Remember(json::value(7), /*spared_kind=*/std::nullopt);
  dropped.RememberUnanswered(json::value(8));
  dropped.RememberAnswered(json::value(9));

  Request raw;  // not JSON to mcpfuzz (NaN), so it has no id to echo; a server may read one
  raw.body = RawBody{R"({"jsonrpc":"2.0","id":7,"method":"x","params":{"id":9,"n":NaN}})"};
  dropped.ForgetFor(ReplyRuleFor(raw), std::get<RawBody>(raw.body).bytes);
  EXPECT_EQ(dropped.TakeLateReply(reply(7)), DroppedIds::Late::kNo);
  EXPECT_FALSE(dropped.TakeRepeatedReply(reply(9)));
  // What the raw body does not spell is still told apart.
  EXPECT_EQ(dropped.TakeLateReply(reply(8)), DroppedIds::Late::kYes);

  dropped.RememberAnswered(json::value(10));
  const Request call = MakeRequest(kLatestHandshakeRevision, TransportKind::kStdio, "ping", {}, 10);
  dropped.ForgetFor(ReplyRuleFor(call), "");
  EXPECT_FALSE(dropped.TakeRepeatedReply(reply(10)));
}

// One response with a null id is owed for each request remembered unnamed, and no more: the
// next is the answer of the message it comes with, as a response with an id never owed is.
TEST(DroppedIds, AnUnnamedRequestIsOwedOneResponseWithANullId) {
  const json::value null_error =
      json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}})");
  const json::value no_id =
      json::parse(R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}})");
  DroppedIds dropped;
  EXPECT_EQ(dropped.TakeLateReply(null_error), DroppedIds::Late::kNo);
  dropped.RememberUnansweredUnnamed();
  dropped.RememberUnansweredUnnamed();
  EXPECT_EQ(dropped.TakeLateReply(json::parse(R"({"jsonrpc":"2.0","id":3,"result":{}})")),
            DroppedIds::Late::kNo)
      << "an id owed nothing";
  EXPECT_EQ(dropped.TakeLateReply(null_error), DroppedIds::Late::kYes);
  EXPECT_EQ(dropped.TakeLateReply(no_id), DroppedIds::Late::kYes);
  EXPECT_EQ(dropped.TakeLateReply(null_error), DroppedIds::Late::kNo);
  EXPECT_FALSE(dropped.out_of_order()) << "known already: only such a server is owed one";
}

}  // namespace
}  // namespace mcpfuzz::transport_detail
