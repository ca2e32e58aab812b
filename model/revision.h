#pragma once
// MCP protocol revisions and the two eras they fall into.

#include <array>
#include <optional>
#include <string_view>

namespace mcpfuzz {

/// The MCP protocol revisions mcpfuzz knows, oldest first.
enum class Revision {
  k2024_11_05,
  k2025_03_26,
  k2025_06_18,
  k2025_11_25,
  k2026_07_28,
};

inline constexpr std::array<Revision, 5> kAllRevisions = {
    Revision::k2024_11_05, Revision::k2025_03_26, Revision::k2025_06_18, Revision::k2025_11_25,
    Revision::k2026_07_28};

inline constexpr Revision kLatestRevision = Revision::k2026_07_28;
inline constexpr Revision kLatestHandshakeRevision = Revision::k2025_11_25;

/// The handshake era (initialize + sessions, 2024-11-05 … 2025-11-25) or the stateless era
/// (per-request _meta and headers, 2026-07-28).
enum class Era { kHandshake, kStateless };

/// "2025-11-25" for Revision::k2025_11_25.
std::string_view ToString(Revision revision);
/// The revision spelled exactly as the spec spells it, or nothing.
std::optional<Revision> ParseRevision(std::string_view text);

constexpr Era EraOf(Revision revision) {
  return revision == Revision::k2026_07_28 ? Era::kStateless : Era::kHandshake;
}
std::string_view ToString(Era era);

/// Streamable HTTP (sessions) starts at 2025-03-26; before it the HTTP+SSE transport had two
/// endpoints, which mcpfuzz does not speak.
constexpr bool HasStreamableHttp(Revision revision) { return revision >= Revision::k2025_03_26; }
/// The MCP-Protocol-Version header exists from 2025-06-18 on.
constexpr bool HasProtocolVersionHeader(Revision revision) {
  return revision >= Revision::k2025_06_18;
}

}  // namespace mcpfuzz
