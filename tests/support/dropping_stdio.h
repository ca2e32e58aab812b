#pragma once
// Test support: an in-process stdio "server" that drops what it cannot answer, as every real
// stdio stack does: the reference server's logic behind a fake StdioTransport that keeps no
// error reply whose id is null (parse errors, invalid requests) and never waits. Send reports
// such a drop as a timeout would (kAliveButDeaf) and counts it; SendPipelined learns it from
// the sentinel (kDropped), deterministically. Every request it is given is counted.

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/request.h"
#include "refserver/refserver.h"
#include "transport/era_probe.h"
#include "transport/transport.h"

namespace mcpfuzz::test_support {

struct DroppingStdioCounts {
  std::atomic<std::size_t> requests{0};
  /// Sends that would have waited out the timeout on a real server.
  std::atomic<std::size_t> timeouts{0};
  std::atomic<std::size_t> connections{0};
};

class DroppingStdio final : public StdioTransport {
 public:
  DroppingStdio(refserver::FaultSet faults, std::shared_ptr<DroppingStdioCounts> counts)
      : server_(refserver::ServerOptions{std::move(faults)}), counts_(std::move(counts)) {
    ++counts_->connections;
  }

  Observation Send(const Request& request) override {
    Observation observation = Answer(request);
    if (observation.outcome == Outcome::kDropped) {
      ++counts_->timeouts;
      observation.outcome = Outcome::kAliveButDeaf;
    }
    return observation;
  }

  PipelineResult SendPipelined(const Pipeline& pipeline) override {
    PipelineResult result;
    for (const Request& request : pipeline.requests) result.observations.push_back(Answer(request));
    if (!pipeline.sentinel) {
      for (Observation& observation : result.observations) {
        if (observation.outcome != Outcome::kDropped) continue;
        ++counts_->timeouts;
        observation.outcome = Outcome::kAliveButDeaf;
      }
      return result;
    }
    result.sentinel = Answer(*pipeline.sentinel);
    return result;
  }

  TransportKind kind() const override { return TransportKind::kStdio; }
  std::string Describe() const override { return "stdio: dropping reference server"; }
  bool Alive() override { return alive_; }
  ProcessExit Shutdown() override {
    alive_ = false;
    ProcessExit exit;
    exit.exit_code = 0;
    return exit;
  }

 private:
  Observation Answer(const Request& request) {
    ++counts_->requests;
    Observation observation;
    const refserver::StdioReply reply = server_.HandleStdioLine(request.WireBody());
    for (const std::string& line : reply.lines) {
      auto message = ParseJson(line);
      if (!message) continue;
      const auto* object = message->if_object();
      const auto* id = object != nullptr ? object->if_contains("id") : nullptr;
      // What a stdio stack cannot parse or validate, it drops without a word.
      if (object != nullptr && object->contains("error") && (id == nullptr || id->is_null())) {
        continue;
      }
      observation.stdout_lines.push_back(line);
      observation.messages.push_back(std::move(*message));
    }
    const bool owes_reply = request.RpcId().has_value() || !request.BodyJson();
    if (observation.messages.empty() && owes_reply) observation.outcome = Outcome::kDropped;
    return observation;
  }

  refserver::ReferenceServer server_;
  std::shared_ptr<DroppingStdioCounts> counts_;
  bool alive_ = true;
};

inline TransportFactory DroppingStdioFactory(refserver::FaultSet faults,
                                             std::shared_ptr<DroppingStdioCounts> counts) {
  return [faults = std::move(faults), counts]() -> Result<std::unique_ptr<Transport>> {
    return std::unique_ptr<Transport>(std::make_unique<DroppingStdio>(faults, counts));
  };
}

}  // namespace mcpfuzz::test_support
