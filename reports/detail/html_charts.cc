#include "reports/detail/html_charts.h"

#include <algorithm>

#include "reports/escape.h"

namespace mcpfuzz::reports::detail {
namespace {

constexpr int kLabelWidth = 190;
constexpr int kBarWidth = 300;
constexpr int kRowHeight = 22;

std::string Number(double value) { return std::to_string(static_cast<long long>(value + 0.5)); }

std::string Open(int height, const std::string& title) {
  const int width = kLabelWidth + kBarWidth + 60;
  return "<figure class=\"chart\"><figcaption>" + EscapeMarkup(title) +
         "</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
         std::to_string(width) + " " + std::to_string(height) + "\"><title>" + EscapeMarkup(title) +
         "</title>";
}

std::string Label(int y, const std::string& text) {
  return "<text x=\"0\" y=\"" + std::to_string(y + 15) + "\" font-size=\"12\">" +
         EscapeMarkup(text) + "</text>";
}

std::string Rect(double x, int y, double width, const std::string& colour, const std::string& tip) {
  return "<rect x=\"" + Number(x) + "\" y=\"" + std::to_string(y + 3) + "\" width=\"" +
         Number(width) + "\" height=\"16\" fill=\"" + colour + "\"><title>" + EscapeMarkup(tip) +
         "</title></rect>";
}

std::string Total(double x, int y, int value) {
  return "<text x=\"" + Number(x + 6) + "\" y=\"" + std::to_string(y + 15) +
         "\" font-size=\"12\">" + std::to_string(value) + "</text>";
}

}  // namespace

std::string VerdictClass(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kFail:
      return "fail";
    case VerdictKind::kWarn:
      return "warn";
    case VerdictKind::kUnverified:
      return "unverified";
    case VerdictKind::kPass:
      return "pass";
    case VerdictKind::kNotApplicable:
      return "na";
  }
  return "na";
}

std::string VerdictColour(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kFail:
      return "#cf222e";
    case VerdictKind::kWarn:
      return "#bf8700";
    case VerdictKind::kUnverified:
      return "#8250df";
    case VerdictKind::kPass:
      return "#1a7f37";
    case VerdictKind::kNotApplicable:
      return "#8c959f";
  }
  return "#8c959f";
}

std::string VerdictBars(const VerdictCounts& counts, const std::string& title) {
  int most = 1;
  for (VerdictKind kind : kVerdictOrder) most = std::max(most, counts.Of(kind));
  const int rows = static_cast<int>(std::size(kVerdictOrder));
  std::string svg = Open(rows * kRowHeight + 4, title);
  int y = 0;
  for (VerdictKind kind : kVerdictOrder) {
    const int value = counts.Of(kind);
    const double width = static_cast<double>(kBarWidth) * value / most;
    const std::string name(ToString(kind));
    svg += Label(y, name);
    svg += Rect(kLabelWidth, y, width, VerdictColour(kind), name + ": " + std::to_string(value));
    svg += Total(kLabelWidth + width, y, value);
    y += kRowHeight;
  }
  return svg + "</svg></figure>";
}

std::string StackedBars(const std::vector<std::pair<std::string, VerdictCounts>>& groups,
                        const std::string& title) {
  int most = 1;
  for (const auto& group : groups) most = std::max(most, group.second.Total());
  std::string svg = Open(static_cast<int>(groups.size()) * kRowHeight + 4, title);
  int y = 0;
  for (const auto& [name, counts] : groups) {
    svg += Label(y, name);
    double x = kLabelWidth;
    for (VerdictKind kind : kVerdictOrder) {
      const int value = counts.Of(kind);
      if (value == 0) continue;
      const double width = static_cast<double>(kBarWidth) * value / most;
      svg += Rect(x, y, width, VerdictColour(kind),
                  name + " " + std::string(ToString(kind)) + ": " + std::to_string(value));
      x += width;
    }
    svg += Total(x, y, counts.Total());
    y += kRowHeight;
  }
  return svg + "</svg></figure>";
}

}  // namespace mcpfuzz::reports::detail
