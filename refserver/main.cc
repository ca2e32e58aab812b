// mcpfuzz-refserver: the reference MCP server as a program, for running by hand or as a
// stdio/HTTP target of mcpfuzz. `mcpfuzz refserver` is the same program.

#include <iostream>
#include <string>
#include <vector>

#include "refserver/refserver.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return mcpfuzz::refserver::RunCommandLine(args, std::cin, std::cout, std::cerr);
}
