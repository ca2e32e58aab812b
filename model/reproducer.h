#pragma once
// One-line reproducers: a request as a shell command anyone can paste to see the same answer,
// without mcpfuzz. Credentials never appear in them.

#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"
#include "model/sequence.h"

namespace mcpfuzz {

/// Where the reproducer sends the request.
struct ReproducerTarget {
  TransportKind kind = TransportKind::kHttp;
  std::string url;                ///< HTTP
  std::vector<std::string> argv;  ///< stdio: the server's command
  /// HTTP: a server to start in the background first (and stop at the end), listening at
  /// `url`: the built-in reference server, whose own port is gone once mcpfuzz exits.
  std::vector<std::string> start{};
};

/// A shell-quoted word: 'it'\''s'.
std::string ShellQuote(std::string_view word);

/// True for headers that carry credentials (Authorization, Cookie, API keys, tokens, secrets);
/// their values are replaced by "<redacted>" wherever mcpfuzz writes requests down.
bool IsSecretHeader(std::string_view name);

/// Replaces the value of every secret header (IsSecretHeader) by "<redacted>": the one way
/// credentials leave what mcpfuzz writes down — reproducers, reports.
void RedactSecrets(Headers& headers);

/// The request as a shell command:
/// - HTTP: curl with the exact method, headers and body bytes (non-UTF-8 bodies through printf),
///   `-i` to show status and headers, and no redirects. A handshake-era request that needs a
///   session first sends `initialize` (in the request's revision) and
///   `notifications/initialized`, captures the Mcp-Session-Id and attaches it.
/// - stdio: `printf '…' | command`, with `initialize` and `notifications/initialized` lines
///   first when the request is handshake-era and sent inside a session; a 2026-07-28 request
///   sent on an open connection (session attach) follows a `server/discover` line and a
///   one-second pause, as mcpfuzz waits for that answer.
/// With `target.start`, the line starts that server first, waits until it answers, and stops it
/// after.
std::string Reproducer(const Request& request, const ReproducerTarget& target);

/// Requests that went in order on one connection, the last of them the one that matters: the
/// connection is opened as Reproducer opens it for the first (unless one of them is an
/// `initialize`: then they open it themselves, as a sequence does), and every request is sent
/// in order, each reply shown. For a failure that needs what came before it on the connection:
/// a server gone deaf after a big line, a session used after its DELETE.
std::string Reproducer(const std::vector<Request>& requests, const ReproducerTarget& target);
/// The same for requests held elsewhere: over stdio none is copied (one may be megabytes).
std::string Reproducer(const std::vector<const Request*>& requests, const ReproducerTarget& target);

/// Requests sent in order on one fresh connection (a sequence, model/sequence.h) as one shell
/// command:
/// - HTTP: a curl per step; the Mcp-Session-Id of the first reply that carries one is captured
///   into $sid and attached to every later step whose session binding is kAttach (and that has
///   no Mcp-Session-Id of its own); each reply is printed;
/// - stdio: one printf of every line, piped to the command.
/// With `target.start`, the line starts that server first and stops it after, as Reproducer.
std::string SequenceReproducer(const std::vector<Request>& steps, const ReproducerTarget& target);

/// The same for a sequence whose steps may carry a cursor an earlier reply handed out
/// (SequenceStep::cursor_from): that reply's nextCursor is captured with sed into $cK (K the
/// 1-based step) and spliced into the body. Over stdio the cursor is known only once its reply
/// is read, so the command writes the lines to the server through a FIFO, reading each reply
/// line before the next request (sh, mkfifo, sed; no jq).
std::string SequenceReproducer(const Sequence& steps, const ReproducerTarget& target);

}  // namespace mcpfuzz
