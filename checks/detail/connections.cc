#include "checks/detail/connections.h"

#include <algorithm>
#include <optional>
#include <system_error>
#include <utility>

#include "model/request_builder.h"

namespace mcpfuzz::checks::detail {
namespace {

// The main connection is reopened when its server died or went deaf, or its HTTP session ended
// under it, so later checks still run; a spare would be wasted on the few restarts a checklist
// costs.
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

Exchange Connection::SendUnrecovered(const Request& request, Owed owed) {
  Observation observation = session_.SendUnrecovered(request, owed);
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

// --- SentAhead ---------------------------------------------------------------------------------

SentAhead::SentAhead(TargetLink& link, Revision revision, Variant variant)
    : connection_(std::make_unique<Connection>(link, revision, OwnPolicy())),
      variant_(std::move(variant)) {
  connection_->session_.HoldObservations();
  if (!connection_->session_.Connect()) {
    connection_.reset();  // sent live instead, which learns the same failure
    return;
  }
  try {
    thread_ = std::thread([this] {
      try {
        if (!connection_->Open()) return;
        const Request request = variant_.build(*connection_);
        sent_ = connection_->Send(request, variant_.owed);
      } catch (...) {
        sent_.reset();  // not sent ahead: sent live instead
      }
    });
  } catch (const std::system_error&) {
    connection_.reset();  // no thread to be had: sent live instead
  }
}

SentAhead::~SentAhead() {
  if (thread_.joinable()) thread_.join();
}

std::optional<SentAhead::Sent> SentAhead::Take() {
  if (thread_.joinable()) thread_.join();
  if (!connection_ || !sent_) return std::nullopt;
  connection_->session_.ReleaseObservations();
  Sent sent{std::move(connection_), std::move(*sent_)};
  sent_.reset();
  return sent;
}

// --- Connections -------------------------------------------------------------------------------

Connections::Connections(TargetLink& link, Revision revision)
    : link_(link), revision_(revision), main_(link, revision, MainPolicy()) {}

// Prepared connections not taken end their sessions unobserved, as if never made.
Connections::~Connections() = default;

std::unique_ptr<Connection> Connections::Fresh() {
  auto fresh = std::make_unique<Connection>(link_, revision_, OwnPolicy());
  if (!fresh->session_.Connect()) {
    fresh_failure_ = fresh->session_.why();
    return nullptr;
  }
  return fresh;
}

FreshPool FreshPool::Make(TargetLink& link, Revision revision, const FreshSteps& steps) {
  FreshPool pool;
  pool.revision = revision;
  const std::size_t count = steps.opened + steps.sent.size();
  std::vector<Prepared> made;
  // Connected here, one at a time: the factory is called from this thread only.
  for (std::size_t i = 0; i < count && !link.gave_up(); ++i) {
    auto connection = std::make_unique<Connection>(link, revision, OwnPolicy());
    connection->session_.HoldObservations();
    if (!connection->session_.Connect()) break;  // taken live, which learns the same failure
    Prepared one;
    one.connection = std::move(connection);
    if (i >= steps.opened) one.first = steps.sent[i - steps.opened];
    made.push_back(std::move(one));
  }
  OpenAtOnce(made.size(), [&made](std::size_t i) {
    Prepared& one = made[i];
    try {
      if (one.first) {
        one.sent = one.connection->Send(*one.first, Owed::kReply);
      } else {
        one.opened = one.connection->session_.Open().ok();
      }
    } catch (...) {
      one.connection.reset();  // not prepared: taken live instead
    }
  });
  for (Prepared& one : made) {
    // One that did not get its answer is not used: opened live instead, as without preparing,
    // so a server slowed by the crowd of openings is not judged on it.
    const bool answered = one.first ? one.sent.observation.outcome == Outcome::kOk : one.opened;
    if (one.connection && answered) pool.prepared.push_back(std::move(one));
  }
  pool.changes_when_made = link.changes_seen();
  return pool;
}

void Connections::Prepare(const FreshSteps& steps, FreshPool ahead) {
  if (kind() == TransportKind::kStdio && !link_.gave_up()) {
    for (const AloneVariant& alone : steps.alone) {
      alone_[{alone.check_id, alone.variant.label}] =
          std::make_unique<SentAhead>(link_, revision_, alone.variant);
    }
  }
  // Made ahead, it stands as one made now would while nothing could have changed the target
  // since: the same rule as for taking a prepared connection.
  const bool usable = kind() == TransportKind::kHttp && !link_.gave_up();
  if (!usable || ahead.revision != revision_ || link_.changes_seen() != ahead.changes_when_made) {
    for (Prepared& unused : ahead.prepared) unused_.push_back(std::move(unused));
    ahead.prepared.clear();
  }
  if (!usable) return;
  // The steps the pool made ahead are taken from it; the rest are made now.
  FreshSteps lacking;
  std::size_t opened = 0;
  for (auto it = ahead.prepared.begin(); it != ahead.prepared.end() && opened < steps.opened;) {
    if (it->first) {
      ++it;
      continue;
    }
    prepared_.push_back(std::move(*it));
    it = ahead.prepared.erase(it);
    ++opened;
  }
  lacking.opened = steps.opened - opened;
  for (const Request& first : steps.sent) {
    auto made = std::find_if(ahead.prepared.begin(), ahead.prepared.end(),
                             [&first](const Prepared& one) { return one.first == first; });
    if (made == ahead.prepared.end()) {
      lacking.sent.push_back(first);
      continue;
    }
    prepared_.push_back(std::move(*made));
    ahead.prepared.erase(made);
  }
  for (Prepared& unused : ahead.prepared) unused_.push_back(std::move(unused));
  FreshPool now = FreshPool::Make(link_, revision_, lacking);
  for (Prepared& prepared : now.prepared) prepared_.push_back(std::move(prepared));
  changes_when_prepared_ = link_.changes_seen();
}

std::optional<Connections::Prepared> Connections::TakePrepared(
    const std::optional<Request>& first) {
  // Decided by what the target did since, never by the time that passed: one that left
  // something unanswered may have changed, and what it answered ahead may not be what it
  // answers now.
  if (link_.gave_up() || link_.changes_seen() != changes_when_prepared_) {
    for (Prepared& unused : prepared_) unused_.push_back(std::move(unused));
    prepared_.clear();
    return std::nullopt;
  }
  for (auto it = prepared_.begin(); it != prepared_.end(); ++it) {
    if (it->first != first) continue;
    Prepared taken = std::move(*it);
    prepared_.erase(it);
    taken.connection->session_.ReleaseObservations();
    return taken;
  }
  return std::nullopt;
}

std::unique_ptr<Connection> Connections::FreshOpened(std::vector<Exchange>& opening, bool& opened) {
  if (std::optional<Prepared> prepared = TakePrepared(std::nullopt)) {
    const auto& made = prepared->connection->session_.opening();
    opening.insert(opening.end(), made.begin(), made.end());
    opened = prepared->opened;
    return std::move(prepared->connection);
  }
  std::unique_ptr<Connection> fresh = Fresh();
  opened = fresh && fresh->Open(&opening);
  return fresh;
}

std::unique_ptr<Connection> Connections::FreshSending(const Request& first, Exchange& sent) {
  if (std::optional<Prepared> prepared = TakePrepared(first)) {
    sent = std::move(prepared->sent);
    return std::move(prepared->connection);
  }
  std::unique_ptr<Connection> fresh = Fresh();
  if (fresh) sent = fresh->Send(first, Owed::kReply);
  return fresh;
}

std::optional<SentAhead::Sent> Connections::TakeAlone(std::string_view check_id,
                                                      std::string_view label) {
  const auto found = alone_.find({check_id, std::string(label)});
  if (found == alone_.end()) return std::nullopt;
  const std::unique_ptr<SentAhead> alone = std::move(found->second);
  alone_.erase(found);
  return alone->Take();
}

bool Connections::Start(ProbedConnection probed) {
  if (probed.client) {
    main_.session_.Continue(std::move(probed));
    first_open_ = main_.session_.opening();
    capabilities_known_ = true;
    return true;
  }
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
