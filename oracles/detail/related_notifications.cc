#include "oracles/detail/related_notifications.h"

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "model/logging.h"
#include "model/request_edit.h"

namespace mcpfuzz::oracles_detail {
namespace {

namespace json = boost::json;

std::string Text(const json::value& value) { return Excerpt(json::serialize(value), 60); }

Finding EnvelopeFinding(Strength strength, std::string text) {
  return {Aspect::kEnvelope, strength, std::move(text)};
}

void CheckLogMessage(const json::object& params, const json::value* asked, Revision revision,
                     std::vector<Finding>& findings) {
  if (revision != Revision::k2026_07_28) return;  // setLevel is a session's, not a request's
  if (asked == nullptr) {
    findings.push_back(
        EnvelopeFinding(Strength::kMust, "a notifications/message for a request without _meta " +
                                             std::string(kMetaLogLevel) +
                                             " (the client did not opt into log messages)"));
    return;
  }
  const json::value* level = params.if_contains("level");
  const std::optional<std::size_t> wanted =
      asked->is_string() ? LogLevelRank(asked->get_string()) : std::nullopt;
  const std::optional<std::size_t> sent =
      level != nullptr && level->is_string() ? LogLevelRank(level->get_string()) : std::nullopt;
  if (wanted && sent && *sent < *wanted) {
    findings.push_back(EnvelopeFinding(Strength::kShould, "a log message at level " + Text(*level) +
                                                              ", below the " + Text(*asked) +
                                                              " the request asked for"));
  }
}

}  // namespace

std::vector<Finding> CheckRelatedNotifications(const Request& request,
                                               const Observation& observation) {
  std::vector<Finding> findings;
  if (request.transport != TransportKind::kHttp) return findings;
  const std::optional<json::value> body = request.BodyJson();
  const json::object* meta = body ? ParamsMeta(*body) : nullptr;
  const json::value* asked_level = meta != nullptr ? meta->if_contains(kMetaLogLevel) : nullptr;
  const json::value* token = meta != nullptr ? meta->if_contains(kMetaProgressToken) : nullptr;
  std::optional<double> last_progress;
  for (const json::value& message : observation.messages) {
    if (!message.is_object()) continue;
    const json::object& object = message.get_object();
    const json::value* method = object.if_contains("method");
    if (method == nullptr || !method->is_string() || object.contains("id")) continue;
    static const json::object kNoParams;
    const json::object* params = ObjectMember(object, "params");
    if (params == nullptr) params = &kNoParams;
    if (method->get_string() == "notifications/message") {
      CheckLogMessage(*params, asked_level, request.revision, findings);
      continue;
    }
    if (method->get_string() != "notifications/progress") continue;
    const json::value* sent = params->if_contains(kMetaProgressToken);
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
    const json::value* progress = params->if_contains("progress");
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
