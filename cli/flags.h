#pragma once
// The flags of `mcpfuzz probe|send|check|fuzz|replay|diff|merge`, each spelled once in one
// table: its name, the value it takes, the commands it applies to, its help line and what it
// sets. The parser (cli/options.cc) and the help text (cli/help.cc) read this table, and so can
// shell completion. `refserver` and `minimize` read their own arguments.

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cli/options.h"

namespace mcpfuzz::cli {

/// What follows a flag on the command line.
enum class ValueKind {
  kNone,      ///< a switch: no value, and `--flag=value` is refused
  kNumber,    ///< a whole number
  kText,      ///< free text: a header, a fault name
  kPath,      ///< a file or a folder
  kList,      ///< comma-separated names: check ids, generator families
  kRevision,  ///< a protocol revision, 2024-11-05 … 2026-07-28
  kReport,    ///< FORMAT=PATH
};

/// Where the help lists a flag.
enum class FlagGroup {
  kTarget,        ///< `mcpfuzz --help`, "TARGET is one of"
  kTargetOption,  ///< `mcpfuzz --help`, "Target options"
  kCommand,       ///< `mcpfuzz help COMMAND`, "Check options", "Fuzz options", …
  kSurvey,        ///< `mcpfuzz help check`, "Survey options"
  kUnlisted,      ///< --help itself, which the usage lines name
};

/// A set of commands, one bit each.
using Commands = unsigned;
constexpr Commands Bit(Command command) { return 1U << static_cast<unsigned>(command); }

/// What the parser knows while it reads the arguments of one command.
struct ParseState {
  Options& options;
  /// The command as typed: the topic of its --help.
  std::string command_word;
  /// --quiet-ms when given; otherwise the command's default applies once all is read.
  std::optional<std::chrono::milliseconds> quiet_window;
  /// --sarif-root when given: applied to the SARIF reports once all is read.
  std::optional<std::string> sarif_root;
};

/// Takes a flag's value ("" for a switch) into `state`. `flag` is the spelling given, for
/// messages. Returns a problem, or nothing.
using FlagSetter = std::optional<std::string> (*)(ParseState& state, std::string_view flag,
                                                  const std::string& value);

struct Flag {
  std::string_view name = "";
  /// Another spelling that does the same (-h, or an old name kept working), or "".
  std::string_view alias = "";
  ValueKind value = ValueKind::kNone;
  /// The value's placeholder in the help: "N", "FILE", "'Name: value'"; "" for a switch.
  std::string_view value_name = "";
  Commands commands = 0;
  FlagGroup group = FlagGroup::kCommand;
  /// The help line, with '\n' where it wraps.
  std::string_view help = "";
  FlagSetter set = nullptr;
};

/// Every flag, in the order the help lists them. No name or alias appears twice.
std::span<const Flag> Flags();

/// The flag spelled `name` (its name or its alias), or null.
const Flag* FindFlag(std::string_view name);

inline bool AppliesTo(const Flag& flag, Command command) {
  return (flag.commands & Bit(command)) != 0;
}

/// A command whose arguments the table describes, as typed.
struct CommandWord {
  Command command;
  std::string_view word;
};
/// probe, send, check, fuzz and replay.
std::span<const CommandWord> FlagCommands();

}  // namespace mcpfuzz::cli
