#include "cli/flags.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>

namespace mcpfuzz::cli {
namespace {

using Kind = TargetSpec::Kind;

constexpr Commands kProbe = Bit(Command::kProbe);
constexpr Commands kSend = Bit(Command::kSend);
constexpr Commands kCheck = Bit(Command::kCheck);
constexpr Commands kFuzz = Bit(Command::kFuzz);
constexpr Commands kReplay = Bit(Command::kReplay);
constexpr Commands kDiff = Bit(Command::kDiff);
constexpr Commands kMerge = Bit(Command::kMerge);
constexpr Commands kEvery = kProbe | kSend | kCheck | kFuzz | kReplay | kDiff;
// The commands whose exit code judges a target: --fail-on applies to them.
constexpr Commands kJudging = kCheck | kFuzz | kReplay | kDiff | kMerge;
// The flags that name or switch one target; diff names its targets as words.
constexpr Commands kOneTarget = kEvery & ~kDiff;

constexpr std::uint64_t kMaxConcurrency = 64;
constexpr std::uint64_t kMaxResends = 100;

using Problem = std::optional<std::string>;

std::string EscapeControls(std::string_view text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '\r') {
      escaped += "\\r";
    } else if (c == '\n') {
      escaped += "\\n";
    } else if (c == '\0') {
      escaped += "\\0";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

Problem ParseNumber(std::string_view flag, const std::string& text, std::uint64_t least,
                    std::uint64_t& number) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size() || number < least) {
    return std::string(flag) + " takes a whole number" + (least > 0 ? " above 0" : "") + ", not '" +
           text + "'";
  }
  return std::nullopt;
}

// `field` is a number or an optional number.
template <typename Field>
Problem SetNumber(std::string_view flag, const std::string& text, std::uint64_t least,
                  Field& field) {
  std::uint64_t number = 0;
  if (auto problem = ParseNumber(flag, text, least, number)) return problem;
  field = static_cast<Field>(number);
  return std::nullopt;
}

Problem SetMilliseconds(std::string_view flag, const std::string& text,
                        std::chrono::milliseconds& field) {
  std::uint64_t number = 0;
  if (auto problem = ParseNumber(flag, text, 1, number)) return problem;
  field = std::chrono::milliseconds(number);
  return std::nullopt;
}

Problem SetTargetKind(ParseState& state, Kind kind) {
  TargetSpec& target = state.options.target;
  if (target.kind != Kind::kNone) return "give exactly one TARGET";
  target.kind = kind;
  return std::nullopt;
}

Problem AddHeader(const std::string& text, Headers& headers) {
  auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0) {
    return "--header takes 'Name: value', not '" + text + "'";
  }
  // A CR or LF would end the header line and start another on the wire (header injection);
  // curl cannot send a NUL at all.
  if (text.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos) {
    return "--header must not contain CR, LF or NUL: " + EscapeControls(text);
  }
  std::string value = text.substr(colon + 1);
  value.erase(0, value.find_first_not_of(" \t"));
  headers.push_back(Header{text.substr(0, colon), value});
  return std::nullopt;
}

// An empty list names nothing: read as "all" (no filter), `--only ''` would run every check.
Problem AddNames(std::string_view flag, const std::string& list, std::set<std::string>& names) {
  if (list.find_first_not_of(", ") == std::string::npos) {
    return std::string(flag) + " takes at least one name";
  }
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    std::string name =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!name.empty()) names.insert(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return std::nullopt;
}

// Two reports into one path would overwrite each other, so that is refused too.
Problem AddReport(const std::string& value, std::vector<ReportFile>& reports) {
  const auto equals = value.find('=');
  const auto format =
      equals == std::string::npos ? std::nullopt : reports::ParseFormat(value.substr(0, equals));
  if (!format || equals + 1 >= value.size()) {
    return "--report takes FORMAT=PATH with FORMAT json, junit, sarif, markdown or html, not '" +
           value + "'";
  }
  ReportFile file{*format, value.substr(equals + 1), ""};
  for (const auto& other : reports) {
    // Two documents on one stream could be read as neither.
    if (other.path == kStandardOutput && file.path == kStandardOutput) {
      return "only one --report can go to standard output (-)";
    }
    if (other.path == file.path) return "two --report options name the same file " + file.path;
  }
  reports.push_back(std::move(file));
  return std::nullopt;
}

Problem SetRevision(const std::string& value, std::optional<Revision>& revision) {
  revision = ParseRevision(value);
  if (!revision) {
    return "--revision takes 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 or 2026-07-28";
  }
  return std::nullopt;
}

Problem SetShard(std::string_view flag, const std::string& value, std::optional<Shard>& shard) {
  const auto slash = value.find('/');
  std::uint64_t index = 0;
  std::uint64_t count = 0;
  const std::string bad = std::string(flag) + " takes K/N with 1 <= K <= N, not '" + value + "'";
  if (slash == std::string::npos || ParseNumber(flag, value.substr(0, slash), 1, index) ||
      ParseNumber(flag, value.substr(slash + 1), 1, count) || index > count) {
    return bad;
  }
  shard = Shard{static_cast<std::size_t>(index), static_cast<std::size_t>(count)};
  return std::nullopt;
}

// The flags shared by commands keep their values in each command's own settings.
std::vector<ReportFile>& ReportsOf(Options& options) {
  if (options.command == Command::kCheck) return options.check.reports;
  if (options.command == Command::kFuzz || options.command == Command::kDiff ||
      options.command == Command::kMerge) {
    return options.fuzz.reports;
  }
  return options.replay_reports;
}
std::optional<Shard>& ShardOf(Options& options) {
  return options.command == Command::kCheck ? options.check.shard : options.fuzz.shard;
}
std::optional<Revision>& RevisionOf(Options& options) {
  return options.command == Command::kCheck ? options.check.revision : options.fuzz.revision;
}
ProgressMode& ProgressOf(Options& options) {
  return options.command == Command::kCheck ? options.check.progress : options.fuzz.progress;
}
bool& CallRealToolsOf(Options& options) {
  return options.command == Command::kCheck ? options.check.call_real_tools
                                            : options.fuzz.call_real_tools;
}

// Every setter is `[](ParseState& state, std::string_view flag, const std::string& value)`.
constexpr std::array kFlags = {
    // --- TARGET (an http:// URL and `-- COMMAND` are not flags) ---
    Flag{.name = "--builtin",
         .commands = kOneTarget,
         .group = FlagGroup::kTarget,
         .help = "the built-in reference server over HTTP on 127.0.0.1",
         .set = [](ParseState& state, std::string_view,
                   const std::string&) { return SetTargetKind(state, Kind::kBuiltinHttp); }},
    Flag{.name = "--builtin-stdio",
         .commands = kOneTarget,
         .group = FlagGroup::kTarget,
         .help = "the built-in reference server over stdio",
         .set = [](ParseState& state, std::string_view,
                   const std::string&) { return SetTargetKind(state, Kind::kBuiltinStdio); }},

    Flag{.name = "--server-cmd",
         .value = ValueKind::kText,
         .value_name = "'COMMAND'",
         .commands = kOneTarget,
         .group = FlagGroup::kTarget,
         .help = "start this HTTP server (a shell command line) for the run, and end it\n"
                 "with the run; {port} in it and in the URL is a free port on 127.0.0.1,\n"
                 "and the URL defaults to http://127.0.0.1:{port}/mcp; started again on\n"
                 "it when it ends (a case crashed it). fuzz --coverage loads the\n"
                 "coverage agent into it",
         .set = [](ParseState& state, std::string_view flag, const std::string& value) -> Problem {
           if (value.empty() || value.find('\0') != std::string::npos) {
             return std::string(flag) + " takes a command line";
           }
           state.options.target.server_command = value;
           return std::nullopt;
         }},

    // --- target options ---
    Flag{.name = "--header",
         .value = ValueKind::kText,
         .value_name = "'Name: value'",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "send this header with every HTTP request (repeatable);\n"
                 "it goes to the target only, redirects are never followed. Refused\n"
                 "with a stdio target, which has no HTTP (--env sets its environment)",
         .set =
             [](ParseState& state, std::string_view, const std::string& value) {
               return AddHeader(value, state.options.target.extra_headers);
             }},
    Flag{.name = "--env",
         .value = ValueKind::kText,
         .value_name = "KEY=VALUE",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "set this variable for a server mcpfuzz starts (-- COMMAND, --server-cmd;\n"
                 "repeatable, the last value of a name wins). Without --env-clear the\n"
                 "server also gets mcpfuzz's own environment",
         .set = [](ParseState& state, std::string_view flag, const std::string& value) -> Problem {
           const auto equals = value.find('=');
           if (equals == std::string::npos || equals == 0) {
             return std::string(flag) + " takes KEY=VALUE, not '" + EscapeControls(value) + "'";
           }
           if (value.find('\0') != std::string::npos) {
             return std::string(flag) + " must not contain NUL: " + EscapeControls(value);
           }
           state.options.target.env.emplace_back(value.substr(0, equals), value.substr(equals + 1));
           return std::nullopt;
         }},
    Flag{.name = "--env-clear",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "start a server with the --env variables alone, none of mcpfuzz's\n"
                 "(the command is still looked up in mcpfuzz's PATH)",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.target.env_clear = true;
           return std::nullopt;
         }},
    Flag{.name = "--allow-remote",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "allow a non-loopback HTTP target",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.target.allow_remote = true;
           return std::nullopt;
         }},
    Flag{.name = "--timeout-ms",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "per-request time limit (default 5000)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetMilliseconds(flag, value, state.options.target.limits.timeout);
             }},
    Flag{.name = "--startup-timeout-ms",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "time limit for a started server's first reply (default 30000); its exit ends "
                 "the wait at once",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetMilliseconds(flag, value, state.options.target.limits.startup_timeout);
             }},
    Flag{.name = "--stream-open-ms",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "HTTP: how long a GET for an event stream waits for its headers (default "
                 "1000); a server may hold them until it has an event",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetMilliseconds(flag, value, state.options.target.limits.stream_open);
             }},
    Flag{.name = "--max-response-bytes",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "bytes kept of one reply (default 4194304)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.target.limits.max_response_bytes);
             }},
    Flag{.name = "--quiet-ms",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kEvery,
         .group = FlagGroup::kTargetOption,
         .help = "how long to listen for an answer nobody should send\n"
                 "(after a notification; default 250, fuzz: 50)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               std::chrono::milliseconds quiet{0};
               auto problem = SetMilliseconds(flag, value, quiet);
               if (!problem) state.quiet_window = quiet;
               return problem;
             }},
    Flag{.name = "--fault",
         .value = ValueKind::kText,
         .value_name = "NAME",
         .commands = kOneTarget,
         .group = FlagGroup::kTargetOption,
         .help = "with --builtin: switch on a reference-server fault\n"
                 "(repeatable; `mcpfuzz refserver --list-faults` lists them)",
         .set = [](ParseState& state, std::string_view, const std::string& value) -> Problem {
           state.options.target.faults.push_back(value);
           return std::nullopt;
         }},

    // --- the options of check and fuzz, in the order their help lists them ---
    Flag{.name = "--only",
         .value = ValueKind::kList,
         .value_name = "ID[,ID...]",
         .commands = kCheck,
         .help = "run only these checks; an id or a prefix (\"headers\", \"tools.\")",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return AddNames(flag, value, state.options.check.only);
             }},
    Flag{.name = "--skip",
         .value = ValueKind::kList,
         .value_name = "ID[,ID...]",
         .commands = kCheck,
         .help = "leave these out",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return AddNames(flag, value, state.options.check.skip);
             }},
    Flag{.name = "--seed",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kFuzz | kDiff,
         .help = "the run's seed (default: a new random seed each run, printed first\n"
                 "and recorded in every case file and report; give it to replay a run)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 0, state.options.fuzz.seed);
             }},
    Flag{.name = "--cases",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kFuzz | kDiff,
         .help = "generated cases to send (default 1000, or no limit with --time)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.fuzz.cases);
             }},
    Flag{.name = "--time",
         .value = ValueKind::kNumber,
         .value_name = "SECONDS",
         .commands = kFuzz | kDiff,
         .help = "stop after this long, re-sending and shrinking included: past it the "
                 "exchange in flight ends within its own limit, and a finding is only sent "
                 "alone once when it rests on a silence; with --cases too, whichever comes first",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.fuzz.seconds);
             }},
    Flag{.name = "--families",
         .value = ValueKind::kList,
         .value_name = "A[,B...]",
         .commands = kFuzz | kDiff,
         .help = "generator families (`mcpfuzz fuzz --list-families`); default: all that\n"
                 "call no real tool but sequences, and in fuzz one case in 64 a\n"
                 "sequence where a handshake era is spoken or 2026-07-28 over stdio\n"
                 "(over stdio under a budget: --sequence-every)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return AddNames(flag, value, state.options.fuzz.families);
             }},
    Flag{.name = "--max-request-bytes",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kFuzz,
         .help = "largest body the limits family sends: 1, 4, 10 and 16 MiB and one byte\n"
                 "more, and ids, method and tool names, _meta keys and header values of up\n"
                 "to 1 KiB, 10 KiB, 100 KiB and 1 MiB (a header: 512 KiB), up to N (default\n"
                 "16777216; below 1048576 no such body, below 1024 no long value)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.fuzz.max_request_bytes);
             }},
    Flag{.name = "--big-input-every",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kFuzz,
         .help = "the budget of big inputs (bodies of 64 KiB and more: deep nestings,\n"
                 "megabyte bodies), which cost their size on every send: the first of\n"
                 "each size class (its check and power of two) is sent, then one in N\n"
                 "(default 16; 1 sends every one). Chosen by case index, so the same\n"
                 "cases are sent at every load and concurrency",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.fuzz.big_input_every);
             }},
    Flag{.name = "--sequence-every",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kFuzz,
         .help = "the budget of sequences mixed in over stdio, where each starts a server\n"
                 "process of its own (0.2-0.4 s of a node server's start-up): the first\n"
                 "ending on each check is sent, then one in N (default 16; 1 sends every\n"
                 "one). Chosen by case index; over HTTP, or with --families sequences,\n"
                 "every sequence is sent",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.fuzz.sequence_every);
             }},
    Flag{.name = "--corpus",
         .value = ValueKind::kPath,
         .value_name = "DIR",
         .commands = kFuzz,
         .help = "write each finding as DIR/fuzz-<check>-<hash>.json",
         .set = [](ParseState& state, std::string_view, const std::string& value) -> Problem {
           state.options.fuzz.corpus_dir = value;
           return std::nullopt;
         }},
    Flag{.name = "--resends",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kFuzz,
         .help = "re-sends per finding to tell stable from flaky (default 3)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               std::uint64_t resends = 0;
               auto problem = SetNumber(flag, value, 1, resends);
               if (!problem)
                 state.options.fuzz.resends = static_cast<int>(std::min(resends, kMaxResends));
               return problem;
             }},
    Flag{.name = "--revision",
         .value = ValueKind::kRevision,
         .value_name = "REV",
         .commands = kCheck | kFuzz | kDiff,
         .help = "run in this revision only (e.g. 2025-06-18)",
         .set =
             [](ParseState& state, std::string_view, const std::string& value) {
               return SetRevision(value, RevisionOf(state.options));
             }},
    Flag{.name = "--call-real-tools",
         .alias = "--args-probe",
         .commands = kCheck | kFuzz,
         .help = "also call real tools: check calls the first tool with required\n"
                 "arguments with {} and with a wrong-typed value (the args probe);\n"
                 "fuzz calls tools with arguments derived from their inputSchema",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           CallRealToolsOf(state.options) = true;
           return std::nullopt;
         }},
    Flag{.name = "--one-revision-at-a-time",
         .commands = kCheck,
         .help = "over stdio, check one revision after the other on one server at a\n"
                 "time, for a server that cannot run twice at once (a lock, a port);\n"
                 "by default each revision runs at once on server processes of its\n"
                 "own, which costs the server that many more processes while checked",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.check.one_revision_at_a_time = true;
           return std::nullopt;
         }},
    Flag{.name = "--coverage",
         .commands = kFuzz,
         .help = "steer the cases by the server's own coverage: load mcpfuzz's coverage\n"
                 "agent into a Node or Python server started over stdio (NODE_OPTIONS=\n"
                 "--require, a sitecustomize first on PYTHONPATH; it answers on a socket\n"
                 "of its own, never stdout); a case that ran new code joins a corpus,\n"
                 "written under CORPUS/coverage with --corpus, and a mutant of it follows\n"
                 "each generated case (values the server handed out sent back, members\n"
                 "and strings changed), judged by the process rules. Cases go one at a\n"
                 "time, about 2 ms a case more. The report shows the blocks the cases\n"
                 "ran, how that grew, the mutants and the corpus",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.fuzz.coverage = CoverageUse::kSteer;
           return std::nullopt;
         }},
    Flag{.name = "--coverage-report",
         .value = ValueKind::kText,
         .value_name = "lcov=PATH",
         .commands = kFuzz,
         .help = "with --coverage or --coverage-measure: write the server's coverage as\n"
                 "an LCOV tracefile (genhtml, Codecov), a line hit when a block on it ran",
         .set = [](ParseState& state, std::string_view flag, const std::string& value) -> Problem {
           if (!value.starts_with("lcov=") || value.size() == 5) {
             return std::string(flag) + " takes lcov=PATH, not '" + value + "'";
           }
           state.options.fuzz.lcov_path = value.substr(5);
           return std::nullopt;
         }},
    Flag{.name = "--coverage-measure",
         .commands = kFuzz,
         .help = "as --coverage, but only measure: the cases are those of a run without\n"
                 "it (windows kept), and the report says how much of the server's code\n"
                 "they ran (with --concurrency, every worker's server, merged)",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.fuzz.coverage = CoverageUse::kMeasure;
           return std::nullopt;
         }},
    Flag{.name = "--progress",
         .value = ValueKind::kText,
         .value_name = "auto|always|never",
         .commands = kFuzz | kCheck,
         .help = "what the run shows on stderr while it works: cases, rate, findings,\n"
                 "time elapsed and left (check: the checks judged; a survey: each\n"
                 "target as it starts and ends). auto (default): a line redrawn in\n"
                 "place on a terminal, a line every 10 s otherwise (a CI log);\n"
                 "always: a line every 10 s even on a terminal; never: nothing",
         .set = [](ParseState& state, std::string_view flag, const std::string& value) -> Problem {
           ProgressMode& mode = ProgressOf(state.options);
           if (value == "auto") {
             mode = ProgressMode::kAuto;
           } else if (value == "always") {
             mode = ProgressMode::kAlways;
           } else if (value == "never") {
             mode = ProgressMode::kNever;
           } else {
             return std::string(flag) + " takes auto, always or never, not '" + value + "'";
           }
           return std::nullopt;
         }},
    Flag{.name = "--concurrency",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kFuzz,
         .help = "send cases over N connections (HTTP) or N server processes (stdio)\n"
                 "at once per revision (default 1, at most 64). The cases sent and the\n"
                 "findings are the same for every N; findings are re-sent and shrunk one\n"
                 "at a time. Over stdio it costs the server N processes per revision\n"
                 "(N times its memory) and N of its cores while cases are sent.",
         .set = [](ParseState& state, std::string_view flag, const std::string& value) -> Problem {
           std::uint64_t connections = 0;
           if (auto problem = ParseNumber(flag, value, 1, connections)) return problem;
           if (connections > kMaxConcurrency) {
             return std::string(flag) + " takes 1 to " + std::to_string(kMaxConcurrency) +
                    ", not '" + value + "'";
           }
           state.options.fuzz.concurrency = static_cast<std::size_t>(connections);
           return std::nullopt;
         }},
    Flag{
        .name = "--report",
        .value = ValueKind::kReport,
        .value_name = "FORMAT=PATH",
        .commands = kCheck | kFuzz | kReplay | kDiff | kMerge,
        .help = "write a report: json, junit, sarif, markdown or html (repeatable;\n"
                "formats in docs/report-format.md); PATH - writes it to stdout, and\n"
                "the summary goes to stderr (one report at most)",
        .set = [](ParseState& state, std::string_view,
                  const std::string& value) { return AddReport(value, ReportsOf(state.options)); }},
    Flag{.name = "--sarif-root",
         .value = ValueKind::kPath,
         .value_name = "PATH",
         .commands = kCheck | kFuzz | kReplay | kDiff | kMerge,
         .help = "SARIF: the repository file (or folder), relative to the repository\n"
                 "root, that code scanning shows a result at when the result has no case\n"
                 "file inside the repository (default: the root); run mcpfuzz from the\n"
                 "root, so that a case file given by a relative path is found there",
         .set = [](ParseState& state, std::string_view flag, const std::string& value) -> Problem {
           const bool relative = !value.empty() && value.front() != '/' && value != ".." &&
                                 !value.starts_with("../") &&
                                 value.find("/../") == std::string::npos && !value.ends_with("/..");
           if (!relative) {
             return std::string(flag) +
                    " takes a path inside the repository, relative to its root (src/server.ts), "
                    "not '" +
                    value + "'";
           }
           state.sarif_root = value;
           return std::nullopt;
         }},
    Flag{.name = "--fail-on",
         .value = ValueKind::kText,
         .value_name = "fail|warn|never",
         .commands = kJudging,
         .help = "what exits 1: fail (default) a FAIL (fuzz: a finding seen again; diff:\n"
                 "a disagreement with a wrong side), a WARN alone is listed and exits 0;\n"
                 "warn: a WARN too; never: nothing. A run that could not judge a target\n"
                 "exits 2 under every value",
         .set = [](ParseState& state, std::string_view flag, const std::string& value) -> Problem {
           auto fail_on = reports::ParseFailOn(value);
           if (!fail_on) {
             return std::string(flag) + " takes fail, warn or never, not '" + value + "'";
           }
           state.options.policy.fail_on = *fail_on;
           return std::nullopt;
         }},
    Flag{.name = "--baseline",
         .value = ValueKind::kPath,
         .value_name = "FILE",
         .commands = kCheck | kFuzz | kReplay,
         .help = "what is known (--write-baseline): what it lists does not fail the run.\n"
                 "check: exit 1 only for a FAIL not listed, or a listed entry that no\n"
                 "longer fails; fuzz, replay: findings by signature, and listed ones not\n"
                 "seen are reported as stale without failing the run",
         .set = [](ParseState& state, std::string_view, const std::string& value) -> Problem {
           state.options.policy.baseline = value;
           return std::nullopt;
         }},
    Flag{.name = "--write-baseline",
         .value = ValueKind::kPath,
         .value_name = "FILE",
         .commands = kCheck | kFuzz | kReplay,
         .help = "write what fails this run under --fail-on (check: by check, revision\n"
                 "and transport; fuzz, replay: by signature) as a baseline, say how many\n"
                 "entries went where, and exit 0 (2 if it could not run)",
         .set = [](ParseState& state, std::string_view, const std::string& value) -> Problem {
           state.options.policy.write_baseline = value;
           return std::nullopt;
         }},
    Flag{.name = "--list",
         .commands = kCheck,
         .help = "list the check ids and exit",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.check.list = true;
           return std::nullopt;
         }},
    Flag{.name = "--list-families",
         .commands = kFuzz,
         .help = "list the generator families and exit",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.fuzz.list_families = true;
           return std::nullopt;
         }},

    Flag{.name = "--shard",
         .value = ValueKind::kText,
         .value_name = "K/N",
         .commands = kFuzz | kDiff | kCheck,
         .help = "run part K of N, so N runs (a CI matrix) share one run and\n"
                 "`mcpfuzz merge` joins their JSON reports into the unsharded run's.\n"
                 "fuzz, diff: only the case indices i with i % N == K-1 (case i is\n"
                 "the same case in every shard). check --targets: only the targets\n"
                 "j (from 0, in file order) with j % N == K-1. A fuzz shard skips\n"
                 "a check after its own hangs, spends its own budgets (big inputs,\n"
                 "sequences) and meets --time alone: then the merged counts may differ\n"
                 "from the unsharded run's",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetShard(flag, value, ShardOf(state.options));
             }},
    Flag{.name = "--baseline-server",
         .value = ValueKind::kText,
         .value_name = "TARGET",
         .commands = kDiff,
         .help = "a minimal server on the same SDK and version as the targets (a\n"
                 "TARGET word as above), sent the same cases as the last column:\n"
                 "each target's answer is marked inherited (the baseline's answer\n"
                 "too: an SDK upgrade fixes it) or own (the server's to fix); cases\n"
                 "where all agree are listed too when some side FAILs or WARNs",
         .set = [](ParseState& state, std::string_view, const std::string& value) -> Problem {
           state.options.baseline_server = value;
           return std::nullopt;
         }},

    // --- survey: check over many targets ---
    Flag{.name = "--targets",
         .value = ValueKind::kPath,
         .value_name = "FILE",
         .commands = kCheck,
         .group = FlagGroup::kSurvey,
         .help = "check every target in FILE instead of one TARGET: one per line,\n"
                 "an http:// or https:// URL or `stdio: COMMAND ARGS` (split on\n"
                 "spaces); lines starting with # are comments. The target options\n"
                 "apply to every target.",
         .set = [](ParseState& state, std::string_view, const std::string& value) -> Problem {
           state.options.check.targets_file = value;
           return std::nullopt;
         }},
    Flag{.name = "--parallel",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kCheck,
         .group = FlagGroup::kSurvey,
         .help = "targets checked at once (default 4)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.check.parallel);
             }},
    Flag{.name = "--parallel-starts",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kCheck,
         .group = FlagGroup::kSurvey,
         .help = "at most N stdio servers starting at once (default: no limit); a\n"
                 "start lasts until the server's first reply, and its\n"
                 "--startup-timeout-ms counts from its turn. For servers whose start is\n"
                 "heavy (npx downloads): a gate makes a survey slower where starts do\n"
                 "not starve",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 1, state.options.check.parallel_starts);
             }},
    Flag{.name = "--host-budget",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kCheck,
         .group = FlagGroup::kSurvey,
         .help = "at most N requests per host in the whole survey (default: no\n"
                 "limit); requests over it are not sent and count as UNVERIFIED",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 0, state.options.check.host_budget);
             }},
    Flag{.name = "--host-spacing-ms",
         .value = ValueKind::kNumber,
         .value_name = "N",
         .commands = kCheck,
         .group = FlagGroup::kSurvey,
         .help = "at least N ms between two requests to one host (default 0)",
         .set =
             [](ParseState& state, std::string_view flag, const std::string& value) {
               return SetNumber(flag, value, 0, state.options.check.host_spacing_ms);
             }},

    // --- every command ---
    Flag{.name = "--help",
         .alias = "-h",
         .commands = kEvery | kMerge,
         .group = FlagGroup::kUnlisted,
         .help = "this command's help",
         .set = [](ParseState& state, std::string_view, const std::string&) -> Problem {
           state.options.command = Command::kHelp;
           state.options.help_topic = state.command_word;
           return std::nullopt;
         }},
};

constexpr std::array kFlagCommands = {
    CommandWord{Command::kProbe, "probe"},   CommandWord{Command::kSend, "send"},
    CommandWord{Command::kCheck, "check"},   CommandWord{Command::kFuzz, "fuzz"},
    CommandWord{Command::kReplay, "replay"}, CommandWord{Command::kDiff, "diff"},
    CommandWord{Command::kMerge, "merge"}};

}  // namespace

std::span<const Flag> Flags() { return kFlags; }

const Flag* FindFlag(std::string_view name) {
  const auto found = std::find_if(kFlags.begin(), kFlags.end(), [&](const Flag& flag) {
    return flag.name == name || (!flag.alias.empty() && flag.alias == name);
  });
  return found == kFlags.end() ? nullptr : &*found;
}

std::span<const CommandWord> FlagCommands() { return kFlagCommands; }

}  // namespace mcpfuzz::cli
