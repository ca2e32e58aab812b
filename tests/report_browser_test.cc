// The HTML report rendered by a real browser: headless Chromium loads it from a file:// URL
// with networking disabled, dumps the DOM it built (so the key figures must be there after
// parsing, not just in the bytes) and takes a screenshot that must not be blank.
//
// Chromium: tests/support/chromium.h.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/reproducer.h"
#include "reports/writers.h"
#include "support/chromium.h"
#include "support/processes.h"
#include "support/report_fixtures.h"

namespace mcpfuzz::test_support {
namespace {

namespace fs = std::filesystem;

class ReportBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (chromium_.empty()) {
      GTEST_SKIP() << "chromium is not installed; scripts/bootstrap.sh installs the Debian "
                      "packages chromium and chromium-driver";
    }
    dir_ = fs::temp_directory_path() / ("mcpfuzz-browser-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }

  std::string chromium_;
  fs::path dir_;
};

TEST_F(ReportBrowser, RendersTheReportWithItsKeyFigures) {
  const reports::Report report = HostileCheckReport();
  const fs::path page = dir_ / "report.html";
  {
    std::ofstream file(page);
    reports::WriteHtml(report, file);
  }
  const std::string url = "file://" + page.string();

  const Rendered dom = RunChromium(chromium_, dir_ / "profile", "--dump-dom", url);
  ASSERT_EQ(dom.exit_code, 0) << dom.output.substr(0, 2000);
  const reports::VerdictCounts counts = reports::Count(report);
  // The figures as the browser's DOM holds them after parsing the page.
  for (VerdictKind kind : reports::kVerdictOrder) {
    const std::string figure = "data-figure=\"t0-" + std::string(ToString(kind)) + "\">" +
                               std::to_string(counts.Of(kind)) + "</b>";
    EXPECT_NE(dom.output.find(figure), std::string::npos) << figure;
  }
  EXPECT_NE(dom.output.find("Checks × revisions"), std::string::npos);
  EXPECT_NE(dom.output.find("<svg"), std::string::npos);
  EXPECT_NE(dom.output.find("<h4>2025-11-25/http</h4>"), std::string::npos);
  // The hostile excerpt is text in the DOM, not an element: no script ran, none was added.
  EXPECT_NE(dom.output.find("&lt;script&gt;alert("), std::string::npos);
  EXPECT_EQ(dom.output.find("<script>alert("), std::string::npos);

  const fs::path shot = dir_ / "report.png";
  const Rendered screenshot =
      RunChromium(chromium_, dir_ / "profile", "--screenshot=" + shot.string(), url);
  ASSERT_EQ(screenshot.exit_code, 0);
  ASSERT_TRUE(fs::exists(shot));
  // A blank page of the same size compresses to a few kilobytes; the report, with its charts,
  // tables and text, to many times that.
  const fs::path blank_page = dir_ / "blank.html";
  std::ofstream(blank_page) << "<!DOCTYPE html><html><body></body></html>";
  const fs::path blank = dir_ / "blank.png";
  ASSERT_EQ(RunChromium(chromium_, dir_ / "profile", "--screenshot=" + blank.string(),
                        "file://" + blank_page.string())
                .exit_code,
            0);
  std::ifstream png(shot, std::ios::binary);
  char signature[8] = {};
  png.read(signature, sizeof signature);
  EXPECT_EQ(std::string(signature, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(fs::file_size(shot), 20000U);
  EXPECT_GT(fs::file_size(shot), 4 * fs::file_size(blank))
      << "the screenshot is hardly bigger than one of a blank page";
}

// What a person sees and can do on the page, measured by a probe script appended to a copy of
// it (the page's CSP admits inline scripts): where the first finding is at 1400×900, whether
// every link inside the page has a target, and which matrix rows stay visible when the filter
// is typed into and the "show only failing" switch is turned on, through the page's own
// event handlers.
constexpr const char* kProbe = R"(<script>
(function () {
  // Hidden by the page's script, or folded in a closed <details>.
  function shown(row) {
    var fold = row.closest('details');
    return !row.hidden && row.getClientRects().length > 0 && (!fold || fold.open) &&
        !(fold && fold.hidden);
  }
  function names(rows) {
    return rows.filter(shown).map(function (row) { return row.dataset.check + ':' + row.dataset.state; });
  }
  var result = {viewport: window.innerHeight, broken: [], links: 0, cellLinks: 0};
  var first = document.querySelector('article.finding');
  result.firstFinding = first ? first.getBoundingClientRect().top + window.scrollY : -1;
  document.querySelectorAll('a[href^="#"]').forEach(function (a) {
    result.links++;
    if (!document.getElementById(a.getAttribute('href').slice(1))) result.broken.push(a.getAttribute('href'));
  });
  result.cellLinks = document.querySelectorAll('table.matrix td a').length;
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr[data-check]'));
  result.rows = rows.length;
  result.atFirst = names(rows);
  var filter = document.querySelector('.controls .filter');
  filter.value = 'unknown-name';
  filter.dispatchEvent(new Event('input'));
  result.filtered = names(rows);
  filter.value = '';
  filter.dispatchEvent(new Event('input'));
  var only = document.querySelector('.controls .only-failing');
  only.checked = true;
  only.dispatchEvent(new Event('change'));
  result.onlyFailing = names(rows);
  var out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
})();
</script>)";

std::string Unescape(std::string text) {
  for (const auto& [entity, plain] :
       {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}}) {
    for (auto at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1)) {
      text.replace(at, entity.size(), plain);
    }
  }
  return text;
}

// `html` with `script` run in it by Chromium: the JSON the script left in <pre id="`id`">.
// Under the page's own policy when `keep_policy` (a probe of the page's own scripts must meet
// what they meet); without it, for a script that only reads the page, since a page's policy may
// forbid scripts (the diff page runs none).
boost::json::object RunScript(const std::string& chromium, const fs::path& dir, std::string html,
                              std::string_view script, const std::string& id, bool keep_policy) {
  if (const auto policy = html.find("<meta http-equiv=\"Content-Security-Policy\"");
      policy != std::string::npos && !keep_policy) {
    html.erase(policy, html.find('>', policy) + 1 - policy);
  }
  html.insert(html.rfind("</body>"), script);
  const fs::path page = dir / (id + ".html");
  std::ofstream(page) << html;
  const Rendered dom =
      RunChromium(chromium, dir / "profile", "--dump-dom", "file://" + page.string(), "1400,900");
  EXPECT_EQ(dom.exit_code, 0);
  const std::string open = "<pre id=\"" + id + "\">";
  const auto start = dom.output.find(open);
  if (start == std::string::npos) {
    ADD_FAILURE() << "the script wrote nothing: " << dom.output.substr(0, 2000);
    return {};
  }
  const auto end = dom.output.find("</pre>", start);
  return boost::json::parse(
             Unescape(dom.output.substr(start + open.size(), end - start - open.size())))
      .as_object();
}

boost::json::object Probe(const std::string& chromium, const fs::path& dir,
                          const std::string& html) {
  return RunScript(chromium, dir, html, kProbe, "probe", /*keep_policy=*/true);
}

std::vector<std::string> Strings(const boost::json::value& list) {
  std::vector<std::string> strings;
  for (const auto& value : list.as_array()) strings.emplace_back(value.as_string());
  return strings;
}

// A real check report: the built-in server with two faults, 50-odd checks in three revisions.
TEST_F(ReportBrowser, FindingsComeFirstAndTheMatrixLinksAndFilters) {
  const fs::path page = dir_ / "check.html";
  const ProcessRun run = Mcpfuzz(
      "check --builtin --fault unknown-tool-is-error --fault "
      "unknown-method-200 --report html=" +
      ShellQuote(page.string()));
  ASSERT_EQ(run.exit_code, 1) << run.output;
  std::ifstream file(page);
  std::ostringstream text;
  text << file.rdbuf();
  const std::string html = text.str();
  const boost::json::object probe = Probe(chromium_, dir_, html);
  ASSERT_FALSE(probe.empty());

  // The fold: the window's 900 px, less whatever the headless browser keeps for itself.
  const double fold = std::min(900.0, probe.at("viewport").to_number<double>());
  const double first = probe.at("firstFinding").to_number<double>();
  EXPECT_GE(first, 0) << "no finding card";
  // Its heading, not only its top border, is above the fold.
  EXPECT_LT(first + 40, fold) << "the first finding starts " << first << " px down";

  EXPECT_GT(probe.at("links").to_number<double>(), 0);
  EXPECT_TRUE(probe.at("broken").as_array().empty()) << boost::json::serialize(probe.at("broken"));
  EXPECT_GE(probe.at("cellLinks").to_number<double>(), 2) << "FAIL cells are links";

  // Folded: only rows with something other than PASS or NOT_APPLICABLE show at first.
  const auto at_first = Strings(probe.at("atFirst"));
  ASSERT_FALSE(at_first.empty());
  EXPECT_LT(at_first.size(), probe.at("rows").to_number<double>());
  for (const auto& row : at_first) EXPECT_FALSE(row.ends_with(":passing")) << row;
  // The filter shows the matching rows, folded or not, and hides every other.
  const auto filtered = Strings(probe.at("filtered"));
  ASSERT_FALSE(filtered.empty());
  EXPECT_LT(filtered.size(), probe.at("rows").to_number<double>());
  for (const auto& row : filtered) EXPECT_NE(row.find("unknown-name"), std::string::npos) << row;
  // "Show only failing": FAIL or WARN rows, all of them.
  const auto only_failing = Strings(probe.at("onlyFailing"));
  ASSERT_FALSE(only_failing.empty());
  for (const auto& row : only_failing) EXPECT_TRUE(row.ends_with(":failing")) << row;
  EXPECT_NE(std::find(only_failing.begin(), only_failing.end(), "tools.unknown-name:failing"),
            only_failing.end());
}

TEST_F(ReportBrowser, TheFuzzReportCountsCasesNotVerdicts) {
  std::ostringstream html;
  reports::WriteHtml(HostileFuzzReport(), html);
  const std::string page = html.str();
  EXPECT_EQ(page.find("data-figure=\"t0-PASS\""), std::string::npos) << "a verdict card";
  EXPECT_NE(page.find("data-figure=\"cases\">2000<"), std::string::npos);
  EXPECT_NE(page.find("mcpfuzz fuzz --seed 42 --cases 2000 http://127.0.0.1:8931/mcp"),
            std::string::npos);
  const boost::json::object probe = Probe(chromium_, dir_, page);
  ASSERT_FALSE(probe.empty());
  EXPECT_GE(probe.at("firstFinding").to_number<double>(), 0);
  EXPECT_LT(probe.at("firstFinding").to_number<double>() + 40,
            std::min(900.0, probe.at("viewport").to_number<double>()));
  EXPECT_TRUE(probe.at("broken").as_array().empty()) << boost::json::serialize(probe.at("broken"));
}

// Every table of a page as the browser built it: rows of cells, each its text and class.
constexpr std::string_view kTables = R"(<script>
const tables = [...document.querySelectorAll('table')].map(t => [...t.rows].map(
    r => [...r.cells].map(c => ({text: c.innerText.trim(), cls: c.className}))));
const legend = [...document.querySelectorAll('.legend')].map(e => e.innerText).join(' ');
const meta = [...document.querySelectorAll('.meta')].map(e => e.innerText).join(' ');
const pre = document.createElement('pre');
pre.id = 'tables';
pre.textContent = JSON.stringify({tables, legend, meta});
document.body.appendChild(pre);
</script>)";

boost::json::object Tables(const std::string& chromium, const fs::path& dir,
                           const reports::Report& report) {
  std::ostringstream html;
  reports::WriteHtml(report, html);
  return RunScript(chromium, dir, html.str(), kTables, "tables", /*keep_policy=*/false);
}

// The table whose first header cell is `heading`, as rows of cell texts (header row left out).
std::vector<std::vector<std::string>> TableHeaded(const boost::json::object& dom,
                                                  std::string_view heading) {
  for (const auto& table : dom.at("tables").as_array()) {
    const auto& rows = table.as_array();
    if (rows.empty() || rows[0].as_array().empty() ||
        rows[0].as_array()[0].at("text").as_string() != heading) {
      continue;
    }
    std::vector<std::vector<std::string>> texts;
    for (std::size_t i = 1; i < rows.size(); ++i) {
      auto& row = texts.emplace_back();
      for (const auto& cell : rows[i].as_array()) row.emplace_back(cell.at("text").as_string());
    }
    return texts;
  }
  ADD_FAILURE() << "no table headed " << heading;
  return {};
}

// Issue #27: the cases and the findings of a revision share one row, however the findings
// name their transport.
TEST_F(ReportBrowser, TheFuzzReportCountsCasesAndFindingsPerRevisionInOneRow) {
  reports::Report report = HostileFuzzReport();
  report.fuzz->cases_per_revision = {{"2025-11-25", 1200}, {"2026-07-28", 800}};
  report.targets[0].items[0].revision = "2026-07-28";
  const auto rows = TableHeaded(Tables(chromium_, dir_, report), "revision");
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"2025-11-25", "1200", "0"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"2026-07-28", "800", "1"}));
}

// Issue #28: fuzz --coverage's figures on the page: the count, the growth drawn, the server's
// own scripts listed first, their URLs (the server's text) escaped.
TEST_F(ReportBrowser, TheFuzzReportShowsTheServersCoverageAndHowItGrew) {
  reports::Report report = HostileFuzzReport();
  reports::FuzzCoverage& coverage = report.fuzz->coverage.emplace();
  coverage.blocks = 930;
  coverage.in_node_modules = 900;
  coverage.takes = 2000;
  coverage.growth = {{1, 900}, {17, 925}, {1200, 930}};
  coverage.scripts = {{"file:///srv/node_modules/sdk/index.js", 900, true},
                      {"file:///srv/" + kHostile + ".js", 30, false}};
  const auto scripts = TableHeaded(Tables(chromium_, dir_, report), "script");
  ASSERT_EQ(scripts.size(), 2U);
  EXPECT_NE(scripts[0][0].find("<script>"), std::string::npos) << "shown as text, first";
  EXPECT_EQ(scripts[0][1], "30");
  EXPECT_EQ(scripts[1][1], "900");
  std::ostringstream html;
  reports::WriteHtml(report, html);
  EXPECT_NE(html.str().find("data-figure=\"coverage\">930<"), std::string::npos);
  EXPECT_NE(html.str().find("<polyline"), std::string::npos) << "the growth is drawn";
  const boost::json::object probe = Probe(chromium_, dir_, html.str());
  ASSERT_FALSE(probe.empty());
  EXPECT_TRUE(probe.at("broken").as_array().empty()) << boost::json::serialize(probe.at("broken"));
}

// Issue #27: a replay names the revisions its cases were sent in, per case and in its header.
TEST_F(ReportBrowser, TheReplayReportNamesTheRevisionsItReplayedIn) {
  const boost::json::object dom = Tables(chromium_, dir_, HostileReplayReport());
  const std::string meta(dom.at("meta").as_string());
  EXPECT_NE(meta.find("replayed in 2025-11-25"), std::string::npos) << meta;
  EXPECT_EQ(meta.find("no revision"), std::string::npos) << meta;
  bool row_names_it = false;
  for (const auto& table : dom.at("tables").as_array()) {
    for (const auto& row : table.as_array()) {
      for (const auto& cell : row.as_array()) {
        row_names_it =
            row_names_it || std::string_view(cell.at("text").as_string()).find("2025-11-25") !=
                                std::string_view::npos;
      }
    }
  }
  EXPECT_TRUE(row_names_it) << boost::json::serialize(dom.at("tables"));
}

// Issue #27: each answer's cell is coloured by its verdict (a WARN is not a PASS), the legend
// explains them, and a disagreement with a wrong side comes before one without.
TEST_F(ReportBrowser, TheDiffReportColoursCellsByVerdictAndListsWrongSidesFirst) {
  reports::Report report = HostileDiffReport();
  reports::DiffRow merely = report.diff->rows.at(0);
  merely.check_id = "methods.unknown";
  merely.label = "merely-different";
  merely.cells.at(0).verdict = "PASS";
  merely.cells.at(1).verdict = "WARN";
  report.diff->rows.insert(report.diff->rows.begin(), merely);
  const boost::json::object dom = Tables(chromium_, dir_, report);
  const std::string legend(dom.at("legend").as_string());
  EXPECT_NE(legend.find("WARN"), std::string::npos) << legend;
  EXPECT_NE(legend.find("\u2713"), std::string::npos) << legend;
  std::vector<std::string> order;
  std::vector<std::string> classes;
  for (const auto& table : dom.at("tables").as_array()) {
    const auto& rows = table.as_array();
    if (rows.empty() || rows[0].as_array().empty() ||
        rows[0].as_array()[0].at("text").as_string() != "check") {
      continue;
    }
    for (std::size_t i = 1; i < rows.size(); ++i) {
      const auto& cells = rows[i].as_array();
      order.emplace_back(cells[0].at("text").as_string());
      for (std::size_t c = 2; c < cells.size(); ++c) {
        classes.emplace_back(cells[c].at("cls").as_string());
      }
    }
  }
  ASSERT_EQ(order.size(), 2U) << boost::json::serialize(dom.at("tables"));
  EXPECT_EQ(order[0].substr(0, 18), "tools.unknown-name") << "the wrong side first";
  EXPECT_EQ(order[1].substr(0, 15), "methods.unknown");
  const auto has = [&classes](std::string_view cls) {
    return std::any_of(classes.begin(), classes.end(),
                       [cls](const std::string& c) { return c.find(cls) != std::string::npos; });
  };
  EXPECT_TRUE(has("v-fail") && has("v-warn") && has("v-pass"))
      << boost::json::serialize(dom.at("tables"));
}

}  // namespace
}  // namespace mcpfuzz::test_support
