#include "checks/detail/connections.h"

#include <utility>

namespace mcpfuzz::checks::detail {
namespace {

// The main connection is reopened when its server died or went deaf, so later checks still run;
// a spare would be wasted on the few restarts a checklist costs.
SessionPolicy MainPolicy() {
  SessionPolicy policy;
  policy.reopen = true;
  return policy;
}

// A connection of a check's own is never reopened: what the check did to it is the point.
SessionPolicy OwnPolicy() {
  SessionPolicy policy;
  policy.reopen = false;
  return policy;
}

}  // namespace

// --- Connection --------------------------------------------------------------------------------

Connection::Connection(TargetLink& link, Revision revision, SessionPolicy policy)
    : session_(link, revision, policy) {}

bool Connection::Open(std::vector<Exchange>* exchanges) {
  // Every later request must be in the revision under test, not one the server fell back to.
  const bool opened = session_.Open().ok();
  if (exchanges != nullptr) {
    exchanges->insert(exchanges->end(), session_.opening().begin(), session_.opening().end());
  }
  return opened;
}

Exchange Connection::Send(const Request& request, Owed owed) {
  Observation observation = session_.Send(request, owed);
  return {request, std::move(observation), session_.SessionIdFor(request)};
}

Exchange Connection::SendAlone(const Request& request) {
  Observation observation = session_.SendAlone(request);
  return {request, std::move(observation), session_.SessionIdFor(request)};
}

PipelineResult Connection::SendPipelined(const Pipeline& pipeline, std::vector<Exchange>& made) {
  PipelineResult result = session_.SendPipelined(pipeline);
  for (std::size_t k = 0; k < pipeline.requests.size() && k < result.observations.size(); ++k) {
    made.push_back({pipeline.requests[k], result.observations[k],
                    session_.SessionIdFor(pipeline.requests[k])});
  }
  if (pipeline.sentinel) {
    made.push_back(
        {*pipeline.sentinel, result.sentinel, session_.SessionIdFor(*pipeline.sentinel)});
  }
  return result;
}

bool Connection::Dead() {
  if (!session_.stdio()) return false;
  return session_.lost() || session_.broken() || !session_.alive();
}

// --- Connections -------------------------------------------------------------------------------

Connections::Connections(TargetLink& link, Revision revision)
    : link_(link), revision_(revision), main_(link, revision, MainPolicy()) {}

std::unique_ptr<Connection> Connections::Fresh() {
  auto fresh = std::make_unique<Connection>(link_, revision_, OwnPolicy());
  if (!fresh->session_.Connect()) {
    fresh_failure_ = fresh->session_.why();
    return nullptr;
  }
  return fresh;
}

bool Connections::Start() {
  if (!main_.session_.Connect()) return false;
  if (!main_.Open(&first_open_)) return true;
  capabilities_known_ = true;
  return true;
}

Connection* Connections::Main() {
  if (!capabilities_known_) return nullptr;
  return main_.session_.Ready() ? &main_ : nullptr;
}

std::string Connections::MainFailure() const {
  if (!main_.session_.why().empty()) {
    return capabilities_known_
               ? main_.session_.why()
               : "opening " + std::string(ToString(revision_)) + " failed: " + main_.session_.why();
  }
  return fresh_failure_;
}

}  // namespace mcpfuzz::checks::detail
