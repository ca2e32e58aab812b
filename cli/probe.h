#pragma once
// `mcpfuzz probe`: which revisions a target speaks, and how it answers three read-only
// questions in the newest revision of each era it speaks. Observation only, no verdicts.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/target.h"
#include "model/channel.h"
#include "transport/era_probe.h"

namespace mcpfuzz::cli {

/// The tool name of the unknown-tool probe: no server can have it.
inline constexpr const char* kImpossibleToolName = "__mcpfuzz_probe_nonexistent_tool__";

struct ProbeRow {
  std::string probe;
  Revision revision = kLatestRevision;
  Channel channel = Channel::kNoReply;
  std::optional<std::int64_t> error_code;
  int http_status = 0;
  /// The error message or result text, unescaped; printing escapes it.
  std::string excerpt;
};

struct ProbeReport {
  std::string target;
  EraReport eras;
  std::vector<ProbeRow> rows;
  /// True when no attempt reached the target at all.
  bool Unreachable() const;
};

ProbeReport RunProbe(Target& target);
void PrintProbeReport(const ProbeReport& report, std::ostream& out);

}  // namespace mcpfuzz::cli
