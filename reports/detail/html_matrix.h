#pragma once
// The matrices of the HTML report: checks × revisions of one target, with the checks that only
// pass or do not apply folded away, each FAIL and WARN cell a link to its finding, and the
// controls the page's script drives (a text filter, a "show only failing" switch).

#include <string>

#include "reports/detail/html_findings.h"
#include "reports/report.h"

namespace mcpfuzz::reports::detail {

/// Checks × revisions of one target. `scope` makes the element ids unique on the page.
std::string Matrix(const TargetSection& target, const FindingAnchors& anchors,
                   const std::string& scope);

}  // namespace mcpfuzz::reports::detail
