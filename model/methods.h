#pragma once
// The method names the MCP revisions define (2024-11-05 … 2026-07-28), requests and
// notifications in either direction: what a generated "unknown" method must never be.

#include <span>
#include <string_view>

namespace mcpfuzz {

std::span<const std::string_view> KnownMethods();

/// Exactly one of KnownMethods().
bool IsKnownMethod(std::string_view method);

/// One of KnownMethods() up to ASCII case, or any notifications/… name. A case variant of a
/// real method is not judged as unknown: servers may match leniently, and the spec names no
/// code for that.
bool ResemblesKnownMethod(std::string_view method);

}  // namespace mcpfuzz
