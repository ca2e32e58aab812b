#include "oracles/detail/related_notifications.h"

#include <algorithm>
#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "model/logging.h"
#include "model/request_edit.h"

namespace mcpfuzz::oracles_detail {
namespace {

namespace json = boost::json;

std::string Text(const json::value& value) { return Excerpt(json::serialize(value), 60); }

Finding EnvelopeFinding(Strength strength, std::string text) {
  return {Aspect::kEnvelope, strength, std::move(text)};
}

// A message below `asked` (a level name) is only tolerated: the setLevel text says "should"
// (tables §4b V11a, §7 G4). `who` names who asked for the level.
void CheckBelowLevel(const json::object& params, const json::value& asked, std::string_view who,
                     std::vector<Finding>& findings) {
  const json::value* level = params.if_contains("level");
  const std::optional<std::size_t> wanted =
      asked.is_string() ? LogLevelRank(asked.get_string()) : std::nullopt;
  const std::optional<std::size_t> sent =
      level != nullptr && level->is_string() ? LogLevelRank(level->get_string()) : std::nullopt;
  if (wanted && sent && *sent < *wanted) {
    findings.push_back(EnvelopeFinding(Strength::kShould, "a log message at level " + Text(*level) +
                                                              ", below the " + Text(asked) + " " +
                                                              std::string(who)));
  }
}

// 2026-07-28: the level is the request's own (V11, V11a).
void CheckLogMessage(const json::object& params, const json::value* asked,
                     std::vector<Finding>& findings) {
  if (asked == nullptr) {
    findings.push_back(
        EnvelopeFinding(Strength::kMust, "a notifications/message for a request without _meta " +
                                             std::string(kMetaLogLevel) +
                                             " (the client did not opt into log messages)"));
    return;
  }
  CheckBelowLevel(params, *asked, "the request asked for", findings);
}

bool IsNotification(const json::value& message, std::string_view method) {
  const json::object* object = message.if_object();
  const json::value* name = object != nullptr ? object->if_contains("method") : nullptr;
  return name != nullptr && name->is_string() && name->get_string() == method &&
         !object->contains("id");
}

const json::object& ParamsOf(const json::object& notification) {
  static const json::object kNoParams;
  const json::object* params = ObjectMember(notification, "params");
  return params != nullptr ? *params : kNoParams;
}

// Over stdio, a progress notification for a request already answered (§4a L10a). Over HTTP a
// later stream's progress is judged by L10 against that stream's own request.
void CheckFinishedProgress(const Observation& observation, const JudgeContext& context,
                           std::vector<Finding>& findings) {
  const std::vector<json::value>& finished = context.finished_progress_tokens;
  if (finished.empty()) return;
  for (const json::value& message : observation.messages) {
    if (!IsNotification(message, "notifications/progress")) continue;
    const json::value* token = ParamsOf(message.get_object()).if_contains(kMetaProgressToken);
    if (token == nullptr || std::find(finished.begin(), finished.end(), *token) == finished.end()) {
      continue;
    }
    findings.push_back(EnvelopeFinding(
        Strength::kMust, "a notifications/progress with progressToken " + Text(*token) +
                             " after its request was answered (tables §4a L10a)"));
  }
}

// The handshake era: what the session asked for. Over stdio every message on the connection is
// the session's. A log message below the level logging/setLevel set (§7 G4); an update of a
// resource resources/unsubscribe ended (§7 R4s).
void CheckSession(const Observation& observation, const JudgeContext& context,
                  std::vector<Finding>& findings) {
  // Judge runs on the fuzz loop's hot path, where no sequence state is ever set.
  if (!context.session_log_level && context.unsubscribed_uris.empty()) return;
  const std::optional<json::value> level =
      context.session_log_level ? std::optional<json::value>(*context.session_log_level)
                                : std::nullopt;
  for (const json::value& message : observation.messages) {
    if (level && IsNotification(message, "notifications/message")) {
      CheckBelowLevel(ParamsOf(message.get_object()), *level,
                      "the session set with logging/setLevel (tables §7 G4)", findings);
    }
    if (context.unsubscribed_uris.empty() ||
        !IsNotification(message, "notifications/resources/updated")) {
      continue;
    }
    const json::value* uri = ParamsOf(message.get_object()).if_contains("uri");
    if (uri == nullptr || !uri->is_string() ||
        std::find(context.unsubscribed_uris.begin(), context.unsubscribed_uris.end(),
                  uri->get_string()) == context.unsubscribed_uris.end()) {
      continue;
    }
    findings.push_back(EnvelopeFinding(
        Strength::kShould, "a notifications/resources/updated for " + Text(*uri) +
                               " after its resources/unsubscribe was answered (tables §7 R4s)"));
  }
}

}  // namespace

std::vector<Finding> CheckRelatedNotifications(const Request& request,
                                               const Observation& observation,
                                               const JudgeContext& context) {
  std::vector<Finding> findings;
  if (EraOf(request.revision) == Era::kHandshake) CheckSession(observation, context, findings);
  if (request.transport != TransportKind::kHttp) {
    CheckFinishedProgress(observation, context, findings);
    return findings;
  }
  const auto related = [](const json::value& message) {
    return IsNotification(message, "notifications/message") ||
           IsNotification(message, "notifications/progress");
  };
  // The request's _meta matters only to such a notification: a megabyte body is not parsed
  // for nothing.
  if (std::none_of(observation.messages.begin(), observation.messages.end(), related)) {
    return findings;
  }
  // A JSON body is read in place; raw bytes are parsed whole here alone (the judgement read
  // their envelope only), so a megabyte body is held once.
  std::optional<json::value> parsed;
  const json::value* body = std::get_if<json::value>(&request.body);
  if (body == nullptr && (parsed = request.BodyJson())) body = &*parsed;
  const json::object* meta = body != nullptr ? ParamsMeta(*body) : nullptr;
  const json::value* asked_level = meta != nullptr ? meta->if_contains(kMetaLogLevel) : nullptr;
  const json::value* token = meta != nullptr ? meta->if_contains(kMetaProgressToken) : nullptr;
  std::optional<double> last_progress;
  for (const json::value& message : observation.messages) {
    const bool log = IsNotification(message, "notifications/message");
    if (!log && !IsNotification(message, "notifications/progress")) continue;
    const json::object& params = ParamsOf(message.get_object());
    if (log) {
      // Before 2026-07-28 the level is a session's, not a request's.
      if (request.revision == Revision::k2026_07_28) {
        CheckLogMessage(params, asked_level, findings);
      }
      continue;
    }
    const json::value* sent = params.if_contains(kMetaProgressToken);
    if (token == nullptr) {
      findings.push_back(EnvelopeFinding(
          Strength::kMust, "a notifications/progress for a request that gave no progressToken"));
      continue;
    }
    if (sent == nullptr || *sent != *token) {
      findings.push_back(EnvelopeFinding(
          Strength::kMust, "a notifications/progress with progressToken " +
                               (sent != nullptr ? Text(*sent) : std::string("(none)")) +
                               ", not the request's " + Text(*token)));
      continue;
    }
    const json::value* progress = params.if_contains("progress");
    if (progress == nullptr || !progress->is_number()) continue;  // the schema's business
    const double value = progress->to_number<double>();
    if (last_progress && value <= *last_progress) {
      findings.push_back(EnvelopeFinding(
          Strength::kMust, "progress went from " + Text(json::value(*last_progress)) + " to " +
                               Text(*progress) + " instead of increasing"));
    }
    last_progress = value;
  }
  return findings;
}

}  // namespace mcpfuzz::oracles_detail
