#pragma once
// The findings of the HTML report, first on the page: one card per check, gathering every
// revision and transport in which it failed or warned, strongest rule first, with what differs
// between the expected and the observed answer marked.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reports/report.h"

namespace mcpfuzz::reports::detail {

/// The column of the matrix an item belongs to: "2025-11-25/http", or "unknown".
std::string ColumnOf(const ReportItem& item);

/// Where each finding's card is: (check id, column) → the element id of its first occurrence.
using FindingAnchors = std::map<std::pair<std::string, std::string>, std::string>;

/// The cards of every item worth showing (reports/report.h WorthShowing), grouped by check.
/// Element ids are "finding-N", N counting on from `next_index` across the whole page; the
/// anchors of the cards written are added to `anchors`.
std::string FindingCards(const std::vector<ReportItem>& items, std::size_t& next_index,
                         FindingAnchors& anchors);

}  // namespace mcpfuzz::reports::detail
