#pragma once
// Command-line options of `mcpfuzz`, parsed into values; no I/O here.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "coverage/coverage_use.h"
#include "model/request.h"
#include "model/result.h"
#include "reports/report.h"
#include "reports/writers.h"
#include "transport/transport.h"

namespace mcpfuzz::cli {

/// Where requests go: an HTTP URL, a stdio command, or the built-in reference server.
struct TargetSpec {
  enum class Kind { kNone, kHttpUrl, kStdioCommand, kBuiltinHttp, kBuiltinStdio };
  Kind kind = Kind::kNone;
  std::string url;
  std::vector<std::string> argv;
  /// HTTP: `--server-cmd`, a server mcpfuzz starts for the run at `url` (ServerCommand); every
  /// "{port}" in both is the free port it is given.
  std::string server_command;
  /// Stdio, or HTTP with a server command: the folder of the coverage agents the server loads
  /// (StdioTarget::coverage_agent).
  std::optional<std::string> coverage_agent;
  /// Reference-server fault switches, for the built-in target only.
  std::vector<std::string> faults;
  /// HTTP targets: `--header`, sent with every request.
  Headers extra_headers;
  /// Servers mcpfuzz starts: `--env KEY=VAL` (repeatable; the last value of a name wins)
  /// on top of mcpfuzz's own environment, or alone with `--env-clear`.
  std::vector<std::pair<std::string, std::string>> env;
  bool env_clear = false;
  bool allow_remote = false;
  Limits limits;
};

/// `--report FORMAT=PATH`: one report file to write (repeatable, one per path). PATH `-` is
/// standard output (kStandardOutput).
struct ReportFile {
  reports::Format format = reports::Format::kJson;
  std::string path;
  /// SARIF: `--sarif-root`, where results without a case file in the repository are placed.
  std::string sarif_root;
  bool operator==(const ReportFile&) const = default;
};

/// The PATH of `--report FORMAT=-`: that report goes to standard output, the run's summary to
/// standard error.
inline constexpr std::string_view kStandardOutput = "-";

/// What `--server-cmd` and its URL write for the port mcpfuzz gives the server.
inline constexpr std::string_view kPortPlaceholder = "{port}";

enum class Command {
  kHelp,
  kVersion,
  kProbe,
  kSend,
  kCheck,
  kFuzz,
  kReplay,
  kRefserver,
  kMinimize,
  kDiff,
  kMerge
};

/// `--progress`: what a running check or fuzz shows on stderr (cli/progress.h).
enum class ProgressMode {
  kAuto,    ///< a line redrawn in place on a terminal; a line every 10 s in a log
  kAlways,  ///< a line every 10 s, terminal or not
  kNever,
};

/// `--shard K/N`: the K-th (1-based) of N deterministic parts of a run.
struct Shard {
  std::size_t index = 1;
  std::size_t count = 1;
  bool operator==(const Shard&) const = default;
};

/// `check`: what to run and where the results go.
struct CheckSettings {
  std::set<std::string> only;
  std::set<std::string> skip;
  std::optional<Revision> revision;
  /// `--call-real-tools`: run the args probe, which calls a real tool.
  bool call_real_tools = false;
  /// `--one-revision-at-a-time`: CheckOptions::revisions_at_once off.
  bool one_revision_at_a_time = false;
  /// `--list`: print the check ids and exit.
  bool list = false;
  /// `--report FORMAT=PATH`, repeatable.
  std::vector<ReportFile> reports;
  /// `--targets FILE`: survey every target in the file (cli/targets_file.h) instead of one.
  std::optional<std::string> targets_file;
  /// Survey: targets checked at once, requests per host in the whole run (0: no limit), and
  /// the least time between two requests to one host.
  std::size_t parallel = 4;
  /// Survey: stdio servers starting at once (transport/start_gate.h); 0: no limit.
  std::size_t parallel_starts = 0;
  std::size_t host_budget = 0;
  std::size_t host_spacing_ms = 0;
  /// `--shard K/N` with --targets: only the targets j (from 0, in file order) with
  /// j % N == K - 1.
  std::optional<Shard> shard;
  ProgressMode progress = ProgressMode::kAuto;
};

/// `fuzz`: the campaign's seed, size and where findings go.
struct FuzzSettings {
  std::optional<std::uint64_t> seed;
  std::optional<std::size_t> cases;
  std::optional<std::size_t> seconds;
  std::set<std::string> families;
  std::optional<int> resends;
  std::optional<std::string> corpus_dir;
  std::optional<Revision> revision;
  /// `--call-real-tools`: the tool-arguments family too, which calls real tools.
  bool call_real_tools = false;
  /// `--coverage` (steer) or `--coverage-measure`: load the coverage agent into a Node or
  /// Python stdio server, report its coverage, and with `--coverage` steer the cases by it.
  CoverageUse coverage = CoverageUse::kOff;
  /// `--coverage-report lcov=PATH`: where the server's coverage is written as LCOV.
  std::optional<std::string> lcov_path;
  /// `--max-request-bytes N`: the largest body the limits family sends.
  std::optional<std::size_t> max_request_bytes;
  /// `--big-input-every N`: after the first big input of a size class, one in N is sent.
  std::optional<std::size_t> big_input_every;
  /// `--sequence-every N`: over stdio, after the first sequence ending on a check, one in N.
  std::optional<std::size_t> sequence_every;
  /// `--concurrency N`: workers sending cases at once, each its connection or stdio process.
  std::optional<std::size_t> concurrency;
  /// `--list-families`: print the generator families and exit.
  bool list_families = false;
  /// `--shard K/N` (fuzz and diff): only the case indices i with i % N == K - 1.
  std::optional<Shard> shard;
  /// `--report FORMAT=PATH`, repeatable.
  std::vector<ReportFile> reports;
  ProgressMode progress = ProgressMode::kAuto;
};

/// What fails a run (exit 1), for check, fuzz, replay, diff, merge and surveys alike.
struct ExitPolicy {
  /// `--fail-on fail|warn|never`.
  reports::FailOn fail_on = reports::FailOn::kFail;
  /// `--baseline FILE`: what is listed there does not fail the run.
  std::optional<std::string> baseline;
  /// `--write-baseline FILE`: write what fails this run there, and exit 0.
  std::optional<std::string> write_baseline;
};

struct Options {
  Command command = Command::kHelp;
  /// The topic of `mcpfuzz help TOPIC` or `mcpfuzz COMMAND --help`.
  std::string help_topic;
  TargetSpec target;
  /// `send`: case files to send in order.
  std::vector<std::string> case_files;
  CheckSettings check;
  FuzzSettings fuzz;
  ExitPolicy policy;
  /// `replay`: a case file or a folder of them, and its `--report FORMAT=PATH` files.
  std::string replay_path;
  std::vector<ReportFile> replay_reports;
  /// `diff`: its targets as typed (cli/diff.h reads them); seed, cases, time, families,
  /// revision, shard and reports are kept in `fuzz`.
  std::vector<std::string> diff_targets;
  /// `merge`: the JSON reports to merge.
  std::vector<std::string> merge_inputs;
  /// `diff --baseline-server`: a minimal server on the same SDK, as typed.
  std::optional<std::string> baseline_server;
  /// `refserver` and `minimize`: their own arguments, passed through.
  std::vector<std::string> passthrough;
};

/// Parses argv (without argv[0]) by the flag table (cli/flags.h). Errors name the bad argument
/// and say what would be right.
Result<Options> ParseOptions(const std::vector<std::string>& args);

/// True for the topics `mcpfuzz help TOPIC` knows ("" is the overview).
bool IsHelpTopic(const std::string& topic);

/// The text of `mcpfuzz --help` or `mcpfuzz help COMMAND`.
std::string HelpText(const std::string& topic);

}  // namespace mcpfuzz::cli
