#include "reports/survey.h"

#include <map>

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

}  // namespace

SurveyTables Tabulate(const Report& report) {
  SurveyTables tables;
  std::map<std::string, std::size_t> rows;
  for (const auto& target : report.targets) {
    std::map<std::string, VerdictKind> worst;
    for (const auto& item : target.items) {
      auto [entry, inserted] = worst.emplace(item.id, item.verdict.kind);
      if (!inserted && Severity(item.verdict.kind) > Severity(entry->second)) {
        entry->second = item.verdict.kind;
      }
      if (rows.emplace(item.id, tables.per_check.size()).second) {
        tables.per_check.push_back({item.id, {}});
      }
    }
    for (const auto& [id, kind] : worst) tables.per_check[rows[id]].counts.Add(kind);

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
  return tables;
}

}  // namespace mcpfuzz::reports
