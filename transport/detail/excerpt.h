#pragma once
// The start of an over-cap reply as a person reads it in an observation's detail, shared by
// the stdio and HTTP transports so an over-long line and an over-cap body read alike.

#include <cstdio>
#include <string>
#include <string_view>

#include "transport/detail/line_splitter.h"

namespace mcpfuzz::transport_detail {

/// The first kExcerptBytes of `bytes`, printable ASCII as is and every other byte (and '\\')
/// as \xNN, so binary or broken UTF-8 cannot garble a terminal or a report.
inline std::string EscapedExcerpt(std::string_view bytes) {
  std::string excerpt;
  for (const char c : bytes.substr(0, kExcerptBytes)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '\\') {
      excerpt += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      excerpt += escaped;
    }
  }
  return excerpt;
}

}  // namespace mcpfuzz::transport_detail
