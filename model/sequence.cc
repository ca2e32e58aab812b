#include "model/sequence.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <utility>
#include <variant>

#include "model/case_file.h"
#include "model/request_builder.h"

namespace mcpfuzz {

boost::json::value SequenceToJson(const Sequence& sequence) {
  boost::json::array steps;
  for (const SequenceStep& step : sequence) {
    boost::json::object out;
    out["request"] = RequestToJson(step.request);
    if (!step.check_id.empty()) out["check_id"] = step.check_id;
    if (!step.row.empty()) out["row"] = step.row;
    if (step.cursor_from) out["cursor_from"] = *step.cursor_from;
    if (step.pipelined) out["pipelined"] = true;
    if (step.mutated) out["mutated"] = true;
    steps.push_back(std::move(out));
  }
  return steps;
}

Result<Sequence> SequenceFromJson(const boost::json::value& json) {
  const auto* steps = json.if_array();
  if (steps == nullptr) return Error{"\"steps\" is not an array"};
  Sequence sequence;
  for (const boost::json::value& value : *steps) {
    const auto* object = value.if_object();
    const auto* request = object != nullptr ? object->if_contains("request") : nullptr;
    if (request == nullptr) return Error{"a step without \"request\""};
    auto parsed = RequestFromJson(*request);
    if (!parsed.ok())
      return Error{"step " + std::to_string(sequence.size() + 1) + ": " + parsed.error().message};
    SequenceStep step;
    step.request = std::move(*parsed);
    if (const auto* check = object->if_contains("check_id"); check && check->is_string()) {
      step.check_id = std::string(check->as_string());
    }
    if (const auto* row = object->if_contains("row"); row && row->is_string()) {
      step.row = std::string(row->as_string());
    }
    if (const auto* from = object->if_contains("cursor_from"); from != nullptr) {
      const bool whole = from->is_int64() || from->is_uint64();
      const std::uint64_t index = from->is_uint64() ? from->get_uint64()
                                  : from->is_int64() && from->get_int64() >= 0
                                      ? static_cast<std::uint64_t>(from->get_int64())
                                      : sequence.size();
      if (!whole || index >= sequence.size()) {
        return Error{"step " + std::to_string(sequence.size() + 1) +
                     ": \"cursor_from\" does not name an earlier step"};
      }
      step.cursor_from = static_cast<std::size_t>(index);
    }
    if (const auto* pipelined = object->if_contains("pipelined"); pipelined != nullptr) {
      if (!pipelined->is_bool()) {
        return Error{"step " + std::to_string(sequence.size() + 1) +
                     ": \"pipelined\" is not a boolean"};
      }
      step.pipelined = pipelined->get_bool();
    }
    if (const auto* mutated = object->if_contains("mutated"); mutated != nullptr) {
      if (!mutated->is_bool()) {
        return Error{"step " + std::to_string(sequence.size() + 1) +
                     ": \"mutated\" is not a boolean"};
      }
      step.mutated = mutated->get_bool();
    }
    sequence.push_back(std::move(step));
  }
  return sequence;
}

Request WithCursor(Request request, std::string_view cursor) {
  auto* body = std::get_if<boost::json::value>(&request.body);
  if (body == nullptr || !body->is_object()) return request;
  boost::json::value& params = body->as_object()["params"];
  if (!params.is_object()) params = boost::json::object{};
  params.as_object()["cursor"] = cursor;
  return request;
}

Revision AnotherHandshakeRevision(Revision revision) {
  return revision == Revision::k2024_11_05 ? Revision::k2025_03_26 : Revision::k2024_11_05;
}

namespace {

// An id a cancellation can name: a string or an integer.
std::optional<boost::json::value> IdOf(const Request& request) {
  auto id = request.RpcId();
  if (!id || !(id->is_string() || id->is_int64() || id->is_uint64())) return std::nullopt;
  return id;
}

}  // namespace

Request CancellationOf(const Request& request) {
  const auto id = IdOf(request);
  return MakeNotification(request.revision, request.transport, "notifications/cancelled",
                          boost::json::object{{"requestId", id ? *id : boost::json::value(nullptr)},
                                              {"reason", "mcpfuzz: cancelled while in flight"}});
}

bool Cancels(const Request& notification, const Request& request) {
  if (notification.RpcMethod() != "notifications/cancelled" || !notification.IsNotification()) {
    return false;
  }
  const auto id = IdOf(request);
  const auto body = notification.BodyJson();
  const auto* params =
      body && body->is_object() ? body->as_object().if_contains("params") : nullptr;
  const auto* named = params != nullptr && params->is_object()
                          ? params->as_object().if_contains("requestId")
                          : nullptr;
  return id && named != nullptr && *named == *id;
}

std::vector<Request> StepRequests(const Sequence& sequence) {
  std::vector<Request> requests;
  requests.reserve(sequence.size());
  for (const SequenceStep& step : sequence) requests.push_back(step.request);
  return requests;
}

}  // namespace mcpfuzz
