#include "cli/report_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>

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

bool WriteReportFiles(const reports::Report& report, const std::vector<ReportFile>& files,
                      std::ostream& out, std::ostream& err) {
  bool all = true;
  for (const auto& file : files) {
    const bool written = WriteFileAtomically(
        file.path, [&](std::ostream& stream) { reports::Write(file.format, report, stream); }, err);
    if (written) out << "report: " << reports::ToString(file.format) << " " << file.path << "\n";
    all = all && written;
  }
  return all;
}

}  // namespace mcpfuzz::cli
