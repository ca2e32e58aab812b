#pragma once
// Inputs of the in-process benchmarks: generator contexts as a session with the reference
// server sees them, and generated cases with the reference server's answers recorded as
// observations — produced in-process by ReferenceServer's I/O-free handlers, so the numbers
// measure mcpfuzz's code and nothing of a socket or a pipe.

#include <cstddef>
#include <string>
#include <vector>

#include "generators/generated_case.h"
#include "model/observation.h"

namespace mcpfuzz::bench {

/// A context a session would build: revision, transport, capabilities and tools of the
/// conformant reference server. `call_real_tools` is set, so every family applies somewhere.
struct NamedContext {
  std::string name;  ///< "2025-11-25/stdio"
  GenContext context;
};

/// 2026-07-28/http, 2025-11-25/http and 2025-11-25/stdio.
const std::vector<NamedContext>& Contexts();

/// One generated case and what the reference server answered.
struct RecordedCase {
  GeneratedCase generated;
  Observation observation;
};

/// `count` cases per context (seeds 0..count-1, the campaign's size cycle), each answered by a
/// conformant reference server in a session of the case's revision. Built once.
const std::vector<RecordedCase>& Recorded(std::size_t count = 500);

}  // namespace mcpfuzz::bench
