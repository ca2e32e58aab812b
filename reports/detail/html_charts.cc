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

std::string GrowthPlot(const std::vector<std::pair<std::size_t, std::size_t>>& steps,
                       std::size_t cases, const std::string& title) {
  if (steps.empty()) return "";
  constexpr int kLeft = 60;
  constexpr int kWidth = 420;
  constexpr int kHeight = 140;
  constexpr int kTop = 8;
  const std::size_t last_case = std::max(cases, steps.back().first);
  const double low = static_cast<double>(steps.front().second);
  const double high = static_cast<double>(steps.back().second);
  auto x = [&](std::size_t at) {
    return kLeft + kWidth * static_cast<double>(at) /
                       static_cast<double>(std::max<std::size_t>(last_case, 1));
  };
  // The first growth sits on the floor, the last at the top: the growth is what is drawn.
  auto y = [&](std::size_t count) {
    const double span = high > low ? high - low : 1.0;
    return kTop + kHeight - kHeight * (static_cast<double>(count) - low) / span;
  };
  std::string points;
  std::size_t previous = steps.front().second;
  for (const auto& [at, count] : steps) {
    points += Number(x(at)) + "," + Number(y(previous)) + " " + Number(x(at)) + "," +
              Number(y(count)) + " ";
    previous = count;
  }
  points += Number(x(last_case)) + "," + Number(y(previous));
  const int height = kTop + kHeight + 24;
  std::string svg = "<figure class=\"chart\"><figcaption>" + EscapeMarkup(title) +
                    "</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
                    "width=\"" +
                    std::to_string(kLeft + kWidth + 20) + "\" height=\"" + std::to_string(height) +
                    "\"><title>" + EscapeMarkup(title) + "</title>";
  svg +=
      "<polyline fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" points=\"" + points + "\"/>";
  svg += "<text x=\"0\" y=\"" + std::to_string(kTop + 10) + "\" font-size=\"12\">" + Number(high) +
         "</text><text x=\"0\" y=\"" + std::to_string(kTop + kHeight) + "\" font-size=\"12\">" +
         Number(low) + "</text>";
  svg += "<text x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(height - 4) +
         "\" font-size=\"12\">case 0</text><text x=\"" + std::to_string(kLeft + kWidth - 60) +
         "\" y=\"" + std::to_string(height - 4) + "\" font-size=\"12\">case " +
         std::to_string(last_case) + "</text>";
  return svg + "</svg></figure>";
}

}  // namespace mcpfuzz::reports::detail
