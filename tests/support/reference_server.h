#pragma once
// Test support: the reference server (the mcpfuzz-refserver binary) as a target reachable
// through a TransportFactory, with fault switches named as on its command line.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "refserver/faults.h"
#include "support/stdio_command.h"
#include "transport/era_probe.h"
#include "transport/server_process.h"
#include "transport/transport.h"

namespace mcpfuzz::test_support {

/// The reference server answers within milliseconds, so `timeout` only bounds failures. Every
/// notification over stdio waits out the whole quiet window, so it is kept short.
inline Limits ReferenceServerLimits(std::chrono::milliseconds timeout,
                                    std::chrono::milliseconds quiet_window) {
  Limits limits;
  limits.timeout = timeout;
  limits.quiet_window = quiet_window;
  return limits;
}

/// Fault switches by their command-line names (needs mcpfuzz_refserver linked).
inline std::vector<std::string> FaultNames(const refserver::FaultSet& faults) {
  std::vector<std::string> names;
  for (refserver::Fault fault : faults) names.emplace_back(refserver::ToString(fault));
  return names;
}

inline std::string RefServerPath() { return MCPFUZZ_BINARY_DIR "/refserver/mcpfuzz-refserver"; }

/// `flags` are other command-line flags, such as "--dual-era".
inline std::vector<std::string> RefServerArgv(TransportKind kind,
                                              const std::vector<std::string>& faults,
                                              const std::vector<std::string>& flags = {}) {
  std::vector<std::string> argv = {RefServerPath(),
                                   kind == TransportKind::kHttp ? "--http" : "--stdio"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (const std::string& fault : faults) {
    argv.emplace_back("--fault");
    argv.push_back(fault);
  }
  return argv;
}

/// An HTTP server process kept for the target's lifetime, or a fresh stdio process per
/// connection.
struct RefTarget {
  std::shared_ptr<HttpServerProcess> http_server;
  TransportFactory connect;
};

inline RefTarget StartRefServer(
    TransportKind kind, const std::vector<std::string>& faults, Limits limits,
    std::chrono::milliseconds shutdown_grace = std::chrono::milliseconds(300),
    const std::vector<std::string>& flags = {}) {
  RefTarget target;
  if (kind == TransportKind::kHttp) {
    auto started = HttpServerProcess::Start(RefServerArgv(kind, faults, flags),
                                            std::chrono::milliseconds(5000));
    if (!started) {
      ADD_FAILURE() << "cannot start the HTTP reference server: " << started.error().message;
      target.connect = [] { return Result<std::unique_ptr<Transport>>(Error{"not started"}); };
      return target;
    }
    target.http_server = std::make_shared<HttpServerProcess>(std::move(*started));
    target.connect = [url = target.http_server->url(), limits] {
      return OpenHttp(HttpTarget{url, {}, false, limits});
    };
    return target;
  }
  target.connect = StdioCommand(RefServerArgv(kind, faults, flags), limits, shutdown_grace);
  return target;
}

}  // namespace mcpfuzz::test_support
