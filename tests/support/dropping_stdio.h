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
  /// Requests of the late method sent with Send, which waits for their replies.
  std::atomic<std::size_t> late_method_sent_alone{0};
};

class DroppingStdio final : public StdioTransport {
 public:
  /// With `late_method`, the replies to requests of that method come after the sentinel's:
  /// a pipeline sees them dropped, and the next pipeline reports them as late replies, as the
  /// stdio transport does for a server that answers out of order. Send waits for them.
  DroppingStdio(refserver::FaultSet faults, std::shared_ptr<DroppingStdioCounts> counts,
                std::string late_method = {})
      : server_(refserver::ServerOptions{std::move(faults)}),
        counts_(std::move(counts)),
        late_method_(std::move(late_method)) {
    ++counts_->connections;
  }

  Observation Send(const Request& request) override {
    if (!late_method_.empty() && request.RpcMethod() == late_method_) {
      ++counts_->late_method_sent_alone;
    }
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
    std::vector<boost::json::value> held;
    for (std::size_t k = 0; k < pipeline.requests.size(); ++k) {
      Observation& observation = result.observations[k];
      if (late_method_.empty() || pipeline.requests[k].RpcMethod() != late_method_ ||
          observation.messages.empty()) {
        continue;
      }
      held.insert(held.end(), observation.messages.begin(), observation.messages.end());
      observation = Observation{};
      observation.outcome = Outcome::kDropped;
    }
    result.sentinel = Answer(*pipeline.sentinel);
    // What was held back before arrives during this pipeline, after its requests' replies.
    result.sentinel.late_replies = std::exchange(late_, std::move(held));
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
  std::string late_method_;
  std::vector<boost::json::value> late_;
  bool alive_ = true;
};

inline TransportFactory DroppingStdioFactory(refserver::FaultSet faults,
                                             std::shared_ptr<DroppingStdioCounts> counts,
                                             std::string late_method = {}) {
  return [faults = std::move(faults), counts,
          late_method = std::move(late_method)]() -> Result<std::unique_ptr<Transport>> {
    return std::unique_ptr<Transport>(std::make_unique<DroppingStdio>(faults, counts, late_method));
  };
}

}  // namespace mcpfuzz::test_support
