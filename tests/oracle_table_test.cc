// The expectation table as a whole: its invariants, every row judged both ways on crafted
// observations, and its agreement with the spec's own 2026-07-28 example files.

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <tuple>

#include "model/subscription.h"
#include "oracles/detail/envelope.h"
#include "oracles/detail/result_shapes.h"
#include "tests/oracle_test_support.h"

namespace mcpfuzz {
// These tests reach the oracles' aspects (envelope, leaks, result shapes) directly.
using namespace oracles_detail;
namespace {

using test_support::Broken;
using test_support::ErrorReply;
using test_support::HasFinding;
using test_support::NotJson;
using test_support::Replied;
using test_support::ResultReply;
using test_support::Show;
using test_support::Silent;
using test_support::ToolResult;
namespace json = boost::json;

constexpr std::string_view kArgument = "expression";
constexpr std::string_view kUnsupportedVersion = "1900-01-01";

// ---------------------------------------------------------------------------------------------
// Probes and conformant answers for any row.

json::object& Params(json::object& body) { return body["params"].as_object(); }

json::value BatchOfTwo(Revision revision, TransportKind transport) {
  json::array batch;
  for (int id : {1, 2}) {
    batch.push_back(*MakeRequest(revision, transport, "tools/list", {}, id).BodyJson());
  }
  return batch;
}

// A request that exercises the row's check, as far as the oracle can tell.
Request ProbeFor(const Expectation& row, Revision revision, TransportKind transport) {
  const std::string_view id = row.id;
  if (id == check::kSessionDelete) return MakeBodyless(revision, "DELETE");
  if (id == check::kHttpGet) return MakeBodyless(revision, "GET");
  if (id == check::kNotificationNoReply) {
    return MakeNotification(revision, transport, "notifications/initialized");
  }
  if (id == check::kInitialize || id == check::kInitializeUnsupportedVersion ||
      id == check::kReinitialize) {
    Request request = MakeInitialize(revision, transport, 7);
    if (id == check::kInitializeUnsupportedVersion) {
      json::object body = request.BodyJson()->as_object();
      Params(body)["protocolVersion"] = kUnsupportedVersion;
      request.body = json::value(std::move(body));
    }
    return request;
  }
  std::string method = "tools/call";
  json::object params{{"name", "probe"}, {"arguments", json::object{}}};
  if (id == check::kCursorReused) {
    return MakeRequest(revision, transport, "tools/list", {{"cursor", "mcpfuzz-cursor"}}, 7);
  }
  if (id == check::kUnsubscribe) {
    return MakeRequest(revision, transport, "resources/unsubscribe", {{"uri", "mcpfuzz://x"}}, 7);
  }
  if (id == check::kListenAcknowledged) {
    return MakeRequest(revision, transport, kListenMethod, {{"notifications", json::object{}}}, 7);
  }
  if (id == check::kRemovedMethod) {
    method = row.condition == RequestCondition::kInitializeRequest ? "initialize" : "ping";
    params = {};
  }
  if (id == check::kPingBeforeInit || id == check::kPing || id == check::kSessionLogLevel ||
      id == check::kProgressAfterResponse || id == check::kDiscoverResult) {
    method = id == check::kDiscoverResult ? "server/discover" : "ping";
    params = {};
  }
  Request request = MakeRequest(revision, transport, method, std::move(params), 7);
  json::object body = request.BodyJson()->as_object();
  json::object* meta = nullptr;
  if (auto* params_value = body.if_contains("params")) {
    if (auto* meta_value = params_value->as_object().if_contains("_meta")) {
      meta = &meta_value->as_object();
    }
  }
  if (id == check::kParseError) {
    request.body = RawBody{"{\"jsonrpc\":\"2.0\",\"id\":"};
    if (row.condition == RequestCondition::kInvalidUtf8InString) {
      request.body = RawBody{
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{"
          "\"_meta\":{\"x/y\":\"\xC3\x28\"}}}"};
    }
    return request;
  }
  if (id == check::kNotAnObject) {
    request.body = json::value(42);
    return request;
  }
  if (id == check::kBatchEmpty) {
    request.body = json::array{};
    return request;
  }
  if (id == check::kBatchAccepted || id == check::kBatchRejected) {
    request.body = BatchOfTwo(revision, transport);
    return request;
  }
  if (id == check::kMissingJsonrpc) body.erase("jsonrpc");
  if (id == check::kWrongJsonrpc) body["jsonrpc"] = "1.0";
  if (id == check::kMissingMethod) body.erase("method");
  if (id == check::kIdNull) body["id"] = nullptr;
  if (id == check::kIdFloat) body["id"] = 1.5;
  if (id == check::kIdBool) body["id"] = true;
  if (id == check::kIdObject) body["id"] = json::object{{"n", 1}};
  if (id == check::kParamsNotObject) body["params"] = json::array{1};
  if (meta != nullptr) {
    if (id == check::kMetaMissing) Params(body).erase("_meta");
    if (id == check::kMetaPartial) meta->erase(kMetaClientCapabilities);
    if (id == check::kMetaClientInfoOptional) meta->erase(kMetaClientInfo);
    if (id == check::kVersionUnsupported) {
      (*meta)[kMetaProtocolVersion] = kUnsupportedVersion;
      SetHeader(request.headers, kHeaderProtocolVersion, kUnsupportedVersion);
    }
  }
  if (row.condition == RequestCondition::kNoProtocolVersionHeader) {
    RemoveHeader(request.headers, kHeaderProtocolVersion);
  }
  request.body = json::value(std::move(body));
  return request;
}

JudgeContext ContextFor(const Expectation& row) {
  JudgeContext context;
  context.capability_declared = row.capability != CapabilityRequirement::kUndeclared;
  context.argument_name = std::string(kArgument);
  if (row.shape == ShapeCheck::kSameAnswerAsRandomName) {
    // A random name answered as Conformant() answers the probe: -32602, the same message.
    context.random_name_answer =
        NameAnswer{"tools/call", "mcpfuzz_random_name", Channel::kProtocolError, kInvalidParamsCode,
                   "Invalid arguments: '" + std::string(kArgument) + "' is required"};
  }
  return context;
}

json::value ReplyId(const Request& request) {
  return RequestIdReadable(request) ? *request.RpcId() : json::value(nullptr);
}

json::value DataMemberValue(DataKind kind, const Request& request) {
  switch (kind) {
    case DataKind::kString:
      return "text";
    case DataKind::kObject:
      return json::object{{"elicitation", json::object{}}};
    case DataKind::kNonEmptyStringArray:
      return json::array{"2026-07-28", "2025-11-25"};
    case DataKind::kRequestedVersion:
      return json::value(RequestedVersion(request).value_or("?"));
  }
  return nullptr;
}

json::object SuccessResult(const Expectation& row, const Request& request) {
  switch (row.shape) {
    case ShapeCheck::kEmptyResult:
      return {};
    case ShapeCheck::kInitializeResult:
    case ShapeCheck::kInitializeFallback:
      return {{"protocolVersion", row.shape == ShapeCheck::kInitializeResult
                                      ? *RequestedVersion(request)
                                      : std::string("2025-06-18")},
              {"capabilities", json::object{}},
              {"serverInfo", json::object{{"name", "s"}, {"version", "1"}}}};
    case ShapeCheck::kSessionVersionKept:
      return {{"protocolVersion", std::string(ToString(request.revision))},
              {"capabilities", json::object{}},
              {"serverInfo", json::object{{"name", "s"}, {"version", "1"}}}};
    case ShapeCheck::kHandshakeEraResult:
      // The probe's tools/call answered in the handshake era's shape: no resultType.
      return ToolResult(Revision::k2025_11_25, "ok", std::nullopt);
    case ShapeCheck::kDiscoverResult:
      return json::parse(R"({"resultType":"complete","supportedVersions":["2026-07-28"],
          "capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private",
          "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}})")
          .as_object();
    default:
      return ToolResult(request.revision, "ok", std::nullopt);
  }
}

json::value ErrorData(const Expectation& row, const Request& request) {
  json::object data;
  for (const DataMember& member : row.data.members) {
    data[member.name] = DataMemberValue(member.kind, request);
  }
  return data;
}

int DefaultStatus(const Expectation& row, Channel channel) {
  if (!row.http_status.conformant.empty()) return row.http_status.conformant.front().low;
  return channel == Channel::kNoReply ? 202 : 200;
}

// The answer on `channel`, made as conformant as the row allows in every other aspect.
Observation AnswerOn(const Expectation& row, const Request& request, Channel channel, int status,
                     std::int64_t code) {
  switch (channel) {
    case Channel::kProtocolError:
      return Replied(request,
                     ErrorReply(ReplyId(request), code,
                                "Invalid arguments: '" + std::string(kArgument) + "' is required",
                                row.data.members.empty()
                                    ? std::nullopt
                                    : std::optional<json::value>(ErrorData(row, request))),
                     status);
    case Channel::kExecutionError:
      return Replied(
          request,
          ResultReply(ReplyId(request),
                      ToolResult(request.revision,
                                 "argument '" + std::string(kArgument) + "' is missing", true)),
          status);
    case Channel::kSuccess:
      return Replied(request, ResultReply(ReplyId(request), SuccessResult(row, request)), status);
    case Channel::kNoReply:
      return Silent(request, status);
    case Channel::kNotJsonRpc:
      return NotJson(request, "<html><body>Not here</body></html>", status);
    case Channel::kTransportFailure:
      return Broken(Outcome::kTimeout);
  }
  return {};
}

std::int64_t ConformantCode(const Expectation& row) {
  return row.code.conformant.empty() ? kInvalidParamsCode : row.code.conformant.front();
}

Observation Conformant(const Expectation& row, const Request& request) {
  if (row.shape == ShapeCheck::kBatchResponses) {
    json::array replies;
    for (int id : {1, 2})
      replies.push_back(ResultReply(id, ToolResult(request.revision, "ok", {})));
    return Replied(request, json::value(std::move(replies)));
  }
  if (row.shape == ShapeCheck::kSameAnswerAsRandomName) {
    return AnswerOn(row, request, Channel::kProtocolError, 200, kInvalidParamsCode);
  }
  if (row.shape == ShapeCheck::kListenStream) {
    // The acknowledgement, then the closing result, both stamped with the request's id.
    const json::object stamp{{kMetaSubscriptionId, 7}};
    std::vector<json::value> stream = {
        json::object{{"jsonrpc", "2.0"},
                     {"method", kAcknowledgedMethod},
                     {"params", json::object{{"notifications", json::object{}}, {"_meta", stamp}}}},
        ResultReply(7, json::object{{"resultType", "complete"}, {"_meta", stamp}})};
    return Replied(request, std::move(stream), 200, "text/event-stream");
  }
  if (row.channel.conformant.empty()) {
    if (row.shape == ShapeCheck::kStdoutOnlyJsonRpc || row.shape == ShapeCheck::kProcessAlive) {
      return AnswerOn(row, request, Channel::kSuccess, 0, 0);
    }
    Observation observation = Silent(request, DefaultStatus(row, Channel::kNoReply));
    if (row.shape == ShapeCheck::kEventStreamOn200) observation.content_type = "text/event-stream";
    return observation;
  }
  const Channel channel = row.channel.conformant.front();
  return AnswerOn(row, request, channel, DefaultStatus(row, channel), ConformantCode(row));
}

// Calls `test` for every (row, revision, transport) the table covers.
template <class Test>
void ForEachCase(Test test) {
  for (const Expectation& row : AllExpectations()) {
    for (Revision revision : kAllRevisions) {
      if (!row.revisions.Contains(revision)) continue;
      for (TransportKind transport : {TransportKind::kHttp, TransportKind::kStdio}) {
        if (!Covers(row.transports, transport)) continue;
        const Request request = ProbeFor(row, revision, transport);
        SCOPED_TRACE(std::string(row.id) + " " + std::string(ToString(revision)) + " " +
                     std::string(ToString(transport)));
        ASSERT_EQ(FindExpectation(row.id, request), &row) << "the probe selects another row";
        test(row, request);
      }
    }
  }
}

bool Accepts(const Expectation& row, Channel channel) {
  const auto& rule = row.channel;
  return std::find(rule.conformant.begin(), rule.conformant.end(), channel) !=
             rule.conformant.end() ||
         std::find(rule.tolerated.begin(), rule.tolerated.end(), channel) != rule.tolerated.end();
}

// ---------------------------------------------------------------------------------------------
// Invariants of the table itself.

TEST(ExpectationTable, EveryRowCitesTheSpecAndSaysWhatItExpects) {
  for (const Expectation& row : AllExpectations()) {
    EXPECT_FALSE(row.reference.empty()) << row.id;
    EXPECT_FALSE(row.summary.empty()) << row.id;
    EXPECT_TRUE(check::IsKnown(row.id)) << row.id << " is missing from check::kAll";
    EXPECT_LE(row.revisions.first, row.revisions.last) << row.id;
  }
}

TEST(ExpectationTable, EveryListedCheckIdHasRowsAndIsListedOnce) {
  std::set<std::string_view> seen;
  for (std::string_view id : check::kAll) {
    EXPECT_TRUE(seen.insert(id).second) << id << " is listed twice";
    EXPECT_FALSE(ExpectationsFor(id).empty()) << id << " has no row";
  }
}

TEST(ExpectationTable, OneRowPerSituationRevisionTransportAndCondition) {
  std::set<std::tuple<std::string_view, Revision, TransportKind, RequestCondition>> seen;
  for (const Expectation& row : AllExpectations()) {
    for (Revision revision : kAllRevisions) {
      if (!row.revisions.Contains(revision)) continue;
      for (TransportKind transport : {TransportKind::kHttp, TransportKind::kStdio}) {
        if (!Covers(row.transports, transport)) continue;
        EXPECT_TRUE(seen.insert({row.id, revision, transport, row.condition}).second)
            << row.id << " twice for " << ToString(revision) << " " << ToString(transport);
      }
    }
  }
}

TEST(ExpectationTable, NoRowExpectsAnUndefinedCodeInTheSpecRange) {
  for (const Expectation& row : AllExpectations()) {
    for (Revision revision : kAllRevisions) {
      if (!row.revisions.Contains(revision)) continue;
      for (std::int64_t code : row.code.conformant) {
        EXPECT_FALSE(InSpecRange(code) && !IsDefinedSpecRangeCode(revision, code))
            << row.id << " expects " << code << " in " << ToString(revision);
        EXPECT_FALSE(revision == Revision::k2026_07_28 && code == kResourceNotFoundCode)
            << row.id << " expects the retired -32002";
      }
    }
  }
}

TEST(ExpectationTable, RulesAreConsistent) {
  for (const Expectation& row : AllExpectations()) {
    for (Channel channel : row.channel.tolerated) {
      EXPECT_FALSE(std::find(row.channel.conformant.begin(), row.channel.conformant.end(),
                             channel) != row.channel.conformant.end())
          << row.id << ": a channel both conformant and tolerated";
    }
    const bool error_accepted = Accepts(row, Channel::kProtocolError);
    EXPECT_TRUE(error_accepted || row.code.conformant.empty()) << row.id << ": codes, no error";
    EXPECT_TRUE(error_accepted || row.data.members.empty()) << row.id << ": data, no error";
    EXPECT_TRUE(Covers(row.transports, TransportKind::kHttp) || row.http_status.conformant.empty())
        << row.id << ": an HTTP status on a stdio-only row";
  }
}

TEST(ExpectationTable, DescribesExpectationsForPeople) {
  const Request request =
      MakeRequest(Revision::k2026_07_28, TransportKind::kHttp, "nope/nope", {}, 1);
  const ExpectedAnswer expected =
      DescribeExpected(*FindExpectation(check::kUnknownMethod, request), TransportKind::kHttp);
  EXPECT_EQ(expected.text, "protocol_error -32601 (HTTP 404)");
  const ExpectedAnswer over_stdio =
      DescribeExpected(*FindExpectation(check::kUnknownMethod, request), TransportKind::kStdio);
  EXPECT_EQ(over_stdio.text, "protocol_error -32601");
}

// ---------------------------------------------------------------------------------------------
// Every row, both ways.

TEST(EveryRow, TheConformantAnswerPasses) {
  ForEachCase([](const Expectation& row, const Request& request) {
    const Verdict verdict = Judge(row.id, request, Conformant(row, request), ContextFor(row));
    EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
    EXPECT_EQ(verdict.spec_reference, row.reference);
    EXPECT_FALSE(verdict.expected.text.empty());
  });
}

TEST(EveryRow, EachOtherChannelFailsOrWarnsAsTheRowSays) {
  ForEachCase([](const Expectation& row, const Request& request) {
    if (row.channel.conformant.empty()) return;
    for (Channel channel : {Channel::kProtocolError, Channel::kExecutionError, Channel::kSuccess,
                            Channel::kNoReply, Channel::kNotJsonRpc}) {
      if (std::find(row.channel.conformant.begin(), row.channel.conformant.end(), channel) !=
          row.channel.conformant.end()) {
        continue;
      }
      const int status = DefaultStatus(row, row.channel.conformant.front());
      const Verdict verdict =
          Judge(row.id, request, AnswerOn(row, request, channel, status, ConformantCode(row)),
                ContextFor(row));
      SCOPED_TRACE(std::string(ToString(channel)) + ": " + Show(verdict));
      const bool http_4xx = request.transport == TransportKind::kHttp && status >= 400 &&
                            status <= 499 && channel != Channel::kExecutionError &&
                            channel != Channel::kSuccess;
      const bool tolerated = std::find(row.channel.tolerated.begin(), row.channel.tolerated.end(),
                                       channel) != row.channel.tolerated.end();
      if (tolerated) {
        EXPECT_TRUE(HasFinding(verdict, Aspect::kChannel, Strength::kShould));
        EXPECT_NE(verdict.kind, VerdictKind::kPass);
      } else if (http_4xx && row.channel.http_rejection == HttpRejection::kConformant) {
        EXPECT_FALSE(HasFinding(verdict, Aspect::kChannel));
      } else if (http_4xx && row.channel.http_rejection == HttpRejection::kTolerated) {
        EXPECT_TRUE(HasFinding(verdict, Aspect::kChannel, Strength::kShould));
      } else {
        const Strength strength =
            channel == Channel::kNotJsonRpc ? Strength::kMust : row.channel.strength;
        EXPECT_TRUE(HasFinding(verdict, Aspect::kChannel, strength));
        EXPECT_NE(verdict.kind, VerdictKind::kPass);
        if (strength == Strength::kMust) {
          EXPECT_EQ(verdict.kind, VerdictKind::kFail);
        }
      }
    }
  });
}

TEST(EveryRow, AWrongOrForbiddenCodeIsJudgedAtTheRowsStrength) {
  ForEachCase([](const Expectation& row, const Request& request) {
    if (!Accepts(row, Channel::kProtocolError)) return;
    const int status = DefaultStatus(row, Channel::kProtocolError);
    if (!row.code.conformant.empty()) {
      const Verdict verdict =
          Judge(row.id, request,
                AnswerOn(row, request, Channel::kProtocolError, status, kInternalErrorCode),
                ContextFor(row));
      EXPECT_TRUE(HasFinding(verdict, Aspect::kCode, row.code.strength)) << Show(verdict);
      EXPECT_NE(verdict.kind, VerdictKind::kPass);
    }
    for (std::int64_t forbidden : row.code.forbidden) {
      const Verdict verdict =
          Judge(row.id, request, AnswerOn(row, request, Channel::kProtocolError, status, forbidden),
                ContextFor(row));
      EXPECT_TRUE(HasFinding(verdict, Aspect::kCode, Strength::kMust)) << Show(verdict);
      EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
    }
  });
}

TEST(EveryRow, AnUnexpectedHttpStatusIsJudgedAtTheRowsStrength) {
  ForEachCase([](const Expectation& row, const Request& request) {
    const StatusRule& rule = row.http_status;
    if (request.transport != TransportKind::kHttp || rule.conformant.empty()) return;
    for (int status : {200, 202, 400, 404, 405, 406, 500}) {
      auto in = [status](const std::vector<StatusRange>& ranges) {
        return std::any_of(ranges.begin(), ranges.end(),
                           [status](StatusRange r) { return r.Contains(status); });
      };
      if (in(rule.conformant)) continue;
      Observation observation = Conformant(row, request);
      observation.http_status = status;
      const Verdict verdict = Judge(row.id, request, observation, ContextFor(row));
      const Strength expected = in(rule.tolerated) ? Strength::kShould : rule.strength;
      EXPECT_TRUE(HasFinding(verdict, Aspect::kHttpStatus, expected))
          << status << ": " << Show(verdict);
      EXPECT_NE(verdict.kind, VerdictKind::kPass);
    }
  });
}

TEST(EveryRow, AMissingOrMistypedDataMemberIsJudgedAtTheRowsStrength) {
  ForEachCase([](const Expectation& row, const Request& request) {
    for (const DataMember& member : row.data.members) {
      for (bool remove : {true, false}) {
        Observation observation =
            AnswerOn(row, request, Channel::kProtocolError,
                     DefaultStatus(row, Channel::kProtocolError), ConformantCode(row));
        json::object& data = observation.messages.front().at("error").at("data").as_object();
        if (remove) {
          data.erase(member.name);
        } else {
          data[member.name] = 17;
        }
        const Verdict verdict = Judge(row.id, request, observation, ContextFor(row));
        EXPECT_TRUE(HasFinding(verdict, Aspect::kData, row.data.strength))
            << member.name << ": " << Show(verdict);
      }
    }
  });
}

TEST(EveryRow, AReplyThatDoesNotEchoTheIdFails) {
  ForEachCase([](const Expectation& row, const Request& request) {
    Observation observation = Conformant(row, request);
    if (observation.messages.size() != 1 || !observation.messages.front().is_object() ||
        !RequestIdReadable(request) || row.shape == ShapeCheck::kStdoutOnlyJsonRpc ||
        row.shape == ShapeCheck::kProcessAlive) {
      return;
    }
    observation.messages.front().as_object()["id"] = 999;
    const Verdict verdict = Judge(row.id, request, observation, ContextFor(row));
    EXPECT_TRUE(HasFinding(verdict, Aspect::kEnvelope, Strength::kMust)) << Show(verdict);
    EXPECT_EQ(verdict.kind, VerdictKind::kFail) << Show(verdict);
  });
}

TEST(EveryRow, CredentialsAndRateLimitsLeaveItUnverified) {
  ForEachCase([](const Expectation& row, const Request& request) {
    if (request.transport != TransportKind::kHttp) return;
    for (auto [status, reason] : {std::pair{401, UnverifiedReason::kCredentialRequired},
                                  std::pair{403, UnverifiedReason::kCredentialRequired},
                                  std::pair{429, UnverifiedReason::kRateLimited},
                                  std::pair{503, UnverifiedReason::kRateLimited}}) {
      const bool expects_status =
          std::any_of(row.http_status.conformant.begin(), row.http_status.conformant.end(),
                      [status = status](StatusRange range) {
                        return range.low == status && range.high == status;
                      });
      const Verdict verdict = Judge(
          row.id, request, NotJson(request, "Unauthorized", status, "text/plain"), ContextFor(row));
      if (expects_status) {
        EXPECT_NE(verdict.kind, VerdictKind::kUnverified) << Show(verdict);
      } else {
        EXPECT_EQ(verdict.kind, VerdictKind::kUnverified) << status;
        EXPECT_EQ(verdict.unverified_reason, reason) << status;
      }
    }
  });
}

TEST(EveryRow, UndeclaredCapabilitiesAndUnspokenErasAreNeverFailed) {
  ForEachCase([](const Expectation& row, const Request& request) {
    const Observation conformant = Conformant(row, request);
    JudgeContext flipped = ContextFor(row);
    flipped.capability_declared = !flipped.capability_declared;
    const Verdict verdict = Judge(row.id, request, conformant, flipped);
    if (row.capability == CapabilityRequirement::kNone) {
      EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
    } else {
      EXPECT_EQ(verdict.kind, VerdictKind::kNotApplicable) << Show(verdict);
    }
    JudgeContext unspoken = ContextFor(row);
    unspoken.era_spoken = false;
    const Verdict era =
        Judge(row.id, request, AnswerOn(row, request, Channel::kNotJsonRpc, 200, 0), unspoken);
    if (row.shape == ShapeCheck::kStdoutOnlyJsonRpc && request.transport == TransportKind::kStdio) {
      // The one exception: stdout framing binds every revision, so stdout that is not JSON
      // breaks it whether or not the revision is spoken (issue #12, `check -- yes`).
      EXPECT_EQ(era.kind, VerdictKind::kFail) << Show(era);
    } else {
      EXPECT_EQ(era.kind, VerdictKind::kUnverified);
      EXPECT_EQ(era.unverified_reason, UnverifiedReason::kEraNotSpoken);
    }
  });
}

TEST(EveryRow, ABrokenExchangeIsUnverifiedUnlessTheProcessIsTheSubject) {
  ForEachCase([](const Expectation& row, const Request& request) {
    const Verdict refused =
        Judge(row.id, request, Broken(Outcome::kConnectionRefused), ContextFor(row));
    EXPECT_EQ(refused.kind, VerdictKind::kUnverified);
    EXPECT_EQ(refused.unverified_reason, UnverifiedReason::kTransportError);
    const Verdict timeout = Judge(row.id, request, Broken(Outcome::kTimeout), ContextFor(row));
    if (row.judges_transport_failure) {
      EXPECT_NE(timeout.kind, VerdictKind::kUnverified) << Show(timeout);
    } else {
      EXPECT_EQ(timeout.kind, VerdictKind::kUnverified) << Show(timeout);
      EXPECT_EQ(timeout.unverified_reason, UnverifiedReason::kTransportError);
    }
  });
}

// One broken variant of the conformant answer per shape check.
TEST(EveryRow, ABrokenShapeIsJudgedAtTheRowsStrength) {
  ForEachCase([](const Expectation& row, const Request& request) {
    Observation observation = Conformant(row, request);
    Strength expected = row.shape_strength;
    auto result = [&observation]() -> json::object& {
      return observation.messages.front().at("result").as_object();
    };
    switch (row.shape) {
      case ShapeCheck::kNone:
        return;
      case ShapeCheck::kEmptyResult:
        result()["status"] = "ok";
        break;
      case ShapeCheck::kInitializeResult:
        result()["protocolVersion"] = "2099-01-01";
        break;
      case ShapeCheck::kInitializeFallback:
        result()["protocolVersion"] = kUnsupportedVersion;
        break;
      case ShapeCheck::kSessionVersionKept:
        result()["protocolVersion"] = "2099-01-01";
        break;
      case ShapeCheck::kDiscoverResult:
        result()["ttlMs"] = -1;
        break;
      case ShapeCheck::kHandshakeEraResult:
        result()["resultType"] = "complete";
        break;
      case ShapeCheck::kNamesArgument:
        observation =
            AnswerOn(row, request, row.channel.conformant.front(), 200, kInvalidParamsCode);
        for (json::value& message : observation.messages) {
          if (auto* error = message.as_object().if_contains("error")) {
            error->as_object()["message"] = "Invalid arguments";
          } else {
            result()["content"].as_array()[0].as_object()["text"] = "Invalid input";
          }
        }
        break;
      case ShapeCheck::kBatchResponses:
        observation.messages.front().as_array().pop_back();
        break;
      case ShapeCheck::kBatchProcessingTolerated: {
        json::array replies;
        for (int id : {1, 2})
          replies.push_back(ResultReply(id, ToolResult(request.revision, "", {})));
        observation = Replied(request, json::value(std::move(replies)));
        break;
      }
      case ShapeCheck::kEventStreamOn200:
        observation.content_type = "application/json";
        break;
      case ShapeCheck::kStdoutOnlyJsonRpc:
        observation.stdout_lines.push_back("INFO server ready");
        observation.non_json.push_back("INFO server ready");
        break;
      case ShapeCheck::kProcessAlive:
        observation.exit_signal = 11;
        break;
      case ShapeCheck::kSameAnswerAsRandomName:
        observation.messages.front().at("error").as_object()["message"] = "Tool probe disabled";
        break;
      case ShapeCheck::kListenStream:
        observation.messages.erase(observation.messages.begin());  // no acknowledgement
        break;
    }
    const Verdict verdict = Judge(row.id, request, observation, ContextFor(row));
    EXPECT_TRUE(HasFinding(verdict, Aspect::kShape, expected)) << Show(verdict);
    EXPECT_EQ(verdict.kind, EffectOf(expected)) << Show(verdict);
  });
}

// ---------------------------------------------------------------------------------------------
// One rule per situation (issue #26).

// Two checks that judge the same request in the same state must agree: the same observation may
// not PASS one and FAIL the other. Each pair names the situation and the row that decides it.
struct SharedSituation {
  std::string_view situation;
  std::string_view first;
  std::string_view second;
  Request request;
  std::vector<Observation> answers;
};

std::vector<SharedSituation> SharedSituations() {
  std::vector<SharedSituation> shared;
  {
    // tables §4b V16, V16a: initialize on a stdio connection pinned to 2026-07-28.
    const Request initialize = MakeRequest(Revision::k2026_07_28, TransportKind::kStdio,
                                           "initialize", {{"protocolVersion", "2025-11-25"}}, 7);
    std::vector<Observation> answers;
    for (std::int64_t code : {kMethodNotFoundCode, kInvalidParamsCode, kInvalidRequestCode,
                              kUnsupportedProtocolVersionCode, std::int64_t{-32603}}) {
      answers.push_back(Replied(initialize, ErrorReply(7, code, "refused")));
    }
    answers.push_back(Replied(initialize, ResultReply(7, json::object{})));
    shared.push_back({"initialize after the stdio era lock (V16a)", check::kRemovedMethod,
                      check::kInitializeAfterEraLock, initialize, std::move(answers)});
  }
  {
    // tables §4a L8, §12.16: the TS SDK's refusal of a request its session cannot take.
    const Request initialize = MakeInitialize(Revision::k2025_11_25, TransportKind::kHttp, 7);
    std::vector<Observation> answers;
    for (std::int64_t code : {kInvalidRequestCode, std::int64_t{-32000}}) {
      answers.push_back(Replied(initialize, ErrorReply(nullptr, code, "refused"), 400));
    }
    shared.push_back({"an HTTP 400 with id null (L8, §12.16)", check::kReinitialize,
                      check::kSessionMissing, initialize, std::move(answers)});
  }
  return shared;
}

TEST(OneRulePerSituation, ChecksJudgingTheSameSituationNeverContradictEachOther) {
  for (const SharedSituation& pair : SharedSituations()) {
    SCOPED_TRACE(std::string(pair.situation));
    ASSERT_NE(FindExpectation(pair.first, pair.request), nullptr) << pair.first;
    ASSERT_NE(FindExpectation(pair.second, pair.request), nullptr) << pair.second;
    for (const Observation& answer : pair.answers) {
      const Verdict first = Judge(pair.first, pair.request, answer, JudgeContext{});
      const Verdict second = Judge(pair.second, pair.request, answer, JudgeContext{});
      const bool contradicts =
          (first.kind == VerdictKind::kPass && second.kind == VerdictKind::kFail) ||
          (first.kind == VerdictKind::kFail && second.kind == VerdictKind::kPass);
      EXPECT_FALSE(contradicts) << Show(first) << "\n" << Show(second);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Agreement with the spec's own examples (2026-07-28, copied into tests/data/spec-examples).

json::value ReadExample(std::string_view relative) {
  const std::string path =
      std::string(MCPFUZZ_SOURCE_DIR) + "/tests/data/spec-examples/" + std::string(relative);
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  std::optional<json::value> parsed = ParseJson(text.str());
  EXPECT_TRUE(parsed) << "cannot read " << path;
  return parsed ? *parsed : json::value();
}

// An example error as a full response to `request`: bare error objects get an envelope.
json::value AsResponse(const json::value& example, const Request& request) {
  if (example.as_object().contains("jsonrpc")) return example;
  return json::object{{"jsonrpc", "2.0"}, {"id", ReplyId(request)}, {"error", example}};
}

struct ErrorExample {
  std::string_view file;
  std::string_view check_id;
  // The example answers a request of this shape.
  std::function<Request()> make_request;
  JudgeContext context{};
  // The table tolerates (rather than prefers) a few example answers (tables §12.1).
  VerdictKind expected_kind = VerdictKind::kPass;
};

Request StatelessCall(std::string_view method, json::object params, json::value id = 1) {
  return MakeRequest(Revision::k2026_07_28, TransportKind::kHttp, method, std::move(params),
                     std::move(id));
}

TEST(SpecExamples, EveryExampleErrorCarriesACodeTheTableAllows) {
  JudgeContext undeclared;
  undeclared.capability_declared = false;
  JudgeContext with_argument;
  with_argument.argument_name = "expression";
  const std::vector<ErrorExample> examples = {
      {"InvalidParamsError/unknown-tool.json", check::kUnknownTool,
       [] {
         return StatelessCall("tools/call", {{"name", "invalid_tool_name"}});
       }},
      {"InvalidParamsError/unknown-prompt.json", check::kUnknownPrompt,
       [] {
         return StatelessCall("prompts/get", {{"name", "invalid_prompt_name"}});
       }},
      {"InvalidParamsError/invalid-cursor.json", check::kInvalidCursor,
       [] {
         return StatelessCall("tools/list", {{"cursor", "bogus"}});
       }},
      {"InvalidParamsError/invalid-tool-arguments.json", check::kToolBadArguments,
       [] {
         return StatelessCall("tools/call", {{"name", "calculate"}});
       },
       with_argument, VerdictKind::kWarn},
      {"MethodNotFoundError/prompts-not-supported.json", check::kCapabilityUnadvertised,
       [] { return StatelessCall("prompts/list", {}); }, undeclared},
      {"MethodNotFoundError/prompts-not-supported.json", check::kUnknownMethod,
       [] { return StatelessCall("prompts/list", {}); }},
      {"HeaderMismatchError/header-mismatch.json", check::kNameHeaderMismatch,
       [] {
         Request request = StatelessCall("tools/call", {{"name", "bar"}});
         SetHeader(request.headers, kHeaderName, "foo");
         return request;
       }},
      {"UnsupportedProtocolVersionError/unsupported-version.json", check::kVersionUnsupported,
       [] {
         Request request = StatelessCall("tools/list", {});
         json::object body = request.BodyJson()->as_object();
         body["params"].as_object()["_meta"].as_object()[kMetaProtocolVersion] = "1900-01-01";
         request.body = json::value(std::move(body));
         SetHeader(request.headers, kHeaderProtocolVersion, "1900-01-01");
         return request;
       }},
      {"MissingRequiredClientCapabilityError/missing-elicitation-capability.json",
       check::kClientCapabilityRequired,
       [] {
         return StatelessCall("tools/call", {{"name", "x"}});
       }},
      {"ParseError/invalid-json.json", check::kParseError,
       [] {
         Request request = StatelessCall("tools/list", {});
         request.body = RawBody{"{not json"};
         return request;
       }},
  };
  for (const ErrorExample& example : examples) {
    SCOPED_TRACE(std::string(example.file) + " as " + std::string(example.check_id));
    const Request request = example.make_request();
    const Expectation* row = FindExpectation(example.check_id, request);
    ASSERT_NE(row, nullptr);
    const json::value response = AsResponse(ReadExample(example.file), request);
    const std::int64_t code = response.at("error").at("code").as_int64();
    EXPECT_TRUE(std::find(row->code.conformant.begin(), row->code.conformant.end(), code) !=
                row->code.conformant.end())
        << code << " is not among the codes the table allows";
    const int status =
        row->http_status.conformant.empty() ? 200 : row->http_status.conformant.front().low;
    const Verdict verdict =
        Judge(example.check_id, request, Replied(request, response, status), example.context);
    EXPECT_FALSE(HasFinding(verdict, Aspect::kCode)) << Show(verdict);
    EXPECT_FALSE(HasFinding(verdict, Aspect::kData)) << Show(verdict);
    EXPECT_FALSE(HasFinding(verdict, Aspect::kEnvelope)) << Show(verdict);
    EXPECT_EQ(verdict.kind, example.expected_kind) << Show(verdict);
  }
}

struct ResultExample {
  std::string_view file;
  std::string_view method;
};

TEST(SpecExamples, EveryExampleResultPassesTheEnvelopeCheck) {
  const std::vector<ResultExample> examples = {
      {"CallToolResult/invalid-tool-input-error.json", "tools/call"},
      {"CallToolResultResponse/call-tool-result-response.json", "tools/call"},
      {"DiscoverResult/server-capabilities-discovery.json", "server/discover"},
      {"DiscoverResultResponse/discover-result-response.json", "server/discover"},
      {"ListToolsResultResponse/list-tools-result-response.json", "tools/list"},
      {"GetPromptResultResponse/get-prompt-result-response.json", "prompts/get"},
      {"ReadResourceResultResponse/read-resource-result-response.json", "resources/read"},
      {"ReadResourceResultResponse/read-resource-result-response-with-ttl.json", "resources/read"},
      {"InputRequiredResult/input-required-result-with-request-state-only.json", "tools/call"},
  };
  for (const ResultExample& example : examples) {
    SCOPED_TRACE(example.file);
    json::value message = ReadExample(example.file);
    // Bare results get the envelope of a response to a request with the same id.
    json::value id = message.as_object().contains("jsonrpc") ? message.at("id") : json::value(5);
    if (!message.as_object().contains("jsonrpc")) message = ResultReply(id, message.as_object());
    const Request request = StatelessCall(example.method, {}, id);
    const std::vector<Finding> findings = CheckEnvelope(request, message);
    EXPECT_TRUE(findings.empty()) << findings.front().text;
    if (example.method == "server/discover") {
      EXPECT_TRUE(
          CheckDiscoverResult(message.at("result"), Strength::kMust, request.revision).empty());
      const Verdict verdict = Judge(check::kDiscoverResult, request, Replied(request, message));
      EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
    }
  }
}

TEST(SpecExamples, TheInvalidToolInputExampleIsTheConformantBadArgumentsAnswer) {
  Request request = StatelessCall("tools/call", {{"name", "book_flight"}}, 4);
  const json::value message =
      ResultReply(4, ReadExample("CallToolResult/invalid-tool-input-error.json").as_object());
  JudgeContext context;
  context.argument_name = "departure_date";
  const Verdict verdict =
      Judge(check::kToolBadArguments, request, Replied(request, message), context);
  EXPECT_EQ(verdict.kind, VerdictKind::kWarn) << "the text never spells departure_date";
  context.argument_name = "departure";
  EXPECT_EQ(Judge(check::kToolBadArguments, request, Replied(request, message), context).kind,
            VerdictKind::kPass);
}

}  // namespace
}  // namespace mcpfuzz
