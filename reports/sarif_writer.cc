// SARIF 2.1.0 for code-scanning views. Members the schema requires are always present:
// sarifLog.version and runs, run.tool.driver.name, result.message.text. GitHub's upload also
// wants a physical location with a URI and a start line on every result, and shows a result
// only at a file of the repository: so each is placed at a repository path
// (reports/detail/sarif_location.h), and the target, which is no file, is named in its
// properties and logical location.

#include <map>

#include "model/pretty_json.h"
#include "reports/detail/sarif_location.h"
#include "reports/detail/server_info_json.h"
#include "reports/detail/stopped_early.h"
#include "reports/escape.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

namespace json = boost::json;

std::string TitleOf(const ReportItem& item) { return item.title.empty() ? item.id : item.title; }

// The target's name as a URI, for fingerprints: the address without its note, RFC 3986
// characters kept, the rest percent-encoded (spaces in a stdio command, bytes a user typed).
std::string AsUri(std::string text) {
  // "http://…/mcp (built-in reference server)": the note is not part of the address.
  if (auto space = text.find(" ("); space != std::string::npos) text.resize(space);
  if (text.starts_with("stdio: ")) text = "stdio:" + text.substr(7);
  static constexpr std::string_view kKept =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%";
  std::string out;
  for (char c : text) {
    if (kKept.find(c) != std::string_view::npos) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4U];
      out += kHex[byte & 0xFU];
    }
  }
  return out;
}

std::string Message(const ReportItem& item) {
  const Verdict& verdict = item.verdict;
  std::string text = std::string(ToString(verdict.kind)) + " " + item.id;
  if (!item.revision.empty()) text += " in " + item.revision + "/" + item.transport;
  text += ": expected " + verdict.expected.text + ", observed " + ObservedText(verdict.observed);
  if (!verdict.observed.excerpt.empty()) text += " \"" + verdict.observed.excerpt + "\"";
  for (const Finding& finding : verdict.findings) {
    text += ". ";
    text += ToString(finding.strength);
    text += ": " + finding.text;
  }
  return text;
}

json::object ResultJson(const ReportItem& item, std::size_t rule_index, const TargetSection& target,
                        const std::string& stable_name, const SarifOptions& options) {
  // The level is the verdict's, whatever --fail-on says: a WARN is a warning even where it
  // fails the run, a FAIL (or a crash or hang found again) an error even when a baseline
  // knows it.
  const bool error = item.verdict.kind != VerdictKind::kWarn;
  json::object properties{{"verdict", ToString(item.verdict.kind)},
                          {"strength", ToString(item.verdict.strength)},
                          {"revision", item.revision},
                          {"transport", item.transport},
                          {"expected", item.verdict.expected.text},
                          {"observed", ObservedText(item.verdict.observed)},
                          {"excerpt", item.verdict.observed.excerpt},
                          {"specReference", item.verdict.spec_reference}};
  if (!item.reproducer.empty()) properties["reproducer"] = item.reproducer;
  properties["target"] = target.description;
  if (!item.case_file.empty()) properties["caseFile"] = item.case_file;
  properties["failsRun"] = item.failing;
  if (item.known) properties["known"] = true;
  json::object location{
      {"physicalLocation", detail::SarifPhysicalLocation(item.case_file, options.root)},
      {"logicalLocations",
       json::array{{{"fullyQualifiedName", item.id + "@" + item.revision + "/" + item.transport},
                    {"kind", "member"}}}}};
  return {{"ruleId", item.id},
          {"ruleIndex", rule_index},
          {"kind", "fail"},
          {"level", error ? "error" : "warning"},
          {"message", {{"text", Message(item)}}},
          {"locations", json::array{location}},
          {"partialFingerprints",
           {{"mcpfuzzFinding/v1", item.id + "@" + item.revision + "/" + item.transport + "|" +
                                      stable_name + "|" + item.case_file}}},
          {"properties", std::move(properties)}};
}

json::object RuleJson(const ReportItem& item) {
  const std::string family = FamilyOf(item.id);
  return {{"id", item.id},
          {"name", item.id},
          {"shortDescription", {{"text", TitleOf(item)}}},
          {"fullDescription", {{"text", TitleOf(item) + " (MCP spec check " + item.id + ")"}}},
          {"help",
           {{"text", "Expected: " + item.verdict.expected.text +
                         ". Spec: " + item.verdict.spec_reference}}},
          {"defaultConfiguration", {{"level", "error"}}},
          {"properties", {{"tags", json::array{"mcp", family}}}}};
}

}  // namespace

void WriteSarif(const Report& report, std::ostream& out, const SarifOptions& options) {
  if (report.kind == ReportKind::kDiff) return WriteDiffSarif(report, out, options.root);
  json::array rules;
  json::array results;
  std::map<std::string, std::size_t> rule_index;
  for (const auto& target : report.targets) {
    const std::string stable_name =
        AsUri(target.stable_name.empty() ? target.description : target.stable_name);
    for (const auto& item : target.items) {
      if (!WorthShowing(item)) continue;
      auto [found, added] = rule_index.emplace(item.id, rules.size());
      if (added) rules.push_back(RuleJson(item));
      results.push_back(ResultJson(item, found->second, target, stable_name, options));
    }
  }
  json::object driver{{"name", "mcpfuzz"},
                      {"version", report.tool_version},
                      {"informationUri", "https://modelcontextprotocol.io/specification"},
                      {"rules", std::move(rules)}};
  json::object run{
      {"tool", {{"driver", std::move(driver)}}},
      {"automationDetails", {{"id", "mcpfuzz/" + std::string(ToString(report.kind)) + "/"}}},
      {"invocations", json::array{detail::SarifInvocation(report)}},
      {"results", std::move(results)}};
  // What the targets announced is the server's word about itself, not the tool's: a run
  // property, never the driver (which is mcpfuzz).
  json::array announced;
  bool any = false;
  for (const auto& target : report.targets) {
    any = any || target.server_info.has_value();
    announced.push_back({{"name", target.description},
                         {"serverInfo", detail::ServerInfoToJson(target.server_info)}});
  }
  if (any) run["properties"] = {{"targets", std::move(announced)}};
  detail::AddStoppedEarlySarif(report, run);
  json::value log = json::object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                                 {"version", "2.1.0"},
                                 {"runs", json::array{std::move(run)}}};
  MakeJsonStringsValidUtf8(log);
  out << PrettyJson(log);
}

}  // namespace mcpfuzz::reports
