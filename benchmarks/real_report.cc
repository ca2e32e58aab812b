// The real-server benchmark's output: what each fuzz report says, and the Markdown tables.
// Rates are medians over the runs; the ratio is given per A/B pair, since the load on a shared
// machine changes between pairs more than within one.

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/real.h"

namespace mcpfuzz::bench {
namespace {

// The fields of the fuzz report's "timing" object, in the order they are printed.
constexpr const char* kTimingFields[] = {"startup_ms",    "sending_ms",   "silence_ms",
                                         "resends_ms",    "shrinking_ms", "own_cpu_ms",
                                         "servers_cpu_ms"};

std::string Fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Two significant digits below 10 (mcpfuzz's stdio rates and ratios are far below 1 today),
// whole numbers above.
std::string Significant(double value) {
  if (value >= 10 || value <= 0) return Fixed(value, value >= 10 ? 0 : 2);
  const int decimals =
      std::min(6, std::max(2, 1 - static_cast<int>(std::floor(std::log10(value)))));
  return Fixed(value, decimals);
}

std::string Verdict(bool met) { return met ? "met" : "**missed**"; }

std::string Notes(const PairedRuns& runs) {
  std::string out;
  for (const std::string& note : runs.notes) out += (out.empty() ? "" : "; ") + note;
  return out.empty() ? "" : " (" + out + ")";
}

void ThroughputTable(const std::vector<PairedRuns>& all) {
  std::cout << "| target | bare requests/s | mcpfuzz cases/s | ratio per run | aim | cases run "
               "| findings | peak RSS (MiB) |\n"
            << "|---|---|---|---|---|---|---|---|\n";
  for (const PairedRuns& runs : all) {
    std::string ratios;
    std::vector<double> each;
    const std::size_t pairs = std::min(runs.bare_per_second.size(), runs.fuzz_per_second.size());
    for (std::size_t i = 0; i < pairs; ++i) {
      each.push_back(runs.fuzz_per_second[i] / runs.bare_per_second[i]);
      ratios += (i == 0 ? "" : ", ") + Significant(each.back());
    }
    std::string aim = "-";
    const double fuzz = Median(runs.fuzz_per_second);
    if (runs.aim_ratio && !each.empty()) {
      aim = "≥ " + Fixed(*runs.aim_ratio, 1) + "×: " + Verdict(Median(each) >= *runs.aim_ratio);
    } else if (runs.aim_cases_per_second && !runs.fuzz_per_second.empty()) {
      aim = "≥ " + Fixed(*runs.aim_cases_per_second, 0) +
            " cases/s: " + Verdict(fuzz >= *runs.aim_cases_per_second);
    }
    std::string cases;
    std::string findings;
    for (const FuzzFigures& figures : runs.fuzz) {
      cases += (cases.empty() ? "" : ", ") + std::to_string(figures.cases);
      findings += (findings.empty() ? "" : ", ") + std::to_string(figures.findings);
    }
    long rss = 0;
    for (long kib : runs.peak_rss_kib) rss = std::max(rss, kib);
    std::cout << "| " << runs.target << Notes(runs) << " | "
              << (runs.bare_per_second.empty() ? "-" : Significant(Median(runs.bare_per_second)))
              << (runs.bare_errors > 0 ? " (" + std::to_string(runs.bare_errors) + " errors)" : "")
              << " | " << (runs.fuzz_per_second.empty() ? "-" : Significant(fuzz)) << " | "
              << (ratios.empty() ? "-" : ratios) << " | " << aim << " | "
              << (cases.empty() ? "-" : cases) << " | " << (findings.empty() ? "-" : findings)
              << " | " << Fixed(static_cast<double>(rss) / 1024.0, 1) << " |\n";
  }
}

void TimingTable(const std::vector<PairedRuns>& all) {
  std::cout << "\nWhere mcpfuzz's time went (median ms over the runs; n/a: the build writes no "
               "\"timing\" in its report):\n\n"
            << "| target | wall | start-up | sending | waiting for silence | re-sends | "
               "shrinking | mcpfuzz's CPU | the servers' CPU |\n"
            << "|---|---|---|---|---|---|---|---|---|\n";
  for (const PairedRuns& runs : all) {
    if (runs.fuzz_seconds.empty()) continue;
    std::vector<double> wall_ms;
    for (double seconds : runs.fuzz_seconds) wall_ms.push_back(seconds * 1000.0);
    std::cout << "| " << runs.target << " | " << Fixed(Median(wall_ms), 0);
    for (const char* field : kTimingFields) {
      std::vector<double> values;
      for (const FuzzFigures& figures : runs.fuzz) {
        auto found = figures.timing_ms.find(field);
        if (found != figures.timing_ms.end()) values.push_back(found->second);
      }
      std::cout << " | " << (values.empty() ? "n/a" : Fixed(Median(values), 0));
    }
    std::cout << " |\n";
  }
}

void CheckTable(const std::vector<PairedRuns>& all) {
  if (std::none_of(all.begin(), all.end(),
                   [](const PairedRuns& runs) { return runs.check_seconds.has_value(); })) {
    return;
  }
  std::cout << "\n`mcpfuzz check` (wall time of the whole run, server already started for "
               "HTTP):\n\n"
            << "| target | seconds | aim | exit |\n"
            << "|---|---|---|---|\n";
  for (const PairedRuns& runs : all) {
    if (!runs.check_seconds) continue;
    std::string aim = "-";
    if (runs.aim_check_seconds) {
      aim = "< " + Fixed(*runs.aim_check_seconds, 0) +
            " s: " + Verdict(*runs.check_seconds < *runs.aim_check_seconds);
    }
    std::cout << "| " << runs.target << " | " << Fixed(*runs.check_seconds, 2) << " | " << aim
              << " | " << runs.check_exit << (runs.check_exit == 1 ? " (a FAIL found)" : "")
              << " |\n";
  }
}

}  // namespace

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::optional<FuzzFigures> ReadFuzzReport(const std::string& path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  // Through rdbuf(): g++ 12 at -O2 warns (-Wnull-dereference) inside istreambuf_iterator.
  std::ostringstream text;
  text << file.rdbuf();
  boost::system::error_code error;
  const boost::json::value report = boost::json::parse(text.str(), error);
  const auto* object = error ? nullptr : report.if_object();
  if (object == nullptr || !object->contains("cases") || !object->contains("findings")) {
    return std::nullopt;
  }
  FuzzFigures figures;
  figures.cases = static_cast<std::size_t>(object->at("cases").to_number<double>());
  figures.findings = object->at("findings").as_array().size();
  if (const auto* timing = object->if_contains("timing"); timing && timing->is_object()) {
    for (const auto& [name, value] : timing->as_object()) {
      if (value.is_number()) figures.timing_ms[std::string(name)] = value.to_number<double>();
    }
  }
  return figures;
}

void PrintTables(const std::vector<PairedRuns>& runs) {
  ThroughputTable(runs);
  TimingTable(runs);
  CheckTable(runs);
}

}  // namespace mcpfuzz::bench
