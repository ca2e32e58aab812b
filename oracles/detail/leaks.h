#pragma once
// Internal details that error text should not show a client: stack traces, server file paths
// and internal host names. Each is a WARN wherever error text is judged.

#include <string>
#include <string_view>
#include <vector>

namespace mcpfuzz::oracles_detail {

/// What kind of internal detail an error text gives away.
enum class LeakKind {
  kStackTrace,    ///< "Traceback (most recent call last)", "    at f (x.js:1:2)", ".py\", line 3".
  kFilePath,      ///< /home/…, /srv/…, /usr/src/…, C:\…, node_modules/…
  kInternalHost,  ///< *.internal, *.local, *.corp; 10.x, 172.16–31.x, 192.168.x addresses.
};
std::string_view ToString(LeakKind kind);

/// One leak and the text that gave it away.
struct Leak {
  LeakKind kind = LeakKind::kStackTrace;
  /// The matched text, capped.
  std::string evidence;
};

/// Every kind of leak found in `text`, at most one per kind. Only the first 16 KiB are read.
std::vector<Leak> FindLeaks(std::string_view text);

}  // namespace mcpfuzz::oracles_detail
