#pragma once
// Internal: the answers to a random name of each named method the target declared, which
// names.unknown-consistent compares impossible names with.

#include <functional>
#include <vector>

#include "generators/generated_case.h"
#include "oracles/name_answer.h"

namespace mcpfuzz::campaign_detail {

/// tools/call, prompts/get and resources/read of RandomNameFor(method), built by `context`,
/// each only when the target declared its capability and sent by `send`: the answers that came
/// back complete.
std::vector<NameAnswer> AskRandomNames(const GenContext& context,
                                       const std::function<Observation(const Request&)>& send);

}  // namespace mcpfuzz::campaign_detail
