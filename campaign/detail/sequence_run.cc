#include "campaign/detail/sequence_run.h"

#include <memory>
#include <utility>

#include "model/request_builder.h"
#include "oracles/sequence.h"

namespace mcpfuzz::campaign_detail {

SequenceRun RunSequence(const TransportFactory& connect, const Sequence& sequence) {
  SequenceRun run;
  auto connected = connect();
  if (!connected.ok()) {
    run.error = connected.error().message;
    return run;
  }
  Transport& transport = **connected;
  SequenceState state;
  Revision revision = kLatestRevision;
  for (const SequenceStep& step : sequence) {
    revision = step.request.revision;
    Observation observation = transport.Send(step.request);
    if (transport.session_id().empty()) {
      if (auto session = FindHeader(observation.http_headers, kHeaderSessionId)) {
        transport.set_session_id(std::string(*session));
      }
    }
    const SequenceState before = state;
    state = AdvanceSequence(state, step.request, observation);
    Judged judged = JudgeStep(before, step.request, std::move(observation));
    const bool finding = judged.finding;
    run.steps.push_back(std::move(judged));
    if (finding) {
      run.failing = run.steps.size() - 1;
      break;
    }
  }
  // Nothing left behind: a session still live is ended, as McpClient::Close ends one.
  if (state.session == SequenceState::Session::kLive && !transport.session_id().empty()) {
    static_cast<void>(transport.Send(MakeBodyless(revision, "DELETE")));
  }
  return run;
}

ShrunkSequence ShrinkSequence(const TransportFactory& connect, const Sequence& sequence,
                              const SequenceRun& run, const std::string& signature,
                              std::size_t max_sends, std::chrono::milliseconds max_time) {
  const auto start = std::chrono::steady_clock::now();
  ShrunkSequence shrunk;
  shrunk.judged = *run.finding();
  // Sending stopped at the failing step: what came after it played no part.
  shrunk.minimal.assign(sequence.begin(),
                        sequence.begin() + static_cast<std::ptrdiff_t>(*run.failing + 1));
  bool progress = true;
  while (progress) {
    progress = false;
    // The failing step is the last one; every other is a candidate for removal.
    for (std::size_t drop = 0; drop + 1 < shrunk.minimal.size(); ++drop) {
      if (shrunk.sends >= max_sends || std::chrono::steady_clock::now() - start >= max_time) {
        return shrunk;
      }
      Sequence candidate = shrunk.minimal;
      candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(drop));
      ++shrunk.sends;
      const SequenceRun again = RunSequence(connect, candidate);
      const Judged* found = again.finding();
      if (found == nullptr || found->signature != signature) continue;
      candidate.resize(*again.failing + 1);
      shrunk.minimal = std::move(candidate);
      shrunk.judged = *found;
      ++shrunk.steps;
      progress = true;
      break;
    }
  }
  return shrunk;
}

}  // namespace mcpfuzz::campaign_detail
