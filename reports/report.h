#pragma once
// The one report model: what a `check`, `fuzz` or `replay` run (or a survey of many targets)
// found, as plain data. Every writer — JSON, JUnit XML, SARIF, Markdown, HTML — reads only
// this, so the five formats cannot disagree about a run.
//
// The terminal is its sixth writer (reports/writers.h). The model is built where runs are
// assembled (cli/run_reports.h), from what `check`, `fuzz` and `replay` return.
//
// Text in it that came from a server (excerpts, notes, bodies, header values) is kept as the
// server sent it; each writer escapes it for its own format. Credentials are already gone:
// requests, observations and reproducers are stored redacted.

#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/reproducer.h"
#include "oracles/pre_init.h"
#include "oracles/verdict.h"
#include "reports/baseline.h"
#include "reports/diff.h"
#include "transport/client.h"
#include "transport/era_probe.h"

namespace mcpfuzz::reports {

/// What every report says about its run. The volatile members (version, start, duration) are
/// set by the caller, so golden tests can pin them.
struct RunInfo {
  std::string tool_version;
  /// For people: "http://127.0.0.1:8931/mcp" or "stdio: node server.js".
  std::string target;
  /// The target's name across runs: the URL, the stdio command, or for the built-in server
  /// "mcpfuzz refserver --http" with its faults, never its random port. SARIF fingerprints
  /// are made of it, so code scanning does not churn alerts. Empty means `target`.
  std::string stable_target;
  ReproducerTarget reproducer_target;
  /// UTC, ISO 8601.
  std::string started_at;
  double duration_seconds = 0;
};

enum class ReportKind { kCheck, kFuzz, kReplay, kSurvey, kDiff };

/// `--fail-on`: which verdicts fail a run (exit 1). One rule for check, fuzz, replay, diff and
/// surveys, and for every writer: JUnit makes a failure of what fails the run and nothing else.
enum class FailOn { kFail, kWarn, kNever };
/// "fail", "warn", "never".
std::string_view ToString(FailOn fail_on);
std::optional<FailOn> ParseFailOn(std::string_view text);
/// True when a verdict of `kind` fails the run under `fail_on`.
bool FailsRun(VerdictKind kind, FailOn fail_on);
/// "check", "fuzz", "replay", "survey", "diff".
std::string_view ToString(ReportKind kind);

/// One request sent and what came back, in the case-file form of model/case_file.h, with
/// credential header values replaced by "<redacted>" in both.
struct ReportExchange {
  boost::json::value request;
  boost::json::value observation;
};

/// One judged item: a check result, a fuzz finding, or a replayed case file.
struct ReportItem {
  /// The check id (oracles/check_ids.h).
  std::string id;
  /// The check's title for people ("Unknown tool name"); empty means the id says it all.
  std::string title;
  /// "2025-11-25"; empty when unknown (a case file that could not be read).
  std::string revision;
  /// "http" or "stdio".
  std::string transport;
  Verdict verdict;
  /// True when the item is why the run fails: its verdict fails the run under the report's
  /// `fail_on`, it is not `known`, and a fuzz finding was seen again on a re-send (a flaky one
  /// is reported without failing the run). Set by cli/run_reports.h's ApplyExitPolicy.
  bool failing = false;
  /// Listed in the `--baseline`: reported, but it does not fail the run.
  bool known = false;
  /// Fuzz and replay: the finding's signature (oracles/judgement.h), what a baseline lists.
  std::string signature;
  /// A shell command that sends the judged request again; empty when there is none.
  std::string reproducer;
  std::vector<ReportExchange> exchanges;
  /// Index of the judged exchange in `exchanges`.
  std::size_t judged = 0;
  /// Seconds the exchanges took.
  double seconds = 0;
  /// Fuzz and replay: the case file.
  std::string case_file;
  /// Facts for people, in order: {"family", "unknown-names"}, {"stable", "3/3"}.
  std::vector<std::pair<std::string, std::string>> facts;
  /// Fuzz: the finding in case-file form (reports/finding_file.h), which the fuzz JSON
  /// report has always carried.
  boost::json::value record;
};

/// Observations that are not verdicts, reported beside them: how the target treats a request
/// sent before the handshake in one revision.
struct HandshakeControl {
  Revision revision = kLatestHandshakeRevision;
  PreInitClassification pre_init;
};

/// Everything about one target.
struct TargetSection {
  /// For people: the URL or "stdio: command".
  std::string description;
  /// RunInfo::stable_target (or `description`).
  std::string stable_name;
  /// "http" or "stdio".
  std::string transport;
  EraReport eras;
  /// What the target announced itself as (checks::CheckRun::server_info), as it sent it (capped);
  /// nothing when it announced nothing or was not reached.
  std::optional<ServerInfo> server_info;
  std::vector<ReportItem> items;
  std::vector<HandshakeControl> handshake_controls;
  std::optional<BaselineComparison> baseline;
  /// What people should know that is not an item: sessions not opened, a target gone away.
  std::vector<std::string> notes;
  /// Set when nothing could be run against the target at all.
  std::string error;
};

/// The server's own coverage over a fuzz run (campaign's CampaignCoverage), as reported.
struct FuzzCoverage {
  /// Why none was taken; empty when it was.
  std::string off;
  std::size_t blocks = 0, in_node_modules = 0, takes = 0, missed = 0;
  /// After how many cases, how many blocks: one step per growth.
  std::vector<std::pair<std::size_t, std::size_t>> growth;
  struct Script {
    std::string url;
    std::size_t blocks = 0;
    bool in_node_modules = false;
  };
  std::vector<Script> scripts;
  /// Blocks that ran for a case but not when it was sent again (steering ignores them).
  std::size_t unstable = 0;
  /// `fuzz --coverage`: the cases steered by it; the mutants sent and the corpus.
  bool steered = false;
  std::size_t mutants = 0;
  struct Entry {
    std::size_t case_index = 0;
    std::string family;
    std::string variant;
    /// Blocks it ran first (that ran again when re-sent); or it got an answer of a new shape.
    std::size_t blocks = 0;
    bool new_answer = false;
    std::size_t mutants = 0;  ///< mutants drawn from it
  };
  std::vector<Entry> corpus;
};

/// The numbers of a fuzz campaign.
struct FuzzFigures {
  std::uint64_t seed = 0;
  std::size_t cases = 0;
  std::size_t generation_failures = 0;
  std::size_t skipped = 0;
  /// The big-input budget (CampaignOptions::big_input_every) and the cases it held back.
  std::size_t big_input_every = 0;
  std::size_t big_inputs_held_back = 0;
  /// The budget of stdio sequences (CampaignOptions::sequence_every) and those it held back.
  std::size_t sequence_every = 0;
  std::size_t sequences_held_back = 0;
  /// Where the time went (CampaignTiming), in milliseconds.
  double startup_ms = 0, sending_ms = 0, silence_ms = 0, resends_ms = 0, shrinking_ms = 0;
  /// With coverage: asking the agent, and re-sending cases that ran new code.
  double coverage_ms = 0;
  /// CPU time: mcpfuzz's own, and that of the servers it started and ended.
  double own_cpu_ms = 0, servers_cpu_ms = 0;
  /// The whole run, in whole milliseconds.
  std::int64_t elapsed_ms = 0;
  std::size_t sessions_opened = 0;
  /// Stdio: cases judged from a pipelined window; server restarts, and those onto a spare.
  std::size_t pipelined = 0, restarts = 0, warm_restarts = 0;
  /// Cases sent, by generator family and by revision.
  std::map<std::string, std::size_t> cases_per_family, cases_per_revision;
  /// The revision of each session the cases were spread over, in order ("2025-11-25").
  std::vector<std::string> revisions;
  /// The server's own coverage (`fuzz --coverage`); nothing when not asked.
  std::optional<FuzzCoverage> coverage;
};

struct Report {
  ReportKind kind = ReportKind::kCheck;
  std::string tool_version;
  std::string started_at;
  double duration_seconds = 0;
  /// Fuzz and survey: "K/N" when the run was one shard of N (`--shard`); empty otherwise. (A
  /// diff report keeps its own, in DiffSection.)
  std::string shard;
  std::vector<TargetSection> targets;
  std::optional<FuzzFigures> fuzz;
  /// `mcpfuzz diff`: the disagreement matrix (reports/diff.h); `targets` stays empty.
  std::optional<DiffSection> diff;
  /// What stopped the run before it was done ("SIGTERM", "SIGINT"); empty for a run that ended
  /// by itself. Every writer marks such a report, so an interrupted run never looks complete.
  std::string stopped_by;
  bool StoppedEarly() const { return !stopped_by.empty(); }
  /// The `--fail-on` its items were judged by.
  FailOn fail_on = FailOn::kFail;
  /// Fuzz and replay with `--baseline`: the findings compared with it. (Check keeps its
  /// comparison per target, in TargetSection::baseline.)
  std::optional<BaselineComparison> baseline;
};

struct VerdictCounts {
  int pass = 0, warn = 0, fail = 0, unverified = 0, not_applicable = 0;
  void Add(VerdictKind kind);
  int Total() const { return pass + warn + fail + unverified + not_applicable; }
  int Of(VerdictKind kind) const;
};
VerdictCounts Count(const std::vector<ReportItem>& items);
VerdictCounts Count(const Report& report);

/// Every verdict kind, worst first: the order of columns and legends in every writer.
inline constexpr VerdictKind kVerdictOrder[] = {VerdictKind::kFail, VerdictKind::kWarn,
                                                VerdictKind::kUnverified, VerdictKind::kPass,
                                                VerdictKind::kNotApplicable};

/// The family of a check id: what comes before the first dot ("tools" for "tools.unknown-name").
std::string FamilyOf(std::string_view check_id);

/// "expected" and "observed" for people: "execution_error (HTTP 200) "Tool … not found"".
std::string ObservedText(const ObservedAnswer& observed);

/// "NAME VERSION (TITLE)" as a target announced itself, the title only when it gave one: what
/// every writer's header shows (each escapes it for its format).
std::string AnnouncedText(const ServerInfo& info);

/// The revisions a target was found to speak, for a header's "speaks:", and those whose question
/// went unanswered in time ("not determined (timed out)"). A fuzz run given --revision and a
/// replay probe nothing: they say so and name the revisions they fuzzed or replayed in, instead
/// of claiming the target speaks none.
std::string SpeaksText(const Report& report, const TargetSection& target);

/// A replay's revisions, each once in the order its case files came: "2025-11-25, 2025-06-18";
/// empty when no case file could be read.
std::string ReplayedRevisions(const TargetSection& target);

/// "Stopped early by SIGTERM: this report covers only what ran before it", the words every
/// writer marks a stopped report with; empty for a report that is not.
std::string StoppedEarlyText(const Report& report);

/// The value of an item's fact ("replay" → "still warns"), or "" when it has none.
std::string_view Fact(const ReportItem& item, std::string_view name);

/// Whether `item` of a `kind` report is a finding: every fuzz item, and a replayed case while it
/// still fails or warns.
bool IsFinding(ReportKind kind, const ReportItem& item);
/// The verdict a finding fails a run by: a WARN stays a WARN, anything else (a crash or a hang
/// judged UNVERIFIED) is a FAIL. What is no finding keeps its own verdict.
VerdictKind FindingSeverity(const ReportItem& item, bool finding);

/// Orders a fuzz or replay section's findings strongest first (FindingSeverity: a FAIL before a
/// WARN; a replayed case that is fixed or was not sent again last), then by check; in the order
/// found within one check. Every format lists them so: the one FAIL of a run is not the eighth
/// of eleven.
void OrderByStrength(ReportKind kind, TargetSection& section);

/// Items that people must look at: failing ones, and WARNs.
bool WorthShowing(const ReportItem& item);

/// A diff row fails the run where some side is wrong (a FAIL), and under --fail-on warn where
/// some side WARNs.
bool RowFailsRun(const DiffRow& row, FailOn fail_on);

/// The number of items (and diff rows) that fail the run.
std::size_t FailingCount(const Report& report);

}  // namespace mcpfuzz::reports
