#include "reports/baseline.h"

namespace mcpfuzz::reports {
namespace {

constexpr std::string_view kFormat = "mcpfuzz-baseline";
constexpr std::int64_t kVersion = 1;

Error Invalid(const std::string& what) { return Error{"invalid baseline: " + what}; }

}  // namespace

std::string ToString(const BaselineEntry& entry) {
  if (!entry.signature.empty()) return entry.signature;
  return entry.id + "@" + std::string(mcpfuzz::ToString(entry.revision)) + "/" +
         std::string(mcpfuzz::ToString(entry.transport));
}

boost::json::value BaselineToJson(const Baseline& baseline) {
  boost::json::array entries;
  for (const auto& entry : baseline.known_failures) {
    entries.push_back({{"id", entry.id},
                       {"revision", mcpfuzz::ToString(entry.revision)},
                       {"transport", mcpfuzz::ToString(entry.transport)}});
  }
  boost::json::object json{
      {"format", kFormat}, {"version", kVersion}, {"known_failures", std::move(entries)}};
  if (!baseline.known_findings.empty()) {
    boost::json::array findings;
    for (const auto& entry : baseline.known_findings) {
      findings.push_back({{"id", entry.id}, {"signature", entry.signature}});
    }
    json["known_findings"] = std::move(findings);
  }
  return json;
}

Result<Baseline> BaselineFromJson(const boost::json::value& json) {
  const auto* object = json.if_object();
  if (object == nullptr) return Invalid("not a JSON object");
  const auto* format = object->if_contains("format");
  if (format == nullptr || !format->is_string() || format->as_string() != kFormat) {
    return Invalid("\"format\" must be \"mcpfuzz-baseline\"");
  }
  const auto* version = object->if_contains("version");
  if (version == nullptr || !version->is_int64() || version->as_int64() != kVersion) {
    return Invalid("\"version\" must be 1");
  }
  const auto* entries = object->if_contains("known_failures");
  if (entries == nullptr || !entries->is_array())
    return Invalid("\"known_failures\" must be an array");
  Baseline baseline;
  for (const auto& item : entries->as_array()) {
    const auto* entry = item.if_object();
    const auto string = [&](std::string_view key) -> const boost::json::string* {
      const auto* member = entry ? entry->if_contains(key) : nullptr;
      return member != nullptr && member->is_string() ? &member->as_string() : nullptr;
    };
    const auto* id = string("id");
    const auto* revision_text = string("revision");
    const auto* transport = string("transport");
    auto revision = revision_text ? ParseRevision(*revision_text) : std::nullopt;
    if (id == nullptr || !revision || transport == nullptr ||
        (*transport != "http" && *transport != "stdio")) {
      return Invalid("each entry needs \"id\", a known \"revision\" and \"transport\" http|stdio");
    }
    baseline.known_failures.push_back(
        {std::string(*id), *revision,
         *transport == "http" ? TransportKind::kHttp : TransportKind::kStdio, ""});
  }
  if (const auto* findings = object->if_contains("known_findings")) {
    if (!findings->is_array()) return Invalid("\"known_findings\" must be an array");
    for (const auto& item : findings->as_array()) {
      const auto* entry = item.if_object();
      const auto* id = entry ? entry->if_contains("id") : nullptr;
      const auto* signature = entry ? entry->if_contains("signature") : nullptr;
      if (id == nullptr || !id->is_string() || signature == nullptr || !signature->is_string() ||
          signature->as_string().empty()) {
        return Invalid("each known finding needs \"id\" and a \"signature\"");
      }
      BaselineEntry known;
      known.id = std::string(id->as_string());
      known.signature = std::string(signature->as_string());
      baseline.known_findings.push_back(std::move(known));
    }
  }
  return baseline;
}

}  // namespace mcpfuzz::reports
