#include "transport/detail/session_connection.h"

#include <utility>

namespace mcpfuzz::transport_detail {
namespace {

Owed OwedByDefault(const Request& request) {
  return request.RpcId() ? Owed::kReply : Owed::kNothing;
}

}  // namespace

std::string SessionIdOf(const Request& request, const Transport& transport) {
  if (auto header = FindHeader(request.headers, kHeaderSessionId)) return std::string(*header);
  if (request.session == SessionBinding::kAttach) return transport.session_id();
  return {};
}

bool AnsweredInTime(Outcome outcome) {
  return outcome == Outcome::kOk || outcome == Outcome::kDropped || outcome == Outcome::kTooLarge;
}

Observation Failed(std::string detail) {
  Observation observation;
  observation.outcome = Outcome::kTransportError;
  observation.detail = std::move(detail);
  return observation;
}

Observation NotSent(const std::string& why) { return Failed("not sent: " + why); }

ObservingTransport::ObservingTransport(std::unique_ptr<Transport> inner, TargetLink& link,
                                       std::size_t serial)
    : TransportDecorator(std::move(inner)),
      link_(link),
      serial_(serial),
      stdio_(dynamic_cast<StdioTransport*>(&this->inner())) {}

void ObservingTransport::Observe(const Request& request, const Observation& observation, Owed owed,
                                 bool harmless) {
  const std::string session_id = SessionIdOf(request, *this);
  Record({request, observation, session_id, owed, serial_, stdio_ != nullptr}, harmless);
}

void ObservingTransport::Observed(const Exchange& exchange) {
  Record({exchange.request, exchange.observation, exchange.session_id,
          OwedByDefault(exchange.request), serial_, stdio_ != nullptr},
         /*harmless=*/false);
}

void ObservingTransport::Record(const ObservedExchange& observed, bool harmless) {
  if (!observed_) return;
  // A handshake counts for the give-up rule as a question every server must answer.
  const bool counts = harmless || tap_ != nullptr;
  if (tap_ != nullptr) tap_->push_back(observed.Copy());
  if (held_) {
    held_->push_back({observed.Copy(), observed.owed, counts});
    return;
  }
  HandOn(observed, counts);
}

void ObservingTransport::HandOn(const ObservedExchange& observed, bool counts) {
  link_.NoteAnswer(observed.request, observed.observation);
  if (counts) link_.Count(observed.observation);
  if (SessionObserver* observer = link_.observer()) observer->Saw(observed);
}

void ObservingTransport::Release() {
  if (!held_) return;
  std::vector<Held> held = std::move(*held_);
  held_.reset();
  for (const Held& one : held) {
    const ObservedExchange observed{
        one.exchange.request, one.exchange.observation, one.exchange.session_id, one.owed, serial_,
        stdio_ != nullptr};
    HandOn(observed, one.counts);
  }
}

Observation ObservingTransport::SendOwed(const Request& request, Owed owed, bool harmless) {
  if (link_.gave_up()) {
    Observation unsent = NotSent(TargetLink::GaveUpReason());
    Observe(request, unsent, owed, harmless);
    return unsent;
  }
  Observation observation = inner().Send(request);
  Observe(request, observation, owed, harmless);
  return observation;
}

Observation ObservingTransport::Send(const Request& request) {
  return SendOwed(request, OwedByDefault(request));
}

PipelineResult ObservingTransport::SendPipelined(const Pipeline& pipeline) {
  PipelineResult result;
  if (link_.gave_up()) {
    result.observations.assign(pipeline.requests.size(), NotSent(TargetLink::GaveUpReason()));
    if (pipeline.sentinel) result.sentinel = NotSent(TargetLink::GaveUpReason());
    result.answered_after_sentinel.assign(pipeline.requests.size(), false);
  } else {
    result = inner().SendPipelined(pipeline);
  }
  const bool sentinel_answered =
      pipeline.sentinel && SentinelAnswered(*pipeline.sentinel, result.sentinel);
  const bool went_deaf = pipeline.sentinel && result.sentinel.outcome == Outcome::kAliveButDeaf;
  for (std::size_t k = 0; k < pipeline.requests.size() && k < result.observations.size(); ++k) {
    Observation& observation = result.observations[k];
    // A message owed no echoed reply was heard out in silence, but the sentinel behind it got
    // no answer either: the server stopped answering, and that silence was not its answer.
    if (went_deaf && observation.outcome == Outcome::kOk && observation.messages.empty() &&
        observation.non_json.empty()) {
      observation.outcome = Outcome::kAliveButDeaf;
      observation.time_limit = result.sentinel.time_limit;
      observation.limit = result.sentinel.limit;
      observation.detail = "no reply, and the sentinel written after it got none either";
    }
    // A transport that sends one request after the other waits out the limit on a dropped
    // one; the sentinel answered after it tells the same as one that learns drops.
    if (sentinel_answered && observation.outcome == Outcome::kAliveButDeaf) {
      observation.outcome = Outcome::kDropped;
    }
    if (observation.outcome == Outcome::kDropped &&
        observation.detail.find("sentinel") == std::string::npos) {
      observation.detail = "no reply; the sentinel written after it was answered";
    }
    Observe(pipeline.requests[k], observation,
            pipeline.sentinel ? Owed::kNothing : OwedByDefault(pipeline.requests[k]),
            !pipeline.sentinel);
  }
  if (pipeline.sentinel) Observe(*pipeline.sentinel, result.sentinel, Owed::kReply, true);
  return result;
}

}  // namespace mcpfuzz::transport_detail
