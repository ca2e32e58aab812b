// subscriptions.acknowledged (tables §4b V17, §10 X22) on hand-written streams: the
// acknowledgement first, stamped with the listen request's id, honoring nothing not asked for,
// and nothing on the stream the request did not opt into.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "model/subscription.h"
#include "tests/oracle_test_support.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::ErrorReply;
using test_support::Replied;
using test_support::ResultReply;
using test_support::Show;
using test_support::Silent;

constexpr int kId = 7;

Request Listen(TransportKind transport, json::object filter = {}) {
  return MakeRequest(Revision::k2026_07_28, transport, kListenMethod,
                     {{"notifications", std::move(filter)}}, kId);
}

json::object Stamp(json::value id = kId) { return {{kMetaSubscriptionId, std::move(id)}}; }

json::value Ack(json::object honored = {}, std::optional<json::value> stamp = json::value(kId)) {
  json::object params{{"notifications", std::move(honored)}};
  if (stamp) params["_meta"] = Stamp(*stamp);
  return json::object{{"jsonrpc", "2.0"}, {"method", kAcknowledgedMethod}, {"params", params}};
}

json::value Closing(std::optional<json::value> stamp = json::value(kId)) {
  json::object result{{"resultType", "complete"}};
  if (stamp) result["_meta"] = Stamp(*stamp);
  return ResultReply(kId, std::move(result));
}

json::value ListChanged(std::string method, bool stamped = true) {
  json::object notification{{"jsonrpc", "2.0"}, {"method", std::move(method)}};
  if (stamped) notification["params"] = json::object{{"_meta", Stamp()}};
  return notification;
}

// A shape finding whose text holds `text`.
bool Says(const Verdict& verdict, std::string_view text) {
  for (const Finding& finding : verdict.findings) {
    if (finding.aspect == Aspect::kShape && finding.text.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

Verdict JudgeStream(const Request& request, std::vector<json::value> messages) {
  Observation observation = Replied(request, std::move(messages), 200, "text/event-stream");
  return Judge(check::kListenAcknowledged, request, observation);
}

TEST(ListenAcknowledged, AnAcknowledgedStreamPassesOverBothTransports) {
  for (TransportKind transport : {TransportKind::kHttp, TransportKind::kStdio}) {
    const Request request = Listen(transport);
    Verdict verdict = JudgeStream(request, {Ack(), Closing()});
    EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
    // A stream heard out after its acknowledgement, still open.
    verdict = JudgeStream(request, {Ack()});
    EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
    EXPECT_EQ(verdict.observed.channel, Channel::kNoReply);
  }
}

TEST(ListenAcknowledged, AClosingResultBeforeAnyAcknowledgementFails) {
  for (TransportKind transport : {TransportKind::kHttp, TransportKind::kStdio}) {
    const Verdict verdict = JudgeStream(Listen(transport), {Closing()});
    EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
    EXPECT_TRUE(Says(verdict, "first message is its response")) << Show(verdict);
  }
}

TEST(ListenAcknowledged, ANotificationBeforeTheAcknowledgementFails) {
  const Request request = Listen(TransportKind::kHttp, {{"toolsListChanged", true}});
  const Verdict verdict =
      JudgeStream(request, {ListChanged("notifications/tools/list_changed"), Ack()});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  EXPECT_TRUE(Says(verdict, "first message is notifications/tools")) << Show(verdict);
}

TEST(ListenAcknowledged, AnAcknowledgementWithoutOrWithAnotherStampFails) {
  for (TransportKind transport : {TransportKind::kHttp, TransportKind::kStdio}) {
    Verdict verdict = JudgeStream(Listen(transport), {Ack({}, std::nullopt), Closing()});
    EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
    EXPECT_TRUE(Says(verdict, "acknowledgement carries no _meta")) << Show(verdict);
  }
  // Over HTTP the stream is the subscription's whatever it is stamped with.
  const Verdict verdict =
      JudgeStream(Listen(TransportKind::kHttp), {Ack({}, json::value("other")), Closing()});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  EXPECT_TRUE(Says(verdict, "not the listen request's id")) << Show(verdict);
}

TEST(ListenAcknowledged, HonoringWhatWasNotAskedForFails) {
  const Request request = Listen(TransportKind::kStdio, {{"promptsListChanged", true}});
  Verdict verdict = JudgeStream(request, {Ack({{"promptsListChanged", true}})});
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  verdict = JudgeStream(request, {Ack({{"toolsListChanged", true}})});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  EXPECT_TRUE(Says(verdict, "honors toolsListChanged")) << Show(verdict);
  verdict =
      JudgeStream(request, {Ack({{"resourceSubscriptions", json::array{"file:///etc/passwd"}}})});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
}

TEST(ListenAcknowledged, ANotificationTypeNotOptedIntoFails) {
  const Request request = Listen(TransportKind::kHttp, {{"toolsListChanged", true}});
  Verdict verdict = JudgeStream(request, {Ack({{"toolsListChanged", true}}),
                                          ListChanged("notifications/tools/list_changed")});
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  verdict = JudgeStream(request, {Ack({{"toolsListChanged", true}}),
                                  ListChanged("notifications/prompts/list_changed")});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  EXPECT_TRUE(Says(verdict, "did not opt into")) << Show(verdict);
  // Over HTTP every notification of the stream carries the stamp.
  verdict = JudgeStream(request, {Ack({{"toolsListChanged", true}}),
                                  ListChanged("notifications/tools/list_changed", false)});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
}

TEST(ListenAcknowledged, OverStdioOtherMessagesMayComeFirst) {
  // The pipe is shared: what other requests and subscriptions get may interleave.
  const Request request = Listen(TransportKind::kStdio);
  const json::value other = ListChanged("notifications/tools/list_changed", false);
  Verdict verdict = JudgeStream(request, {other, Ack()});
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  // Seeing nothing of it (the acknowledgement may come after a later request's reply) is not
  // judged; over HTTP the reply is the stream, so an empty one is.
  // Another request's error says nothing about this one.
  verdict = JudgeStream(request, {ErrorReply(99, -32601, "Method not found"), Closing()});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  verdict = Judge(check::kListenAcknowledged, request, Silent(request));
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  EXPECT_FALSE(verdict.notes.empty());
  const Request over_http = Listen(TransportKind::kHttp);
  verdict = Judge(check::kListenAcknowledged, over_http, Silent(over_http, 200));
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
}

TEST(ListenAcknowledged, ARefusalIsNotJudgedAndTheCheckIsOnly2026_07_28s) {
  const Request request = Listen(TransportKind::kHttp);
  Verdict verdict = Judge(check::kListenAcknowledged, request,
                          Replied(request, ErrorReply(kId, -32601, "Method not found"), 404));
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  const Request legacy = MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, kListenMethod,
                                     {{"notifications", json::object{}}}, kId);
  verdict = Judge(check::kListenAcknowledged, legacy, Replied(legacy, Closing()));
  EXPECT_EQ(verdict.kind, VerdictKind::kNotApplicable) << Show(verdict);
}

}  // namespace
}  // namespace mcpfuzz
