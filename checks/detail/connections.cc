#include "checks/detail/connections.h"

#include <utility>

#include "model/request_edit.h"

namespace mcpfuzz::checks::detail {
namespace {

// A server that dies (or stops answering) on most requests would otherwise cost a restart, or
// a timeout, per check: after this many restarts in a revision the remaining checks go
// unanswered (UNVERIFIED).
constexpr int kMaxRestarts = 5;

std::string SessionIdOf(const Request& request, const Transport& transport) {
  if (auto header = FindHeader(request.headers, kHeaderSessionId)) return std::string(*header);
  if (request.session == SessionBinding::kAttach) return transport.session_id();
  return {};
}

// What a request not sent (the run gave up on the target) is recorded as: a local refusal the
// oracles judge UNVERIFIED, with the reason in its detail.
Observation NotSent() {
  Observation observation;
  observation.outcome = Outcome::kTransportError;
  observation.detail = "not sent: " + GaveUpReason();
  return observation;
}

Owed OwedByDefault(const Request& request) {
  return request.RpcId() ? Owed::kReply : Owed::kNothing;
}

}  // namespace

// --- RecordingTransport ------------------------------------------------------------------------

RecordingTransport::RecordingTransport(std::unique_ptr<Transport> inner, std::size_t serial,
                                       IncidentLog& log)
    : TransportDecorator(std::move(inner)),
      stdio_(dynamic_cast<StdioTransport*>(&this->inner())),
      log_(log),
      process_{serial} {}

void RecordingTransport::Record(const Exchange& exchange, Owed owed) {
  log_.Record(exchange, stdio_ != nullptr ? &process_ : nullptr, owed);
}

Observation RecordingTransport::Send(const Request& request) {
  if (log_.gave_up()) {
    taken_.push_back({request, NotSent(), SessionIdOf(request, *this)});
    next_owed_.reset();
    return taken_.back().observation;
  }
  Exchange exchange{request, inner().Send(request), SessionIdOf(request, *this)};
  Record(exchange, next_owed_.value_or(OwedByDefault(request)));
  next_owed_.reset();
  taken_.push_back(std::move(exchange));
  return taken_.back().observation;
}

PipelineResult RecordingTransport::SendPipelined(const Pipeline& pipeline) {
  PipelineResult result;
  if (log_.gave_up()) {
    result.observations.assign(pipeline.requests.size(), NotSent());
    if (pipeline.sentinel) result.sentinel = NotSent();
  } else {
    result = inner().SendPipelined(pipeline);
  }
  if (!result.sentinel.late_replies.empty()) log_.set_out_of_order();
  const bool sentinel_answered =
      pipeline.sentinel &&
      ClassifyReply(*pipeline.sentinel, result.sentinel).channel != Channel::kTransportFailure;
  for (std::size_t k = 0; k < pipeline.requests.size() && k < result.observations.size(); ++k) {
    Observation& observation = result.observations[k];
    // A transport that sends one request after the other waits out the timeout on a dropped
    // one; the sentinel answered after it tells the same as a transport that learns drops.
    if (sentinel_answered && observation.outcome == Outcome::kAliveButDeaf) {
      observation.outcome = Outcome::kDropped;
    }
    if (observation.outcome == Outcome::kDropped) {
      // The oracles judge a dropped request as answered by silence (Channel::kNoReply).
      observation.detail = "dropped: no reply, and the sentinel written after it was answered";
    }
    const Request& request = pipeline.requests[k];
    Exchange exchange{request, observation, SessionIdOf(request, *this)};
    const Owed owed = OwedByDefault(request);
    Record(exchange, k == 0 ? next_owed_.value_or(owed) : owed);
    taken_.push_back(std::move(exchange));
  }
  next_owed_.reset();
  if (pipeline.sentinel) {
    Exchange exchange{*pipeline.sentinel, result.sentinel, SessionIdOf(*pipeline.sentinel, *this)};
    Record(exchange, Owed::kReply);
    taken_.push_back(std::move(exchange));
  }
  return result;
}

std::vector<Exchange> RecordingTransport::Take() { return std::exchange(taken_, {}); }

bool RecordingTransport::ProcessAlive() { return stdio_ == nullptr || stdio_->Alive(); }

// --- Connection --------------------------------------------------------------------------------

Connection::Connection(std::unique_ptr<Transport> transport, std::size_t serial, Revision revision,
                       IncidentLog& log)
    : transport_(std::make_unique<RecordingTransport>(std::move(transport), serial, log)),
      client_(*transport_, revision) {}

Connection::~Connection() = default;

bool Connection::Open(std::vector<Exchange>* exchanges) {
  transport_->Take();
  // Every later request must be in the revision under test, not one the server fell back to.
  opened_ = client_.OpenAsAsked();
  std::vector<Exchange> made = transport_->Take();
  if (exchanges != nullptr) exchanges->insert(exchanges->end(), made.begin(), made.end());
  for (const Exchange& exchange : made) {
    if (exchange.observation.outcome == Outcome::kAliveButDeaf) broken_ = true;
  }
  return opened_->ok();
}

std::string Connection::OpenFailure() const {
  if (!opened_) return "the connection was never opened";
  return opened_->ok() ? std::string() : opened_->error().message;
}

Exchange Connection::Send(const Request& request, Owed owed) {
  transport_->set_next_owed(owed);
  auto breaks = [this](const Exchange& exchange) {
    const Outcome outcome = exchange.observation.outcome;
    if (outcome == Outcome::kAliveButDeaf || outcome == Outcome::kExited) broken_ = true;
  };
  if (owed == Owed::kNothing && transport_->stdio() != nullptr &&
      !transport_->sentinels_prove_nothing()) {
    // The one request ping (or server/discover) never breaks: answered, it shows the server
    // read past the request; unanswered, the server stopped answering (an incident).
    Request sentinel =
        client_.Make(EraOf(client_.revision()) == Era::kStateless ? "server/discover" : "ping");
    BodyObject(sentinel)["id"] = "mcpfuzz-sentinel-" + std::to_string(++sentinels_);
    const PipelineResult result = transport_->SendPipelined(Pipeline{{request}, sentinel});
    std::vector<Exchange> made = transport_->Take();
    for (const Exchange& exchange : made) breaks(exchange);
    // Output that cannot be told apart: the server is restarted before the next check.
    if (result.ambiguous) broken_ = true;
    return std::move(made.front());
  }
  transport_->Send(request);
  std::vector<Exchange> made = transport_->Take();
  Exchange exchange = std::move(made.back());
  breaks(exchange);
  return exchange;
}

bool Connection::Dead() {
  if (transport_->stdio() == nullptr) return false;
  return broken_ || !transport_->ProcessAlive();
}

std::vector<Exchange> Connection::Close() {
  if (transport_->stdio() != nullptr) return {};
  client_.Close();
  return transport_->Take();
}

// --- Connections -------------------------------------------------------------------------------

Connections::Connections(const TransportFactory& connect, Revision revision, IncidentLog& log)
    : connect_(connect), revision_(revision), log_(log) {}

Connections::~Connections() {
  if (main_) main_->Close();
}

std::unique_ptr<Connection> Connections::Fresh() {
  if (log_.gave_up()) {
    main_failure_ = GaveUpReason();
    return nullptr;
  }
  auto transport = connect_();
  if (!transport.ok()) {
    main_failure_ = "could not connect: " + transport.error().message;
    return nullptr;
  }
  kind_ = (*transport)->kind();
  return std::make_unique<Connection>(std::move(*transport), ++connections_made_, revision_, log_);
}

bool Connections::Start() {
  main_ = Fresh();
  if (!main_) {
    main_broken_ = true;
    return false;
  }
  if (!main_->Open(&first_open_)) {
    main_failure_ =
        "opening " + std::string(ToString(revision_)) + " failed: " + main_->OpenFailure();
    main_->Close();
    main_.reset();
    main_broken_ = true;
    return true;
  }
  capabilities_ = main_->client().server_capabilities();
  capabilities_known_ = true;
  session_assigned_ = main_->client().session_assigned();
  server_info_ = main_->client().server_info();
  return true;
}

Connection* Connections::Main() {
  if (main_broken_) return nullptr;
  if (log_.gave_up()) {
    main_failure_ = GaveUpReason();
    main_broken_ = true;
    return nullptr;
  }
  const bool retired = std::exchange(retire_main_, false);
  if (main_ && !main_->Dead() && !retired) return main_.get();
  // A stdio server that died or stopped answering: start it again so later checks still run.
  const bool died = main_ == nullptr || main_->Dead();
  if (main_) main_->Close();
  main_.reset();
  if (!died) {
    main_ = Fresh();
    if (main_ && main_->Open()) return main_.get();
    main_.reset();
  }
  if (restarts_ == kMaxRestarts) {
    main_failure_ = "the server was restarted " + std::to_string(kMaxRestarts) +
                    " times in this revision and is not restarted again";
    main_broken_ = true;
    return nullptr;
  }
  ++restarts_;
  main_ = Fresh();
  if (main_ && main_->Open()) return main_.get();
  if (main_) {
    main_failure_ = "restarting the server failed: " + main_->OpenFailure();
    main_.reset();
  }
  main_broken_ = true;
  return nullptr;
}

}  // namespace mcpfuzz::checks::detail
