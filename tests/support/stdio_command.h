#pragma once
// A stdio server for a test: a command started afresh for each connection, and the python
// fixtures of tests/fixtures.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "transport/transport.h"

namespace mcpfuzz::test_support {

/// Each call starts `argv` as a stdio server with these limits.
inline TransportFactory StdioCommand(std::vector<std::string> argv, Limits limits,
                                     std::chrono::milliseconds shutdown_grace) {
  return [argv = std::move(argv), limits, shutdown_grace]() -> Result<std::unique_ptr<Transport>> {
    StdioTarget stdio;
    stdio.argv = argv;
    stdio.limits = limits;
    stdio.shutdown_grace = shutdown_grace;
    auto spawned = SpawnStdio(std::move(stdio));
    if (!spawned) return spawned.error();
    return std::unique_ptr<Transport>(std::move(*spawned));
  };
}

/// tests/fixtures/`file` run by python3 -S (no site packages: a quicker start), with `flags`.
inline std::vector<std::string> FixtureArgv(const std::string& file,
                                            const std::vector<std::string>& flags = {}) {
  std::vector<std::string> argv = {"python3", "-S",
                                   std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/" + file};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return argv;
}

}  // namespace mcpfuzz::test_support
