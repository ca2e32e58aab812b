// The text of `mcpfuzz --help` and `mcpfuzz help COMMAND`: prose written here, the flag
// lines generated from the flag table (cli/flags.h), so a flag's help is written once.

#include <optional>
#include <string>

#include "cli/diff.h"
#include "cli/flags.h"
#include "cli/merge.h"
#include "cli/minimize.h"
#include "cli/options.h"

namespace mcpfuzz::cli {
namespace {

constexpr const char* kOverviewIntro = R"(mcpfuzz — fuzzing and property testing for MCP servers

mcpfuzz sends MCP servers well-formed and deliberately malformed requests, over Streamable HTTP
or stdio, in the handshake era (2024-11-05 … 2025-11-25) and the stateless era (2026-07-28),
and records on which channel each reply came back: a JSON-RPC protocol error, a tool execution
error (isError: true), a success, no reply, something that is not JSON-RPC, or a transport
failure.

Usage:
  mcpfuzz check TARGET [options]     the spec checklist: every answer judged by the oracles
  mcpfuzz fuzz TARGET [options]      generated request variants, judged, shrunk, kept as cases
  mcpfuzz diff TARGET TARGET...      the same seeded cases to several targets; the answers
                                     that differ, as a matrix (`mcpfuzz help diff`)
  mcpfuzz merge REPORT.json...       join the JSON reports of `--shard K/N` runs (diff, fuzz,
                                     check --targets) into the report the unsharded run
                                     writes, in every format (`mcpfuzz help merge`)
  mcpfuzz replay CASES TARGET        send fuzz case files again: still fails, still warns or
                                     fixed, each; exit 1 if one still fails
  mcpfuzz probe TARGET [options]     which revisions a server speaks, and how it answers an
                                     unknown tool, an unknown method and a parse error
  mcpfuzz send CASE.json... TARGET   send request case files exactly as written
  mcpfuzz refserver [options]        run the built-in reference MCP server
  mcpfuzz minimize CRASH [options]   minimise a libFuzzer finding into corpus/regression/
  mcpfuzz help COMMAND               more on one command

TARGET is one of:
  http://127.0.0.1:PORT/mcp          a Streamable HTTP endpoint (loopback unless --allow-remote)
  -- COMMAND ARGS...                 a stdio server started by mcpfuzz (must come last)
)";

constexpr const char* kOverviewTail = R"(
Examples:
  mcpfuzz check --builtin
  mcpfuzz check --builtin --fault unknown-tool-is-error --report json=report.json
  mcpfuzz fuzz --builtin --fault unknown-method-200 --cases 2000 --corpus findings/
  mcpfuzz replay findings/ --builtin --fault unknown-method-200
  mcpfuzz probe --builtin
  mcpfuzz probe http://127.0.0.1:3000/mcp --header "Authorization: Bearer $TOKEN"
  mcpfuzz probe -- npx -y @modelcontextprotocol/server-everything stdio
  mcpfuzz send corpus/seed/unknown-tool-2025-11-25.json --builtin

Exit codes, one policy for check, fuzz, replay, diff, merge and surveys (--fail-on):
  0    nothing fails the run: no FAIL (fuzz: no finding seen again; diff: no disagreement with
       a wrong side). A WARN alone is listed and exits 0, unless --fail-on warn; --fail-on
       never exits 0 on any verdict. What a --baseline lists does not fail the run, and
       --write-baseline exits 0 once it has said what it wrote.
  1    something fails the run: a FAIL, a finding seen again, a WARN under --fail-on warn, a
       new entry not in the --baseline (check: or a listed one that no longer fails)
  2    could not run, or some target could not be judged: bad arguments, an unwritable report
       path, a target not reached (the reason is printed: connection refused, TLS failed,
       cannot start, exited, reply too large, no reply within a named time limit), or a run
       that judged nothing; a survey or diff names each target it could not judge, and why,
       in every report
  130, 143  stopped by Ctrl-C or SIGTERM (reports still written, marked as stopped early; a
       second signal exits at once)
Every flag also takes --flag=value.
)";

// The column the help lines of a page start in.
constexpr std::size_t kOverviewColumn = 37;
constexpr std::size_t kCheckColumn = 27;
constexpr std::size_t kFuzzColumn = 24;

constexpr const char* kProbeHelp = R"(mcpfuzz probe TARGET [target options]

Asks the target which revisions it speaks: server/discover for 2026-07-28, and one initialize
per handshake revision on a fresh connection (for stdio, a fresh process) each. Then, in the
newest revision of each era it speaks, it sends three read-only probes and shows what came
back: a tools/call naming a tool that cannot exist, an unknown method, and a body that is not
JSON. It never calls a real tool.

The report shows channel, JSON-RPC code and HTTP status. Judging them against the spec is
`mcpfuzz check`; probe only observes.
)";

constexpr const char* kCheckIntro = R"(mcpfuzz check TARGET [target options] [check options]

Finds which revisions the target speaks, then asks the spec checklist in the newest revision of
each era it speaks: unknown tool (two impossible names, each twice), unknown method, parse
errors, invalid requests, notifications, batches, missing or partial _meta, header/body
disagreement, unsupported versions, missing resource, a resource's unsubscribe, unknown prompt,
invalid cursor, a cursor sent twice, invalid log level, a session's log level, the subscription
stream (2026-07-28), the handshake control (requests before initialize), a request cancelled in
flight, sessions, Accept and Content-Type, GET, and on stdio: progress after a response, stdout
hygiene, early exit, a server that stops answering.
Each answer is judged by the oracles (channel, code, HTTP status, envelope, and over HTTP the
log messages and progress its stream carries) against the spec
tables in docs/spec/: PASS, WARN (a SHOULD broken or a tolerated alternative), FAIL (a MUST
broken), UNVERIFIED (credentials required, rate limited, transport error) or NOT_APPLICABLE
(the target never declared what the check needs). There is no merged score.

Read-only: the only tools/call it sends names a tool that cannot exist, unless
--call-real-tools.
)";

constexpr const char* kCheckExamples = R"(
Examples:
  mcpfuzz check --builtin
  mcpfuzz check --builtin-stdio --fault logs-on-stdout --only stdio
  mcpfuzz check http://127.0.0.1:3000/mcp --report json=out.json --baseline known.json
  mcpfuzz check --builtin --fault error-leaks-internals --fail-on warn   # WARNs fail too
  mcpfuzz check --targets servers.txt --host-spacing-ms 200 --report html=survey.html
  mcpfuzz check --builtin --report junit=junit.xml --report sarif=mcpfuzz.sarif \
      --report markdown=summary.md --report html=report.html
)";

constexpr const char* kFuzzIntro = R"(mcpfuzz fuzz TARGET [target options] [fuzz options]

Sends generated request variants — malformed JSON, invalid requests, unknown methods and names,
_meta and header/body disagreements, session variants, notifications, batches, cursors, log
levels, valid JSON nested 10,000-100,000 deep, bodies of 1-16 MiB, and ids, names, _meta keys and header values of up to 1 MiB — in the newest revision of each era the target speaks. Every case names the rule it
breaks and is judged by the oracles. A FAIL or WARN, a crash or a hang is a finding: it is sent
again to tell stable from flaky, shrunk to a minimal case with the same failure signature,
deduplicated, and written at once as a case file (append-only: a killed run keeps what it found)
with a one-line reproducer.

The seed is printed and recorded in every case file; the same seed against the same target
sends the same cases. Read-only unless --call-real-tools.
)";

constexpr const char* kFuzzTail = R"(
Sharding (a CI matrix): `--shard K/N` sends only the case indices i with i % N == K-1, each the
very case the unsharded run sends as case i; `mcpfuzz merge` joins the N JSON reports into the
unsharded run's (findings deduplicated by signature across shards, counts summed). A shard
decides from its own cases only: it skips a check after three of its own cases of it went
unanswered, stops at its own --time, and blames a stdio death on its own previous case; then,
or against a target whose answers depend on earlier cases, the merged counts can differ from
the unsharded run's. Time, sessions and restarts are summed over the shards.

Exit codes: 0 no finding that fails the run (none, only flaky ones: seen again on none of their
re-sends, only WARNs under the default --fail-on fail, only ones the --baseline lists; or a
baseline was written), 1 findings that fail it, 2 could not run. A baseline keys findings by
signature: `--fail-on warn --write-baseline known.json` once, then `--baseline known.json`
lists the new ones and the stale ones (listed, not seen: a run samples, so they do not fail
it).
)";

constexpr const char* kReplayIntro = R"(mcpfuzz replay FILE|DIR TARGET [target options]

Sends fuzz case files again (a file, or every *.json in a folder, in name order), each in a
session of its revision, and judges each answer as the case's check: still fails, still warns
or fixed. Exit 1 when a case still fails (under --fail-on warn: or still warns) and the
--baseline does not list its signature, 0 otherwise, 2 when a file cannot be read or the
target cannot be reached.
)";

constexpr const char* kSendHelp = R"(mcpfuzz send CASE.json... TARGET [target options]

Sends each request case file exactly as written — headers, body bytes, malformed or not — and
prints what came back as JSON. For the handshake era over HTTP, mcpfuzz first opens a session
in the case's revision and attaches its session id unless the case says "session": "omit" or
carries its own Mcp-Session-Id header. The case format is described in corpus/README.md.
)";

constexpr const char* kRefserverHelp =
    R"(mcpfuzz refserver [--stdio | --http [--port N]] [--dual-era] [--server-info NAME/VERSION]
                  [--fault NAME]... [--list-faults]

Runs the built-in reference MCP server: conformant to the spec tables by default, with fault
switches that each make exactly one documented deviation. The same server is the --builtin
target of the other commands. --dual-era makes it one front for both eras, as the dual-era
SDKs are (still conformant): unmarked HTTP requests go to its legacy leg, and over stdio the
first request it serves locks the connection's era. --server-info NAME/VERSION makes it
announce another serverInfo than mcpfuzz-refserver/0.1.0 (split at the last '/'), as servers
of another SDK or release would in a survey.
)";

// One help line per flag of `group` (for `command`, or for any command): the flag and its
// value's name, then its help from `column` on, wrapped where the table wraps it.
std::string FlagLines(FlagGroup group, std::optional<Command> command, std::size_t column) {
  std::string text;
  for (const Flag& flag : Flags()) {
    if (flag.group != group || (command && !AppliesTo(flag, *command))) continue;
    std::string line = "  " + std::string(flag.name);
    if (!flag.value_name.empty()) line += " " + std::string(flag.value_name);
    line.resize(std::max(column, line.size() + 1), ' ');
    std::string help(flag.help);
    if (!flag.alias.empty()) help += "\nalso spelled " + std::string(flag.alias);
    for (std::size_t start = 0; start <= help.size();) {
      const std::size_t end = std::min(help.find('\n', start), help.size());
      text += line + help.substr(start, end - start) + "\n";
      line.assign(column, ' ');
      start = end + 1;
    }
  }
  return text;
}

std::string Overview() {
  return kOverviewIntro + FlagLines(FlagGroup::kTarget, std::nullopt, kOverviewColumn) +
         "\nTarget options:\n" +
         FlagLines(FlagGroup::kTargetOption, std::nullopt, kOverviewColumn) + kOverviewTail;
}

std::string CheckHelp() {
  return kCheckIntro + std::string("\nCheck options:\n") +
         FlagLines(FlagGroup::kCommand, Command::kCheck, kCheckColumn) +
         "\nSurvey options (many servers, one combined report):\n" +
         FlagLines(FlagGroup::kSurvey, Command::kCheck, kCheckColumn) + kCheckExamples;
}

std::string FuzzHelp() {
  return kFuzzIntro + std::string("\nFuzz options:\n") +
         FlagLines(FlagGroup::kCommand, Command::kFuzz, kFuzzColumn) + kFuzzTail;
}

std::string DiffHelp() {
  return DiffHelpIntro() + std::string("\nDiff options:\n") +
         FlagLines(FlagGroup::kCommand, Command::kDiff, kFuzzColumn) +
         "\nTarget options (every target):\n" +
         FlagLines(FlagGroup::kTargetOption, Command::kDiff, kFuzzColumn) + DiffHelpTail();
}

std::string ReplayHelp() {
  return kReplayIntro + std::string("\nReplay options:\n") +
         FlagLines(FlagGroup::kCommand, Command::kReplay, kFuzzColumn);
}

}  // namespace

bool IsHelpTopic(const std::string& topic) {
  return topic.empty() || topic == "probe" || topic == "send" || topic == "check" ||
         topic == "fuzz" || topic == "diff" || topic == "merge" || topic == "replay" ||
         topic == "refserver" || topic == "minimize";
}

std::string HelpText(const std::string& topic) {
  if (topic == "probe") return kProbeHelp;
  if (topic == "send") return kSendHelp;
  if (topic == "check") return CheckHelp();
  if (topic == "fuzz") return FuzzHelp();
  if (topic == "replay") return ReplayHelp();
  if (topic == "diff") return DiffHelp();
  if (topic == "merge") {
    return MergeHelpIntro() + std::string("\nMerge options:\n") +
           FlagLines(FlagGroup::kCommand, Command::kMerge, kFuzzColumn);
  }
  if (topic == "refserver") return kRefserverHelp;
  if (topic == "minimize") return MinimizeHelp();
  return Overview();
}

}  // namespace mcpfuzz::cli
