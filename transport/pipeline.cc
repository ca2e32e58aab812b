#include "transport/transport.h"

namespace mcpfuzz {

PipelineResult Transport::SendPipelined(const Pipeline& pipeline) {
  PipelineResult result;
  result.observations.reserve(pipeline.requests.size());
  for (const Request& request : pipeline.requests) result.observations.push_back(Send(request));
  if (pipeline.sentinel) result.sentinel = Send(*pipeline.sentinel);
  result.answered_after_sentinel.assign(pipeline.requests.size(), false);
  return result;
}

}  // namespace mcpfuzz
