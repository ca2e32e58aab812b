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

// A server's verdict on each check: its worst in any revision.
std::map<std::string, VerdictKind> WorstPerCheck(const TargetSection& target) {
  std::map<std::string, VerdictKind> worst;
  for (const auto& item : target.items) {
    auto [entry, inserted] = worst.emplace(item.id, item.verdict.kind);
    if (!inserted && Severity(item.verdict.kind) > Severity(entry->second)) {
      entry->second = item.verdict.kind;
    }
  }
  return worst;
}

// Each check once per server, by `worst`, into `rows` (found by `index`) in the order met.
void AddWorstVerdicts(const TargetSection& target, const std::map<std::string, VerdictKind>& worst,
                      std::vector<SurveyCheckRow>& rows,
                      std::map<std::string, std::size_t>& index) {
  for (const auto& item : target.items) {
    if (index.emplace(item.id, rows.size()).second) rows.push_back({item.id, {}});
  }
  for (const auto& [id, kind] : worst) rows[index[id]].counts.Add(kind);
}

}  // namespace

std::string CensusText(const SurveyCensus& census) {
  return std::to_string(census.targets) + " targets, " + std::to_string(census.reached) +
         " reached, " + std::to_string(census.with_fail) + " with a FAIL, " +
         std::to_string(census.not_judged) + " not judged";
}

std::string ServerName(const TargetSection& target) {
  if (!target.server_info) return target.description;
  std::string name = target.server_info->name;
  if (!target.server_info->version.empty()) name += " " + target.server_info->version;
  return name.empty() ? target.description : name;
}

// As `check` decides a target is unreachable: every era question ended in a transport failure.
bool Reached(const TargetSection& target) {
  if (!target.items.empty() || target.server_info) return true;
  return std::any_of(
      target.eras.attempts.begin(), target.eras.attempts.end(),
      [](const EraAttempt& attempt) { return attempt.channel != Channel::kTransportFailure; });
}

std::string InheritedText(const ServerRow& row, const FingerprintTable& fingerprints) {
  if (row.inherited.empty()) return "";
  // Counted in layer order, so a tie goes to the lower layer.
  std::string best;
  int most = 0;
  for (const KnownSdk& sdk : fingerprints.sdks) {
    const int count = static_cast<int>(
        std::count_if(row.inherited.begin(), row.inherited.end(), [&](const InheritedCheck& check) {
          return std::find(check.sdks.begin(), check.sdks.end(), sdk.id) != check.sdks.end();
        }));
    if (count > most) {
      most = count;
      best = sdk.name;
    }
  }
  return best + " (" + std::to_string(most) + " of " +
         std::to_string(row.fail_checks + row.warn_checks) + ")";
}

SurveyTables Tabulate(const Report& report, const FingerprintTable& fingerprints) {
  SurveyTables tables;
  std::map<std::string, std::size_t> rows;
  std::map<std::string, std::size_t> deviating;
  for (std::size_t t = 0; t < report.targets.size(); ++t) {
    const TargetSection& target = report.targets[t];
    const std::map<std::string, VerdictKind> worst = WorstPerCheck(target);
    AddWorstVerdicts(target, worst, tables.per_check, rows);

    ServerRow server;
    server.target = t;
    server.name = ServerName(target);
    server.announced = target.server_info.has_value() && server.name != target.description;
    server.reached = Reached(target);
    for (const auto& [id, kind] : worst) {
      if (kind != VerdictKind::kFail && kind != VerdictKind::kWarn) continue;
      (kind == VerdictKind::kFail ? server.fail_checks : server.warn_checks) += 1;
      auto [found, added] = deviating.emplace(id, tables.deviating.size());
      if (added) tables.deviating.push_back({id, {}, {}});
      DeviatingCheck& row = tables.deviating[found->second];
      (kind == VerdictKind::kFail ? row.failing : row.warning).push_back(t);
    }
    server.inherited = LikelyInherited(target, fingerprints);

    ++tables.census.targets;
    if (server.reached) ++tables.census.reached;
    if (server.fail_checks > 0) ++tables.census.with_fail;
    if (!target.error.empty()) ++tables.census.not_judged;
    tables.servers.push_back(std::move(server));

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
  std::stable_sort(tables.deviating.begin(), tables.deviating.end(),
                   [](const DeviatingCheck& a, const DeviatingCheck& b) {
                     if (a.failing.size() != b.failing.size())
                       return a.failing.size() > b.failing.size();
                     return a.warning.size() > b.warning.size();
                   });
  return tables;
}

}  // namespace mcpfuzz::reports
