#pragma once
// A verdict as JSON: the one form every document mcpfuzz writes uses for it — check, replay
// and survey reports (docs/report-format.md), fuzz reports and case files alike.

#include <boost/json/object.hpp>
#include <optional>
#include <string_view>

#include "model/result.h"
#include "oracles/verdict.h"

namespace mcpfuzz {

/// Adds the verdict's members to `out`, in this order: "verdict", "strength", "expected"
/// (text, channels, tolerated_channels, codes, forbidden_codes, http_statuses,
/// tolerated_http_statuses, data_members), "observed" (outcome, channel, excerpt, code,
/// http_status; null when there is none), "spec_ref", "notes", "unverified_reason" (when there
/// is one) and "findings" (aspect, strength, text). The check id is the caller's: a report
/// item calls it "id", a case file "check_id".
void AddVerdictJson(const Verdict& verdict, boost::json::object& out);

/// The verdict AddVerdictJson wrote into `in` (check_id left empty: it is the caller's), for
/// reports read back (`mcpfuzz merge`). An error names the first member it could not read.
Result<Verdict> VerdictFromJson(const boost::json::object& in);

/// The channel ToString(Channel) names `text`; nothing for another text.
std::optional<Channel> ChannelNamed(std::string_view text);

}  // namespace mcpfuzz
