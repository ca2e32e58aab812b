// mcpfuzz-bench-e2e: `mcpfuzz fuzz` against the reference server, side by side with a bare
// client sending the same bytes as fast as it can, over HTTP (concurrency 1 and 2) and stdio;
// then mcpfuzz's peak RSS after growing case counts. Prints Markdown tables.
//
// The bare client replays what the campaign sends, captured once in-process (recording.cc):
// the era probe, the sessions' openings, every generated case, the closings. mcpfuzz's rate
// is cases over the whole process's wall time, start-up and era probe included; the bare
// client's is the same case count over its whole replay. Each figure is the best of --repeat
// runs, since other work on the machine only ever slows a run down.

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "benchmarks/bench_util.h"
#include "benchmarks/e2e.h"
#include "transport/server_process.h"

namespace mcpfuzz::bench {
namespace {

struct Settings {
  std::string mcpfuzz;
  std::string refserver;
  std::uint64_t seed = 1;
  std::size_t http_cases = 20000;
  std::size_t stdio_cases = 1000;
  std::vector<std::size_t> rss_cases = {10000, 100000};
  std::vector<std::size_t> stdio_quiet_ms = {50};
  int repeat = 3;
};

constexpr const char* kUsage =
    "usage: mcpfuzz-bench-e2e --mcpfuzz PATH --refserver PATH [--seed N] [--http-cases N]\n"
    "         [--stdio-cases N] [--stdio-quiet-ms N[,N...]] [--rss-cases N[,N...]] [--repeat N]\n";

std::vector<std::size_t> Numbers(const std::string& list) {
  std::vector<std::size_t> numbers;
  for (std::size_t start = 0; start < list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    numbers.push_back(Number(list.substr(start, comma - start)));
    start = comma + 1;
  }
  return numbers;
}

Settings Parse(int argc, char** argv) {
  Settings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::runtime_error(flag + " needs a value\n" + kUsage);
    const std::string value = argv[++i];
    if (flag == "--mcpfuzz") {
      settings.mcpfuzz = value;
    } else if (flag == "--refserver") {
      settings.refserver = value;
    } else if (flag == "--seed") {
      settings.seed = Number(value);
    } else if (flag == "--http-cases") {
      settings.http_cases = Number(value);
    } else if (flag == "--stdio-cases") {
      settings.stdio_cases = Number(value);
    } else if (flag == "--repeat") {
      settings.repeat = std::max(1, static_cast<int>(Number(value)));
    } else if (flag == "--rss-cases") {
      settings.rss_cases = Numbers(value);
    } else if (flag == "--stdio-quiet-ms") {
      settings.stdio_quiet_ms = Numbers(value);
    } else {
      throw std::runtime_error("unknown flag " + flag + "\n" + kUsage);
    }
  }
  if (settings.mcpfuzz.empty() || settings.refserver.empty()) throw std::runtime_error(kUsage);
  return settings;
}

// Throughput runs must find nothing (re-sending and shrinking would be timed too); the long
// memory runs may, and say so.
ChildRun Fuzz(const Settings& settings, std::size_t cases, std::vector<std::string> extra,
              bool findings_allowed = false) {
  std::vector<std::string> argv = {settings.mcpfuzz, "fuzz",
                                   "--seed",         std::to_string(settings.seed),
                                   "--cases",        std::to_string(cases)};
  argv.insert(argv.end(), extra.begin(), extra.end());
  ChildRun run = RunChild(argv);
  if (run.exit_code != 0 && !(findings_allowed && run.exit_code == 1)) {
    throw std::runtime_error("mcpfuzz fuzz exited with " + std::to_string(run.exit_code) + ":\n" +
                             run.output);
  }
  return run;
}

std::string Fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// `differing`: requests of the bare client's replays answered with another HTTP status than
// mcpfuzz's recording got (the most of any replay), "-" over stdio.
void Row(const std::string& setting, std::size_t cases, double bare_seconds, double mcpfuzz_seconds,
         const std::string& differing) {
  const double bare = static_cast<double>(cases) / bare_seconds;
  const double mcpfuzz = static_cast<double>(cases) / mcpfuzz_seconds;
  std::cout << "| " << setting << " | " << cases << " | " << Fixed(bare, 0) << " | "
            << Fixed(mcpfuzz, 0) << " | " << Fixed(mcpfuzz / bare, 2) << " | " << differing
            << " |\n"
            << std::flush;
}

void Throughput(const Settings& settings) {
  std::cout
      << "| setting | cases | bare client cases/s | mcpfuzz cases/s | ratio | other status |\n"
      << "|---|---|---|---|---|---|\n";
  auto server = HttpServerProcess::Start({settings.refserver, "--http"}, std::chrono::seconds(10));
  if (!server) throw std::runtime_error("refserver: " + server.error().message);
  RecordSettings record;
  record.seed = settings.seed;
  record.cases = settings.http_cases;
  record.url = server->url();
  const Recording http = Record(record);
  for (std::size_t concurrency : {1U, 2U}) {
    double bare = 1e300;
    double fuzz = 1e300;
    std::size_t differing = 0;
    for (int run = 0; run < settings.repeat; ++run) {
      const BareRun replayed = BareHttp(server->url(), http, concurrency);
      // A few may differ (the era probe's sessions, a request curl re-sent on a new
      // connection); many would mean the bare client made the server do other work.
      if (replayed.status_mismatches * 100 > http.sent.size()) {
        throw std::runtime_error("the bare client got another HTTP status than mcpfuzz for " +
                                 std::to_string(replayed.status_mismatches) + " of " +
                                 std::to_string(http.sent.size()) + " requests");
      }
      bare = std::min(bare, replayed.seconds);
      differing = std::max(differing, replayed.status_mismatches);
      fuzz = std::min(fuzz, Fuzz(settings, settings.http_cases,
                                 {server->url(), "--concurrency", std::to_string(concurrency)})
                                .seconds);
    }
    Row("HTTP, concurrency " + std::to_string(concurrency), settings.http_cases, bare, fuzz,
        std::to_string(differing) + " of " + std::to_string(http.sent.size()));
  }

  const std::vector<std::string> stdio_argv = {settings.refserver, "--stdio"};
  record.cases = settings.stdio_cases;
  record.url.clear();
  record.stdio_argv = stdio_argv;
  const Recording stdio = Record(record);
  for (std::size_t quiet_ms : settings.stdio_quiet_ms) {
    double bare = 1e300;
    double fuzz = 1e300;
    for (int run = 0; run < settings.repeat; ++run) {
      bare = std::min(bare, BareStdio(stdio_argv, stdio,
                                      std::chrono::milliseconds(static_cast<long>(quiet_ms))));
      fuzz = std::min(
          fuzz, Fuzz(settings, settings.stdio_cases,
                     {"--quiet-ms", std::to_string(quiet_ms), "--", settings.refserver, "--stdio"})
                    .seconds);
    }
    Row("stdio, quiet window " + std::to_string(quiet_ms) + " ms", settings.stdio_cases, bare, fuzz,
        "-");
  }
}

void PeakRss(const Settings& settings) {
  auto server = HttpServerProcess::Start({settings.refserver, "--http"}, std::chrono::seconds(10));
  if (!server) throw std::runtime_error("refserver: " + server.error().message);
  std::cout << "\n| mcpfuzz fuzz over HTTP | cases/s | peak RSS (MiB) | findings |\n"
            << "|---|---|---|---|\n";
  for (std::size_t cases : settings.rss_cases) {
    const ChildRun run = Fuzz(settings, cases, {server->url()}, /*findings_allowed=*/true);
    std::cout << "| " << cases << " cases | " << Fixed(static_cast<double>(cases) / run.seconds, 0)
              << " | " << Fixed(static_cast<double>(run.peak_rss_kib) / 1024.0, 1) << " | "
              << (run.exit_code == 0 ? "none" : "some") << " |\n"
              << std::flush;
  }
}

}  // namespace
}  // namespace mcpfuzz::bench

int main(int argc, char** argv) {
  try {
    const mcpfuzz::bench::Settings settings = mcpfuzz::bench::Parse(argc, argv);
    mcpfuzz::bench::Throughput(settings);
    mcpfuzz::bench::PeakRss(settings);
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "mcpfuzz-bench-e2e: " << error.what() << "\n";
    return 1;
  }
}
