#include "transport/session.h"

#include <algorithm>
#include <atomic>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>

#include "model/channel.h"
#include "model/request_builder.h"
#include "transport/detail/reply_rule.h"
#include "transport/detail/session_connection.h"

namespace mcpfuzz {
namespace {

using transport_detail::Failed;
using transport_detail::SessionConnection;

// Once a server went deaf, later exchanges wait this fraction of the time that silence took
// the first time, and no less than the floor: a server that answers at all answers a sentinel
// far sooner, and one that goes deaf again is known at a fraction of a limit. A verdict that
// rests on this shorter wait says so (Observation::time_limit), and a fuzz finding resting on
// it is sent again alone under the full limit before it counts.
constexpr int kPatienceDivisor = 4;
constexpr std::chrono::milliseconds kPatienceFloor{250};

// The server said something: a reply, output that is not one, or a drop its answer to the
// sentinel proved. A quiet window's silence is not an answer.
bool Answered(const Observation& observation) {
  switch (observation.outcome) {
    case Outcome::kOk:
      return !observation.messages.empty() || !observation.non_json.empty();
    case Outcome::kDropped:
    case Outcome::kTooLarge:
      return true;
    default:
      return false;
  }
}

// Outcomes after which the connection (or the stdio process) cannot be trusted for the next
// request. A stdio drop is not among them: the server read past it. Nor is an HTTP timeout:
// curl opens a new connection for the next request by itself, and the session the server
// keeps is still its; reopening would hand a server that hangs on every request a fresh,
// answered handshake each time, and the run would never give up on it.
bool Breaks(const Observation& observation) {
  return observation.outcome == Outcome::kConnectionRefused ||
         observation.outcome == Outcome::kConnectionReset ||
         observation.outcome == Outcome::kExited || observation.outcome == Outcome::kAliveButDeaf ||
         ProcessEnded(observation);
}

// The reply to `request` among `later`'s late replies (it came after `observation` gave up on
// it): moved into `observation`, which becomes answered. False when it is not there.
bool TookLateReply(const Request& request, Observation& later, Observation& observation) {
  const std::optional<boost::json::value> id = request.RpcId();
  if (!id) return false;
  auto found = std::find_if(later.late_replies.begin(), later.late_replies.end(),
                            [&id](const boost::json::value& reply) {
                              const auto* echoed = reply.as_object().if_contains("id");
                              return echoed != nullptr && *echoed == *id;
                            });
  if (found == later.late_replies.end()) return false;
  observation.messages.push_back(std::move(*found));
  later.late_replies.erase(found);
  observation.outcome = Outcome::kOk;
  observation.detail = "answered after " + std::string(Describe(observation.time_limit)) + " of " +
                       std::to_string(observation.limit.count()) +
                       " ms had passed, while a sentinel sent after it was waited for";
  return true;
}

}  // namespace

void OpenAtOnce(std::size_t count, const std::function<void(std::size_t)>& open) {
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) open(i);
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < std::min(count, kOpenAtOnce); ++t) {
    try {
      threads.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // No thread to be had: the threads there are open the rest.
    }
  }
  work();
  for (std::thread& thread : threads) thread.join();
}

TargetSession::TargetSession(TargetLink& link, Revision revision, SessionPolicy policy)
    : link_(link), revision_(revision), policy_(policy) {}

TargetSession::~TargetSession() {
  // Ends a handshake-era HTTP session politely; a stdio server is shut down by its transport.
  if (connection_ && opened_once_ && !broken_ && !lost_ && !closed_ && !stdio()) {
    connection_->client().Close();
  }
  // The spare's server is shut down with it: no child outlives the session.
  if (spare_ && spare_->opener.joinable()) spare_->opener.join();
}

McpClient& TargetSession::client() { return connection_->client(); }

std::string TargetSession::session_id() const {
  return connection_ ? connection_->transport().session_id() : std::string();
}

void TargetSession::set_session_id(std::string id) {
  if (connection_) connection_->transport().set_session_id(std::move(id));
}

std::string TargetSession::SessionIdFor(const Request& request) const {
  return connection_ ? transport_detail::SessionIdOf(request, connection_->transport())
                     : std::string();
}

bool TargetSession::alive() {
  StdioTransport* process = connection_ ? connection_->stdio() : nullptr;
  return process == nullptr || process->Alive();
}

std::vector<Exchange> TargetSession::Close() {
  std::vector<Exchange> made;
  if (connection_ == nullptr || closed_ || stdio()) return made;
  closed_ = true;
  connection_->transport().set_tap(&made);
  connection_->client().Close();
  connection_->transport().set_tap(nullptr);
  return made;
}

void TargetSession::HoldObservations() {
  held_ = true;
  if (connection_) connection_->transport().Hold();
}

void TargetSession::ReleaseObservations() {
  held_ = false;
  if (connection_) connection_->transport().Release();
}

void TargetSession::Lose(std::string why) {
  lost_ = true;
  why_ = std::move(why);
}

void TargetSession::Adopt(std::unique_ptr<SessionConnection> connection) {
  connection_ = std::move(connection);
  connection_->transport().set_observed(true);
  if (held_) connection_->transport().Hold();
  ++generation_;
  if (StdioTransport* process = connection_->stdio()) {
    process->LimitPatience(patience_);
    process->WidenQuietWindow(link_.quiet_window(std::chrono::milliseconds{0}));
  }
}

bool TargetSession::Reconnect() {
  if (link_.gave_up()) {
    why_ = TargetLink::GaveUpReason();
    return false;
  }
  auto transport = link_.Connect();
  if (!transport.ok()) {
    why_ = "could not connect: " + transport.error().message;
    return false;
  }
  kind_ = (*transport)->kind();
  reproduce_at_ = (*transport)->ReproduceAt();
  Adopt(std::make_unique<SessionConnection>(std::move(*transport), link_, link_.connections_made(),
                                            revision_));
  return true;
}

bool TargetSession::Connect() {
  if (!Reconnect()) {
    Lose(why_);
    return false;
  }
  connected_unopened_ = true;
  return true;
}

Result<OpenOutcome> TargetSession::OpenConnection() {
  // A connection Connect made is opened as it is; any other open makes a new one.
  const bool reuse = std::exchange(connected_unopened_, false) && connection_ != nullptr;
  if (!reuse && !Reconnect()) return Error{why_};
  opening_.clear();
  connection_->transport().set_tap(&opening_);
  Result<OpenOutcome> opened = connection_->client().OpenAsAsked();
  connection_->transport().set_tap(nullptr);
  if (!opened.ok()) {
    why_ = opened.error().message;
    const auto& last = connection_->client().last_open();
    broken_ = last && Breaks(last->observation);
  }
  return opened;
}

Result<OpenOutcome> TargetSession::Open() {
  Result<OpenOutcome> opened = OpenConnection();
  if (!opened.ok()) {
    Lose(why_);
    return opened;
  }
  if (!opened_once_) OpenedFirst();
  return opened;
}

void TargetSession::OpenedFirst() {
  opened_once_ = true;
  capabilities_ = connection_->client().server_capabilities();
  session_assigned_ = connection_->client().session_assigned();
  server_info_ = connection_->client().server_info();
  if (policy_.list_features) listed_ = ListFeatures(connection_->client());
  PrepareSpare(nullptr);
}

void TargetSession::Continue(ProbedConnection probed) {
  kind_ = probed.transport->kind();
  reproduce_at_ = probed.transport->ReproduceAt();
  Adopt(std::make_unique<SessionConnection>(std::move(probed.transport), link_,
                                            link_.connections_made(), revision_));
  connection_->client().ContinueFrom(*probed.client);
  probed.client.reset();  // it spoke through the transport the session holds now
  opening_.clear();
  // Observed as the handshake of an Open is: tapped, and counted for the give-up rule.
  connection_->transport().set_tap(&opening_);
  for (const Exchange& exchange : probed.opening) connection_->transport().Observed(exchange);
  connection_->transport().set_tap(nullptr);
  OpenedFirst();
}

void TargetSession::PrepareSpare(std::unique_ptr<SessionConnection> retired) {
  if (!stdio() || spare_ || lost_ || !policy_.warm_spare) return;
  auto transport = link_.Connect();
  if (!transport.ok()) return;  // No spare: the next restart starts a server as it is needed.
  spare_ = std::make_unique<transport_detail::Spare>();
  spare_->connection = std::make_unique<SessionConnection>(std::move(*transport), link_,
                                                           link_.connections_made(), revision_);
  spare_->retired = std::move(retired);
  spare_->connection->transport().set_observed(false);
  // Only the factory call stays on this thread (tests count the connections a factory made);
  // the server's start-up and handshake overlap the requests sent meanwhile.
  spare_->opener = std::thread([spare = spare_.get()] {
    auto opened = spare->connection->client().OpenAsAsked();
    spare->opened = opened.ok();
    if (!opened.ok()) spare->why = opened.error().message;
    spare->retired.reset();
  });
}

bool TargetSession::TakeSpare() {
  if (!spare_) return false;
  spare_->opener.join();
  const std::unique_ptr<transport_detail::Spare> spare = std::move(spare_);
  if (!spare->opened) {
    why_ = spare->why;
    return false;
  }
  // Its handshake was answered on the spare's thread, out of the count's sight: it counts now,
  // as a restarted server's answered handshake does.
  Observation answered;
  answered.outcome = Outcome::kOk;
  link_.Count(answered);
  Adopt(std::move(spare->connection));
  return true;
}

bool TargetSession::Reopen() {
  connected_unopened_ = false;
  std::unique_ptr<SessionConnection> retired = std::move(connection_);
  bool reopened = TakeSpare();
  if (reopened) ++counts_.warm_reopens;
  // A reconnection can fail for reasons of the moment (a port still closing): a few tries.
  constexpr int kReconnectAttempts = 3;
  for (int attempt = 0; attempt < kReconnectAttempts && !reopened && !link_.gave_up(); ++attempt) {
    reopened = OpenConnection().ok();
  }
  // The next spare starts now, so it is warm by the next restart.
  if (reopened) PrepareSpare(std::move(retired));
  return reopened;
}

bool TargetSession::SpendsTheRestartBudget() {
  if (!lost_ && !answered_since_open_ && fruitless_restarts_ + 1 >= policy_.kFruitlessRestarts) {
    Lose("the server died or stopped answering before answering anything after each of the last " +
         std::to_string(policy_.kFruitlessRestarts) +
         " restarts (the restart budget); nothing more was sent to it");
  }
  return lost_;
}

bool TargetSession::Ready() {
  if (lost_) return false;
  if (link_.gave_up()) {
    Lose(TargetLink::GaveUpReason());
    return false;
  }
  if (connection_ == nullptr) {
    Lose("the session was never opened");
    return false;
  }
  StdioTransport* process = connection_->stdio();
  const bool died_quietly = !broken_ && process != nullptr && !process->Alive();
  if (died_quietly) {
    death_between_ = process->Shutdown();
    if (SessionObserver* observer = link_.observer()) {
      observer->DiedBetween(*death_between_, connection_->serial());
    }
  }
  // An HTTP server mcpfuzz started that ended (a case of another session crashed it) was
  // started again on its port, where this session does not exist.
  const bool server_ended =
      !broken_ && process == nullptr && connection_->transport().server_ended();
  const bool retire = std::exchange(retire_, false) && stdio();
  const bool failed = broken_ || died_quietly || server_ended;
  if (!failed && !retire) return true;
  if (!policy_.reopen) {
    if (!failed) return true;
    Lose(std::string("the server of this connection ") +
         (died_quietly || server_ended ? "ended" : "stopped answering") +
         "; a connection of its own is not reopened");
    return false;
  }
  if (failed) {
    if (SpendsTheRestartBudget()) return false;
    fruitless_restarts_ = answered_since_open_ ? 0 : fruitless_restarts_ + 1;
    answered_since_open_ = false;
  }
  ++counts_.reopens;
  if (!Reopen()) {
    Lose("the session could not be reopened: " + why_);
    return false;
  }
  broken_ = false;
  return true;
}

Request TargetSession::Sentinel() { return MakeSentinel(revision_, kind_, ++sentinels_); }

void TargetSession::Retire() { retire_ = true; }

Result<TargetSession::CoverageReply> TargetSession::TakeCoverage(bool all) {
  if (!connection_) return Error{"the session has no connection"};
  auto reply = connection_->transport().TakeCoverage(all);
  if (!reply.ok()) return reply.error();
  const bool last = IsLastTake(*reply);
  // Over stdio each connection is a process; over HTTP connections share the server mcpfuzz
  // started, until it ended and was started again.
  const std::size_t agent = connection_->stdio() != nullptr
                                ? connection_->serial()
                                : connection_->transport().coverage_process();
  return CoverageReply{agent, std::move(*reply), last};
}

void TargetSession::MarkBroken() {
  broken_ = true;
  // Known now rather than at the next exchange, so that no case is counted that is not sent.
  if (policy_.reopen) SpendsTheRestartBudget();
}

void TargetSession::Count(const Observation& observation) {
  if (Answered(observation)) {
    answered_since_open_ = true;
    fruitless_restarts_ = 0;
  }
}

void TargetSession::CountDeafness(const Observation& observation) {
  if (observation.outcome != Outcome::kAliveButDeaf) return;
  if (observation.time_limit == TimeLimit::kPatience) {
    ++counts_.deaf_within_patience;
    return;
  }
  ++counts_.deaf_timeouts;
  if (patience_) return;
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(observation.elapsed);
  patience_ = std::max(kPatienceFloor, waited / kPatienceDivisor);
  if (StdioTransport* process = connection_->stdio()) process->LimitPatience(patience_);
}

void TargetSession::NoteLateReplies(const PipelineResult& result) {
  std::optional<std::string> unexplained;
  for (const boost::json::value& late : result.sentinel.late_replies) {
    const auto* id = late.is_object() ? late.as_object().if_contains("id") : nullptr;
    const std::string named =
        "a reply to id " + (id != nullptr ? boost::json::serialize(*id) : std::string("?"));
    // A drop concluded without its grace and answered after all: the order learnt for its
    // kind was wrong, not every sentinel (ReplyOrders).
    const auto& spared = result.late_after_spared_grace;
    auto drop = std::find_if(spared.begin(), spared.end(),
                             [id](const auto& dropped) { return id && dropped.id == *id; });
    if (drop != spared.end()) {
      link_.reply_orders().NoteReorder(drop->kind, named + ", late after its grace was spared");
    } else if (!unexplained) {
      unexplained = named;
    }
  }
  if (unexplained) link_.DistrustSentinels(*unexplained);
}

void TargetSession::LearnReplyOrder(const Pipeline& pipeline, const std::vector<std::string>& kinds,
                                    const PipelineResult& result) {
  ReplyOrders& orders = link_.reply_orders();
  if (result.grace_spared) orders.NoteGraceSpared();
  for (std::size_t i = 0; i < kinds.size() && i < result.open_at_sentinel.size(); ++i) {
    if (!result.open_at_sentinel[i]) continue;
    const Request& request = pipeline.requests[i];
    if (result.answered_after_sentinel[i]) {
      const std::optional<boost::json::value> id = request.RpcId();
      orders.NoteReorder(kinds[i],
                         "a reply to id " + (id ? boost::json::serialize(*id) : std::string("?")));
    } else if (result.taken_after_sentinel) {
      // Whose it was is not known: every kind that could have been given it reorders.
      orders.NoteReorder(kinds[i], "output without an id");
    } else if (!result.grace_spared) {
      orders.NoteSilentGrace(kinds[i]);
    }
    // Spared its grace, a reply may still come: a later exchange tells (NoteLateReplies).
  }
}

void TargetSession::ProveDrop(const Request& request, Observation& observation) {
  StdioTransport* process = connection_->stdio();
  if (process == nullptr || link_.sentinel_trust() != TargetLink::SentinelTrust::kUnproven) {
    return;
  }
  Observation awaited = process->AwaitReply(request);
  const bool replied =
      std::any_of(awaited.messages.begin(), awaited.messages.end(),
                  [](const boost::json::value& message) { return IsResponseShaped(message); });
  if (!replied) {
    if (awaited.outcome == Outcome::kOk || awaited.outcome == Outcome::kAliveButDeaf) {
      link_.TrustSentinels();
    }
    return;
  }
  const auto lateness = std::chrono::duration_cast<std::chrono::milliseconds>(awaited.elapsed);
  link_.DistrustSentinels("the reply to a request answered " + std::to_string(lateness.count()) +
                              " ms after the sentinel's reply",
                          lateness);
  // The request's own answer after all: what a one-at-a-time exchange would have got.
  for (boost::json::value& message : awaited.messages) {
    observation.messages.push_back(std::move(message));
  }
  for (std::string& piece : awaited.non_json) observation.non_json.push_back(std::move(piece));
  observation.outcome = Outcome::kOk;
  observation.detail = "answered " + std::to_string(awaited.elapsed.count() / 1000) +
                       " ms after the reply to the sentinel written behind it";
}

PipelineResult TargetSession::SendPipelined(const Pipeline& pipeline) {
  if (!Ready()) {
    PipelineResult result;
    const Observation failure = Failed("the session was lost: " + why_);
    result.observations.assign(pipeline.requests.size(), failure);
    result.sentinel = failure;
    result.answered_after_sentinel.assign(pipeline.requests.size(), false);
    return result;
  }
  return SendPipelinedNow(pipeline);
}

PipelineResult TargetSession::SendPipelinedNow(const Pipeline& pipeline) {
  StdioTransport* process = connection_->stdio();
  std::vector<std::string> kinds;
  if (process != nullptr) {
    kinds.reserve(pipeline.requests.size());
    for (const Request& request : pipeline.requests) kinds.push_back(ReplyOrders::KindOf(request));
    const std::vector<bool> in_order = link_.reply_orders().InOrderNext(kinds);
    std::vector<ReplyOrderHint> hints;
    hints.reserve(kinds.size());
    for (std::size_t i = 0; i < kinds.size(); ++i) hints.push_back({kinds[i], in_order[i]});
    process->SpareSentinelGrace(std::move(hints));
  }
  PipelineResult result = connection_->transport().SendPipelined(pipeline);
  if (process != nullptr) LearnReplyOrder(pipeline, kinds, result);
  for (const Observation& observation : result.observations) Count(observation);
  Count(result.sentinel);
  // Once per pipeline: the sentinel is unanswered whenever the server went deaf in it.
  CountDeafness(result.sentinel);
  NoteLateReplies(result);
  // The sentinel's own end breaks nothing: a server found dead is restarted by the next
  // exchange as one that died between exchanges, and a deaf one is the caller's to judge.
  if (std::any_of(result.observations.begin(), result.observations.end(), Breaks)) MarkBroken();
  return result;
}

Observation TargetSession::SendWaiting(const Request& request, Owed owed, bool full_limit) {
  StdioTransport* process = connection_->stdio();
  // At a target that answers late, what a message owed no echoed reply gets may come late too.
  if (process != nullptr && out_of_order()) {
    process->WidenQuietWindow(link_.quiet_window(std::chrono::milliseconds{0}));
  }
  if (process != nullptr && full_limit) process->LimitPatience(std::nullopt);
  Observation observation = connection_->transport().SendOwed(request, owed);
  if (process != nullptr && full_limit) process->LimitPatience(patience_);
  Count(observation);
  // A session whose observations are held (made ahead for later) does not ask: its answers are
  // counted for the give-up rule only once it is taken, and one that timed out is not taken.
  if (process == nullptr && observation.outcome == Outcome::kTimeout && !held_) {
    // Hung on this request, or on everything? The harmless request tells, and its answer is
    // what the give-up rule counts: a server that hangs on some requests is judged on. Asked
    // again while it times out, so a server hung on everything is given up on after the
    // rule's count of waits, not after a wait for each next request and its probe as well.
    for (int asked = 0; asked < TargetLink::kUnansweredBeforeGivingUp && !link_.gave_up();
         ++asked) {
      const Request probe = MakeHarmless(
          revision_, kind_, boost::json::string("mcpfuzz-probe-" + std::to_string(++sentinels_)));
      if (connection_->transport().SendOwed(probe, Owed::kReply, /*harmless=*/true).outcome !=
          Outcome::kTimeout) {
        break;
      }
    }
  }
  if (process != nullptr && observation.outcome == Outcome::kAliveButDeaf) {
    // Deaf, or a message dropped on purpose? A sentinel after it settles it. A deafness is
    // one incident: the request owed a reply stands for it, else the sentinel does.
    const Request sentinel = Sentinel();
    Observation answer = connection_->transport().SendOwed(
        sentinel, owed == Owed::kReply ? Owed::kNothing : Owed::kReply, /*harmless=*/true);
    Count(answer);
    if (TookLateReply(request, answer, observation)) {
      // Answered after all, only later than the limit: a slow server, not a silent one.
    } else if (SentinelAnswered(sentinel, answer)) {
      observation.outcome = Outcome::kDropped;
      observation.detail += "; the sentinel sent after it was answered";
    } else {
      // Deaf: it answered neither. The patience is learnt from the request's own wait.
      CountDeafness(observation);
    }
    last_sentinel_ = Exchange{sentinel, std::move(answer), {}};
  }
  if (Breaks(observation)) MarkBroken();
  return observation;
}

bool TargetSession::EndedUnasked(const Request& request, const Observation& observation) {
  // Only a request sent in the connection's own session: one naming another session (an
  // unknown id, on purpose) gets its 404 by right.
  if (!policy_.reopen || stdio() || observation.http_status != 404 ||
      FindHeader(request.headers, kHeaderSessionId) || SessionIdFor(request).empty()) {
    return false;
  }
  const Observation ping = SendWaiting(client().Make("ping"), Owed::kReply, /*full_limit=*/false);
  if (ping.http_status != 404) return false;
  ++counts_.sessions_ended;
  MarkBroken();
  return true;
}

Observation TargetSession::SendAlone(const Request& request) {
  Observation observation = SendAloneOnce(request);
  return EndedUnasked(request, observation) ? SendAloneOnce(request) : observation;
}

Observation TargetSession::SendAloneOnce(const Request& request) {
  last_sentinel_.reset();
  if (!Ready()) return Failed("the session was lost: " + why_);
  return SendWaiting(request, Owed::kReply, /*full_limit=*/true);
}

Observation TargetSession::SendExactly(const Request& request) {
  last_sentinel_.reset();
  if (lost_ || connection_ == nullptr) return Failed("not connected: " + why_);
  Observation observation = connection_->transport().Send(request);
  Count(observation);
  return observation;
}

Observation TargetSession::Send(const Request& request, Owed owed) {
  Observation observation = SendUnrecovered(request, owed);
  return EndedUnasked(request, observation) ? SendUnrecovered(request, owed) : observation;
}

Observation TargetSession::SendUnrecovered(const Request& request, Owed owed) {
  last_sentinel_.reset();
  if (!Ready()) return Failed("the session was lost: " + why_);
  if (!stdio() || owed == Owed::kReply || out_of_order()) {
    return SendWaiting(request, owed, /*full_limit=*/false);
  }
  // Copied once: a braced list would copy the request twice, and it may be megabytes.
  Pipeline pipeline;
  pipeline.requests.push_back(request);
  pipeline.sentinel = Sentinel();
  PipelineResult result = SendPipelinedNow(pipeline);
  if (result.ambiguous) {
    // What came back cannot be told apart: sent again alone, on a fresh server.
    MarkBroken();
    if (!Ready()) return Failed("the session was lost: " + why_);
    return SendWaiting(request, owed, /*full_limit=*/false);
  }
  last_sentinel_ = Exchange{*pipeline.sentinel, std::move(result.sentinel), {}};
  if (result.observations.empty()) return Failed("nothing came back");
  Observation observation = std::move(result.observations.front());
  if (observation.outcome == Outcome::kDropped) ProveDrop(request, observation);
  return observation;
}

std::string EndedSessionsNote(Revision revision, std::size_t count) {
  return "in " + std::string(ToString(revision)) + ", the server ended mcpfuzz's session " +
         std::to_string(count) +
         " time(s) without being asked (a 404 to a request in it, and to a ping after it): it "
         "was opened anew and the request sent again, as a client must";
}

std::optional<ProcessExit> TargetSession::TakeDeathBetweenExchanges() {
  return std::exchange(death_between_, std::nullopt);
}

std::optional<ProcessExit> TargetSession::EndedAfterReply(const Observation* sentinel) {
  StdioTransport* process = connection_ ? connection_->stdio() : nullptr;
  if (process == nullptr || broken_ || lost_) return std::nullopt;
  if (sentinel == nullptr || (sentinel->outcome != Outcome::kExited && !ProcessEnded(*sentinel))) {
    // On the process itself, not through Send: Send would restart a dead server first.
    const Observation probed =
        connection_->transport().SendOwed(Sentinel(), Owed::kReply, /*harmless=*/true);
    if (probed.outcome != Outcome::kExited && !ProcessEnded(probed)) {
      if (probed.outcome != Outcome::kOk) broken_ = true;
      return std::nullopt;
    }
  }
  broken_ = true;
  return process->Shutdown();
}

}  // namespace mcpfuzz
