#include "model/revision.h"

namespace mcpfuzz {

std::string_view ToString(Revision revision) {
  switch (revision) {
    case Revision::k2024_11_05:
      return "2024-11-05";
    case Revision::k2025_03_26:
      return "2025-03-26";
    case Revision::k2025_06_18:
      return "2025-06-18";
    case Revision::k2025_11_25:
      return "2025-11-25";
    case Revision::k2026_07_28:
      return "2026-07-28";
  }
  return "unknown";
}

std::optional<Revision> ParseRevision(std::string_view text) {
  for (Revision revision : kAllRevisions) {
    if (ToString(revision) == text) return revision;
  }
  return std::nullopt;
}

std::string_view ToString(Era era) { return era == Era::kStateless ? "stateless" : "handshake"; }

}  // namespace mcpfuzz
