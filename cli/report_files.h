#pragma once
// Report files: every `--report FORMAT=PATH` of a run written from the one report model.

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/options.h"
#include "model/result.h"
#include "reports/baseline.h"
#include "reports/report.h"

namespace mcpfuzz::cli {

/// Writes `path` through a temporary file in the same folder renamed into place, so a reader
/// never sees half a file and an old report survives a failed write. On failure, says why on
/// `err`, naming the path, and returns false.
bool WriteFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                         std::ostream& err);

/// Refuses, before a run starts, output it could not write at its end: each `--report` and
/// `--write-baseline` file (its folder must exist and take a new file) and the `--corpus`
/// folder (created if missing). Names each unwritable path on `err`; false if any.
bool OutputsWritable(const Options& options, std::ostream& err);

/// Writes each requested report and names it on `out` ("report: html report.html"). A report
/// whose path is `-` goes to the stream a StandardOutputReport names. Returns false when any
/// could not be written; the others are still written.
bool WriteReportFiles(const reports::Report& report, const std::vector<ReportFile>& files,
                      std::ostream& out, std::ostream& err);

/// True when a `--report` of `options` goes to standard output (`FORMAT=-`): then the run's
/// summary and messages go to standard error, so standard output holds that document alone.
bool ReportsToStandardOutput(const Options& options);

/// While it lives, a `--report FORMAT=-` is written to `stream` (cli::Run's standard output);
/// outside one, such a report cannot be written.
class StandardOutputReport {
 public:
  explicit StandardOutputReport(std::ostream& stream);
  ~StandardOutputReport();
  StandardOutputReport(const StandardOutputReport&) = delete;
  StandardOutputReport& operator=(const StandardOutputReport&) = delete;

 private:
  std::ostream* previous_;
};

/// Reads a `--baseline FILE`; the error names the file and what is wrong with it.
Result<reports::Baseline> ReadBaseline(const std::string& path);

/// Writes a `--write-baseline FILE` and says on `out` how many entries went where ("baseline:
/// 3 entries written to known.json"); on failure says why on `err` and returns false.
bool WriteBaseline(const std::string& path, const reports::Baseline& baseline, std::ostream& out,
                   std::ostream& err);

}  // namespace mcpfuzz::cli
