#pragma once
// Internal: names.unknown-consistent's comparison of an answer with a random name's.

#include <string>
#include <vector>

#include "oracles/detail/judge_aspects.h"

namespace mcpfuzz::oracles_detail {

/// The problems of `c`'s answer next to c.context.random_name_answer (which must be set).
std::vector<Finding> CompareWithRandomName(const Judging& c);

}  // namespace mcpfuzz::oracles_detail
