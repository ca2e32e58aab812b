#include "cli/target.h"

#include <string_view>

#include "refserver/faults.h"
#include "transport/server_process.h"

namespace mcpfuzz::cli {
namespace {

// "mcpfuzz refserver --http --fault X": the built-in server by what it does, not by the path
// of this binary or the port it happened to get.
std::string BuiltinName(const std::vector<std::string>& argv) {
  std::string name = "mcpfuzz";
  for (std::size_t i = 1; i < argv.size(); ++i) name += " " + argv[i];
  return name;
}

class HttpUrlTarget : public Target {
 public:
  HttpUrlTarget(HttpTarget http, std::string note)
      : http_(std::move(http)), note_(std::move(note)) {}
  Result<std::unique_ptr<Transport>> Connect() override { return OpenHttp(http_); }
  std::string Describe() const override { return http_.url + note_; }
  ReproducerTarget ReproduceAt() const override {
    return {TransportKind::kHttp, http_.url, {}, {}};
  }

 private:
  HttpTarget http_;
  std::string note_;
};

// The built-in server runs as a child process (`mcpfuzz refserver --http`), so a fault that
// crashes or ends the server cannot take mcpfuzz down with it.
class BuiltinHttpTarget : public HttpUrlTarget {
 public:
  BuiltinHttpTarget(HttpServerProcess process, HttpTarget http, std::vector<std::string> argv)
      : HttpUrlTarget(std::move(http), " (built-in reference server)"),
        process_(std::move(process)),
        argv_(std::move(argv)) {}
  std::string StableName() const override { return BuiltinName(argv_); }
  // The server mcpfuzz ran is gone when a reproducer is pasted: the line starts its own, on
  // the port the README's examples use.
  ReproducerTarget ReproduceAt() const override {
    std::vector<std::string> start = argv_;
    start.insert(start.begin() + 3, {"--port", std::string(kReproducerPort)});
    return {TransportKind::kHttp,
            "http://127.0.0.1:" + std::string(kReproducerPort) + "/mcp",
            {},
            std::move(start)};
  }

 private:
  static constexpr std::string_view kReproducerPort = "8931";
  HttpServerProcess process_;
  std::vector<std::string> argv_;  // self, "refserver", "--http", faults...
};

// An HTTP server mcpfuzz started (`--server-cmd`) and ends with the target.
class ServedHttpTarget : public Target {
 public:
  ServedHttpTarget(std::unique_ptr<ServedHttpServer> server, HttpTarget http, std::string command,
                   std::string stable_name)
      : server_(std::move(server)),
        http_(std::move(http)),
        command_(std::move(command)),
        stable_name_(std::move(stable_name)) {}
  Result<std::unique_ptr<Transport>> Connect() override { return server_->Connect(http_); }
  std::string Describe() const override { return http_.url + " (started: " + command_ + ")"; }
  std::string StableName() const override { return stable_name_; }
  // The server is gone when a reproducer is pasted: the line starts it again, on its port.
  ReproducerTarget ReproduceAt() const override {
    return {TransportKind::kHttp, http_.url, {}, {"/bin/sh", "-c", command_}};
  }
  std::vector<std::string> Notes() const override {
    const std::size_t restarts = server_->restarts();
    if (restarts == 0) return {};
    return {"the server command's server ended " + std::to_string(restarts) +
            " time(s) during the run and was started again on its port each time"};
  }

 private:
  std::unique_ptr<ServedHttpServer> server_;
  HttpTarget http_;
  std::string command_;
  std::string stable_name_;
};

std::string ReplacedAll(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

Result<std::unique_ptr<Target>> StartServed(const TargetSpec& spec) {
  if (spec.server_command.find(kPortPlaceholder) == std::string::npos) {
    return Error{
        "--server-cmd must say where the server listens: put {port} in it (mcpfuzz "
        "gives it a free port on 127.0.0.1)"};
  }
  auto port = FreeLoopbackPort();
  if (!port) return port.error();
  const std::string given = std::to_string(*port);
  ServerCommand command;
  command.shell_command = ReplacedAll(spec.server_command, kPortPlaceholder, given);
  command.port = *port;
  command.env = spec.env;
  command.inherit_env = !spec.env_clear;
  command.coverage_agent = spec.coverage_agent;
  // A server mcpfuzz starts is given the start-up limit, as a stdio server's first reply is.
  command.startup_timeout = spec.limits.startup_timeout;
  auto server = ServedHttpServer::Start(command);
  if (!server) return Error{"could not start the server: " + server.error().message};
  HttpTarget http{ReplacedAll(spec.url, kPortPlaceholder, given), spec.extra_headers,
                  spec.allow_remote, spec.limits};
  // Across runs the port differs: the target is named by what was asked.
  const std::string stable = spec.url + " (started: " + spec.server_command + ")";
  return std::unique_ptr<Target>(std::make_unique<ServedHttpTarget>(
      std::move(*server), std::move(http), std::move(command.shell_command), stable));
}

class StdioCommandTarget : public Target {
 public:
  StdioCommandTarget(StdioTarget stdio, std::string note, bool builtin = false)
      : stdio_(std::move(stdio)), note_(std::move(note)), builtin_(builtin) {}
  std::string StableName() const override {
    return builtin_ ? BuiltinName(stdio_.argv) : Describe();
  }
  Result<std::unique_ptr<Transport>> Connect() override {
    auto spawned = SpawnStdio(stdio_);
    if (!spawned) return spawned.error();
    return std::unique_ptr<Transport>(std::move(*spawned));
  }
  ReproducerTarget ReproduceAt() const override {
    return {TransportKind::kStdio, "", stdio_.argv, {}};
  }
  std::string Describe() const override {
    std::string text = "stdio:";
    for (const auto& arg : stdio_.argv) text += " " + arg;
    return text + note_;
  }

 private:
  StdioTarget stdio_;
  std::string note_;
  bool builtin_;
};

// `mcpfuzz refserver MODE --fault ...`, after checking every fault name here, where a mistake
// can still be explained.
Result<std::vector<std::string>> BuiltinArgv(const TargetSpec& spec,
                                             const std::string& self_executable,
                                             const std::string& mode) {
  std::vector<std::string> argv = {self_executable, "refserver", mode};
  for (const auto& name : spec.faults) {
    if (!refserver::FaultFromName(name)) {
      return Error{"unknown fault '" + name + "'; `mcpfuzz refserver --list-faults` lists them"};
    }
    argv.push_back("--fault");
    argv.push_back(name);
  }
  return argv;
}

// What every stdio server mcpfuzz starts gets: the limits and the environment asked for.
StdioTarget StdioOf(const TargetSpec& spec) {
  StdioTarget stdio;
  stdio.limits = spec.limits;
  stdio.env = spec.env;
  stdio.inherit_env = !spec.env_clear;
  return stdio;
}

}  // namespace

Result<std::unique_ptr<Target>> OpenTarget(const TargetSpec& spec,
                                           const std::string& self_executable) {
  switch (spec.kind) {
    case TargetSpec::Kind::kHttpUrl:
      if (!spec.server_command.empty()) return StartServed(spec);
      return std::unique_ptr<Target>(std::make_unique<HttpUrlTarget>(
          HttpTarget{spec.url, spec.extra_headers, spec.allow_remote, spec.limits}, ""));
    case TargetSpec::Kind::kStdioCommand: {
      StdioTarget stdio = StdioOf(spec);
      stdio.argv = spec.argv;
      stdio.coverage_agent = spec.coverage_agent;
      return std::unique_ptr<Target>(std::make_unique<StdioCommandTarget>(stdio, ""));
    }
    case TargetSpec::Kind::kBuiltinHttp: {
      auto argv = BuiltinArgv(spec, self_executable, "--http");
      if (!argv) return argv.error();
      // A server mcpfuzz starts is given the start-up limit, as a stdio server's first reply is.
      auto process = HttpServerProcess::Start(*argv, spec.limits.startup_timeout);
      if (!process) return Error{"could not start the built-in server: " + process.error().message};
      HttpTarget http{process->url(), spec.extra_headers, false, spec.limits};
      return std::unique_ptr<Target>(std::make_unique<BuiltinHttpTarget>(
          std::move(*process), std::move(http), std::move(*argv)));
    }
    case TargetSpec::Kind::kBuiltinStdio: {
      auto argv = BuiltinArgv(spec, self_executable, "--stdio");
      if (!argv) return argv.error();
      StdioTarget stdio = StdioOf(spec);
      stdio.argv = std::move(*argv);
      return std::unique_ptr<Target>(
          std::make_unique<StdioCommandTarget>(stdio, " (built-in reference server)", true));
    }
    case TargetSpec::Kind::kNone:
      break;
  }
  return Error{"no target given"};
}

}  // namespace mcpfuzz::cli
