#pragma once
// Turns a TargetSpec into something requests can be sent to: a transport factory, plus the
// built-in reference server kept running for as long as the target lives.

#include <memory>
#include <string>
#include <vector>

#include "cli/options.h"
#include "model/reproducer.h"
#include "model/result.h"
#include "transport/era_probe.h"

namespace mcpfuzz::cli {

class Target {
 public:
  virtual ~Target() = default;
  /// A fresh connection (for stdio: a fresh server process).
  virtual Result<std::unique_ptr<Transport>> Connect() = 0;
  /// For people: "http://127.0.0.1:41234/mcp (built-in reference server)".
  virtual std::string Describe() const = 0;
  /// The target's name across runs (no random port): reports::RunInfo::stable_target.
  virtual std::string StableName() const { return Describe(); }
  /// Where a reproducer sends its request.
  virtual ReproducerTarget ReproduceAt() const = 0;
  /// What a report should say of the target itself once a run is over (a server mcpfuzz
  /// started again).
  virtual std::vector<std::string> Notes() const { return {}; }
  TransportFactory Factory() {
    return [this] { return Connect(); };
  }
};

/// Starts the built-in reference server when the spec asks for it. `self_executable` is the
/// path of the running mcpfuzz, used to start the built-in server over stdio.
Result<std::unique_ptr<Target>> OpenTarget(const TargetSpec& spec,
                                           const std::string& self_executable);

}  // namespace mcpfuzz::cli
