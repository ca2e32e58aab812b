// mcpfuzz: fuzzing and property testing for MCP servers. See `mcpfuzz --help`.

#include <malloc.h>
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
  // glibc raises its mmap threshold each time a large block is freed, up to 32 MiB, after
  // which the 1-16 MiB bodies of the limits family come from the heaps of several threads and
  // stay there: a 2,000-case `fuzz --builtin` peaked at 640 MB. A fixed threshold gives every
  // block over 1 MiB back when it is freed (peak about 105 MB), for some page faults.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  std::vector<std::string> args(argv + 1, argv + argc);
  return mcpfuzz::cli::Run(args, SelfExecutable(argv[0]), std::cout, std::cerr);
}
