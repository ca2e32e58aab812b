#pragma once
// Crafted observations for the oracle tests: what a transport would have recorded for a given
// answer, without any I/O.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <string>
#include <utility>

#include "model/model.h"
#include "oracles/oracles.h"

namespace mcpfuzz::test_support {

namespace json = boost::json;

/// {"jsonrpc":"2.0","id":id,"error":{"code":code,"message":message[,"data":data]}}.
inline json::value ErrorReply(json::value id, std::int64_t code, std::string message = "error",
                              std::optional<json::value> data = std::nullopt) {
  json::object error{{"code", code}, {"message", std::move(message)}};
  if (data) error["data"] = std::move(*data);
  return json::object{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"error", std::move(error)}};
}

/// The same without an id member (2025-11-25 on, for ids that could not be read).
inline json::value ErrorReplyWithoutId(std::int64_t code, std::string message = "error") {
  return json::object{{"jsonrpc", "2.0"},
                      {"error", json::object{{"code", code}, {"message", std::move(message)}}}};
}

/// {"jsonrpc":"2.0","id":id,"result":result}.
inline json::value ResultReply(json::value id, json::object result) {
  return json::object{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", std::move(result)}};
}

/// A CallToolResult with one text block; resultType "complete" in 2026-07-28.
inline json::object ToolResult(Revision revision, std::string text, std::optional<bool> is_error) {
  json::object result;
  if (revision == Revision::k2026_07_28) result["resultType"] = "complete";
  result["content"] = json::array{json::object{{"type", "text"}, {"text", std::move(text)}}};
  if (is_error) result["isError"] = *is_error;
  return result;
}

/// An answer carrying `messages` as the transport of `request` would record it: a JSON body
/// (one message) or SSE-free stdout lines.
inline Observation Replied(const Request& request, std::vector<json::value> messages,
                           int http_status = 200, std::string content_type = "application/json") {
  Observation observation;
  if (request.transport == TransportKind::kHttp) {
    observation.http_status = http_status;
    observation.content_type = std::move(content_type);
    if (messages.size() == 1) observation.body = json::serialize(messages.front());
  } else {
    for (const auto& message : messages)
      observation.stdout_lines.push_back(json::serialize(message));
  }
  observation.messages = std::move(messages);
  return observation;
}

inline Observation Replied(const Request& request, json::value message, int http_status = 200,
                           std::string content_type = "application/json") {
  std::vector<json::value> messages;
  messages.push_back(std::move(message));
  return Replied(request, std::move(messages), http_status, std::move(content_type));
}

/// No JSON-RPC answer: an empty body with `http_status` (HTTP), or silence (stdio).
inline Observation Silent(const Request& request, int http_status = 202) {
  Observation observation;
  if (request.transport == TransportKind::kHttp) observation.http_status = http_status;
  return observation;
}

/// A reply that is not JSON: an HTML or plain-text body (HTTP), or a log line (stdio).
inline Observation NotJson(const Request& request, std::string text, int http_status = 200,
                           std::string content_type = "text/html") {
  Observation observation;
  if (request.transport == TransportKind::kHttp) {
    observation.http_status = http_status;
    observation.content_type = std::move(content_type);
    observation.body = text;
  } else {
    observation.stdout_lines.push_back(text);
  }
  observation.non_json.push_back(std::move(text));
  return observation;
}

/// The exchange broke: `outcome` with nothing read.
inline Observation Broken(Outcome outcome, std::string detail = "crafted failure") {
  Observation observation;
  observation.outcome = outcome;
  observation.detail = std::move(detail);
  return observation;
}

/// True when `verdict` holds a finding about `aspect` with `strength`.
inline bool HasFinding(const Verdict& verdict, Aspect aspect, Strength strength) {
  return std::any_of(verdict.findings.begin(), verdict.findings.end(), [&](const Finding& f) {
    return f.aspect == aspect && f.strength == strength;
  });
}

inline bool HasFinding(const Verdict& verdict, Aspect aspect) {
  return std::any_of(verdict.findings.begin(), verdict.findings.end(),
                     [&](const Finding& f) { return f.aspect == aspect; });
}

/// gtest-friendly rendering of a verdict for failure messages.
inline std::string Show(const Verdict& verdict) { return Summarize(verdict); }

}  // namespace mcpfuzz::test_support
