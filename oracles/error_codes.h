#pragma once
// JSON-RPC and MCP error codes (tables §2), and the code-range policy of 2026-07-28.

#include <cstdint>

#include "model/revision.h"

namespace mcpfuzz {

/// JSON-RPC 2.0's own codes (all revisions).
inline constexpr std::int64_t kParseErrorCode = -32700;
inline constexpr std::int64_t kInvalidRequestCode = -32600;
inline constexpr std::int64_t kMethodNotFoundCode = -32601;
inline constexpr std::int64_t kInvalidParamsCode = -32602;
inline constexpr std::int64_t kInternalErrorCode = -32603;
/// Resource not found, 2024-11-05 … 2025-11-25 only; MUST NOT be emitted in 2026-07-28.
inline constexpr std::int64_t kResourceNotFoundCode = -32002;
/// URL elicitation required, 2025-11-25 only; MUST NOT be emitted in 2026-07-28.
inline constexpr std::int64_t kUrlElicitationRequiredCode = -32042;
/// The codes 2026-07-28 defines in its reserved range, each with HTTP 400.
inline constexpr std::int64_t kHeaderMismatchCode = -32020;
inline constexpr std::int64_t kMissingClientCapabilityCode = -32021;
inline constexpr std::int64_t kUnsupportedProtocolVersionCode = -32022;

/// 2026-07-28 reserves -32020..-32099 for codes the spec defines.
constexpr bool InSpecRange(std::int64_t code) { return code >= -32099 && code <= -32020; }
/// 2026-07-28 calls -32000..-32019 legacy: new implementations SHOULD NOT use it.
constexpr bool InLegacyRange(std::int64_t code) { return code >= -32019 && code <= -32000; }

/// True when `revision` defines `code` inside -32020..-32099: -32042 in 2025-11-25; -32020,
/// -32021 and -32022 in 2026-07-28.
constexpr bool IsDefinedSpecRangeCode(Revision revision, std::int64_t code) {
  if (revision == Revision::k2025_11_25) return code == kUrlElicitationRequiredCode;
  if (revision != Revision::k2026_07_28) return false;
  return code == kHeaderMismatchCode || code == kMissingClientCapabilityCode ||
         code == kUnsupportedProtocolVersionCode;
}

}  // namespace mcpfuzz
