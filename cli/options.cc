#include "cli/options.h"

#include <algorithm>

#include "cli/flags.h"
#include "cli/targets_file.h"

namespace mcpfuzz::cli {
namespace {

Error Bad(std::string message) { return Error{message + "\nRun `mcpfuzz --help` for usage."}; }

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
    // A switch given a value is refused instead of being misread.
    const Flag* known = FindFlag(flag);
    if (known != nullptr && known->value == ValueKind::kNone) {
      return Bad(flag + " takes no value, not '" + arg + "'");
    }
    split.push_back(flag);
    split.push_back(arg.substr(equals + 1));
  }
  return split;
}

// help, version, refserver and minimize, which the flag table does not describe; nothing for
// the other commands.
std::optional<Result<Options>> ParseCommandOfItsOwn(const std::vector<std::string>& args) {
  Options options;
  const std::string& command = args[0];
  if (command == "help" || command == "--help" || command == "-h") {
    options.help_topic = args.size() > 1 ? args[1] : "";
    if (!IsHelpTopic(options.help_topic)) {
      return Bad("no help on '" + options.help_topic +
                 "'; topics: check, fuzz, diff, merge, replay, probe, send, refserver, minimize");
    }
    return options;
  }
  if (command == "--version" || command == "version") {
    options.command = Command::kVersion;
    return options;
  }
  if (command == "refserver" || command == "minimize") {
    options.command = command == "refserver" ? Command::kRefserver : Command::kMinimize;
    options.passthrough.assign(args.begin() + 1, args.end());
    if (command == "minimize" && std::find(args.begin(), args.end(), "--help") != args.end()) {
      options.command = Command::kHelp;
      options.help_topic = command;
    }
    return options;
  }
  return std::nullopt;
}

std::string CommandsOf(const Flag& flag) {
  std::string names;
  for (const CommandWord& command : FlagCommands()) {
    if (!AppliesTo(flag, command.command)) continue;
    names += (names.empty() ? "" : ", ") + std::string(command.word);
  }
  return names;
}

// The flag at args[i] and its value, if it takes one.
std::optional<std::string> TakeFlag(const Flag& flag, const std::vector<std::string>& args,
                                    std::size_t& i, ParseState& state) {
  const std::string& given = args[i];
  if (!AppliesTo(flag, state.options.command)) {
    return "unknown option '" + given + "' for " + state.command_word + " (an option of " +
           CommandsOf(flag) + ")";
  }
  std::string value;
  if (flag.value != ValueKind::kNone) {
    if (i + 1 >= args.size()) return given + " needs a value";
    value = args[++i];
  }
  return flag.set(state, given, value);
}

// A word that is no flag: the URL target, a case file of `send`, the path `replay` reads.
std::optional<std::string> TakeWord(const std::string& arg, ParseState& state) {
  Options& options = state.options;
  if (options.command == Command::kMerge && !arg.starts_with("-")) {
    options.merge_inputs.push_back(arg);
    return std::nullopt;
  }
  if (options.command == Command::kDiff && !arg.starts_with("-")) {
    options.diff_targets.push_back(arg);  // cli/diff.h: URL, stdio:COMMAND, builtin[:FAULTS]
    return std::nullopt;
  }
  if (IsHttpUrl(arg)) {
    if (options.target.kind != TargetSpec::Kind::kNone) return "give exactly one TARGET";
    options.target.kind = TargetSpec::Kind::kHttpUrl;
    options.target.url = arg;
  } else if (arg.starts_with("-")) {
    return "unknown option '" + arg + "'";
  } else if (options.command == Command::kSend) {
    options.case_files.push_back(arg);
  } else if (options.command == Command::kReplay && options.replay_path.empty()) {
    options.replay_path = arg;
  } else {
    return "'" + arg + "' is not a TARGET (an http:// URL, -- COMMAND, or --builtin)";
  }
  return std::nullopt;
}

// Everything after the command word, up to a --help (which ends the reading).
std::optional<std::string> TakeArguments(const std::vector<std::string>& args, ParseState& state) {
  TargetSpec& target = state.options.target;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::optional<std::string> problem;
    if (arg == "--") {
      if (i + 1 >= args.size()) return "`--` must be followed by the server's command";
      if (target.kind != TargetSpec::Kind::kNone) return "give exactly one TARGET";
      target.kind = TargetSpec::Kind::kStdioCommand;
      target.argv.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      return std::nullopt;
    }
    if (const Flag* flag = FindFlag(arg)) {
      problem = TakeFlag(*flag, args, i, state);
    } else {
      problem = TakeWord(arg, state);
    }
    if (problem) return problem;
    if (state.options.command == Command::kHelp) return std::nullopt;
  }
  return std::nullopt;
}

// What no single flag can tell: a missing TARGET, flags that do not go together.
std::optional<std::string> CheckCombination(const Options& options,
                                            const std::string& command_word) {
  const TargetSpec& target = options.target;
  const Command command = options.command;
  if (command == Command::kCheck && options.check.list) return std::nullopt;
  if (command == Command::kFuzz && options.fuzz.list_families) return std::nullopt;
  if (command == Command::kMerge) {
    if (options.merge_inputs.empty()) return "merge needs one or more REPORT.json";
    return std::nullopt;
  }
  if (command == Command::kDiff) {
    if (target.kind != TargetSpec::Kind::kNone) {
      return "diff takes its targets as words: URLs, stdio:COMMAND, builtin[:FAULT,...]";
    }
    if (options.diff_targets.size() < 2) return "diff needs two or more TARGETs";
    return std::nullopt;
  }
  if (command == Command::kReplay && options.replay_path.empty()) {
    return "replay needs a case file or a folder of them";
  }
  if (command == Command::kCheck && options.check.targets_file) {
    if (target.kind != TargetSpec::Kind::kNone) {
      return "--targets FILE names the targets; give no TARGET with it";
    }
    if (options.policy.baseline || options.policy.write_baseline) {
      return "--baseline and --write-baseline take one target, not --targets";
    }
    if (!target.faults.empty()) return "--fault switches the built-in server; not with --targets";
    if (!target.server_command.empty()) {
      return "--server-cmd starts the one target's server; not with --targets";
    }
    return std::nullopt;
  }
  if (command == Command::kCheck && options.check.shard) {
    return "--shard splits a survey's targets: check takes it with --targets FILE only";
  }
  if (!target.server_command.empty()) {
    if (target.kind != TargetSpec::Kind::kHttpUrl) {
      return "--server-cmd starts an HTTP server: give it no other TARGET than its URL";
    }
  }
  if (target.kind == TargetSpec::Kind::kNone) return command_word + " needs a TARGET";
  const bool builtin = target.kind == TargetSpec::Kind::kBuiltinHttp ||
                       target.kind == TargetSpec::Kind::kBuiltinStdio;
  // An option that could not reach the one target would be ignored in silence. (A survey or a
  // diff may mix HTTP and stdio targets: each option goes to the targets it applies to.)
  const bool stdio = target.kind == TargetSpec::Kind::kStdioCommand ||
                     target.kind == TargetSpec::Kind::kBuiltinStdio;
  if (stdio && !target.extra_headers.empty()) {
    return "--header sends an HTTP header, and a stdio target has no HTTP; to give the server "
           "a value, use --env KEY=VALUE";
  }
  if (!stdio && target.server_command.empty() && (!target.env.empty() || target.env_clear)) {
    return "--env and --env-clear set the environment of a server mcpfuzz starts (-- COMMAND, "
           "--server-cmd); an HTTP target runs on its own";
  }
  if (!target.faults.empty() && !builtin) {
    return "--fault switches the built-in reference server; use it with --builtin";
  }
  if (command == Command::kSend && options.case_files.empty()) {
    return "send needs at least one CASE.json";
  }
  return std::nullopt;
}

}  // namespace

Result<Options> ParseOptions(const std::vector<std::string>& raw_args) {
  if (raw_args.empty()) return Options{};
  auto args = SplitEqualsForms(raw_args);
  if (!args) return args.error();
  if (auto own = ParseCommandOfItsOwn(*args)) return std::move(*own);

  const std::string& word = args->front();
  const auto commands = FlagCommands();
  const auto named = std::find_if(commands.begin(), commands.end(),
                                  [&](const CommandWord& command) { return command.word == word; });
  if (named == commands.end()) return Bad("unknown command '" + word + "'");
  Options options;
  options.command = named->command;
  ParseState state{options, word, std::nullopt, std::nullopt};
  if (auto problem = TakeArguments(*args, state)) return Bad(*problem);
  if (options.command == Command::kHelp) return options;
  if (TargetSpec& target = options.target; !target.server_command.empty() &&
                                           target.kind == TargetSpec::Kind::kNone &&
                                           !options.check.targets_file) {
    // The path the SDKs' examples serve on.
    target.kind = TargetSpec::Kind::kHttpUrl;
    target.url = "http://127.0.0.1:" + std::string(kPortPlaceholder) + "/mcp";
  }

  // A fuzz campaign sends thousands of notifications; each one waits out the quiet window.
  options.target.limits.quiet_window = state.quiet_window.value_or(
      options.command == Command::kFuzz || options.command == Command::kDiff
          ? std::chrono::milliseconds(50)
          : options.target.limits.quiet_window);
  if (auto problem = CheckCombination(options, word)) return Bad(*problem);
  if (state.sarif_root) {
    bool sarif = false;
    for (auto* files : {&options.check.reports, &options.fuzz.reports, &options.replay_reports}) {
      for (ReportFile& file : *files) {
        if (file.format != reports::Format::kSarif) continue;
        file.sarif_root = *state.sarif_root;
        sarif = true;
      }
    }
    if (!sarif) return Bad("--sarif-root places SARIF results: give it with --report sarif=PATH");
  }
  return options;
}

}  // namespace mcpfuzz::cli
