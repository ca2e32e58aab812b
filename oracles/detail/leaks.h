#pragma once
// Internal details that error text should not show a client: stack traces, server file paths,
// internal host names, raw validator dumps and JavaScript engine messages. Each is a WARN
// wherever error text is judged (tables §3 F16).

#include <string>
#include <string_view>
#include <vector>

namespace mcpfuzz::oracles_detail {

/// What kind of internal detail an error text gives away.
enum class LeakKind {
  kStackTrace,    ///< "Traceback (most recent call last)", "    at f (x.js:1:2)", ".py\", line 3".
  kFilePath,      ///< /home/…, /srv/…, /usr/src/…, C:\…, node_modules/…
  kInternalHost,  ///< *.internal, *.local, *.corp; 10.x, 172.16–31.x, 192.168.x addresses.
  /// A schema validator's issue list as JSON (zod's): a "code" of one of its issue codes, or
  /// "expected" and "received", beside a "path" array.
  kValidatorDump,
  /// An engine's own error for a bug in the server: "RangeError: …", "Maximum call stack size
  /// exceeded", "TypeError: Cannot read properties of undefined".
  kEngineMessage,
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
