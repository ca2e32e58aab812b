#include "cli/minimize.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

#include "model/text.h"
#include "reports/finding_file.h"

extern char** environ;  // NOLINT: POSIX

namespace mcpfuzz::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHelp =
    R"(mcpfuzz minimize CRASH [--fuzzer PATH] [--runs N] [--corpus DIR] [--name NAME]

Minimises a finding of a request fuzz target — a crash-* file libFuzzer wrote when an oracle
FAIL, a crash or a hang aborted refserver_handler or live_target — with libFuzzer's own
minimiser, then writes the smallest input that still fails as a case file (the verdict, the
request, and the fuzzer input in base64) to DIR/NAME/libfuzzer-<check id>-<hash>.json, where
`mcpfuzz replay` can send it again.

The libFuzzer binary is --fuzzer PATH, or else the MCPFUZZ_FUZZER environment variable; the
`fuzz` preset builds them as build/fuzz/fuzz-targets/{refserver_handler,live_target}. It runs
as `PATH -minimize_crash=1 -runs=N -exact_artifact_path=TMP CRASH`, then once more on the
result, in this environment: set MCPFUZZ_TARGET_URL or MCPFUZZ_TARGET_COMMAND for
live_target, MCPFUZZ_FAULTS for refserver_handler, as when the crash was found.

Options:
  --fuzzer PATH     the libFuzzer binary that found CRASH
  --runs N          minimisation attempts (default 2000)
  --corpus DIR      default corpus/regression
  --name NAME       the folder for the case, e.g. the server (default libfuzzer)

Example:
  MCPFUZZ_TARGET_COMMAND='node tests/servers/sdk-v1.mjs --stdio' \
    mcpfuzz minimize crash-3f2a… --fuzzer build/fuzz/fuzz-targets/live_target --name sdk-v1-stdio
)";

struct Settings {
  std::string crash;
  std::string fuzzer;
  std::size_t runs = 2000;
  std::string corpus = "corpus/regression";
  std::string name = "libfuzzer";
};

std::optional<std::string> Parse(const std::vector<std::string>& args, Settings& settings) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--fuzzer" || arg == "--runs" || arg == "--corpus" || arg == "--name") {
      if (i + 1 >= args.size()) return arg + " needs a value";
      const std::string& value = args[++i];
      if (arg == "--fuzzer") settings.fuzzer = value;
      if (arg == "--corpus") settings.corpus = value;
      if (arg == "--name") settings.name = value;
      if (arg == "--runs") {
        char* end = nullptr;
        const unsigned long long runs = std::strtoull(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || runs == 0) return "--runs takes a number above 0";
        settings.runs = static_cast<std::size_t>(runs);
      }
    } else if (arg.starts_with("-")) {
      return "unknown option '" + arg + "'";
    } else if (settings.crash.empty()) {
      settings.crash = arg;
    } else {
      return "give one CRASH file";
    }
  }
  if (settings.crash.empty()) return "minimize needs the CRASH file libFuzzer wrote";
  if (settings.fuzzer.empty()) {
    const char* from_environment = std::getenv("MCPFUZZ_FUZZER");
    if (from_environment == nullptr || *from_environment == '\0') {
      return "name the libFuzzer binary with --fuzzer PATH or MCPFUZZ_FUZZER";
    }
    settings.fuzzer = from_environment;
  }
  return std::nullopt;
}

// Runs `argv` with stdout and stderr appended to `log`, `extra_env` added to the environment.
// Returns the exit status, or -1 when it could not start.
int Spawn(const std::vector<std::string>& argv, const fs::path& log, const std::string& extra_env) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env;
  for (char** entry = environ; *entry != nullptr; ++entry) env.push_back(*entry);
  std::string extra = extra_env;
  if (!extra.empty()) env.push_back(extra.data());
  env.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::optional<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string HexHash(std::string_view bytes) {
  std::ostringstream hex;
  hex << std::hex << (std::hash<std::string_view>{}(bytes)&0xFFFFFFFFFFULL);
  return hex.str();
}

}  // namespace

std::string MinimizeHelp() { return kHelp; }

int RunMinimize(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Settings settings;
  if (auto problem = Parse(args, settings)) {
    err << "mcpfuzz: " << *problem << "\nRun `mcpfuzz help minimize` for usage.\n";
    return 2;
  }
  const auto original = ReadFile(settings.crash);
  if (!original) {
    err << "mcpfuzz: cannot read " << settings.crash << "\n";
    return 2;
  }
  std::error_code ignored;
  const fs::path work =
      fs::temp_directory_path() / ("mcpfuzz-minimize-" + std::to_string(getpid()));
  fs::create_directories(work, ignored);
  const fs::path log = work / "libfuzzer.log";
  const fs::path minimized = work / "minimized";

  const int minimize_status =
      Spawn({settings.fuzzer, "-minimize_crash=1", "-runs=" + std::to_string(settings.runs),
             "-exact_artifact_path=" + minimized.string(), settings.crash},
            log, "");
  if (minimize_status < 0) {
    err << "mcpfuzz: could not run " << settings.fuzzer << "\n";
    return 2;
  }
  // libFuzzer writes the artifact only when it found a smaller failing input.
  const fs::path input = fs::exists(minimized) ? minimized : fs::path(settings.crash);
  const fs::path finding = work / "finding.json";
  const int replay_status =
      Spawn({settings.fuzzer, input.string()}, log, "MCPFUZZ_FINDING_FILE=" + finding.string());
  const auto finding_text = ReadFile(finding);
  if (replay_status == 0 || !finding_text) {
    err << "mcpfuzz: " << input.string() << " does not fail (libFuzzer's log: " << log.string()
        << ")\n";
    return 1;
  }
  boost::system::error_code parse_error;
  boost::json::value json = boost::json::parse(*finding_text, parse_error);
  if (parse_error || !json.is_object()) {
    err << "mcpfuzz: the fuzzer wrote an unreadable finding to " << finding.string() << "\n";
    return 2;
  }
  const std::string bytes = ReadFile(input).value_or("");
  boost::json::object& object = json.as_object();
  object["origin"] = "libFuzzer -minimize_crash of " + fs::path(settings.crash).filename().string();
  object["fuzzer"] = fs::path(settings.fuzzer).filename().string();
  object["fuzzer_input_base64"] = Base64Encode(bytes);
  const std::string check_id(object["check_id"].is_string() ? object["check_id"].as_string() : "");
  const std::string name = "libfuzzer-" + check_id + "-" + HexHash(bytes) + ".json";

  auto written = WriteCaseFile(fs::path(settings.corpus) / settings.name, name, json);
  if (!written) {
    err << "mcpfuzz: " << written.error().message << "\n";
    return 2;
  }
  out << "minimised " << original->size() << " → " << bytes.size() << " bytes: "
      << (object["summary"].is_string() ? std::string(object["summary"].as_string()) : "") << "\n"
      << "wrote " << written->string() << "\n";
  fs::remove_all(work, ignored);
  return 0;
}

}  // namespace mcpfuzz::cli
