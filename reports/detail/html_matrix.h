#pragma once
// The matrices of the HTML report: checks × revisions of one target, with the checks that only
// pass or do not apply folded away, each FAIL and WARN cell a link to its finding, and the
// controls the page's script drives (a text filter, a "show only failing" switch); and for a
// survey, servers × checks.

#include <string>

#include "reports/detail/html_findings.h"
#include "reports/report.h"

namespace mcpfuzz::reports::detail {

/// Checks × revisions of one target. `scope` makes the element ids unique on the page.
std::string Matrix(const TargetSection& target, const FindingAnchors& anchors,
                   const std::string& scope);

/// Servers × the checks on which some server did not pass, each cell coloured by its verdict.
std::string SurveyGrid(const Report& report);

}  // namespace mcpfuzz::reports::detail
