#include "cli/options.h"

#include <algorithm>
#include <charconv>

#include "cli/minimize.h"

namespace mcpfuzz::cli {
namespace {

constexpr const char* kOverview = R"(mcpfuzz — fuzzing and property testing for MCP servers

mcpfuzz sends MCP servers well-formed and deliberately malformed requests, over Streamable HTTP
or stdio, in the handshake era (2024-11-05 … 2025-11-25) and the stateless era (2026-07-28),
and records on which channel each reply came back: a JSON-RPC protocol error, a tool execution
error (isError: true), a success, no reply, something that is not JSON-RPC, or a transport
failure.

Usage:
  mcpfuzz check TARGET [options]     the spec checklist: every answer judged by the oracles
  mcpfuzz fuzz TARGET [options]      generated request variants, judged, shrunk, kept as cases
  mcpfuzz replay CASES TARGET        send fuzz case files again; exit 1 if any still fails
  mcpfuzz probe TARGET [options]     which revisions a server speaks, and how it answers an
                                     unknown tool, an unknown method and a parse error
  mcpfuzz send CASE.json... TARGET   send request case files exactly as written
  mcpfuzz refserver [options]        run the built-in reference MCP server
  mcpfuzz minimize CRASH [options]   minimise a libFuzzer finding into corpus/regression/
  mcpfuzz help COMMAND               more on one command

TARGET is one of:
  http://127.0.0.1:PORT/mcp          a Streamable HTTP endpoint (loopback unless --allow-remote)
  -- COMMAND ARGS...                 a stdio server started by mcpfuzz (must come last)
  --builtin                          the built-in reference server over HTTP on 127.0.0.1
  --builtin-stdio                    the built-in reference server over stdio

Target options:
  --header 'Name: value'             send this header with every HTTP request (repeatable);
                                     it goes to the target only, redirects are never followed
  --allow-remote                     allow a non-loopback HTTP target
  --timeout-ms N                     per-request time limit (default 5000)
  --max-response-bytes N             bytes kept of one reply (default 4194304)
  --quiet-ms N                       how long to listen for an answer nobody should send
                                     (after a notification; default 250, fuzz: 50)
  --fault NAME                       with --builtin: switch on a reference-server fault
                                     (repeatable; `mcpfuzz refserver --list-faults` lists them)

Examples:
  mcpfuzz check --builtin
  mcpfuzz check --builtin --fault unknown-tool-is-error --report json=report.json
  mcpfuzz fuzz --builtin --fault unknown-method-200 --cases 2000 --corpus findings/
  mcpfuzz replay findings/ --builtin --fault unknown-method-200
  mcpfuzz probe --builtin
  mcpfuzz probe http://127.0.0.1:3000/mcp --header 'Authorization: Bearer $TOKEN'
  mcpfuzz probe -- npx -y @modelcontextprotocol/server-everything stdio
  mcpfuzz send corpus/seed/unknown-tool.json --builtin

Exit codes: 0 done (check: no FAIL), 1 check found a FAIL (or, with --baseline, a new FAIL
or a listed one that no longer fails), 2 could not run (bad arguments, an unwritable report
path, an unreachable target, or a run that judged nothing: the reason is printed), 130 or 143
stopped by Ctrl-C or SIGTERM (reports still written; a second signal exits at once).
Every flag also takes --flag=value.
)";

constexpr const char* kProbeHelp = R"(mcpfuzz probe TARGET [target options]

Asks the target which revisions it speaks: server/discover for 2026-07-28, and one initialize
per handshake revision on a fresh connection (for stdio, a fresh process) each. Then, in the
newest revision of each era it speaks, it sends three read-only probes and shows what came
back: a tools/call naming a tool that cannot exist, an unknown method, and a body that is not
JSON. It never calls a real tool.

The report shows channel, JSON-RPC code and HTTP status. Judging them against the spec is
`mcpfuzz check` (coming next); probe only observes.
)";

constexpr const char* kCheckHelp = R"(mcpfuzz check TARGET [target options] [check options]

Finds which revisions the target speaks, then asks the spec checklist in the newest revision of
each era it speaks: unknown tool (two impossible names, each twice), unknown method, parse
errors, invalid requests, notifications, batches, missing or partial _meta, header/body
disagreement, unsupported versions, missing resource, unknown prompt, invalid cursor, invalid
log level, the handshake control (requests before initialize), sessions, Accept and
Content-Type, GET, and on stdio: stdout hygiene, early exit, a server that stops answering.
Each answer is judged by the oracles (channel, code, HTTP status, envelope) against the spec
tables in docs/spec/: PASS, WARN (a SHOULD broken or a tolerated alternative), FAIL (a MUST
broken), UNVERIFIED (credentials required, rate limited, transport error) or NOT_APPLICABLE
(the target never declared what the check needs). There is no merged score.

Read-only: the only tools/call it sends names a tool that cannot exist, unless --args-probe.

Check options:
  --only ID[,ID...]        run only these checks; an id or a prefix ("headers", "tools.")
  --skip ID[,ID...]        leave these out
  --revision REV           check this revision only (e.g. 2025-06-18)
  --args-probe             also call the first tool with required arguments with {} and with a
                           wrong-typed value (this calls a real tool)
  --report FORMAT=PATH     write a report: json, junit, sarif, markdown or html
                           (repeatable; formats in docs/report-format.md)
  --baseline FILE          known failures: exit 1 only for a FAIL not listed, or a listed
                           entry that no longer fails
  --write-baseline FILE    write this run's FAILs as a baseline
  --list                   list the check ids and exit

Survey options (many servers, one combined report):
  --targets FILE           check every target in FILE instead of one TARGET: one per line,
                           an http:// or https:// URL or `stdio: COMMAND ARGS` (split on
                           spaces); lines starting with # are comments. The target options
                           apply to every target.
  --parallel N             targets checked at once (default 4)
  --host-budget N          at most N requests per host in the whole survey (default: no
                           limit); requests over it are not sent and count as UNVERIFIED
  --host-spacing-ms N      at least N ms between two requests to one host (default 0)

Examples:
  mcpfuzz check --builtin
  mcpfuzz check --builtin-stdio --fault logs-on-stdout --only stdio
  mcpfuzz check http://127.0.0.1:3000/mcp --report json=out.json --baseline known.json
  mcpfuzz check --targets servers.txt --host-spacing-ms 200 --report html=survey.html
  mcpfuzz check --builtin --report junit=junit.xml --report sarif=mcpfuzz.sarif \
      --report markdown=summary.md --report html=report.html
)";

constexpr const char* kFuzzHelp = R"(mcpfuzz fuzz TARGET [target options] [fuzz options]

Sends generated request variants — malformed JSON, invalid requests, unknown methods and names,
_meta and header/body disagreements, session variants, notifications, batches, cursors, log
levels — in the newest revision of each era the target speaks. Every case names the rule it
breaks and is judged by the oracles. A FAIL or WARN, a crash or a hang is a finding: it is sent
again to tell stable from flaky, shrunk to a minimal case with the same failure signature,
deduplicated, and written at once as a case file (append-only: a killed run keeps what it found)
with a one-line reproducer.

The seed is printed and recorded in every case file; the same seed against the same target
sends the same cases. Read-only unless --call-real-tools.

Fuzz options:
  --seed N              the run's seed (default: a new random seed each run, printed first
                        and recorded in every case file and report; give it to replay a run)
  --cases N             generated cases to send (default 1000, or no limit with --time)
  --time SECONDS        stop after this long; with --cases too, whichever comes first
  --families A[,B...]   generator families (`mcpfuzz fuzz --list-families`); default: all that
                        call no real tool
  --corpus DIR          write each finding as DIR/fuzz-<check>-<hash>.json
  --resends N           re-sends per finding to tell stable from flaky (default 3)
  --revision REV        fuzz this revision only
  --call-real-tools     also derive tool arguments from inputSchema and call real tools
  --concurrency N       HTTP targets: send cases over N connections at once, each its own
                        session (default 1, at most 64). The cases sent, the findings and
                        their order are the same for every N; findings are re-sent and shrunk
                        one at a time. Not for stdio targets: a stdio server is one process
                        with one stdin, and a crash is blamed on the case before it.
  --report FORMAT=PATH  write the findings as json, junit, sarif, markdown or html
                        (repeatable)
  --list-families       list the generator families and exit

Exit codes: 0 no finding (or only flaky ones: seen again on none of their re-sends), 1
findings, 2 could not run.
)";

constexpr const char* kReplayHelp = R"(mcpfuzz replay FILE|DIR TARGET [target options]

Sends fuzz case files again (a file, or every *.json in a folder, in name order), each in a
session of its revision, and judges each answer as the case's check. Exit 1 when any case still
fails, 0 when none does, 2 when a file cannot be read or the target cannot be reached.

  --report FORMAT=PATH  write the outcome as json, junit, sarif, markdown or html (repeatable)
)";

constexpr const char* kSendHelp = R"(mcpfuzz send CASE.json... TARGET [target options]

Sends each request case file exactly as written — headers, body bytes, malformed or not — and
prints what came back as JSON. For the handshake era over HTTP, mcpfuzz first opens a session
in the case's revision and attaches its session id unless the case says "session": "omit" or
carries its own Mcp-Session-Id header. The case format is described in corpus/README.md.
)";

constexpr const char* kRefserverHelp =
    R"(mcpfuzz refserver [--stdio | --http [--port N]] [--fault NAME]... [--list-faults]

Runs the built-in reference MCP server: conformant to the spec tables by default, with fault
switches that each make exactly one documented deviation. The same server is the --builtin
target of the other commands.
)";

constexpr std::uint64_t kMaxConcurrency = 64;

Error Bad(std::string message) { return Error{message + "\nRun `mcpfuzz --help` for usage."}; }

// Flags that take no value: `--flag=value` is refused for them instead of being misread.
constexpr std::string_view kSwitches[] = {"--allow-remote",  "--builtin", "--builtin-stdio",
                                          "--args-probe",    "--list",    "--call-real-tools",
                                          "--list-families", "--help",    "-h"};

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

// `--flag=value` becomes `--flag value`, up to the `--` that starts a stdio command.
Result<std::vector<std::string>> SplitEqualsForms(const std::vector<std::string>& args) {
  std::vector<std::string> split;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      split.insert(split.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    const std::size_t equals = arg.find('=');
    if (!arg.starts_with("--") || equals == std::string::npos) {
      split.push_back(arg);
      continue;
    }
    const std::string flag = arg.substr(0, equals);
    if (std::find(std::begin(kSwitches), std::end(kSwitches), flag) != std::end(kSwitches)) {
      return Bad(flag + " takes no value, not '" + arg + "'");
    }
    split.push_back(flag);
    split.push_back(arg.substr(equals + 1));
  }
  return split;
}

Result<std::size_t> ParseCount(const std::string& flag, const std::string& text) {
  std::size_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0) {
    return Bad(flag + " takes a positive whole number, not '" + text + "'");
  }
  return value;
}

Result<Header> ParseHeader(const std::string& text) {
  auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0) {
    return Bad("--header takes 'Name: value', not '" + text + "'");
  }
  // A CR or LF would end the header line and start another on the wire (header injection);
  // curl cannot send a NUL at all.
  if (text.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos) {
    return Bad("--header must not contain CR, LF or NUL: " + EscapeControls(text));
  }
  std::string value = text.substr(colon + 1);
  value.erase(0, value.find_first_not_of(" \t"));
  return Header{text.substr(0, colon), value};
}

bool IsCheckFlag(const std::string& arg) {
  return arg == "--only" || arg == "--skip" || arg == "--revision" || arg == "--args-probe" ||
         arg == "--report" || arg == "--baseline" || arg == "--write-baseline" || arg == "--list" ||
         arg == "--targets" || arg == "--parallel" || arg == "--host-budget" ||
         arg == "--host-spacing-ms";
}

void AddIds(const std::string& list, std::set<std::string>& ids) {
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    std::string id =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!id.empty()) ids.insert(id);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

// `FORMAT=PATH`, added to `reports`; a problem otherwise. Two reports into one path would
// overwrite each other, so that is refused too.
std::optional<std::string> AddReport(const std::string& value, std::vector<ReportFile>& reports) {
  const auto equals = value.find('=');
  const auto format =
      equals == std::string::npos ? std::nullopt : reports::ParseFormat(value.substr(0, equals));
  if (!format || equals + 1 >= value.size()) {
    return "--report takes FORMAT=PATH with FORMAT json, junit, sarif, markdown or html, not '" +
           value + "'";
  }
  ReportFile file{*format, value.substr(equals + 1)};
  for (const auto& other : reports) {
    if (other.path == file.path) return "two --report options name the same file " + file.path;
  }
  reports.push_back(std::move(file));
  return std::nullopt;
}

// Returns a problem, or nothing when the flag (and its value) was taken.
template <typename Next>
std::optional<std::string> ParseCheckFlag(const std::string& flag, Next& next,
                                          CheckSettings& check) {
  if (flag == "--args-probe") {
    check.args_probe = true;
    return std::nullopt;
  }
  if (flag == "--list") {
    check.list = true;
    return std::nullopt;
  }
  auto value = next();
  if (!value) return flag + " needs a value";
  if (flag == "--only") {
    AddIds(*value, check.only);
  } else if (flag == "--skip") {
    AddIds(*value, check.skip);
  } else if (flag == "--revision") {
    check.revision = ParseRevision(*value);
    if (!check.revision) {
      return "--revision takes 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 or 2026-07-28";
    }
  } else if (flag == "--report") {
    return AddReport(*value, check.reports);
  } else if (flag == "--baseline") {
    check.baseline = *value;
  } else if (flag == "--targets") {
    check.targets_file = *value;
  } else if (flag == "--parallel" || flag == "--host-budget" || flag == "--host-spacing-ms") {
    std::size_t number = 0;
    auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), number);
    if (error != std::errc() || end != value->data() + value->size() ||
        (number == 0 && flag == "--parallel")) {
      return flag + " takes a whole number" + (flag == "--parallel" ? " above 0" : "") + ", not '" +
             *value + "'";
    }
    (flag == "--parallel"      ? check.parallel
     : flag == "--host-budget" ? check.host_budget
                               : check.host_spacing_ms) = number;
  } else {
    check.write_baseline = *value;
  }
  return std::nullopt;
}

bool IsFuzzFlag(const std::string& arg) {
  return arg == "--seed" || arg == "--cases" || arg == "--time" || arg == "--families" ||
         arg == "--corpus" || arg == "--resends" || arg == "--revision" ||
         arg == "--call-real-tools" || arg == "--list-families" || arg == "--report" ||
         arg == "--concurrency";
}

template <typename Next>
std::optional<std::string> ParseFuzzFlag(const std::string& flag, Next& next, FuzzSettings& fuzz) {
  if (flag == "--call-real-tools") {
    fuzz.call_real_tools = true;
    return std::nullopt;
  }
  if (flag == "--list-families") {
    fuzz.list_families = true;
    return std::nullopt;
  }
  auto value = next();
  if (!value) return flag + " needs a value";
  if (flag == "--families") {
    AddIds(*value, fuzz.families);
  } else if (flag == "--corpus") {
    fuzz.corpus_dir = *value;
  } else if (flag == "--revision") {
    fuzz.revision = ParseRevision(*value);
    if (!fuzz.revision) {
      return "--revision takes 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 or 2026-07-28";
    }
  } else if (flag == "--report") {
    return AddReport(*value, fuzz.reports);
  } else {
    // --seed may be 0; the counts may not.
    std::uint64_t number = 0;
    auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), number);
    if (error != std::errc() || end != value->data() + value->size() ||
        (number == 0 && flag != "--seed")) {
      return flag + " takes a whole number" + (flag == "--seed" ? "" : " above 0") + ", not '" +
             *value + "'";
    }
    if (flag == "--seed") {
      fuzz.seed = number;
    } else if (flag == "--cases") {
      fuzz.cases = static_cast<std::size_t>(number);
    } else if (flag == "--time") {
      fuzz.seconds = static_cast<std::size_t>(number);
    } else if (flag == "--concurrency") {
      if (number > kMaxConcurrency) {
        return "--concurrency takes 1 to " + std::to_string(kMaxConcurrency) + ", not '" + *value +
               "'";
      }
      fuzz.concurrency = static_cast<std::size_t>(number);
    } else {
      fuzz.resends = static_cast<int>(std::min<std::uint64_t>(number, 100));
    }
  }
  return std::nullopt;
}

}  // namespace

bool IsHelpTopic(const std::string& topic) {
  return topic.empty() || topic == "probe" || topic == "send" || topic == "check" ||
         topic == "fuzz" || topic == "replay" || topic == "refserver" || topic == "minimize";
}

std::string HelpText(const std::string& topic) {
  if (topic == "probe") return kProbeHelp;
  if (topic == "send") return kSendHelp;
  if (topic == "check") return kCheckHelp;
  if (topic == "fuzz") return kFuzzHelp;
  if (topic == "replay") return kReplayHelp;
  if (topic == "refserver") return kRefserverHelp;
  if (topic == "minimize") return MinimizeHelp();
  return kOverview;
}

Result<Options> ParseOptions(const std::vector<std::string>& raw_args) {
  Options options;
  if (raw_args.empty()) return options;
  auto split_args = SplitEqualsForms(raw_args);
  if (!split_args) return split_args.error();
  const std::vector<std::string>& args = *split_args;
  const std::string& command = args[0];
  if (command == "help" || command == "--help" || command == "-h") {
    options.help_topic = args.size() > 1 ? args[1] : "";
    if (!IsHelpTopic(options.help_topic)) {
      return Bad("no help on '" + options.help_topic +
                 "'; topics: check, fuzz, replay, probe, send, refserver, minimize");
    }
    return options;
  }
  if (command == "--version" || command == "version") {
    options.command = Command::kVersion;
    return options;
  }
  if (command == "refserver") {
    options.command = Command::kRefserver;
    options.passthrough.assign(args.begin() + 1, args.end());
    return options;
  }
  if (command == "minimize") {
    options.command = Command::kMinimize;
    options.passthrough.assign(args.begin() + 1, args.end());
    if (std::find(args.begin(), args.end(), "--help") != args.end()) {
      options.command = Command::kHelp;
      options.help_topic = command;
    }
    return options;
  }
  if (command == "probe") {
    options.command = Command::kProbe;
  } else if (command == "send") {
    options.command = Command::kSend;
  } else if (command == "check") {
    options.command = Command::kCheck;
  } else if (command == "fuzz") {
    options.command = Command::kFuzz;
  } else if (command == "replay") {
    options.command = Command::kReplay;
  } else {
    return Bad("unknown command '" + command + "'");
  }

  TargetSpec& target = options.target;
  // A fuzz campaign sends thousands of notifications; each one waits out the quiet window.
  std::optional<std::chrono::milliseconds> quiet_window;
  auto set_kind = [&](TargetSpec::Kind kind) -> std::optional<Error> {
    if (target.kind != TargetSpec::Kind::kNone) return Bad("give exactly one TARGET");
    target.kind = kind;
    return std::nullopt;
  };
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto next = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    std::optional<Error> problem;
    if (arg == "--help" || arg == "-h") {
      options.command = Command::kHelp;
      options.help_topic = command;
      return options;
    } else if (arg == "--") {
      if (i + 1 >= args.size()) return Bad("`--` must be followed by the server's command");
      problem = set_kind(TargetSpec::Kind::kStdioCommand);
      target.argv.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      i = args.size();
    } else if (arg == "--builtin") {
      problem = set_kind(TargetSpec::Kind::kBuiltinHttp);
    } else if (arg == "--builtin-stdio") {
      problem = set_kind(TargetSpec::Kind::kBuiltinStdio);
    } else if (arg == "--allow-remote") {
      target.allow_remote = true;
    } else if (arg == "--header" || arg == "--fault" || arg == "--timeout-ms" ||
               arg == "--max-response-bytes" || arg == "--quiet-ms") {
      auto value = next();
      if (!value) return Bad(arg + " needs a value");
      if (arg == "--header") {
        auto header = ParseHeader(*value);
        if (!header) return header.error();
        target.extra_headers.push_back(*header);
      } else if (arg == "--fault") {
        target.faults.push_back(*value);
      } else {
        auto count = ParseCount(arg, *value);
        if (!count) return count.error();
        if (arg == "--timeout-ms") {
          target.limits.timeout = std::chrono::milliseconds(*count);
        } else if (arg == "--quiet-ms") {
          quiet_window = std::chrono::milliseconds(*count);
        } else {
          target.limits.max_response_bytes = *count;
        }
      }
    } else if (options.command == Command::kCheck && IsCheckFlag(arg)) {
      if (auto problem_text = ParseCheckFlag(arg, next, options.check)) return Bad(*problem_text);
    } else if (options.command == Command::kFuzz && IsFuzzFlag(arg)) {
      if (auto problem_text = ParseFuzzFlag(arg, next, options.fuzz)) return Bad(*problem_text);
    } else if (options.command == Command::kReplay && arg == "--report") {
      auto value = next();
      if (!value) return Bad("--report needs a value");
      if (auto problem_text = AddReport(*value, options.replay_reports)) return Bad(*problem_text);
    } else if (arg.starts_with("http://") || arg.starts_with("https://")) {
      problem = set_kind(TargetSpec::Kind::kHttpUrl);
      target.url = arg;
    } else if (arg.starts_with("-")) {
      return Bad("unknown option '" + arg + "'");
    } else if (options.command == Command::kSend) {
      options.case_files.push_back(arg);
    } else if (options.command == Command::kReplay && options.replay_path.empty()) {
      options.replay_path = arg;
    } else {
      return Bad("'" + arg + "' is not a TARGET (an http:// URL, -- COMMAND, or --builtin)");
    }
    if (problem) return *problem;
  }

  target.limits.quiet_window =
      quiet_window.value_or(options.command == Command::kFuzz ? std::chrono::milliseconds(50)
                                                              : target.limits.quiet_window);
  if (options.command == Command::kCheck && options.check.list) return options;
  if (options.command == Command::kFuzz && options.fuzz.list_families) return options;
  if (options.command == Command::kReplay && options.replay_path.empty()) {
    return Bad("replay needs a case file or a folder of them");
  }
  if (options.command == Command::kCheck && options.check.targets_file) {
    if (target.kind != TargetSpec::Kind::kNone) {
      return Bad("--targets FILE names the targets; give no TARGET with it");
    }
    if (options.check.baseline || options.check.write_baseline) {
      return Bad("--baseline and --write-baseline take one target, not --targets");
    }
    if (!target.faults.empty())
      return Bad("--fault switches the built-in server; not with --targets");
    return options;
  }
  if (target.kind == TargetSpec::Kind::kNone) return Bad(command + " needs a TARGET");
  const bool builtin = target.kind == TargetSpec::Kind::kBuiltinHttp ||
                       target.kind == TargetSpec::Kind::kBuiltinStdio;
  if (!target.faults.empty() && !builtin) {
    return Bad("--fault switches the built-in reference server; use it with --builtin");
  }
  const bool stdio = target.kind == TargetSpec::Kind::kStdioCommand ||
                     target.kind == TargetSpec::Kind::kBuiltinStdio;
  if (options.command == Command::kFuzz && stdio && options.fuzz.concurrency.value_or(1) > 1) {
    return Bad("--concurrency needs an HTTP target: a stdio server is one process with one stdin");
  }
  if (options.command == Command::kSend && options.case_files.empty()) {
    return Bad("send needs at least one CASE.json");
  }
  return options;
}

}  // namespace mcpfuzz::cli
