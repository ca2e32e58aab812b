// mcpfuzz-bench-real: `mcpfuzz fuzz` against the real npm servers the tests install (and the
// reference server), side by side with a bare client, plus the wall time of `mcpfuzz check`.
// Prints Markdown tables and the machine's load; it reports the aims of issue #10 beside the
// figures and never fails on them. It fails (exit 1) only when a run fails: mcpfuzz exits 2,
// a server does not start, or the bare client gets an error.
//
//   mcpfuzz-bench-real --mcpfuzz build/ci/cli/mcpfuzz --servers tests/servers
//
// runs every configuration with the defaults below in about 10 minutes on 2 cores (less once
// mcpfuzz is fast: the time cap bounds the slow runs). Per configuration, --repeat times in
// turn: (A) the bare client against a fresh server, opening one session and sending
// --bare-method requests one after another, as fast as the server answers; (B) `mcpfuzz fuzz
// --cases N --time CAP` against another fresh server (over stdio mcpfuzz starts it itself).
// The bare rate is requests over the request loop alone; mcpfuzz's is cases over its whole
// wall time, start-up included, since that is what its user waits for. Then once, `mcpfuzz
// check` against a fresh server. Exit 77 (CTest: skipped) when the npm servers are not
// installed (scripts/bootstrap.sh installs them).

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/bench_util.h"
#include "benchmarks/e2e.h"
#include "benchmarks/real.h"
#include "transport/server_process.h"

namespace mcpfuzz::bench {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: mcpfuzz-bench-real --mcpfuzz PATH --servers DIR [--refserver PATH] [--node PATH]\n"
    "         [--only ID[,ID...]] [--repeat N] [--seed N] [--stdio-cases N] [--http-cases N]\n"
    "         [--refserver-cases N] [--bare-requests N] [--refserver-requests N]\n"
    "         [--bare-method tools/list|ping] [--time-cap SECONDS] [--check all|none|ID[,ID...]]\n"
    "ids: sdk-v1-stdio sdk-v2-stdio sdk-v2-http everything-stdio fastmcp-http\n"
    "     refserver-http-1 refserver-http-2; with --only also sdk-v2-http-2026\n";

struct Settings {
  std::string mcpfuzz;
  std::string servers;
  std::string refserver;  ///< empty: `mcpfuzz refserver`
  std::string node = "node";
  std::vector<std::string> only;
  int repeat = 2;
  std::uint64_t seed = 1;
  std::size_t stdio_cases = 2000;
  std::size_t http_cases = 2000;
  std::size_t refserver_cases = 20000;
  std::size_t bare_requests = 2000;
  std::size_t refserver_requests = 20000;
  std::string bare_method = "tools/list";
  std::size_t time_cap = 20;
  /// Which configurations `mcpfuzz check` runs against: empty for all.
  std::vector<std::string> check = {};
  bool check_none = false;
};

struct Config {
  std::string id;
  std::string target;
  bool http = false;
  std::vector<std::string> server;  ///< argv; HTTP ones print "listening on URL"
  std::size_t concurrency = 1;
  std::size_t cases = 0;
  std::size_t bare_requests = 0;
  std::optional<double> aim_ratio = std::nullopt;
  std::optional<double> aim_cases_per_second = std::nullopt;
  /// False where another configuration checks the same server already.
  bool check = true;
  /// The bare HTTP client's revision, and what narrows mcpfuzz to it (stdio: kBareRevision).
  std::string revision = kBareRevision;
  std::vector<std::string> fuzz_options = {};
  /// Run without --only.
  bool by_default = true;
};

std::vector<std::string> Split(const std::string& list, char separator = ',') {
  std::vector<std::string> items;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(separator, start), list.size());
    if (comma > start) items.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

Settings Parse(int argc, char** argv) {
  Settings s;
  auto count = [](std::size_t& field) {
    return [&field](const std::string& value) { field = Number(value); };
  };
  auto text = [](std::string& field) {
    return [&field](const std::string& value) { field = value; };
  };
  const std::map<std::string, std::function<void(const std::string&)>> flags = {
      {"--mcpfuzz", text(s.mcpfuzz)},
      {"--servers", text(s.servers)},
      {"--refserver", text(s.refserver)},
      {"--node", text(s.node)},
      {"--bare-method", text(s.bare_method)},
      {"--only", [&s](const std::string& value) { s.only = Split(value); }},
      {"--repeat",
       [&s](const std::string& value) { s.repeat = std::max(1, static_cast<int>(Number(value))); }},
      {"--seed", [&s](const std::string& value) { s.seed = Number(value); }},
      {"--stdio-cases", count(s.stdio_cases)},
      {"--http-cases", count(s.http_cases)},
      {"--refserver-cases", count(s.refserver_cases)},
      {"--bare-requests", count(s.bare_requests)},
      {"--refserver-requests", count(s.refserver_requests)},
      {"--time-cap",
       [&s](const std::string& value) { s.time_cap = std::max<std::size_t>(1, Number(value)); }},
      {"--check",
       [&s](const std::string& value) {
         s.check_none = value == "none";
         if (value != "all" && value != "none") s.check = Split(value);
       }},
  };
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto setter = flags.find(flag);
    if (setter == flags.end()) throw std::runtime_error("unknown flag " + flag + "\n" + kUsage);
    if (i + 1 >= argc) throw std::runtime_error(flag + " needs a value\n" + kUsage);
    setter->second(argv[++i]);
  }
  if (s.mcpfuzz.empty() || s.servers.empty()) throw std::runtime_error(kUsage);
  return s;
}

// posix_spawn takes a path: find `name` on PATH once.
std::string OnPath(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  for (const std::string& dir : Split(path == nullptr ? "" : std::string(path), ':')) {
    const fs::path candidate = fs::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  throw std::runtime_error(name + " is not on PATH");
}

std::vector<Config> Configs(const Settings& s) {
  const std::string node = OnPath(s.node);
  auto script = [&](const std::string& file, std::vector<std::string> args) {
    std::vector<std::string> argv = {node, (fs::path(s.servers) / file).string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  };
  std::vector<std::string> refserver = {s.mcpfuzz, "refserver", "--http"};
  if (!s.refserver.empty()) refserver = {s.refserver, "--http"};
  auto stdio = [&](std::string id, std::string target, std::vector<std::string> server) {
    return Config{.id = std::move(id),
                  .target = std::move(target),
                  .server = std::move(server),
                  .cases = s.stdio_cases,
                  .bare_requests = s.bare_requests};
  };
  auto http = [&](std::string id, std::string target, std::vector<std::string> server,
                  std::size_t cases, std::size_t bare_requests) {
    return Config{.id = std::move(id),
                  .target = std::move(target),
                  .http = true,
                  .server = std::move(server),
                  .cases = cases,
                  .bare_requests = bare_requests};
  };
  std::vector<Config> all;
  all.push_back(stdio("sdk-v1-stdio", "SDK v1, stdio", script("sdk-v1.mjs", {"--stdio"})));
  all.back().aim_ratio = 0.5;
  all.push_back(stdio("sdk-v2-stdio", "SDK v2, stdio", script("sdk-v2.mjs", {"--stdio"})));
  all.push_back(http("sdk-v2-http", "SDK v2, HTTP", script("sdk-v2.mjs", {"--http"}), s.http_cases,
                     s.bare_requests));
  all.back().aim_ratio = 0.9;
  // The same server with both sides in the envelope era only: mcpfuzz fuzzes every era a
  // server speaks, and SDK v2 serves 2026-07-28 on another code path than 2025's. Only with
  // --only for now: `mcpfuzz fuzz --revision` skips the era probe and then exits 2 ("speaks
  // no revision") after its cases.
  all.push_back(http("sdk-v2-http-2026", "SDK v2, HTTP, 2026-07-28 only",
                     script("sdk-v2.mjs", {"--http"}), s.http_cases, s.bare_requests));
  all.back().aim_ratio = 0.9;
  all.back().check = false;
  all.back().revision = kEnvelopeRevision;
  all.back().fuzz_options = {"--revision", kEnvelopeRevision};
  all.back().by_default = false;
  all.push_back(
      stdio("everything-stdio", "server-everything, stdio", script("everything.mjs", {"--stdio"})));
  all.back().aim_ratio = 0.5;
  all.push_back(http("fastmcp-http", "fastmcp, stateful HTTP", script("fastmcp.mjs", {"--http"}),
                     s.http_cases, s.bare_requests));
  all.back().aim_cases_per_second = 200.0;
  for (std::size_t concurrency : {1U, 2U}) {
    const std::string n = std::to_string(concurrency);
    all.push_back(http("refserver-http-" + n, "mcpfuzz-refserver, HTTP, concurrency " + n,
                       refserver, s.refserver_cases, s.refserver_requests));
    all.back().concurrency = concurrency;
    all.back().aim_ratio = 0.9;
    // One check of the reference server is enough.
    all.back().check = concurrency == 1;
  }
  if (s.only.empty()) {
    std::erase_if(all, [](const Config& config) { return !config.by_default; });
    return all;
  }
  std::vector<Config> chosen;
  for (const std::string& id : s.only) {
    auto found = std::find_if(all.begin(), all.end(),
                              [&id](const Config& config) { return config.id == id; });
    if (found == all.end()) throw std::runtime_error("no configuration " + id + "\n" + kUsage);
    chosen.push_back(*found);
  }
  return chosen;
}

HttpServerProcess StartServer(const Config& config) {
  auto server = HttpServerProcess::Start(config.server, std::chrono::seconds(30));
  if (!server) throw std::runtime_error("the server did not start: " + server.error().message);
  return std::move(*server);
}

std::string LoadAverage() {
  std::ifstream file("/proc/loadavg");
  std::string one, five, fifteen;
  file >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen + " (1, 5, 15 min; " +
         std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores)";
}

// The end of what a failed run printed: why it failed, not every finding before that.
std::string Tail(const std::string& output) {
  constexpr std::size_t kKept = 2000;
  return output.size() <= kKept ? output : "..." + output.substr(output.size() - kKept);
}

class Bench {
 public:
  Bench(Settings settings, fs::path scratch)
      : settings_(std::move(settings)), scratch_(std::move(scratch)) {}

  PairedRuns Run(const Config& config) {
    PairedRuns runs;
    runs.target = config.target;
    runs.aim_ratio = config.aim_ratio;
    runs.aim_cases_per_second = config.aim_cases_per_second;
    runs.aim_check_seconds = config.http ? 2.0 : 5.0;
    for (int round = 0; round < settings_.repeat; ++round) {
      Bare(config, runs);
      Fuzz(config, round, runs);
    }
    if (config.check && Checked(config.id)) Check(config, runs);
    return runs;
  }

  const std::vector<std::string>& failures() const { return failures_; }

 private:
  bool Checked(const std::string& id) const {
    if (settings_.check_none) return false;
    return settings_.check.empty() ||
           std::find(settings_.check.begin(), settings_.check.end(), id) != settings_.check.end();
  }

  void Bare(const Config& config, PairedRuns& runs) {
    BareSessionRun bare;
    if (config.http) {
      HttpServerProcess server = StartServer(config);
      bare = BareSessionHttp(server.url(), config.revision, settings_.bare_method,
                             config.bare_requests, config.concurrency);
    } else {
      bare = BareSessionStdio(config.server, settings_.bare_method, config.bare_requests);
    }
    runs.bare_per_second.push_back(static_cast<double>(bare.requests) / bare.seconds);
    std::cerr << config.id << ": bare client, " << bare.requests << " requests in " << bare.seconds
              << " s, " << bare.errors << " errors\n";
    runs.bare_errors += bare.errors;
    if (bare.errors > 0) {
      failures_.push_back(config.target + ": the bare client got " + std::to_string(bare.errors) +
                          " errors, the first: " + bare.first_error);
    }
  }

  // The target's argv for mcpfuzz: a URL of a server started here, or `-- server...`.
  std::vector<std::string> Target(const Config& config, std::optional<HttpServerProcess>& server) {
    if (!config.http) {
      std::vector<std::string> target = {"--"};
      target.insert(target.end(), config.server.begin(), config.server.end());
      return target;
    }
    server.emplace(StartServer(config));
    return {server->url()};
  }

  void Fuzz(const Config& config, int round, PairedRuns& runs) {
    const std::string report = (scratch_ / (config.id + "-" + std::to_string(round) + ".json"));
    fs::remove(report);
    std::vector<std::string> argv = {settings_.mcpfuzz, "fuzz",
                                     "--seed",          std::to_string(settings_.seed),
                                     "--cases",         std::to_string(config.cases),
                                     "--time",          std::to_string(settings_.time_cap),
                                     "--concurrency",   std::to_string(config.concurrency),
                                     "--report",        "json=" + report};
    argv.insert(argv.end(), config.fuzz_options.begin(), config.fuzz_options.end());
    std::optional<HttpServerProcess> server;
    for (std::string& part : Target(config, server)) argv.push_back(std::move(part));
    // A case being shrunk finishes past --time; beyond this it is stuck.
    const ChildRun run = RunChild(argv, std::chrono::seconds(settings_.time_cap * 2 + 60));
    std::cerr << config.id << ": mcpfuzz fuzz exited with " << run.exit_code << " after "
              << run.seconds << " s" << (run.killed ? " (killed at its deadline)" : "") << "\n";
    if (run.exit_code == 2) {
      failures_.push_back(config.target + ": mcpfuzz fuzz exited with 2:\n" + Tail(run.output));
      return;
    }
    const std::optional<FuzzFigures> figures = ReadFuzzReport(report);
    if (run.killed || !figures) {
      runs.notes.push_back(run.killed ? "a fuzz run killed at its deadline"
                                      : "a fuzz run wrote no report");
      return;
    }
    runs.fuzz.push_back(*figures);
    runs.fuzz_seconds.push_back(run.seconds);
    runs.fuzz_per_second.push_back(static_cast<double>(figures->cases) / run.seconds);
    runs.peak_rss_kib.push_back(run.peak_rss_kib);
  }

  void Check(const Config& config, PairedRuns& runs) {
    std::vector<std::string> argv = {settings_.mcpfuzz, "check"};
    std::optional<HttpServerProcess> server;
    for (std::string& part : Target(config, server)) argv.push_back(std::move(part));
    const ChildRun run = RunChild(argv, std::chrono::seconds(300));
    std::cerr << config.id << ": mcpfuzz check exited with " << run.exit_code << " after "
              << run.seconds << " s\n";
    if (run.exit_code == 2 || run.killed) {
      failures_.push_back(config.target + ": mcpfuzz check " +
                          (run.killed ? "killed at its deadline" : "exited with 2") + ":\n" +
                          Tail(run.output));
      return;
    }
    runs.check_seconds = run.seconds;
    runs.check_exit = run.exit_code;
  }

  Settings settings_;
  fs::path scratch_;
  std::vector<std::string> failures_;
};

int Main(int argc, char** argv) {
  const Settings settings = Parse(argc, argv);
  const std::vector<Config> configs = Configs(settings);
  bool needs_node = false;
  for (const Config& config : configs) needs_node = needs_node || config.id.find("refserver") != 0;
  if (needs_node && !fs::exists(fs::path(settings.servers) / "node_modules" / "fastmcp")) {
    std::cerr << "mcpfuzz-bench-real: the npm servers are not installed in " << settings.servers
              << " (scripts/bootstrap.sh installs them); skipped\n";
    return 77;
  }
  std::string scratch_template = (fs::temp_directory_path() / "mcpfuzz-bench-real-XXXXXX");
  if (mkdtemp(scratch_template.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  const fs::path scratch = scratch_template;

  std::cout << "mcpfuzz-bench-real: seed " << settings.seed << ", " << settings.repeat
            << " runs each, bare client sending " << settings.bare_method << " in " << kBareRevision
            << " (unless the target says otherwise), fuzz time cap " << settings.time_cap << " s\n"
            << "load at start: " << LoadAverage() << "\n\n"
            << std::flush;
  Bench bench(settings, scratch);
  std::vector<PairedRuns> all;
  // A configuration that cannot run (its server does not start) is a failure, but the others'
  // figures are still worth printing.
  std::vector<std::string> failures;
  for (const Config& config : configs) {
    try {
      all.push_back(bench.Run(config));
    } catch (const std::exception& error) {
      failures.push_back(config.target + ": " + error.what());
    }
  }
  PrintTables(all);
  std::cout << "\nload at end: " << LoadAverage() << "\n";
  fs::remove_all(scratch);
  failures.insert(failures.begin(), bench.failures().begin(), bench.failures().end());
  for (const std::string& failure : failures)
    std::cerr << "mcpfuzz-bench-real: " << failure << "\n";
  return failures.empty() ? 0 : 1;
}

}  // namespace
}  // namespace mcpfuzz::bench

int main(int argc, char** argv) {
  try {
    return mcpfuzz::bench::Main(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "mcpfuzz-bench-real: " << error.what() << "\n";
    return 1;
  }
}
