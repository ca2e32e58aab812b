// stdio (tables §8): the server process and everything it wrote, judged over the whole run.
// A stdio server that died or stopped answering during any check was restarted for the checks
// after it; here each such incident becomes the finding it is.

#include <boost/json.hpp>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "oracles/check_ids.h"
#include "oracles/stdio_checks.h"

namespace mcpfuzz::checks::detail {
namespace {

constexpr std::size_t kOversizedBytes = std::size_t{1} << 20U;
// Deeper than naive recursive parsers survive, far below the 1024 levels sane limits allow.
constexpr int kNestingDepth = 100;

boost::json::value Nested(int depth) {
  boost::json::value value = boost::json::array{};
  for (int level = 1; level < depth; ++level) value = boost::json::array{std::move(value)};
  return value;
}

// Keeps the incidents' exchanges in `result` and judges each under its check.
void JudgeIncidents(ResultBuilder& result, const std::vector<Incident>& incidents,
                    const JudgeContext& context, std::string_view what) {
  for (const Incident& incident : incidents) {
    // What the server did before it stopped is what a reproducer must show it: the big line
    // and the request left unanswered after it, on one process.
    const std::size_t first = result.size();
    if (incident.previous) result.Add(*incident.previous);
    const std::size_t index = result.Add(incident.exchange);
    if (index > first) result.ReplaysFrom(index, first);
    std::string label = std::string(what) + " during " +
                        (incident.check_id.empty() ? "the run" : incident.check_id) + " (" +
                        incident.exchange.request.RpcMethod().value_or("a malformed message") + ")";
    result.JudgeAt(index, context, std::move(label));
  }
}

}  // namespace

void KeepsAnswering(RevisionRun& run) {
  const std::string_view id = check::kKeepsAnswering;
  run.set_current_check(id);
  ResultBuilder result(run, id);
  const JudgeContext context = run.Context();

  struct Probe {
    std::string label;
    Request (*build)(Connection&, const RevisionRun&);
  };
  const Probe probes[] = {
      // One line of over a mebibyte, to the impossible tool: no real tool runs.
      {"a 1 MiB line",
       [](Connection& connection, const RevisionRun&) {
         return connection.client().Make(
             "tools/call", {{"name", kImpossibleTool},
                            {"arguments", {{"payload", std::string(kOversizedBytes, 'x')}}}});
       }},
      // _meta is an open object, so the nesting is well-formed.
      {"JSON nested " + std::to_string(kNestingDepth) + " levels deep in _meta",
       [](Connection& connection, const RevisionRun& revision_run) {
         Request request = HarmlessRequest(connection, revision_run);
         Meta(request)["mcpfuzz/nested"] = Nested(kNestingDepth);
         return request;
       }},
      // After the malformed inputs of the jsonrpc checks and the two above.
      {"a well-formed request after the hostile ones", HarmlessRequest},
  };
  for (const Probe& probe : probes) {
    Connection* main = run.Main();
    if (main == nullptr) {
      result.Note(probe.label + " was not sent: " + run.MainFailure());
      continue;
    }
    Exchange exchange = main->Send(probe.build(*main, run), Owed::kReply);
    if (ProcessEnded(exchange.observation) && !exchange.observation.killed_by_mcpfuzz) {
      // A death is stdio.no-early-exit's to judge, as fuzz judges it: one rule per situation.
      result.Add(std::move(exchange));
      result.Note(probe.label + ": the server ended on it, which stdio.no-early-exit judges");
      continue;
    }
    result.Judge(std::move(exchange), context, probe.label);
  }
  JudgeIncidents(result, run.incidents().deafness(), context, "stopped answering");
  if (!result.judged_any()) return run.ReportUnreachable(id);
  run.Report(std::move(result));
}

void NoEarlyExit(RevisionRun& run) {
  const std::string_view id = check::kNoEarlyExit;
  run.set_current_check(id);
  ResultBuilder result(run, id);
  const JudgeContext context = run.Context();
  if (!run.incidents().deaths().empty()) {
    JudgeIncidents(result, run.incidents().deaths(), context, "the server ended");
    if (run.incidents().deaths_seen() > run.incidents().deaths().size()) {
      result.Note("the server ended " + std::to_string(run.incidents().deaths_seen()) +
                  " times; the first " + std::to_string(run.incidents().deaths().size()) +
                  " are kept");
    }
    result.Note("the server was restarted after each end, so later checks still ran");
    return run.Report(std::move(result));
  }
  // Nothing ended the server: it must still be running now.
  Connection* main = run.Main();
  if (main == nullptr) return run.ReportUnreachable(id);
  result.Judge(main->Send(HarmlessRequest(*main, run)), context);
  result.Note("the server survived every input of this revision's checks");
  run.Report(std::move(result));
}

void StdoutOnlyJsonRpc(RevisionRun& run) {
  const std::string_view id = check::kStdoutOnlyJsonRpc;
  if (!run.incidents().last_stdio_exchange()) return run.ReportUnreachable(id);
  ResultBuilder result(run, id);
  // Judged once over every line the server wrote during this revision's checks; the exchanges
  // kept are those whose own output broke the rules, or the last one when none did.
  const Exchange& last = *run.incidents().last_stdio_exchange();
  Request request = last.request;
  Verdict verdict = Judge(id, request, run.incidents().stdout_seen(), run.Context());
  if (run.incidents().stdout_offenders().empty()) {
    result.Merge(std::move(verdict), result.Add(last));
  } else {
    for (const Exchange& offender : run.incidents().stdout_offenders()) result.Add(offender);
    result.Merge(std::move(verdict), 0);
  }
  result.Note("judged over " + std::to_string(run.incidents().stdout_lines_seen()) +
              " stdout lines from " + std::to_string(run.incidents().stdout_exchanges()) +
              " exchanges");
  run.Report(std::move(result));
}

std::optional<CheckResult> StdoutWithoutRevision(const EraReport& eras) {
  const std::string_view id = check::kStdoutOnlyJsonRpc;
  // The exchanges are judged one by one, each in the revision it asked: what is allowed on
  // stdout differs (2025-03-26's batches), and no revision was spoken to pick one for all.
  JudgeContext context;
  context.era_spoken = false;
  std::optional<CheckResult> result;
  std::size_t stdio_exchanges = 0;
  std::size_t offenders = 0;
  for (const EraAttempt& attempt : eras.attempts) {
    if (!attempt.stdio_opening) continue;
    ++stdio_exchanges;
    const OpenOutcome& opening = *attempt.stdio_opening;
    if (CheckStdout(opening.observation, opening.request.revision).empty()) continue;
    ++offenders;
    // Judged as the run's own check judges it: on what stdout carried, whatever ended the
    // exchange (a flood ends it at the window cap).
    Observation stdout_seen;
    stdout_seen.stdout_lines = opening.observation.stdout_lines;
    stdout_seen.messages = opening.observation.messages;
    stdout_seen.non_json = opening.observation.non_json;
    stdout_seen.multi_line_messages = opening.observation.multi_line_messages;
    Verdict verdict = Judge(id, opening.request, stdout_seen, context);
    // The first offender is the one kept: the others are the same server started again for
    // another revision, counted in a note.
    if (!result && verdict.kind == VerdictKind::kFail) {
      result.emplace();
      result->verdict = std::move(verdict);
      result->revision = opening.request.revision;
      result->transport = TransportKind::kStdio;
      result->exchanges.push_back({opening.request, opening.observation, {}});
    }
  }
  if (result) {
    result->verdict.notes.push_back(
        "no revision is spoken: judged from the era probe's exchanges, " +
        std::to_string(offenders) + " of " + std::to_string(stdio_exchanges) +
        " of which carried stdout that is not newline-delimited JSON-RPC");
  }
  return result;
}

}  // namespace mcpfuzz::checks::detail
