#include "cli/run.h"

#include <iostream>
#include <optional>

#include "cli/check.h"
#include "cli/completion.h"
#include "cli/coverage_agent.h"
#include "cli/diff.h"
#include "cli/fuzz.h"
#include "cli/merge.h"
#include "cli/minimize.h"
#include "cli/options.h"
#include "cli/probe.h"
#include "cli/report_files.h"
#include "cli/run_info.h"
#include "cli/send.h"
#include "cli/signals.h"
#include "cli/survey.h"
#include "cli/target.h"
#include "refserver/refserver.h"

namespace mcpfuzz::cli {
namespace {

int RunOnTarget(const Options& options, const std::string& self_executable, std::ostream& out,
                std::ostream& err) {
  TargetSpec spec = options.target;
  // Kept until the run's servers have ended: they load it when they start.
  std::optional<AgentFile> agent;
  if (options.command == Command::kFuzz && options.fuzz.coverage != CoverageUse::kOff) {
    if (spec.kind != TargetSpec::Kind::kStdioCommand && spec.server_command.empty()) {
      err << "mcpfuzz: --coverage needs a Node or Python server that mcpfuzz starts, over stdio "
             "(-- node server.js) or HTTP (--server-cmd 'node server.js --port {port}'): the "
             "agent is loaded into the process\n";
      return 2;
    }
    auto written = AgentFile::Write();
    if (!written) {
      err << "mcpfuzz: " << written.error().message << "\n";
      return 2;
    }
    agent.emplace(std::move(*written));
    spec.coverage_agent = agent->folder().string();
  }
  auto target = OpenTarget(spec, self_executable);
  if (!target) {
    err << "mcpfuzz: " << target.error().message << "\n";
    return 2;
  }
  if (options.command == Command::kCheck) {
    return RunCheck(options.check, options.policy, **target, out, err);
  }
  if (options.command == Command::kFuzz) {
    return RunFuzz(options.fuzz, options.policy, **target, out, err);
  }
  if (options.command == Command::kReplay) {
    return RunReplay(options.replay_path, options.replay_reports, options.policy, **target, out,
                     err);
  }
  if (options.command == Command::kSend) {
    return RunSend(options.case_files, **target, out, err);
  }
  ProbeReport report = RunProbe(**target);
  PrintProbeReport(report, out);
  if (report.Unreachable()) {
    err << "mcpfuzz: the target could not be reached\n";
    return 2;
  }
  return 0;
}

// A run a signal stopped says so and exits 128 + the signal, whatever it found: what was
// judged before it is in the summary and the reports all the same.
int UnlessStopped(int code, std::ostream& err) {
  if (!StopOnSignals::requested()) return code;
  err << "mcpfuzz: stopped by signal " << StopOnSignals::signal_number()
      << "; what was judged before it is reported\n";
  return StopOnSignals::exit_code();
}

// The command `options` name, its summary on `out`.
int RunParsed(const Options& options, const std::string& self_executable, std::ostream& out,
              std::ostream& err) {
  switch (options.command) {
    case Command::kHelp:
      out << HelpText(options.help_topic);
      return 0;
    case Command::kVersion:
      out << "mcpfuzz " << kToolVersion << " (commit " << BuildCommit() << ")\n";
      return 0;
    case Command::kRefserver:
      return refserver::RunCommandLine(options.passthrough, std::cin, out, err);
    case Command::kMinimize:
      return RunMinimize(options.passthrough, out, err);
    case Command::kCheck:
      if (options.check.list) {
        ListChecks(out);
        return 0;
      }
      if (options.check.targets_file) {
        const StopOnSignals stop_on_signals;  // As for one target below.
        return UnlessStopped(RunSurvey(options.check, options.policy.fail_on, options.target,
                                       self_executable, out, err),
                             err);
      }
      break;
    case Command::kFuzz:
      if (options.fuzz.list_families) {
        ListFamilies(out);
        return 0;
      }
      break;
    case Command::kMerge:
      return RunMerge(options.merge_inputs, options.fuzz.reports, options.policy.fail_on, out, err);
    case Command::kDiff: {
      const StopOnSignals stop_on_signals;
      return UnlessStopped(RunDiffCommand(options, self_executable, out, err), err);
    }
    case Command::kProbe:
    case Command::kSend:
    case Command::kReplay:
      break;
  }
  // From here on a signal stops the run politely first (reports written, children stopped)
  // and at once the second time: see cli/signals.h.
  const StopOnSignals stop_on_signals;
  return UnlessStopped(RunOnTarget(options, self_executable, out, err), err);
}

}  // namespace

int Run(const std::vector<std::string>& args, const std::string& self_executable, std::ostream& out,
        std::ostream& err) {
  // Hidden from the help: the build and packagers call it, people need not.
  if (!args.empty() && args[0] == "completion") {
    return RunCompletion({args.begin() + 1, args.end()}, out, err);
  }
  auto options = ParseOptions(args);
  if (!options) {
    err << "mcpfuzz: " << options.error().message << "\n";
    return 2;
  }
  if (!OutputsWritable(*options, err)) return 2;
  // A report on standard output is a document for a program to read: everything else the run
  // says goes to standard error then.
  const StandardOutputReport standard_output(out);
  return RunParsed(*options, self_executable, ReportsToStandardOutput(*options) ? err : out, err);
}

}  // namespace mcpfuzz::cli
