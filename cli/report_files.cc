#include "cli/report_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/json/serialize.hpp>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/request.h"

namespace mcpfuzz::cli {

bool WriteFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                         std::ostream& err) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  std::string problem;
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) {
      problem = std::strerror(errno);
    } else {
      try {
        write(file);
      } catch (const std::exception& error) {
        problem = error.what();
      }
      if (problem.empty() && !file.flush()) problem = std::strerror(errno);
    }
  }
  std::error_code error;
  if (problem.empty()) {
    std::filesystem::rename(temporary, path, error);
    if (error) problem = error.message();
  }
  if (problem.empty()) return true;
  std::filesystem::remove(temporary, error);
  err << "mcpfuzz: cannot write " << path << ": " << problem << "\n";
  return false;
}

namespace {

// Creates and removes a file in `folder`: the one test of writability that also holds for
// root, read-only mounts and ACLs, which permission bits alone would misjudge.
std::string ProbeFolder(const std::filesystem::path& folder) {
  const std::filesystem::path probe =
      folder / (".mcpfuzz-write-test-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

bool Writable(const std::string& path, bool is_folder, std::ostream& err) {
  std::error_code error;
  std::filesystem::path folder = path;
  if (is_folder) {
    std::filesystem::create_directories(folder, error);
  } else {
    folder = folder.parent_path();
    if (folder.empty()) folder = ".";
  }
  std::string problem = error ? error.message() : std::string();
  if (problem.empty() && !std::filesystem::is_directory(folder, error)) {
    problem = "no folder " + folder.string();
  }
  if (problem.empty()) problem = ProbeFolder(folder);
  if (problem.empty()) return true;
  err << "mcpfuzz: cannot write " << path << ": " << problem << "\n";
  return false;
}

// The stream of `--report FORMAT=-`, set by StandardOutputReport.
std::ostream* standard_output = nullptr;

const std::vector<ReportFile>* ReportsOf(const Options& options, std::size_t index) {
  const std::vector<ReportFile>* all[] = {&options.check.reports, &options.fuzz.reports,
                                          &options.replay_reports};
  return index < std::size(all) ? all[index] : nullptr;
}

}  // namespace

StandardOutputReport::StandardOutputReport(std::ostream& stream) : previous_(standard_output) {
  standard_output = &stream;
}
StandardOutputReport::~StandardOutputReport() { standard_output = previous_; }

bool ReportsToStandardOutput(const Options& options) {
  for (std::size_t i = 0; const auto* files = ReportsOf(options, i); ++i) {
    for (const auto& file : *files) {
      if (file.path == kStandardOutput) return true;
    }
  }
  return false;
}

bool OutputsWritable(const Options& options, std::ostream& err) {
  bool all = true;
  auto files = [&](const std::vector<ReportFile>& reports) {
    for (const auto& file : reports) {
      if (file.path != kStandardOutput) all = Writable(file.path, false, err) && all;
    }
  };
  files(options.check.reports);
  files(options.fuzz.reports);
  files(options.replay_reports);
  if (options.policy.write_baseline)
    all = Writable(*options.policy.write_baseline, false, err) && all;
  if (options.fuzz.corpus_dir) all = Writable(*options.fuzz.corpus_dir, true, err) && all;
  return all;
}

bool WriteReportFiles(const reports::Report& report, const std::vector<ReportFile>& files,
                      std::ostream& out, std::ostream& err) {
  bool all = true;
  for (const auto& file : files) {
    const reports::SarifOptions sarif{file.sarif_root};
    auto write = [&](std::ostream& stream) { reports::Write(file.format, report, stream, sarif); };
    bool written = false;
    if (file.path != kStandardOutput) {
      written = WriteFileAtomically(file.path, write, err);
    } else if (standard_output == nullptr) {
      err << "mcpfuzz: no standard output to write the " << reports::ToString(file.format)
          << " report to\n";
    } else {
      write(*standard_output);
      written = static_cast<bool>(standard_output->flush());
      if (!written) err << "mcpfuzz: cannot write the report to standard output\n";
    }
    if (written) out << "report: " << reports::ToString(file.format) << " " << file.path << "\n";
    all = all && written;
  }
  return all;
}

Result<reports::Baseline> ReadBaseline(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{"cannot read baseline " + path};
  std::stringstream text;
  text << file.rdbuf();
  auto json = ParseJson(text.str());
  if (!json) return Error{path + " is not JSON"};
  auto baseline = reports::BaselineFromJson(*json);
  if (!baseline) return Error{path + ": " + baseline.error().message};
  return baseline;
}

bool WriteBaseline(const std::string& path, const reports::Baseline& baseline, std::ostream& out,
                   std::ostream& err) {
  const boost::json::value json = reports::BaselineToJson(baseline);
  if (!WriteFileAtomically(
          path, [&](std::ostream& file) { file << boost::json::serialize(json) << "\n"; }, err)) {
    return false;
  }
  const std::size_t entries = baseline.known_failures.size() + baseline.known_findings.size();
  out << "baseline: " << entries << (entries == 1 ? " entry" : " entries") << " written to " << path
      << "\n";
  return true;
}

}  // namespace mcpfuzz::cli
