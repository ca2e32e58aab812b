#pragma once
// Does a handshake-era server refuse requests sent before initialize? The spec defines no
// reaction (tables §4a L4, §12.4), so this is an observation for reports and for the handshake
// control, not a verdict.

#include <string>
#include <string_view>

#include "model/observation.h"
#include "model/request.h"

namespace mcpfuzz {

/// Whether the server refuses requests before the handshake.
enum class RejectsPreInit { kYes, kNo, kIndeterminate };
std::string_view ToString(RejectsPreInit rejects);

/// Why a pre-initialize request was refused.
enum class RefusalGrounds {
  kNotRefused,  ///< The request was served.
  kOrdering,    ///< Refused because the handshake has not happened.
  kName,        ///< Refused for the method or its params (-32601/-32602), which says nothing
                ///< about ordering unless the same request succeeds after the handshake.
  kUnclear,     ///< No answer, or a refusal that names neither.
};
std::string_view ToString(RefusalGrounds grounds);

/// The classification and what it rests on.
struct PreInitClassification {
  RejectsPreInit rejects = RejectsPreInit::kIndeterminate;
  RefusalGrounds grounds = RefusalGrounds::kUnclear;
  /// For people: "-32601 before the handshake, success after it".
  std::string reason;
};

/// Classifies `before_init`, the answer to `request` sent before initialize. `after_init`, when
/// given, is the answer to the same request after the handshake (the control): a refusal that
/// disappears after the handshake was about ordering; one that persists was about the request.
PreInitClassification ClassifyPreInit(const Request& request, const Observation& before_init,
                                      const Observation* after_init = nullptr);

}  // namespace mcpfuzz
