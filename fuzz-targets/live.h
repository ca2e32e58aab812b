#pragma once
// The live harness: fuzz cases sent to a real MCP server named by the environment, judged by
// the oracles, so that libFuzzer's minimiser, -merge and crash artifacts work on servers in
// any language.
//
//   MCPFUZZ_TARGET_URL=http://127.0.0.1:3000/mcp          a Streamable HTTP endpoint (loopback)
//   MCPFUZZ_TARGET_COMMAND='node server.js --stdio'        a stdio server, split on spaces
//   MCPFUZZ_TIMEOUT_MS=5000                                per request (default 5000)
//
// The server (stdio) or connection (HTTP) and one session per revision are kept across inputs;
// the cases never name a tool, prompt or resource the server listed, so no real tool runs.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fuzz-targets/case_spec.h"
#include "fuzz-targets/harness.h"
#include "transport/session.h"
#include "transport/transport.h"

namespace mcpfuzz::fuzzing {

struct LiveSettings {
  std::string url;
  std::vector<std::string> command;
  Limits limits;
};

/// The settings from the environment, or an error naming what is missing or wrong.
Result<LiveSettings> LiveSettingsFromEnvironment();

class LiveTarget {
 public:
  explicit LiveTarget(LiveSettings settings);
  ~LiveTarget();
  LiveTarget(const LiveTarget&) = delete;
  LiveTarget& operator=(const LiveTarget&) = delete;

  /// Sends the case `spec` describes in a session of its revision. Nothing when the spec
  /// builds no case for this target, or the target does not speak the revision.
  std::optional<Judged> Run(const CaseSpec& spec);

 private:
  struct Session;
  Session* SessionFor(Revision revision);

  LiveSettings settings_;
  std::unique_ptr<TargetLink> link_;
  std::map<Revision, std::unique_ptr<Session>> sessions_;
};

}  // namespace mcpfuzz::fuzzing
