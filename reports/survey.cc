#include "reports/survey.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "oracles/check_ids.h"

namespace mcpfuzz::reports {
namespace {

enum class UnknownToolState { kNotChecked, kUnverified, kVerified, kRisk };

// A risk on any revision outweighs a verified answer on another: the server does give the
// wrong shape somewhere.
UnknownToolState Classify(const TargetSection& target, Channel& risk_channel) {
  UnknownToolState state = UnknownToolState::kNotChecked;
  for (const auto& item : target.items) {
    if (item.id != check::kUnknownTool) continue;
    const Verdict& verdict = item.verdict;
    if (verdict.kind == VerdictKind::kNotApplicable) continue;
    if (verdict.kind == VerdictKind::kUnverified) {
      if (state == UnknownToolState::kNotChecked) state = UnknownToolState::kUnverified;
    } else if (verdict.observed.channel == Channel::kProtocolError) {
      if (state != UnknownToolState::kRisk) state = UnknownToolState::kVerified;
    } else if (state != UnknownToolState::kRisk) {
      state = UnknownToolState::kRisk;
      risk_channel = verdict.observed.channel;
    }
  }
  return state;
}

// Each check once per server, by its worst verdict there, into `rows` (found by `index`).
void AddWorstVerdicts(const TargetSection& target, std::vector<SurveyCheckRow>& rows,
                      std::map<std::string, std::size_t>& index) {
  std::map<std::string, VerdictKind> worst;
  for (const auto& item : target.items) {
    auto [entry, inserted] = worst.emplace(item.id, item.verdict.kind);
    if (!inserted && Severity(item.verdict.kind) > Severity(entry->second)) {
      entry->second = item.verdict.kind;
    }
    if (index.emplace(item.id, rows.size()).second) rows.push_back({item.id, {}});
  }
  for (const auto& [id, kind] : worst) rows[index[id]].counts.Add(kind);
}

}  // namespace

std::string ServerInfoLabel(const std::optional<ServerInfo>& info) {
  if (!info) return std::string(kNoServerInfo);
  return info->name + " " + info->version;
}

SurveyTables Tabulate(const Report& report) {
  SurveyTables tables;
  std::map<std::string, std::size_t> rows;
  struct Group {
    ServerInfoGroup tables;
    std::map<std::string, std::size_t> rows;
    bool announced = false;
  };
  // Keyed by name and version, not by label: "a b" + "c" and "a" + "b c" are two servers.
  std::map<std::optional<std::pair<std::string, std::string>>, std::size_t> group_of;
  std::vector<Group> groups;
  for (const auto& target : report.targets) {
    AddWorstVerdicts(target, tables.per_check, rows);
    std::optional<std::pair<std::string, std::string>> key;
    if (target.server_info) key.emplace(target.server_info->name, target.server_info->version);
    auto [found, added] = group_of.emplace(key, groups.size());
    if (added)
      groups.push_back({{ServerInfoLabel(target.server_info), 0, {}}, {}, key.has_value()});
    Group& group = groups[found->second];
    ++group.tables.targets;
    AddWorstVerdicts(target, group.tables.per_check, group.rows);

    UnknownToolTable& unknown = tables.unknown_tool;
    Channel channel = Channel::kNoReply;
    switch (Classify(target, channel)) {
      case UnknownToolState::kNotChecked:
        ++unknown.not_checked;
        break;
      case UnknownToolState::kUnverified:
        ++unknown.unverified;
        break;
      case UnknownToolState::kVerified:
        ++unknown.verified;
        break;
      case UnknownToolState::kRisk:
        ++unknown.observed_risk;
        if (channel == Channel::kExecutionError) {
          ++unknown.is_error_result;
        } else if (channel == Channel::kSuccess) {
          ++unknown.result_without_is_error;
        } else if (channel == Channel::kNotJsonRpc) {
          ++unknown.not_json_rpc;
        } else {
          ++unknown.other_risk;
        }
        break;
    }
  }
  // In a group, a check's rows follow the survey's order of checks, so groups read alike.
  for (Group& group : groups) {
    std::vector<SurveyCheckRow>& own = group.tables.per_check;
    std::stable_sort(own.begin(), own.end(), [&rows](const auto& a, const auto& b) {
      return rows.at(a.id) < rows.at(b.id);
    });
  }
  std::stable_partition(groups.begin(), groups.end(),
                        [](const Group& group) { return group.announced; });
  for (Group& group : groups) tables.by_server_info.push_back(std::move(group.tables));
  return tables;
}

}  // namespace mcpfuzz::reports
