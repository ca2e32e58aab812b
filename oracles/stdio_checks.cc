#include "oracles/stdio_checks.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <string>

#include "oracles/detail/envelope.h"

namespace mcpfuzz {
namespace {

Finding ShapeFinding(Strength strength, std::string text) {
  return Finding{Aspect::kShape, strength, std::move(text)};
}

bool IsBlank(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

// A request, notification or response: what may travel on stdout.
bool IsJsonRpcMessage(const boost::json::value& value) {
  if (!value.is_object()) return false;
  const auto& object = value.as_object();
  const auto* jsonrpc = object.if_contains("jsonrpc");
  if (jsonrpc == nullptr || !jsonrpc->is_string() || jsonrpc->as_string() != "2.0") return false;
  const auto* method = object.if_contains("method");
  if (method != nullptr) return method->is_string();
  return object.contains("id") && (object.contains("result") != object.contains("error"));
}

bool IsBatchOfMessages(const boost::json::value& value) {
  if (!value.is_array() || value.as_array().empty()) return false;
  const auto& items = value.as_array();
  return std::all_of(items.begin(), items.end(), IsJsonRpcMessage);
}

}  // namespace

std::vector<Finding> CheckStdout(const Observation& observation, Revision revision) {
  // A few of each kind are quoted; the rest are counted in one finding, so a flood of
  // thousands of "y" lines is one verdict a person can read, not thousands of findings.
  constexpr std::size_t kQuoted = 3;
  std::vector<Finding> findings;
  std::size_t blank = 0;
  std::size_t not_json = 0;
  std::size_t not_jsonrpc = 0;
  for (const std::string& line : observation.non_json) {
    if (IsBlank(line)) {
      if (blank++ == 0) {
        findings.push_back(ShapeFinding(Strength::kShould, "stdout carries a blank line"));
      }
    } else if (not_json++ < kQuoted) {
      findings.push_back(ShapeFinding(Strength::kMust,
                                      "stdout carries a line that is not JSON: " + Excerpt(line)));
    }
  }
  for (const auto& message : observation.messages) {
    if (IsJsonRpcMessage(message)) continue;
    if (revision == Revision::k2025_03_26 && IsBatchOfMessages(message)) continue;
    if (not_jsonrpc++ < kQuoted) {
      findings.push_back(
          ShapeFinding(Strength::kMust, "stdout carries JSON that is not a JSON-RPC message: " +
                                            Excerpt(boost::json::serialize(message))));
    }
  }
  // Pretty-printed: the message is the server's answer, but its framing breaks the MUST NOT
  // on embedded newlines; the excerpt shows where the lines broke.
  std::size_t multi_line = 0;
  for (const std::string& excerpt : observation.multi_line_messages) {
    if (multi_line++ >= kQuoted) continue;
    std::string shown;
    for (const char c : excerpt) shown += c == '\n' ? std::string("\\n") : std::string(1, c);
    findings.push_back(
        ShapeFinding(Strength::kMust,
                     "stdout carries a message spread over several lines (a message MUST "
                     "NOT contain embedded newlines): " +
                         Excerpt(shown)));
  }
  if (multi_line > kQuoted) {
    findings.push_back(
        ShapeFinding(Strength::kMust, "stdout carries " + std::to_string(multi_line) +
                                          " messages spread over several lines in all"));
  }
  if (blank > 1) {
    findings.push_back(ShapeFinding(
        Strength::kShould, "stdout carries " + std::to_string(blank) + " blank lines in all"));
  }
  if (not_json > kQuoted) {
    findings.push_back(ShapeFinding(Strength::kMust, "stdout carries " + std::to_string(not_json) +
                                                         " lines that are not JSON in all"));
  }
  if (not_jsonrpc > kQuoted) {
    findings.push_back(
        ShapeFinding(Strength::kMust, "stdout carries " + std::to_string(not_jsonrpc) +
                                          " JSON values that are not JSON-RPC messages in all"));
  }
  return findings;
}

std::vector<Finding> CheckProcessAlive(const Observation& observation) {
  std::vector<Finding> findings;
  if (observation.killed_by_mcpfuzz) return findings;
  if (observation.exit_signal) {
    findings.push_back(ShapeFinding(Strength::kMust, "the server was killed by signal " +
                                                         std::to_string(*observation.exit_signal)));
  } else if (observation.exit_code && *observation.exit_code != 0) {
    findings.push_back(ShapeFinding(
        Strength::kMust, "the server exited with code " + std::to_string(*observation.exit_code)));
  } else if (observation.exit_code) {
    findings.push_back(ShapeFinding(Strength::kShould, "the server exited (code 0) on its own"));
  } else if (observation.outcome == Outcome::kExited) {
    findings.push_back(ShapeFinding(Strength::kMust, "the server exited: " + observation.detail));
  }
  return findings;
}

std::optional<Finding> CheckRepeatedResponse(const Request& answered,
                                             const boost::json::value& repeat) {
  const std::optional<boost::json::value> id = answered.RpcId();
  if (!id || id->is_null() || !repeat.is_object()) return std::nullopt;
  const boost::json::value* repeated = repeat.as_object().if_contains("id");
  if (repeated == nullptr || *repeated != *id) return std::nullopt;
  return oracles_detail::ResponsesToOneIdFinding(*id, 2);
}

}  // namespace mcpfuzz
