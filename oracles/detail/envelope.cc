#include "oracles/detail/envelope.h"

#include <algorithm>
#include <boost/json.hpp>

#include "model/channel.h"
#include "model/json_depth.h"
#include "model/text.h"
#include "oracles/detail/describe.h"
#include "oracles/detail/leaks.h"
#include "oracles/detail/request_json.h"
#include "oracles/error_codes.h"

namespace mcpfuzz::oracles_detail {
namespace {

constexpr std::size_t kMaxErrorTexts = 32;

Finding EnvelopeFinding(Strength strength, std::string text) {
  return Finding{Aspect::kEnvelope, strength, std::move(text)};
}

std::string Show(const boost::json::value& value) {
  return Excerpt(boost::json::serialize(value), 60);
}

bool IsRequestId(const boost::json::value& id) {
  return id.is_string() || id.is_int64() || id.is_uint64();
}

// A body that is JSON except for bytes that are not UTF-8 is read by decoders that replace such
// bytes (as JavaScript's do); a server that then echoes the id it read did nothing wrong.
std::optional<boost::json::value> LenientlyReadId(const Request& request) {
  std::string scratch;
  std::string_view bytes = request.WireView(scratch);
  if (IsValidUtf8(bytes)) return std::nullopt;
  // Such decoders skip a leading byte order mark as well (RFC 8259 §8.1 lets them).
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
  auto body = ParseJson(ToValidUtf8(bytes));
  if (!body || !body->is_object()) return std::nullopt;
  const auto* id = body->as_object().if_contains("id");
  return id != nullptr ? std::optional<boost::json::value>(*id) : std::nullopt;
}

bool IdReadable(const RequestJson& body) {
  const auto* object = body.json() != nullptr ? body.json()->if_object() : nullptr;
  if (object == nullptr) return false;
  const auto* jsonrpc = object->if_contains("jsonrpc");
  const auto* method = object->if_contains("method");
  const auto* id = object->if_contains("id");
  return jsonrpc != nullptr && jsonrpc->is_string() && jsonrpc->as_string() == "2.0" &&
         method != nullptr && method->is_string() && id != nullptr && IsRequestId(*id);
}

// JSON-RPC §5: an id the server could not detect is answered null. It could not when it says
// so (-32700), or when the body lies past the limits RFC 8259 §9 lets a parser set (deeper
// than 1024 levels, over 1 MiB), whatever error it then reports. Whether the error was the
// right answer is the check's own rule.
bool NullIdAllowed(const Request& request, const boost::json::object& reply) {
  const auto* error = reply.if_contains("error");
  if (error == nullptr || !error->is_object()) return false;
  const auto* code = error->as_object().if_contains("code");
  if (code != nullptr && code->is_int64() && code->as_int64() == -32700) return true;
  const auto* raw = std::get_if<RawBody>(&request.body);
  return raw != nullptr &&
         (raw->bytes.size() > (std::size_t{1} << 20) || JsonNestingDepth(raw->bytes) > 1024);
}

void CheckId(const Request& request, const RequestJson& body, const boost::json::object& reply,
             std::vector<Finding>& findings) {
  const auto* id = reply.if_contains("id");
  const std::optional<boost::json::value> request_id = body.id();
  if (IdReadable(body) && !(NullIdAllowed(request, reply) && (id == nullptr || id->is_null()))) {
    if (id == nullptr) {
      findings.push_back(EnvelopeFinding(
          Strength::kMust, "the reply has no id; the request's id was " + Show(*request_id)));
    } else if (*id != *request_id) {
      findings.push_back(EnvelopeFinding(
          Strength::kMust,
          "the reply's id " + Show(*id) + " does not echo the request's id " + Show(*request_id)));
    }
    return;
  }
  // JSON-RPC asks for "id": null here, but the 2024-11-05 … 2025-06-18 schemas allow no null
  // id and 2025-11-25 allows omitting it: null and absent are both accepted (tables §12.3).
  if (id == nullptr) return;
  if (id->is_null() || (request_id && *id == *request_id)) return;
  if (auto lenient = LenientlyReadId(request); lenient && *id == *lenient) return;
  findings.push_back(EnvelopeFinding(
      Strength::kMust, "the reply's id " + Show(*id) +
                           " was not in the request, whose id could not be read: expected null"));
}

void CheckErrorCode(Revision revision, std::int64_t code, std::vector<Finding>& findings) {
  if (revision != Revision::k2026_07_28) return;
  const std::string shown = std::to_string(code);
  if (code == kResourceNotFoundCode) {
    findings.push_back(EnvelopeFinding(
        Strength::kMust, "code -32002 is retired in 2026-07-28 and MUST NOT be sent"));
  } else if (InSpecRange(code) && !IsDefinedSpecRangeCode(revision, code)) {
    findings.push_back(
        EnvelopeFinding(Strength::kMust, "code " + shown +
                                             " lies in -32020..-32099, which 2026-07-28 reserves "
                                             "for codes the spec defines, and is not one of them"));
  } else if (InLegacyRange(code)) {
    findings.push_back(EnvelopeFinding(Strength::kShould,
                                       "code " + shown +
                                           " lies in the legacy range -32000..-32019, which new "
                                           "implementations SHOULD NOT use"));
  }
}

void CheckError(Revision revision, const boost::json::value& error,
                std::vector<Finding>& findings) {
  if (!error.is_object()) {
    findings.push_back(EnvelopeFinding(Strength::kMust, "error is not an object"));
    return;
  }
  const auto& object = error.as_object();
  const auto* code = object.if_contains("code");
  if (code == nullptr || !code->is_int64()) {
    findings.push_back(EnvelopeFinding(Strength::kMust, "error.code is not an integer"));
  } else {
    CheckErrorCode(revision, code->as_int64(), findings);
  }
  const auto* message = object.if_contains("message");
  if (message == nullptr || !message->is_string()) {
    findings.push_back(EnvelopeFinding(Strength::kMust, "error.message is not a string"));
  }
}

bool MayRequireInput(std::string_view method) {
  return method == "tools/call" || method == "prompts/get" || method == "resources/read";
}

void CheckResult(const Request& request, const RequestJson& body, const boost::json::value& result,
                 std::vector<Finding>& findings) {
  if (!result.is_object()) {
    findings.push_back(EnvelopeFinding(Strength::kMust, "result is not an object"));
    return;
  }
  const auto& object = result.as_object();
  const std::string method = body.method();
  bool complete = true;
  if (request.revision == Revision::k2026_07_28) {
    const auto* result_type = object.if_contains("resultType");
    if (result_type == nullptr || !result_type->is_string()) {
      findings.push_back(
          EnvelopeFinding(Strength::kMust, "the result lacks resultType, required in 2026-07-28"));
    } else if (result_type->as_string() == "input_required") {
      complete = false;
      if (!MayRequireInput(method)) {
        findings.push_back(EnvelopeFinding(Strength::kMust,
                                           "resultType input_required MUST NOT answer " + method));
      }
      if (!object.contains("inputRequests") && !object.contains("requestState")) {
        findings.push_back(EnvelopeFinding(Strength::kMust,
                                           "an input_required result has neither inputRequests nor "
                                           "requestState"));
      }
    } else if (result_type->as_string() != "complete") {
      findings.push_back(EnvelopeFinding(
          Strength::kMust,
          "resultType " + Show(*result_type) + " is neither \"complete\" nor \"input_required\""));
    }
  }
  if (method == "tools/call" && complete) {
    const auto* content = object.if_contains("content");
    if (content == nullptr || !content->is_array()) {
      findings.push_back(
          EnvelopeFinding(Strength::kMust, "the CallToolResult has no content array"));
    }
    const auto* is_error = object.if_contains("isError");
    if (is_error != nullptr && !is_error->is_bool()) {
      findings.push_back(EnvelopeFinding(Strength::kMust, "isError is not a boolean"));
    }
  }
}

// JSON-RPC 2.0 §5: a request gets one Response. A second one with its id, in the same stdio
// window (the sentinel behind the request bounds it) or SSE stream, is a finding whichever
// check sent the request. A null id names no request, and a batch may repeat an id.
void CheckOneResponse(const RequestJson& body, const boost::json::value& reply,
                      const Observation& observation, std::vector<Finding>& findings) {
  if (body.json() != nullptr && body.json()->is_array()) return;
  const auto* id = reply.as_object().if_contains("id");
  if (id == nullptr || id->is_null()) return;
  const auto responses = std::count_if(observation.messages.begin(), observation.messages.end(),
                                       [id](const boost::json::value& message) {
                                         if (!IsResponseShaped(message)) return false;
                                         const auto* other = message.as_object().if_contains("id");
                                         return other != nullptr && *other == *id;
                                       });
  if (responses > 1) {
    findings.push_back(ResponsesToOneIdFinding(*id, static_cast<std::size_t>(responses)));
  }
}

void CollectStrings(const boost::json::value& value, std::vector<std::string>& out, int depth) {
  if (out.size() >= kMaxErrorTexts || depth > 4) return;
  if (value.is_string()) {
    out.emplace_back(value.as_string());
  } else if (value.is_array()) {
    for (const auto& item : value.as_array()) CollectStrings(item, out, depth + 1);
  } else if (value.is_object()) {
    for (const auto& member : value.as_object()) CollectStrings(member.value(), out, depth + 1);
  }
}

}  // namespace

bool RequestIdReadable(const Request& request) { return IdReadable(RequestJson(request)); }

std::vector<Finding> CheckEnvelope(const Request& request, const boost::json::value& message) {
  return CheckEnvelope(request, RequestJson(request), message);
}

std::vector<Finding> CheckEnvelope(const Request& request, const RequestJson& body,
                                   const boost::json::value& message) {
  std::vector<Finding> findings;
  if (!message.is_object()) {
    findings.push_back(EnvelopeFinding(Strength::kMust, "the reply is not a JSON object"));
    return findings;
  }
  const auto& object = message.as_object();
  const auto* jsonrpc = object.if_contains("jsonrpc");
  if (jsonrpc == nullptr || !jsonrpc->is_string() || jsonrpc->as_string() != "2.0") {
    findings.push_back(EnvelopeFinding(Strength::kMust, "jsonrpc is not \"2.0\""));
  }
  const auto* result = object.if_contains("result");
  const auto* error = object.if_contains("error");
  if (result != nullptr && error != nullptr) {
    findings.push_back(
        EnvelopeFinding(Strength::kMust, "the reply has both result and error (MUST NOT)"));
  } else if (result == nullptr && error == nullptr) {
    findings.push_back(EnvelopeFinding(Strength::kMust, "the reply has neither result nor error"));
  }
  CheckId(request, body, object, findings);
  if (error != nullptr) CheckError(request.revision, *error, findings);
  if (result != nullptr && error == nullptr) CheckResult(request, body, *result, findings);
  return findings;
}

std::vector<std::string> ErrorTexts(const boost::json::value& message) {
  std::vector<std::string> texts;
  if (!message.is_object()) return texts;
  const auto& object = message.as_object();
  if (const auto* error = object.if_contains("error"); error != nullptr && error->is_object()) {
    if (const auto* text = error->as_object().if_contains("message");
        text != nullptr && text->is_string()) {
      texts.emplace_back(text->as_string());
    }
    if (const auto* data = error->as_object().if_contains("data")) CollectStrings(*data, texts, 0);
  }
  const auto* result = object.if_contains("result");
  if (result == nullptr || !result->is_object()) return texts;
  const auto* is_error = result->as_object().if_contains("isError");
  const auto* content = result->as_object().if_contains("content");
  if (is_error == nullptr || !is_error->is_bool() || !is_error->as_bool() || content == nullptr ||
      !content->is_array()) {
    return texts;
  }
  for (const auto& block : content->as_array()) {
    if (!block.is_object()) continue;
    const auto* text = block.as_object().if_contains("text");
    if (text != nullptr && text->is_string() && texts.size() < kMaxErrorTexts) {
      texts.emplace_back(text->as_string());
    }
  }
  return texts;
}

std::vector<Finding> CheckLeaks(const boost::json::value& message) {
  std::vector<Finding> findings;
  for (const std::string& text : ErrorTexts(message)) {
    for (const Leak& leak : FindLeaks(text)) {
      findings.push_back(
          Finding{Aspect::kLeak, Strength::kShould,
                  "error text leaks a " + std::string(ToString(leak.kind)) + ": " + leak.evidence});
    }
  }
  return findings;
}

std::vector<Finding> CheckNonJsonLeaks(const Observation& observation) {
  // A flood of log lines is judged elsewhere; its first pieces show a leak if there is one.
  constexpr std::size_t kPiecesRead = 16;
  std::vector<Finding> findings;
  std::vector<LeakKind> seen;
  for (std::size_t i = 0; i < observation.non_json.size() && i < kPiecesRead; ++i) {
    for (const Leak& leak : FindLeaks(observation.non_json[i])) {
      if (std::find(seen.begin(), seen.end(), leak.kind) != seen.end()) continue;
      seen.push_back(leak.kind);
      findings.push_back(Finding{Aspect::kLeak, Strength::kShould,
                                 "a reply that is not JSON leaks a " +
                                     std::string(ToString(leak.kind)) + ": " + leak.evidence});
    }
  }
  return findings;
}

Finding ResponsesToOneIdFinding(const boost::json::value& id, std::size_t responses) {
  return EnvelopeFinding(Strength::kMust,
                         "the request with id " + Show(id) + " got " + std::to_string(responses) +
                             " responses; JSON-RPC 2.0 owes one response per request (§5)");
}

std::vector<Finding> CheckReplyEnvelope(const Request& request, const Observation& observation,
                                        const Reply& reply) {
  return CheckReplyEnvelope(request, RequestJson(request), observation, reply);
}

std::vector<Finding> CheckReplyEnvelope(const Request& request, const RequestJson& body,
                                        const Observation& observation, const Reply& reply) {
  std::vector<Finding> findings;
  if (!reply.message || !reply.message->is_object()) return findings;
  findings = CheckEnvelope(request, body, *reply.message);
  CheckOneResponse(body, *reply.message, observation, findings);
  std::vector<Finding> leaks = CheckLeaks(*reply.message);
  findings.insert(findings.end(), leaks.begin(), leaks.end());
  // Only answers to a request served (2xx) are pinned; the bodies of HTTP-level refusals are
  // unspecified (tables §9b H3, §10 X3, §12.16).
  const bool served = observation.http_status >= 200 && observation.http_status <= 299;
  if (request.transport == TransportKind::kHttp && served &&
      !MediaTypeIs(observation.content_type, "application/json") &&
      !MediaTypeIs(observation.content_type, "text/event-stream")) {
    findings.push_back(
        EnvelopeFinding(Strength::kMust, "a JSON-RPC reply came as Content-Type \"" +
                                             Excerpt(observation.content_type, 60) +
                                             "\", not application/json or text/event-stream"));
  }
  return findings;
}

}  // namespace mcpfuzz::oracles_detail
