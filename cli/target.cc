#include "cli/target.h"

#include "refserver/faults.h"
#include "transport/server_process.h"

namespace mcpfuzz::cli {
namespace {

class HttpUrlTarget : public Target {
 public:
  HttpUrlTarget(HttpTarget http, std::string note)
      : http_(std::move(http)), note_(std::move(note)) {}
  Result<std::unique_ptr<Transport>> Connect() override { return OpenHttp(http_); }
  std::string Describe() const override { return http_.url + note_; }
  ReproducerTarget ReproduceAt() const override { return {TransportKind::kHttp, http_.url, {}}; }

 private:
  HttpTarget http_;
  std::string note_;
};

// The built-in server runs as a child process (`mcpfuzz refserver --http`), so a fault that
// crashes or ends the server cannot take mcpfuzz down with it.
class BuiltinHttpTarget : public HttpUrlTarget {
 public:
  BuiltinHttpTarget(HttpServerProcess process, HttpTarget http)
      : HttpUrlTarget(std::move(http), " (built-in reference server)"),
        process_(std::move(process)) {}

 private:
  HttpServerProcess process_;
};

class StdioCommandTarget : public Target {
 public:
  StdioCommandTarget(StdioTarget stdio, std::string note)
      : stdio_(std::move(stdio)), note_(std::move(note)) {}
  Result<std::unique_ptr<Transport>> Connect() override {
    auto spawned = SpawnStdio(stdio_);
    if (!spawned) return spawned.error();
    return std::unique_ptr<Transport>(std::move(*spawned));
  }
  ReproducerTarget ReproduceAt() const override { return {TransportKind::kStdio, "", stdio_.argv}; }
  std::string Describe() const override {
    std::string text = "stdio:";
    for (const auto& arg : stdio_.argv) text += " " + arg;
    return text + note_;
  }

 private:
  StdioTarget stdio_;
  std::string note_;
};

constexpr std::chrono::milliseconds kBuiltinStartTimeout{10000};

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

}  // namespace

Result<std::unique_ptr<Target>> OpenTarget(const TargetSpec& spec,
                                           const std::string& self_executable) {
  switch (spec.kind) {
    case TargetSpec::Kind::kHttpUrl:
      return std::unique_ptr<Target>(std::make_unique<HttpUrlTarget>(
          HttpTarget{spec.url, spec.extra_headers, spec.allow_remote, spec.limits}, ""));
    case TargetSpec::Kind::kStdioCommand: {
      StdioTarget stdio;
      stdio.argv = spec.argv;
      stdio.limits = spec.limits;
      return std::unique_ptr<Target>(std::make_unique<StdioCommandTarget>(stdio, ""));
    }
    case TargetSpec::Kind::kBuiltinHttp: {
      auto argv = BuiltinArgv(spec, self_executable, "--http");
      if (!argv) return argv.error();
      auto process = HttpServerProcess::Start(*argv, kBuiltinStartTimeout);
      if (!process) return Error{"could not start the built-in server: " + process.error().message};
      HttpTarget http{process->url(), spec.extra_headers, false, spec.limits};
      return std::unique_ptr<Target>(
          std::make_unique<BuiltinHttpTarget>(std::move(*process), std::move(http)));
    }
    case TargetSpec::Kind::kBuiltinStdio: {
      auto argv = BuiltinArgv(spec, self_executable, "--stdio");
      if (!argv) return argv.error();
      StdioTarget stdio;
      stdio.argv = std::move(*argv);
      stdio.limits = spec.limits;
      return std::unique_ptr<Target>(
          std::make_unique<StdioCommandTarget>(stdio, " (built-in reference server)"));
    }
    case TargetSpec::Kind::kNone:
      break;
  }
  return Error{"no target given"};
}

}  // namespace mcpfuzz::cli
