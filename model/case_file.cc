#include "model/case_file.h"

#include <cstdint>

#include "model/body_runs.h"
#include "model/text.h"

namespace mcpfuzz {
namespace {

Error Invalid(std::string what) { return Error{"invalid request case: " + std::move(what)}; }

const boost::json::string* StringMember(const boost::json::object& object, std::string_view key) {
  const auto* member = object.if_contains(key);
  return member != nullptr && member->is_string() ? &member->as_string() : nullptr;
}

// A case file expands at most this much: 16 times --max-request-bytes' default.
constexpr std::size_t kMaxExpandedBody = std::size_t{256} << 20;

boost::json::array RunsToJson(std::string_view bytes) {
  boost::json::array runs;
  for (const BodyRun& run : SplitRuns(bytes)) {
    if (run.count == 0) {
      runs.emplace_back(run.literal);
    } else {
      runs.push_back(
          boost::json::object{{"repeat", std::string(1, run.repeated)}, {"count", run.count}});
    }
  }
  return runs;
}

Result<std::string> RunsFromJson(const boost::json::value& json) {
  if (!json.is_array()) return Invalid("\"body_runs\" must be an array");
  std::vector<BodyRun> runs;
  std::size_t size = 0;
  for (const auto& item : json.as_array()) {
    if (item.is_string()) {
      runs.push_back({std::string(item.as_string())});
      size += item.as_string().size();
      continue;
    }
    const auto* run = item.if_object();
    const auto* repeat = run != nullptr ? StringMember(*run, "repeat") : nullptr;
    const auto* count = run != nullptr ? run->if_contains("count") : nullptr;
    if (repeat == nullptr || repeat->size() != 1 || count == nullptr || !count->is_number()) {
      return Invalid("each of \"body_runs\" is a string or {\"repeat\": one byte, \"count\": n}");
    }
    boost::system::error_code error;
    const auto copies = count->to_number<std::uint64_t>(error);
    if (error || copies == 0 || copies > kMaxExpandedBody) {
      return Invalid("a \"count\" of \"body_runs\" must be 1 … 268435456");
    }
    runs.push_back({std::string(), repeat->front(), static_cast<std::size_t>(copies)});
    size += static_cast<std::size_t>(copies);
  }
  if (size > kMaxExpandedBody) return Invalid("\"body_runs\" expands past 256 MiB");
  std::string bytes = JoinRuns(runs);
  if (!IsValidUtf8(bytes)) return Invalid("\"body_runs\" must expand to valid UTF-8");
  return bytes;
}

}  // namespace

boost::json::value RequestToJson(const Request& request) {
  boost::json::object out;
  out["transport"] = ToString(request.transport);
  out["revision"] = ToString(request.revision);
  out["http_method"] = request.http_method;
  boost::json::array headers;
  for (const Header& header : request.headers) headers.push_back({header.name, header.value});
  out["headers"] = std::move(headers);
  if (const auto* json = std::get_if<boost::json::value>(&request.body)) {
    out["body"] = *json;
  } else if (const auto* raw = std::get_if<RawBody>(&request.body)) {
    if (IsValidUtf8(raw->bytes) && HasLongRun(raw->bytes)) {
      // Megabytes of padding or brackets: the file stays small, and replay expands it.
      out["body_runs"] = RunsToJson(raw->bytes);
    } else if (IsValidUtf8(raw->bytes)) {
      out["body_text"] = raw->bytes;
    } else {
      out["body_base64"] = Base64Encode(raw->bytes);
    }
  }
  out["session"] = request.session == SessionBinding::kAttach ? "attach"
                   : request.session == SessionBinding::kOmit ? "omit"
                                                              : "second";
  return out;
}

Result<Request> RequestFromJson(const boost::json::value& json) {
  if (!json.is_object()) return Invalid("not a JSON object");
  const auto& object = json.as_object();
  Request request;

  const auto* transport = StringMember(object, "transport");
  if (transport == nullptr || (*transport != "http" && *transport != "stdio")) {
    return Invalid("\"transport\" must be \"http\" or \"stdio\"");
  }
  request.transport = *transport == "http" ? TransportKind::kHttp : TransportKind::kStdio;

  const auto* revision_text = StringMember(object, "revision");
  auto revision = revision_text ? ParseRevision(*revision_text) : std::nullopt;
  if (!revision) return Invalid("\"revision\" must be one of 2024-11-05 … 2026-07-28");
  request.revision = *revision;

  if (const auto* method = StringMember(object, "http_method")) {
    request.http_method = std::string(*method);
  }
  if (const auto* headers = object.if_contains("headers")) {
    if (!headers->is_array()) return Invalid("\"headers\" must be an array of [name, value]");
    for (const auto& pair : headers->as_array()) {
      if (!pair.is_array() || pair.as_array().size() != 2 || !pair.as_array()[0].is_string() ||
          !pair.as_array()[1].is_string()) {
        return Invalid("each header must be [name, value], both strings");
      }
      request.headers.push_back({std::string(pair.as_array()[0].as_string()),
                                 std::string(pair.as_array()[1].as_string())});
    }
  }

  const int body_forms = static_cast<int>(object.contains("body")) +
                         static_cast<int>(object.contains("body_text")) +
                         static_cast<int>(object.contains("body_base64")) +
                         static_cast<int>(object.contains("body_runs"));
  if (body_forms > 1) {
    return Invalid("give at most one of body, body_text, body_base64, body_runs");
  }
  if (const auto* body = object.if_contains("body")) {
    request.body = *body;
  } else if (object.contains("body_text")) {
    const auto* text = StringMember(object, "body_text");
    if (text == nullptr) return Invalid("\"body_text\" must be a string");
    request.body = RawBody{std::string(*text)};
  } else if (const auto* runs = object.if_contains("body_runs")) {
    Result<std::string> bytes = RunsFromJson(*runs);
    if (!bytes.ok()) return bytes.error();
    request.body = RawBody{std::move(*bytes)};
  } else if (object.contains("body_base64")) {
    const auto* text = StringMember(object, "body_base64");
    auto bytes = text ? Base64Decode(*text) : std::nullopt;
    if (!bytes) return Invalid("\"body_base64\" is not valid base64");
    request.body = RawBody{std::move(*bytes)};
  }

  if (const auto* session = StringMember(object, "session")) {
    if (*session != "attach" && *session != "omit" && *session != "second") {
      return Invalid("\"session\" must be \"attach\", \"omit\" or \"second\"");
    }
    request.session = *session == "attach"   ? SessionBinding::kAttach
                      : *session == "second" ? SessionBinding::kSecond
                                             : SessionBinding::kOmit;
  }
  return request;
}

}  // namespace mcpfuzz

namespace mcpfuzz {
namespace {

void PutBytes(boost::json::object& out, std::string_view name, std::string_view bytes) {
  if (IsValidUtf8(bytes)) {
    out[name] = bytes;
  } else {
    out[std::string(name) + "_base64"] = Base64Encode(bytes);
  }
}

}  // namespace

boost::json::value ObservationToJson(const Observation& observation) {
  boost::json::object out;
  out["outcome"] = ToString(observation.outcome);
  if (!observation.detail.empty()) out["detail"] = observation.detail;
  out["elapsed_ms"] = static_cast<double>(observation.elapsed.count()) / 1000.0;
  if (observation.http_status != 0) {
    out["http_status"] = observation.http_status;
    boost::json::array headers;
    for (const Header& header : observation.http_headers) {
      headers.push_back({header.name, header.value});
    }
    out["http_headers"] = std::move(headers);
    const bool body_cut =
        !observation.excerpts.empty() && observation.excerpts.front().of == "body";
    if (!body_cut) PutBytes(out, "body", observation.body);
  }
  boost::json::array messages(observation.messages.begin(), observation.messages.end());
  out["messages"] = std::move(messages);
  // Responses to earlier requests that came during this exchange: not its answer, but what a
  // reader looks for when a verdict names a late or repeated reply.
  if (!observation.late_replies.empty()) {
    out["late_replies"] =
        boost::json::array(observation.late_replies.begin(), observation.late_replies.end());
  }
  if (!observation.repeated_replies.empty()) {
    out["repeated_replies"] = boost::json::array(observation.repeated_replies.begin(),
                                                 observation.repeated_replies.end());
  }
  if (!observation.non_json.empty()) {
    boost::json::array non_json;
    for (const auto& piece : observation.non_json) {
      boost::json::object item;
      PutBytes(item, "text", piece);
      non_json.push_back(std::move(item));
    }
    out["non_json"] = std::move(non_json);
  }
  if (!observation.excerpts.empty()) {
    boost::json::array excerpts;
    for (const ReplyExcerpt& excerpt : observation.excerpts) {
      boost::json::object item;
      item["of"] = excerpt.of;
      item["bytes"] = excerpt.bytes;
      // A cut may fall inside a UTF-8 sequence: such an excerpt is written as base64.
      PutBytes(item, "text", excerpt.text);
      excerpts.push_back(std::move(item));
    }
    out["excerpts"] = std::move(excerpts);
  }
  if (observation.left_out > 0) {
    out["left_out"] = {{"pieces", observation.left_out}, {"bytes", observation.left_out_bytes}};
  }
  if (!observation.stderr_tail.empty()) PutBytes(out, "stderr_tail", observation.stderr_tail);
  if (observation.exit_code) out["exit_code"] = *observation.exit_code;
  if (observation.exit_signal) out["exit_signal"] = *observation.exit_signal;
  if (observation.killed_by_mcpfuzz) out["killed_by_mcpfuzz"] = true;
  return out;
}

}  // namespace mcpfuzz
