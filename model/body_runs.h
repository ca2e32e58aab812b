#pragma once
// A body as literal pieces and long runs of one byte: how a case file stores, and a reproducer
// writes, a 16 MiB request of padding or 100,000 nested brackets in a few hundred bytes.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcpfuzz {

/// Either `literal` (count 0) or `count` copies of `repeated`.
struct BodyRun {
  std::string literal;
  char repeated = 0;
  std::size_t count = 0;
};

/// Runs of one byte this long or longer are worth storing as a run.
inline constexpr std::size_t kLongRun = 4096;

/// `bytes` split into literals and the runs of at least `min_run` copies of one byte.
std::vector<BodyRun> SplitRuns(std::string_view bytes, std::size_t min_run = kLongRun);
/// True when SplitRuns finds at least one run.
bool HasLongRun(std::string_view bytes, std::size_t min_run = kLongRun);
/// The bytes again.
std::string JoinRuns(const std::vector<BodyRun>& runs);

}  // namespace mcpfuzz
