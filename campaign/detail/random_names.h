#pragma once
// Internal: the answers to a random name of each named method the target declared, which
// names.unknown-consistent compares impossible names with.

#include <vector>

#include "oracles/name_answer.h"
#include "transport/client.h"

namespace mcpfuzz::campaign_detail {

/// tools/call, prompts/get and resources/read of RandomNameFor(method), each only when the
/// server declared its capability, and the answers that came back complete.
std::vector<NameAnswer> AskRandomNames(McpClient& client);

}  // namespace mcpfuzz::campaign_detail
