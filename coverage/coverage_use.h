#pragma once
// What a fuzz run does with a server's coverage: the one choice `--coverage` and
// `--coverage-measure` make, read by the campaign.

namespace mcpfuzz {

enum class CoverageUse {
  kOff,
  /// Report how the server's coverage grew; the cases are the black-box run's.
  kMeasure,
  /// Also steer: cases that ran new code join a corpus, and mutants of its entries are sent
  /// between the generated cases (campaign/detail/steering.h). Cases are then sent one at a time,
  /// so each case's coverage is its own.
  kSteer,
};

}  // namespace mcpfuzz
