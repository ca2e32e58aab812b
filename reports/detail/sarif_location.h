#pragma once
// Where a SARIF result is placed, for code scanning: a file of the repository the workflow
// checked out, as a URI relative to its root (uriBaseId %SRCROOT%), never the target's URL or
// command, which code scanning cannot show a result at. A result whose case file lies inside
// the repository (given by a relative path, as a committed corpus is) is placed at that file;
// any other at SarifOptions::root (`--sarif-root`).

#include <algorithm>
#include <boost/json.hpp>
#include <string>
#include <string_view>

namespace mcpfuzz::reports::detail {

inline constexpr std::string_view kSarifUriBase = "%SRCROOT%";

/// `path` with "./" and empty segments dropped; "" when it is absolute, escapes its root ("..")
/// or names nothing.
inline std::string RepositoryPath(std::string_view path) {
  if (path.empty() || path.front() == '/') return {};
  std::string normal;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    const std::string_view segment = path.substr(start, slash - start);
    start = slash + 1;
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") return {};
    normal += (normal.empty() ? "" : "/") + std::string(segment);
  }
  return normal;
}

/// A relative path as a URI reference: RFC 3986 path characters kept, every other byte
/// percent-encoded, a ':' too (in a first segment it would read as a scheme).
inline std::string PathUri(std::string_view path) {
  static constexpr std::string_view kKept =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,;=@";
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri;
  for (char c : path) {
    if (kKept.find(c) != std::string_view::npos) {
      uri += c;
      continue;
    }
    const auto byte = static_cast<unsigned char>(c);
    uri += '%';
    uri += kHex[byte >> 4U];
    uri += kHex[byte & 0xFU];
  }
  return uri;
}

/// The physical location of a result: its case file when that lies inside the repository,
/// otherwise `root` ("." when empty: the repository itself).
inline boost::json::object SarifPhysicalLocation(std::string_view case_file,
                                                 std::string_view root) {
  std::string path = RepositoryPath(case_file);
  if (path.empty()) path = RepositoryPath(root);
  if (path.empty()) path = ".";
  return {{"artifactLocation", {{"uri", PathUri(path)}, {"uriBaseId", kSarifUriBase}}},
          {"region", {{"startLine", 1}}}};
}

}  // namespace mcpfuzz::reports::detail
