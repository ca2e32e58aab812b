#pragma once
// Short texts for people, shared by the table's descriptions and the verdicts' findings.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/channel.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

/// "protocol_error or execution_error".
inline std::string JoinChannels(const std::vector<Channel>& channels) {
  std::string text;
  for (Channel channel : channels) {
    text += (text.empty() ? "" : " or ") + std::string(ToString(channel));
  }
  return text;
}

/// "-32002 or -32602".
inline std::string JoinCodes(const std::vector<std::int64_t>& codes) {
  std::string text;
  for (std::int64_t code : codes) text += (text.empty() ? "" : " or ") + std::to_string(code);
  return text;
}

/// "2xx or 405".
inline std::string JoinStatuses(const std::vector<StatusRange>& statuses) {
  std::string text;
  for (const StatusRange& range : statuses) text += (text.empty() ? "" : " or ") + ToString(range);
  return text;
}

/// True when the Content-Type `content_type` names `media_type` (lowercase), ignoring case and
/// parameters: MediaTypeIs("Text/Event-Stream; charset=utf-8", "text/event-stream").
inline bool MediaTypeIs(std::string_view content_type, std::string_view media_type) {
  if (content_type.size() < media_type.size()) return false;
  for (std::size_t i = 0; i < media_type.size(); ++i) {
    char c = content_type[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != media_type[i]) return false;
  }
  const std::string_view rest = content_type.substr(media_type.size());
  return rest.empty() || rest.front() == ';' || rest.front() == ' ';
}

}  // namespace mcpfuzz::oracles_detail
