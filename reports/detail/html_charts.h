#pragma once
// Inline SVG charts for the HTML report: no script, no external asset, text escaped.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "reports/report.h"

namespace mcpfuzz::reports::detail {

/// The CSS class and colour of a verdict: "fail", "#cf222e".
std::string VerdictClass(VerdictKind kind);
std::string VerdictColour(VerdictKind kind);

/// One horizontal bar per verdict kind, labelled with its count.
std::string VerdictBars(const VerdictCounts& counts, const std::string& title);

/// One stacked bar per group (a family, a revision), segments by verdict, total at the end.
std::string StackedBars(const std::vector<std::pair<std::string, VerdictCounts>>& groups,
                        const std::string& title);

/// How a count grew over a run: `steps` of (cases, count), one per growth, drawn as a step line
/// from the first case to `cases`, the axes labelled with the first and last values.
std::string GrowthPlot(const std::vector<std::pair<std::size_t, std::size_t>>& steps,
                       std::size_t cases, const std::string& title);
}  // namespace mcpfuzz::reports::detail
