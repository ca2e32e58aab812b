// What an HTTP reply stream carries about its request (tables §10 X4): log messages only when
// the 2026-07-28 request asked for them, not below its level (§4b V11, V11a); progress only for
// the request's own token, increasing (§4a L10). Judged on every reply, here under a check that
// wants a plain result. The handshake era's level is a session's (§7 G4), passed in the context.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "model/logging.h"
#include "tests/oracle_test_support.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::Replied;
using test_support::ResultReply;
using test_support::Show;

constexpr int kId = 4;

Request ToolsList(Revision revision, TransportKind transport, json::object meta = {}) {
  Request request = MakeRequest(revision, transport, "tools/list", {}, kId);
  json::object body = request.BodyJson()->as_object();
  json::object& params = body["params"].emplace_object();
  json::object merged = params.contains("_meta") ? params["_meta"].as_object() : json::object{};
  for (auto& [key, value] : meta) merged[key] = value;
  if (!merged.empty()) params["_meta"] = std::move(merged);
  request.body = json::value(std::move(body));
  return request;
}

json::value Log(std::string level) {
  return json::object{{"jsonrpc", "2.0"},
                      {"method", "notifications/message"},
                      {"params", json::object{{"level", std::move(level)}, {"data", "x"}}}};
}

json::value Progress(json::value token, double progress) {
  return json::object{
      {"jsonrpc", "2.0"},
      {"method", "notifications/progress"},
      {"params", json::object{{kMetaProgressToken, std::move(token)}, {"progress", progress}}}};
}

// Judged by meta.client-info-optional (2026-07-28) or lifecycle.ping (the handshake era): both
// want a result, so the stream's notifications are all that can go wrong.
Verdict JudgeWith(const Request& request, std::vector<json::value> before) {
  const bool stateless = request.revision == Revision::k2026_07_28;
  json::object result;
  if (stateless) result["resultType"] = "complete";
  before.push_back(ResultReply(kId, std::move(result)));
  const Observation observation = Replied(request, std::move(before), 200, "text/event-stream");
  return Judge(stateless ? check::kMetaClientInfoOptional : check::kPing, request, observation);
}

bool EnvelopeSays(const Verdict& verdict, std::string_view text) {
  for (const Finding& finding : verdict.findings) {
    if (finding.aspect == Aspect::kEnvelope && finding.text.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

constexpr Revision kModern = Revision::k2026_07_28;
constexpr TransportKind kHttp = TransportKind::kHttp;

TEST(RelatedNotifications, ALogMessageNobodyAskedForFails) {
  const Verdict verdict = JudgeWith(ToolsList(kModern, kHttp), {Log("info")});
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  EXPECT_TRUE(EnvelopeSays(verdict, "without _meta io.modelcontextprotocol/logLevel"))
      << Show(verdict);
}

TEST(RelatedNotifications, ALogMessageAtOrAboveTheLevelAskedPassesBelowItWarns) {
  Verdict verdict = JudgeWith(ToolsList(kModern, kHttp, {{kMetaLogLevel, "info"}}), {Log("info")});
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  verdict = JudgeWith(ToolsList(kModern, kHttp, {{kMetaLogLevel, "error"}}), {Log("info")});
  EXPECT_EQ(verdict.kind, VerdictKind::kWarn) << Show(verdict);
  EXPECT_TRUE(EnvelopeSays(verdict, "below the \"error\"")) << Show(verdict);
}

TEST(RelatedNotifications, NothingTiesAMessageToARequestElsewhere) {
  // Handshake-era levels belong to the session (logging/setLevel); over stdio nothing says
  // which request a notification is about.
  Verdict verdict = JudgeWith(ToolsList(Revision::k2025_11_25, kHttp), {Log("debug")});
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
  verdict = JudgeWith(ToolsList(kModern, TransportKind::kStdio), {Log("info")});
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
}

// Tables §7 G4: in the handshake era the level is the session's, set by logging/setLevel, and a
// sequence passes it on; over stdio too, where the connection is the session. A message below it
// is tolerated only (a lowercase "should"); 2026-07-28 requests keep their own level.
TEST(RelatedNotifications, TheSessionsLevelJudgesHandshakeEraMessagesOnBothTransports) {
  JudgeContext context;
  context.session_log_level = "warning";
  for (TransportKind transport : {kHttp, TransportKind::kStdio}) {
    SCOPED_TRACE(std::string(ToString(transport)));
    const Request request = ToolsList(Revision::k2025_11_25, transport);
    auto judge = [&](std::vector<json::value> before) {
      before.push_back(ResultReply(kId, json::object{}));
      return Judge(check::kPing, request,
                   Replied(request, std::move(before), 200, "text/event-stream"), context);
    };
    Verdict verdict = judge({Log("warning"), Log("emergency")});
    EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
    verdict = judge({Log("warning"), Log("notice")});
    EXPECT_EQ(verdict.kind, VerdictKind::kWarn) << Show(verdict);
    EXPECT_TRUE(EnvelopeSays(verdict, "below the \"warning\" the session set")) << Show(verdict);
  }
  const Request modern = ToolsList(kModern, kHttp, {{kMetaLogLevel, "debug"}});
  std::vector<json::value> stream = {Log("debug"),
                                     ResultReply(kId, json::object{{"resultType", "complete"}})};
  const Observation observation = Replied(modern, std::move(stream), 200, "text/event-stream");
  EXPECT_EQ(Judge(check::kMetaClientInfoOptional, modern, observation, context).kind,
            VerdictKind::kPass);
}

// Tables §7 R4s: an update of a resource whose subscription resources/unsubscribe ended is only
// tolerated (the schema's words carry no keyword); another resource's update passes.
TEST(RelatedNotifications, AnUpdateAfterItsUnsubscribeWarns) {
  JudgeContext context;
  context.unsubscribed_uris = {"a://x"};
  const Request request = ToolsList(Revision::k2025_06_18, TransportKind::kStdio);
  auto updated = [](std::string_view uri) -> json::value {
    return json::object{{"jsonrpc", "2.0"},
                        {"method", "notifications/resources/updated"},
                        {"params", json::object{{"uri", uri}}}};
  };
  auto judge = [&](std::string_view uri) {
    std::vector<json::value> stream = {updated(uri), ResultReply(kId, json::object{})};
    return Judge(check::kPing, request, Replied(request, std::move(stream)), context);
  };
  Verdict verdict = judge("a://x");
  EXPECT_EQ(verdict.kind, VerdictKind::kWarn) << Show(verdict);
  EXPECT_TRUE(EnvelopeSays(verdict, "after its resources/unsubscribe was answered"))
      << Show(verdict);
  verdict = judge("a://y");
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
}

// Tables §4a L10a: over stdio a progress for a request already answered breaks a MUST; one for
// another token is not this rule's business.
TEST(RelatedNotifications, ProgressAfterItsRequestWasAnsweredFailsOverStdio) {
  JudgeContext context;
  context.finished_progress_tokens = {json::value("t-1")};
  const Request request = ToolsList(Revision::k2025_06_18, TransportKind::kStdio);
  auto judge = [&](json::value token) {
    std::vector<json::value> stream = {Progress(std::move(token), 2),
                                       ResultReply(kId, json::object{})};
    return Judge(check::kPing, request, Replied(request, std::move(stream)), context);
  };
  Verdict verdict = judge("t-1");
  EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  EXPECT_TRUE(EnvelopeSays(verdict, "after its request was answered")) << Show(verdict);
  verdict = judge("t-2");
  EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
}

TEST(RelatedNotifications, ProgressCarriesTheRequestsTokenAndIncreases) {
  for (Revision revision : {Revision::k2025_11_25, kModern}) {
    SCOPED_TRACE(std::string(ToString(revision)));
    const Request asked = ToolsList(revision, kHttp, {{kMetaProgressToken, "t-1"}});
    Verdict verdict = JudgeWith(asked, {Progress("t-1", 1), Progress("t-1", 2.5)});
    EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
    verdict = JudgeWith(asked, {Progress("t-1", 2), Progress("t-1", 2)});
    EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
    EXPECT_TRUE(EnvelopeSays(verdict, "instead of increasing")) << Show(verdict);
    verdict = JudgeWith(asked, {Progress(1, 1)});
    EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
    EXPECT_TRUE(EnvelopeSays(verdict, "not the request's \"t-1\"")) << Show(verdict);
    verdict = JudgeWith(ToolsList(revision, kHttp), {Progress("t-1", 1)});
    EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
    EXPECT_TRUE(EnvelopeSays(verdict, "gave no progressToken")) << Show(verdict);
  }
}

}  // namespace
}  // namespace mcpfuzz
