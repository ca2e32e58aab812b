// mcpfuzz: fuzzing and property testing for MCP servers. See `mcpfuzz --help`.

#include <unistd.h>

#include <climits>
#include <iostream>
#include <string>
#include <vector>

#include "cli/run.h"

namespace {

// The built-in stdio reference server is this same binary started as `mcpfuzz refserver`.
std::string SelfExecutable(const char* argv0) {
  char path[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::string(path, static_cast<std::size_t>(length)) : std::string(argv0);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return mcpfuzz::cli::Run(args, SelfExecutable(argv[0]), std::cout, std::cerr);
}
