#include "model/reproducer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "model/body_runs.h"
#include "model/request_builder.h"
#include "model/text.h"

namespace mcpfuzz {
namespace {

// A printf format that prints `bytes` exactly: octal escapes for anything that is not plain
// printable ASCII, so NUL, invalid UTF-8 and newlines survive the shell.
std::string PrintfFormat(std::string_view bytes) {
  std::string out;
  for (char c : bytes) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '%') {
      out += "%%";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (byte >= 0x20 && byte < 0x7F) {
      out += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03o", byte);
      out += escaped;
    }
  }
  return out;
}

// Text that can stand inside single quotes as it is: valid UTF-8 without control characters.
// Anything else goes through printf escapes, so a reproducer survives JSON and terminals.
bool IsPlainText(std::string_view bytes) {
  return IsValidUtf8(bytes) && std::all_of(bytes.begin(), bytes.end(), [](char c) {
           auto byte = static_cast<unsigned char>(c);
           return byte >= 0x20 && byte != 0x7F;
         });
}

// A command writing `runs` exactly to stdout. Long runs of one byte (megabytes of padding,
// 100,000 brackets) come from head and tr, so the reproducer stays a line a person can read.
std::string PrintRuns(const std::vector<BodyRun>& runs) {
  if (runs.size() == 1 && runs.front().count == 0) {
    return "printf " + ShellQuote(PrintfFormat(runs.front().literal));
  }
  std::string command = "{";
  for (const BodyRun& run : runs) {
    if (run.count == 0) {
      command += " printf " + ShellQuote(PrintfFormat(run.literal)) + ";";
      continue;
    }
    char octal[8];
    std::snprintf(octal, sizeof octal, "\\%03o", static_cast<unsigned char>(run.repeated));
    command += " head -c " + std::to_string(run.count) + " /dev/zero | tr '\\000' '" + octal + "';";
  }
  return command + " }";
}

std::string PrintBytes(std::string_view bytes) {
  if (!HasLongRun(bytes)) return "printf " + ShellQuote(PrintfFormat(bytes));
  return PrintRuns(SplitRuns(bytes));
}

// The runs of `pieces` written one after the other, adjacent literals joined (a run does not
// span two pieces): a body of megabytes among them is read where it is, not copied into one
// buffer with the others.
std::vector<BodyRun> RunsOf(const std::vector<std::string_view>& pieces) {
  std::vector<BodyRun> runs;
  for (const std::string_view piece : pieces) {
    for (BodyRun& run : SplitRuns(piece)) {
      if (run.count == 0 && !runs.empty() && runs.back().count == 0) {
        runs.back().literal += run.literal;
      } else {
        runs.push_back(std::move(run));
      }
    }
  }
  return runs;
}

bool NeedsSession(const Request& request) {
  return EraOf(request.revision) == Era::kHandshake && request.session == SessionBinding::kAttach;
}

std::string HeaderArguments(Headers headers) {
  RedactSecrets(headers);
  std::string out;
  for (const Header& header : headers) {
    const std::string& value = header.value;
    // curl drops a header given as "Name:"; "Name;" sends it with an empty value.
    std::string argument = value.empty() ? header.name + ";" : header.name + ": " + value;
    out += " -H " + ShellQuote(argument);
  }
  return out;
}

std::string CurlRequest(const Request& request, const std::string& url, bool with_session) {
  // Read where it is: a raw body may be megabytes.
  std::string scratch;
  const std::string_view body = request.WireView(scratch);
  const bool has_body = !std::holds_alternative<NoBody>(request.body);
  std::string command;
  const bool piped = has_body && (!IsPlainText(body) || HasLongRun(body));
  if (piped) command += PrintBytes(body) + " | ";
  command += "curl -sS -i --max-redirs 0 -X " + ShellQuote(request.http_method) + " " +
             ShellQuote(url) + HeaderArguments(request.headers);
  if (with_session && !FindHeader(request.headers, kHeaderSessionId)) {
    command += " -H \"Mcp-Session-Id: $sid\"";
  }
  if (has_body) {
    command += piped ? " --data-binary @-" : " --data-binary " + ShellQuote(body);
  }
  return command;
}

std::string HttpReproducer(const Request& request, const std::string& url) {
  if (!NeedsSession(request)) return CurlRequest(request, url, false);
  Request initialize = MakeInitialize(request.revision, TransportKind::kHttp, 0);
  Request initialized =
      MakeNotification(request.revision, TransportKind::kHttp, "notifications/initialized");
  return "sid=$(curl -sS -D - -o /dev/null " + ShellQuote(url) +
         HeaderArguments(initialize.headers) + " --data-binary " +
         ShellQuote(initialize.WireBody()) +
         " | tr -d '\\r' | sed -n 's/^[Mm][Cc][Pp]-[Ss][Ee][Ss][Ss][Ii][Oo][Nn]-[Ii][Dd]: //p')"
         " && curl -sS -o /dev/null " +
         ShellQuote(url) + HeaderArguments(initialized.headers) +
         " -H \"Mcp-Session-Id: $sid\" --data-binary " + ShellQuote(initialized.WireBody()) +
         " && " + CurlRequest(request, url, true);
}

// `requests` in order on one connection, opened first as mcpfuzz opens it (the first request's
// era says how).
std::string StdioReproducer(const std::vector<const Request*>& requests,
                            const std::vector<std::string>& argv) {
  const Request& request = *requests.front();
  // The opening, then the requests, each a piece of its own: a request may be a body of
  // megabytes, printed as runs from where it is.
  std::string opening;
  if (NeedsSession(request)) {
    opening += MakeInitialize(request.revision, TransportKind::kStdio, 0).WireBody() + "\n";
    opening +=
        MakeNotification(request.revision, TransportKind::kStdio, "notifications/initialized")
            .WireBody() +
        "\n";
  }
  std::vector<std::string> scratch(requests.size());
  std::vector<std::string_view> pieces = {opening};
  for (std::size_t i = 0; i < requests.size(); ++i) {
    pieces.push_back(requests[i]->WireView(scratch[i]));
    pieces.emplace_back("\n");
  }
  const std::vector<BodyRun> lines = RunsOf(pieces);
  if (EraOf(request.revision) == Era::kStateless && request.session == SessionBinding::kAttach) {
    // mcpfuzz opens a 2026-07-28 stdio connection with server/discover, then a served tools/list
    // that locks a dual-era server's connection to 2026-07-28 (server/discover does not; tables
    // §4b V16), each answered before the next request; a server may pin the connection's era
    // on its first message and handle the lines after it concurrently (SDK v2 checks the
    // version of a first message only). The line does the same, with a pause after each.
    const std::string discover =
        MakeRequest(request.revision, TransportKind::kStdio, "server/discover", {}, 0).WireBody() +
        "\n";
    const std::string lock =
        MakeRequest(request.revision, TransportKind::kStdio, "tools/list", {}, "mcpfuzz-lock")
            .WireBody() +
        "\n";
    std::string command = "{ printf ";
    command += ShellQuote(PrintfFormat(discover));
    command += "; sleep 1; printf ";
    command += ShellQuote(PrintfFormat(lock));
    command += "; sleep 1; ";
    command += PrintRuns(lines);
    command += "; } |";
    for (const auto& word : argv) command += " " + ShellQuote(word);
    return command;
  }
  // Built by appending: g++ 12 at -O3 warns (-Wrestrict) on "literal" + string + "literal".
  std::string command = PrintRuns(lines);
  command += " |";
  for (const auto& word : argv) command += " " + ShellQuote(word);
  return command;
}

// The steps of a sequence over HTTP: every reply printed; $sid captured from the first reply
// that names a session, attached to the later steps that ask for the session.
// Whose reply hands out a cursor a later step carries: $c<K> captures it.
bool CursorCarriedLater(const Sequence& steps, std::size_t index) {
  return std::any_of(steps.begin(), steps.end(),
                     [index](const SequenceStep& step) { return step.cursor_from == index; });
}

std::string CursorVariable(std::size_t index) { return "c" + std::to_string(index + 1); }

// The nextCursor of the reply in $r (one JSON line; no jq needed).
std::string CaptureCursor(std::size_t index) {
  return "; " + CursorVariable(index) +
         "=$(printf '%s' \"$r\" | sed -n 's/.*\"nextCursor\" *: *\"\\([^\"]*\\)\".*/\\1/p' | "
         "head -n 1)";
}

// `command` (a body single-quoted inside it) with the placeholder cursor replaced by the
// captured one: the quote is closed around "$cK".
std::string SubstituteCursor(std::string command, const SequenceStep& step) {
  if (!step.cursor_from) return command;
  const auto at = command.find(kCursorPlaceholder);
  if (at == std::string::npos) return command;
  command.replace(at, kCursorPlaceholder.size(),
                  "'\"$" + CursorVariable(*step.cursor_from) + "\"'");
  return command;
}

// The Mcp-Session-Id of the reply in $r, or nothing.
constexpr std::string_view kSessionOfReply =
    "$(printf '%s' \"$r\" | tr -d '\\r' | sed -n "
    "'s/^[Mm][Cc][Pp]-[Ss][Ee][Ss][Ss][Ii][Oo][Nn]-[Ii][Dd]: //p' | head -n 1)";

std::string HttpSequence(const Sequence& steps, const std::string& url) {
  std::string command = "sid=; sid2=";
  // An initialize without a session was sent: a later one opens the second session ($sid2).
  bool opened = false;
  for (std::size_t index = 0; index < steps.size(); ++index) {
    const Request& step = steps[index].request;
    const bool own = FindHeader(step.headers, kHeaderSessionId).has_value();
    const bool attach = step.session == SessionBinding::kAttach && !own;
    const bool second = step.session == SessionBinding::kSecond && !own;
    std::string curl = SubstituteCursor(CurlRequest(step, url, false), steps[index]);
    if (attach || second) {
      // Unquoted on purpose: no session yet means no header at all.
      const std::string variable = attach ? "sid" : "sid2";
      const std::string marker = "curl -sS -i --max-redirs 0";
      curl.replace(curl.find(marker), marker.size(),
                   marker + " ${" + variable + ":+-H \"Mcp-Session-Id: $" + variable + "\"}");
    }
    command += "; r=$(" + curl + "); printf '%s\\n\\n' \"$r\"";
    command += "; [ -n \"$sid\" ] || sid=" + std::string(kSessionOfReply);
    const bool opens = step.session == SessionBinding::kOmit && step.RpcMethod() == "initialize";
    if (opens && opened) command += "; [ -n \"$sid2\" ] || sid2=" + std::string(kSessionOfReply);
    opened = opened || opens;
    if (CursorCarriedLater(steps, index)) command += CaptureCursor(index);
  }
  return command;
}

std::string StdioSequence(const Sequence& steps, const std::vector<std::string>& argv) {
  std::string server;
  for (const auto& word : argv) server += " " + ShellQuote(word);
  const bool carries_cursor = std::any_of(
      steps.begin(), steps.end(), [](const SequenceStep& s) { return s.cursor_from.has_value(); });
  if (!carries_cursor) {
    std::string lines;
    for (const SequenceStep& step : steps) lines += step.request.WireBody() + "\n";
    return PrintBytes(lines) + " |" + server;
  }
  // A cursor is known only once its reply is read: the server reads a FIFO written line by
  // line, and each request waits for its reply line, printed, before the next line goes.
  std::string command =
      "d=$(mktemp -d); mkfifo \"$d/in\";" + server + " <\"$d/in\" | { exec 3>\"$d/in\"";
  for (std::size_t index = 0; index < steps.size(); ++index) {
    const Request& step = steps[index].request;
    command += "; " +
               SubstituteCursor("printf '%s\\n' " + ShellQuote(step.WireBody()), steps[index]) +
               " >&3";
    if (step.IsNotification()) continue;
    command += "; IFS= read -r r; printf '%s\\n' \"$r\"";
    if (CursorCarriedLater(steps, index)) command += CaptureCursor(index);
  }
  command += "; exec 3>&-; cat; }; rm -r \"$d\"";
  return command;
}

std::string StartedFirst(const ReproducerTarget& target, const std::string& body) {
  if (target.start.empty()) return body;
  std::string command;
  for (const auto& word : target.start) command += ShellQuote(word) + " ";
  // Wait until it answers (at most about ten seconds), not for a fixed time.
  command += ">/dev/null 2>&1 & server=$!; for i in $(seq 100); do curl -so /dev/null ";
  command += target.url;
  command += " && break; sleep 0.1; done; ";
  command += body;
  // Waited for, so its port is free again for the next reproducer run right after this one.
  command += "; kill $server; wait $server";
  return command;
}

}  // namespace

std::string SequenceReproducer(const Sequence& steps, const ReproducerTarget& target) {
  if (target.kind != TransportKind::kHttp) return StdioSequence(steps, target.argv);
  return StartedFirst(target, HttpSequence(steps, target.url));
}

std::string SequenceReproducer(const std::vector<Request>& steps, const ReproducerTarget& target) {
  Sequence sequence;
  for (const Request& request : steps) sequence.push_back({request, "", "", std::nullopt});
  return SequenceReproducer(sequence, target);
}

std::string ShellQuote(std::string_view word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  if (safe) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

bool IsSecretHeader(std::string_view name) {
  const std::string lower = AsciiLowercase(name);
  for (std::string_view marker :
       {"auth", "cookie", "token", "secret", "api-key", "apikey", "password"}) {
    if (lower.find(marker) != std::string::npos) return true;
  }
  return false;
}

void RedactSecrets(Headers& headers) {
  for (Header& header : headers) {
    if (IsSecretHeader(header.name)) header.value = "<redacted>";
  }
}

std::string Reproducer(const Request& request, const ReproducerTarget& target) {
  if (target.kind != TransportKind::kHttp) return StdioReproducer({&request}, target.argv);
  return StartedFirst(target, HttpReproducer(request, target.url));
}

std::string Reproducer(const std::vector<const Request*>& requests,
                       const ReproducerTarget& target) {
  if (requests.empty()) return {};
  if (requests.size() == 1) return Reproducer(*requests.front(), target);
  const bool opens_itself = std::any_of(requests.begin(), requests.end(), [](const Request* r) {
    return r->RpcMethod() == "initialize";
  });
  std::vector<Request> steps;
  if (!opens_itself) {
    if (target.kind != TransportKind::kHttp) return StdioReproducer(requests, target.argv);
    if (NeedsSession(*requests.front())) steps = MakeHttpOpening(requests.front()->revision);
  }
  for (const Request* request : requests) steps.push_back(*request);
  return SequenceReproducer(steps, target);
}

std::string Reproducer(const std::vector<Request>& requests, const ReproducerTarget& target) {
  std::vector<const Request*> pointers;
  for (const Request& request : requests) pointers.push_back(&request);
  return Reproducer(pointers, target);
}

}  // namespace mcpfuzz
