#pragma once
// The JSON shape of what a target announced itself as, `server_info` in the check, survey, fuzz
// and diff reports: written and read back in one place, so the four reports and the merges
// agree on it.

#include <boost/json.hpp>
#include <optional>
#include <string_view>

#include "reports/detail/json_read.h"
#include "transport/client.h"

namespace mcpfuzz::reports::detail {

/// {"name", "version"} and "title" when one was given; null when nothing was announced.
inline boost::json::value ServerInfoToJson(const std::optional<ServerInfo>& info) {
  if (!info) return nullptr;
  boost::json::object out{{"name", info->name}, {"version", info->version}};
  if (!info->title.empty()) out["title"] = info->title;
  return out;
}

/// The member `key` of `object` as ServerInfoToJson wrote it; nothing when it is not an object.
inline std::optional<ServerInfo> ServerInfoFromJson(const boost::json::object& object,
                                                    std::string_view key = "server_info") {
  const boost::json::value* info = object.if_contains(key);
  if (info == nullptr || !info->is_object()) return std::nullopt;
  const boost::json::object& i = info->as_object();
  return ServerInfo{Text(i, "name"), Text(i, "version"), Text(i, "title")};
}

}  // namespace mcpfuzz::reports::detail
