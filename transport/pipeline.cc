#include "transport/transport.h"

namespace mcpfuzz {

std::chrono::milliseconds Limits::TimeoutFor(std::size_t request_bytes) const {
  return timeout + ReadAllowanceFor(request_bytes);
}

std::chrono::milliseconds Limits::ReadAllowanceFor(std::size_t request_bytes) {
  constexpr std::size_t kMiB = std::size_t{1} << 20U;
  // Whole MiB only: a request under a MiB, nearly every one, keeps the plain timeout.
  return kReadAllowancePerMiB * static_cast<long>(request_bytes / kMiB);
}

Observation StdioTransport::AwaitReply(const Request& request) {
  static_cast<void>(request);
  Observation observation;
  observation.outcome = Outcome::kAliveButDeaf;
  observation.detail = "this transport cannot wait for a late reply";
  return observation;
}

Result<std::string> Transport::TakeCoverage(bool /*all*/) {
  return Error{"this transport has no coverage agent"};
}

PipelineResult Transport::SendPipelined(const Pipeline& pipeline) {
  PipelineResult result;
  result.observations.reserve(pipeline.requests.size());
  for (const Request& request : pipeline.requests) result.observations.push_back(Send(request));
  if (pipeline.sentinel) result.sentinel = Send(*pipeline.sentinel);
  result.answered_after_sentinel.assign(pipeline.requests.size(), false);
  return result;
}

}  // namespace mcpfuzz
