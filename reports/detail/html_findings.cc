#include "reports/detail/html_findings.h"

#include <algorithm>

#include "model/pretty_json.h"
#include "reports/detail/html_charts.h"
#include "reports/escape.h"

namespace mcpfuzz::reports::detail {
namespace {

std::string H(std::string_view text) { return EscapeMarkup(text); }

int StrengthRank(Strength strength) {
  return strength == Strength::kMust ? 0 : strength == Strength::kShould ? 1 : 2;
}

std::string Capped(std::string text, std::size_t limit) {
  if (text.size() > limit) {
    text.resize(limit);
    text += "\n… (cut here; the JSON report has all of it)";
  }
  return text;
}

bool HasAspect(const Verdict& verdict, Aspect aspect) {
  return std::any_of(verdict.findings.begin(), verdict.findings.end(),
                     [&](const Finding& finding) { return finding.aspect == aspect; });
}

template <typename List, typename Each>
std::string Joined(const List& list, Each each, const char* empty) {
  std::string text;
  for (const auto& value : list) text += (text.empty() ? "" : ", ") + each(value);
  return text.empty() ? empty : text;
}

// Expected and observed, aspect by aspect; the rows whose aspect a problem names are marked,
// so the eye finds what differs without reading the notes.
std::string Comparison(const Verdict& verdict) {
  const ExpectedAnswer& expected = verdict.expected;
  const ObservedAnswer& observed = verdict.observed;
  const bool http = observed.http_status != 0 || !expected.http_statuses.empty();
  auto row = [&](const char* aspect_name, Aspect aspect, const std::string& want,
                 const std::string& got) {
    const bool differs = HasAspect(verdict, aspect);
    return std::string("<tr") + (differs ? " class=\"differs\"" : "") + "><th>" + aspect_name +
           "</th><td>" + H(want) + "</td><td>" + H(got) + (differs ? " ✗" : "") + "</td></tr>";
  };
  std::string channels = Joined(
      expected.channels, [](Channel channel) { return std::string(ToString(channel)); }, "any");
  if (!expected.tolerated.empty()) {
    channels += " (tolerated: " +
                Joined(
                    expected.tolerated,
                    [](Channel channel) { return std::string(ToString(channel)); }, "") +
                ")";
  }
  std::string codes = Joined(
      expected.codes, [](std::int64_t code) { return std::to_string(code); }, "any");
  if (!expected.forbidden_codes.empty()) {
    codes +=
        " (not " +
        Joined(
            expected.forbidden_codes, [](std::int64_t code) { return std::to_string(code); }, "") +
        ")";
  }
  std::string html =
      "<table class=\"compare\"><tr><th></th><th>expected</th><th>observed</th></tr>";
  html += row("channel", Aspect::kChannel, channels, std::string(ToString(observed.channel)));
  html += row("code", Aspect::kCode, codes,
              observed.code ? std::to_string(*observed.code) : std::string("none"));
  if (http) {
    html +=
        row("HTTP status", Aspect::kHttpStatus,
            Joined(
                expected.http_statuses, [](StatusRange range) { return ToString(range); }, "any"),
            observed.http_status ? std::to_string(observed.http_status) : "none");
  }
  for (Aspect aspect : {Aspect::kData, Aspect::kShape, Aspect::kEnvelope, Aspect::kLeak}) {
    if (!HasAspect(verdict, aspect)) continue;
    std::string want = "as the spec says";
    if (aspect == Aspect::kData) {
      want = Joined(
          expected.data_members, [](const std::string& member) { return member; }, "-");
    }
    html += row(std::string(ToString(aspect)).c_str(), aspect, want, "see below");
  }
  return html + "</table>";
}

std::string Occurrence(const ReportItem& item, const std::string& id, bool label_verdict) {
  const Verdict& verdict = item.verdict;
  std::string html = "<div class=\"occurrence\" id=\"" + id + "\"><h4>";
  if (label_verdict) {
    html += "<span class=\"" + VerdictClass(verdict.kind) + "\">" +
            std::string(ToString(verdict.kind)) + "</span> ";
  }
  html += H(ColumnOf(item)) + "</h4>" + Comparison(verdict);
  html += "<p class=\"said\">expected: " + H(verdict.expected.text) +
          "<br>observed: " + H(ObservedText(verdict.observed)) + "</p>";
  if (!verdict.observed.excerpt.empty()) {
    html += "<pre class=\"excerpt\">" + H(verdict.observed.excerpt) + "</pre>";
  }
  html += "<ul>";
  for (const auto& finding : verdict.findings) {
    html += "<li>" + std::string(ToString(finding.strength)) + ": " + H(finding.text) + "</li>";
  }
  for (const auto& note : verdict.notes) html += "<li>note: " + H(Capped(note, 600)) + "</li>";
  for (const auto& [name, value] : item.facts) html += "<li>" + H(name) + ": " + H(value) + "</li>";
  if (!item.case_file.empty()) html += "<li>case file: " + H(item.case_file) + "</li>";
  html += "</ul><p class=\"meta\">spec: <span class=\"spec\">" + H(verdict.spec_reference) +
          "</span></p>";
  if (!item.reproducer.empty()) {
    html += "<p>reproduce <button type=\"button\" data-copy=\"" + id +
            "-repro\">Copy</button></p><pre class=\"repro\" id=\"" + id + "-repro\">" +
            H(item.reproducer) + "</pre>";
  }
  if (item.judged < item.exchanges.size()) {
    const auto& exchange = item.exchanges[item.judged];
    html += "<details><summary>request and observation</summary><pre>" +
            H(Capped(PrettyJson(exchange.request) + PrettyJson(exchange.observation), 16384)) +
            "</pre></details>";
  }
  return html + "</div>";
}

struct Group {
  std::string id;
  std::vector<const ReportItem*> items;
  VerdictKind worst = VerdictKind::kWarn;
  Strength strongest = Strength::kMay;
};

// Strongest rule first, then FAIL before WARN, then the check failing in most places.
bool Before(const Group& a, const Group& b) {
  if (StrengthRank(a.strongest) != StrengthRank(b.strongest)) {
    return StrengthRank(a.strongest) < StrengthRank(b.strongest);
  }
  if (Severity(a.worst) != Severity(b.worst)) return Severity(a.worst) > Severity(b.worst);
  if (a.items.size() != b.items.size()) return a.items.size() > b.items.size();
  return a.id < b.id;
}

}  // namespace

std::string ColumnOf(const ReportItem& item) {
  return item.revision.empty() ? "unknown" : item.revision + "/" + item.transport;
}

std::string FindingCards(const std::vector<ReportItem>& items, std::size_t& next_index,
                         FindingAnchors& anchors) {
  std::vector<Group> groups;
  for (const auto& item : items) {
    if (!WorthShowing(item)) continue;
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.id == item.id; });
    if (group == groups.end()) group = groups.insert(groups.end(), Group{item.id, {}, {}, {}});
    if (group->items.empty() || Severity(item.verdict.kind) > Severity(group->worst)) {
      group->worst = item.verdict.kind;
    }
    if (group->items.empty() ||
        StrengthRank(item.verdict.strength) < StrengthRank(group->strongest)) {
      group->strongest = item.verdict.strength;
    }
    group->items.push_back(&item);
  }
  std::stable_sort(groups.begin(), groups.end(), Before);

  std::string html;
  for (const Group& group : groups) {
    const ReportItem& first = *group.items.front();
    const bool mixed = std::any_of(group.items.begin(), group.items.end(), [&](const auto* item) {
      return item->verdict.kind != first.verdict.kind;
    });
    std::vector<std::string> ids;
    for (const ReportItem* item : group.items) {
      ids.push_back("finding-" + std::to_string(next_index++));
      anchors.emplace(std::make_pair(item->id, ColumnOf(*item)), ids.back());
    }
    html += "<article class=\"finding v-" + VerdictClass(group.worst) + "\" data-check=\"" +
            H(group.id) + "\"><h3><span class=\"" + VerdictClass(group.worst) + "\">" +
            std::string(ToString(group.worst)) + "</span> " + H(group.id) + " <small>(" +
            std::string(ToString(group.strongest)) + ")</small>";
    if (!first.title.empty()) html += " <small class=\"meta\">" + H(first.title) + "</small>";
    html += "</h3><p class=\"where\">" + std::to_string(group.items.size()) +
            (group.items.size() == 1 ? " place: " : " places: ");
    for (std::size_t i = 0; i < group.items.size(); ++i) {
      html += (i ? ", " : "") + std::string("<a href=\"#") + ids[i] + "\">" +
              H(ColumnOf(*group.items[i])) + "</a>";
    }
    html += "</p>";
    for (std::size_t i = 0; i < group.items.size(); ++i) {
      html += Occurrence(*group.items[i], ids[i], mixed);
    }
    html += "</article>";
  }
  return html;
}

}  // namespace mcpfuzz::reports::detail
