// The reference server's command line, shared by `mcpfuzz-refserver` and `mcpfuzz refserver`.

#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "refserver/refserver.h"

namespace mcpfuzz::refserver {
namespace {

constexpr int kUsageError = 2;
volatile std::sig_atomic_t g_stop_requested = 0;

void RequestStop(int /*signal*/) { g_stop_requested = 1; }

constexpr std::string_view kHelp =
    R"(mcpfuzz-refserver - the reference MCP server of the mcpfuzz suite

It answers every MCP revision from 2024-11-05 to 2026-07-28 (handshake and stateless eras)
exactly as mcpfuzz's oracle tables say. Fault switches make it break one rule each, so you can
watch an oracle fail on a deviating server and pass on a conformant one.

Usage:
  mcpfuzz-refserver [--stdio] [--dual-era] [--server-info NAME/VERSION] [--fault NAME]...
  mcpfuzz-refserver --http [--port N] [--dual-era] [--server-info NAME/VERSION] [--fault NAME]...
  mcpfuzz-refserver --list-faults

Flags:
  --stdio         Serve newline-delimited JSON-RPC on stdin/stdout (the default).
  --http          Serve Streamable HTTP at http://127.0.0.1:PORT/mcp until SIGINT/SIGTERM.
  --port N        HTTP port (default 0: any free port; the URL is printed on stdout).
  --dual-era      Be one front for both eras, as the dual-era SDKs are: over HTTP a request
                  with neither MCP-Protocol-Version nor a 2026-07-28 _meta is served on the
                  legacy leg (2025-03-26 rules); over stdio the first request served locks the
                  connection's era (server/discover does not). Still conformant.
  --server-info NAME/VERSION
                  Announce this serverInfo (name and version, split at the last '/')
                  instead of mcpfuzz-refserver/0.1.0, as another SDK or release would.
  --fault NAME    Turn on one fault switch; repeat for several.
  --list-faults   Print every fault name with the deviation it makes, then exit.
  --help          Print this help.

Logs go to stderr; stdout carries only protocol messages (stdio) or the URL line (HTTP).

Examples:
  mcpfuzz-refserver --http --port 8931
  mcpfuzz-refserver --fault unknown-tool-is-error
  echo '{"jsonrpc":"2.0","id":1,"method":"ping"}' | mcpfuzz-refserver
)";

struct Flags {
  bool http = false;
  std::optional<int> port;
  ServerOptions options;
};

void PrintFaults(std::ostream& out) {
  for (const auto& info : AllFaults()) out << info.name << "\n    " << info.description << "\n";
}

int UsageError(const std::string& message, std::ostream& err) {
  err << "mcpfuzz-refserver: " << message << "\nTry 'mcpfuzz-refserver --help'.\n";
  return kUsageError;
}

// Returns an exit code when the program should stop right away.
std::optional<int> ParseFlags(const std::vector<std::string>& args, Flags& flags, std::ostream& out,
                              std::ostream& err) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    auto value = [&]() -> std::optional<std::string_view> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (arg == "--help" || arg == "-h") {
      out << kHelp;
      return 0;
    } else if (arg == "--list-faults") {
      PrintFaults(out);
      return 0;
    } else if (arg == "--stdio") {
      flags.http = false;
    } else if (arg == "--http") {
      flags.http = true;
    } else if (arg == "--dual-era") {
      flags.options.dual_era = true;
    } else if (arg == "--port") {
      auto text = value();
      int port = -1;
      const char* first = text ? text->data() : nullptr;
      const char* last = text ? text->data() + text->size() : nullptr;
      // from_chars reads the text in place: strtol on a temporary copy left `end` pointing into
      // freed memory (found by ASan).
      auto parsed = text ? std::from_chars(first, last, port) : std::from_chars_result{};
      if (!text || text->empty() || parsed.ec != std::errc() || parsed.ptr != last || port < 0 ||
          port > 65535) {
        return UsageError("--port needs a number from 0 to 65535", err);
      }
      flags.port = port;
    } else if (arg == "--server-info") {
      auto text = value();
      const std::size_t slash = text ? text->rfind('/') : std::string_view::npos;
      if (slash == std::string_view::npos || slash == 0 || slash + 1 == text->size()) {
        return UsageError("--server-info needs NAME/VERSION", err);
      }
      flags.options.server_name = std::string(text->substr(0, slash));
      flags.options.server_version = std::string(text->substr(slash + 1));
    } else if (arg == "--fault") {
      auto name = value();
      if (!name) return UsageError("--fault needs a fault name (see --list-faults)", err);
      auto fault = FaultFromName(*name);
      if (!fault) {
        err << "mcpfuzz-refserver: unknown fault '" << *name << "'. Valid faults:\n";
        PrintFaults(err);
        return kUsageError;
      }
      flags.options.faults.insert(*fault);
    } else {
      return UsageError("unknown flag '" + std::string(arg) + "'", err);
    }
  }
  if (flags.port && !flags.http) return UsageError("--port needs --http", err);
  return std::nullopt;
}

int ServeHttpUntilSignal(ReferenceServer& server, int port, std::ostream& out, std::ostream& err) {
  auto handle = ServeHttp(server, "127.0.0.1", port);
  if (!handle) {
    // Exit 2, as for bad arguments: a taken port is the caller's to change.
    err << "mcpfuzz-refserver: " << handle.error().message << "\n";
    return 2;
  }
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
  out << "listening on " << handle->url() << std::endl;
  while (g_stop_requested == 0 && handle->serving()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  handle->Stop();
  err << "mcpfuzz-refserver: stopped\n";
  return EXIT_SUCCESS;
}

}  // namespace

int RunCommandLine(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                   std::ostream& err) {
  Flags flags;
  if (auto exit_code = ParseFlags(args, flags, out, err)) return *exit_code;
  ReferenceServer server(flags.options);
  err << "mcpfuzz-refserver: serving " << (flags.http ? "HTTP" : "stdio")
      << (flags.options.DualEra() ? " (dual-era)" : "") << ", faults:";
  if (flags.options.faults.empty()) err << " none (conformant)";
  for (auto fault : flags.options.faults) err << ' ' << ToString(fault);
  err << std::endl;
  if (flags.http) return ServeHttpUntilSignal(server, flags.port.value_or(0), out, err);
  // The stdio front reads ahead what is already written (stdio_front.cc); a stream kept in step
  // with C stdio never tells how much that is.
  if (&in == &std::cin) std::ios_base::sync_with_stdio(false);
  return ServeStdio(server, in, out, err);
}

}  // namespace mcpfuzz::refserver
