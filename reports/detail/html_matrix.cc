#include "reports/detail/html_matrix.h"

#include <algorithm>
#include <map>

#include "reports/detail/html_charts.h"
#include "reports/escape.h"

namespace mcpfuzz::reports::detail {
namespace {

std::string H(std::string_view text) { return EscapeMarkup(text); }

bool Quiet(VerdictKind kind) {
  return kind == VerdictKind::kPass || kind == VerdictKind::kNotApplicable;
}

void Worst(std::map<std::pair<std::string, std::string>, VerdictKind>& cells,
           const std::string& row, const std::string& column, VerdictKind kind) {
  auto [cell, added] = cells.emplace(std::make_pair(row, column), kind);
  if (!added && Severity(kind) > Severity(cell->second)) cell->second = kind;
}

}  // namespace

std::string Matrix(const TargetSection& target, const FindingAnchors& anchors,
                   const std::string& scope) {
  std::vector<std::string> columns;
  std::vector<std::string> rows;
  std::map<std::pair<std::string, std::string>, VerdictKind> cells;
  for (const auto& item : target.items) {
    const std::string column = ColumnOf(item);
    if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
      columns.push_back(column);
    }
    if (std::find(rows.begin(), rows.end(), item.id) == rows.end()) rows.push_back(item.id);
    Worst(cells, item.id, column, item.verdict.kind);
  }
  std::sort(columns.begin(), columns.end(), std::greater<>());

  std::string head = "<tr><th>check</th>";
  for (const auto& column : columns) head += "<th>" + H(column) + "</th>";
  head += "</tr>";
  std::string loud, quiet;
  std::size_t quiet_rows = 0;
  for (const auto& row : rows) {
    bool all_quiet = true;
    bool failing = false;
    std::string cells_html;
    for (const auto& column : columns) {
      auto found = cells.find({row, column});
      if (found == cells.end()) {
        cells_html += "<td class=\"none\">-</td>";
        continue;
      }
      const VerdictKind kind = found->second;
      all_quiet = all_quiet && Quiet(kind);
      failing = failing || kind == VerdictKind::kFail || kind == VerdictKind::kWarn;
      const std::string name(ToString(kind));
      auto anchor = anchors.find({row, column});
      cells_html +=
          "<td class=\"" + VerdictClass(kind) + "\">" +
          (anchor == anchors.end() ? name
                                   : "<a href=\"#" + anchor->second + "\">" + name + "</a>") +
          "</td>";
    }
    const std::string line = "<tr data-check=\"" + H(row) + "\" data-state=\"" +
                             (failing     ? "failing"
                              : all_quiet ? "passing"
                                          : "other") +
                             "\"><td>" + H(row) + "</td>" + cells_html + "</tr>";
    if (all_quiet) {
      quiet += line;
      ++quiet_rows;
    } else {
      loud += line;
    }
  }
  std::string html = "<div class=\"controls\" data-matrix=\"" + scope +
                     "\"><label>filter checks <input type=\"search\" class=\"filter\" "
                     "placeholder=\"tools.unknown\"></label> <label><input type=\"checkbox\" "
                     "class=\"only-failing\"> show only failing</label></div>";
  html += "<div class=\"matrix\" id=\"" + scope + "-matrix\">";
  if (!loud.empty()) html += "<table class=\"matrix\">" + head + loud + "</table>";
  if (quiet_rows > 0) {
    html += "<details class=\"quiet\"><summary>" + std::to_string(quiet_rows) +
            (quiet_rows == 1 ? " check" : " checks") +
            " that pass or do not apply everywhere</summary><table class=\"matrix\">" + head +
            quiet + "</table></details>";
  }
  return html + "</div>";
}

}  // namespace mcpfuzz::reports::detail
