#include "campaign/detail/session.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <thread>
#include <utility>
#include <variant>

#include "oracles/judgement.h"

namespace mcpfuzz::campaign_detail {
namespace {

constexpr int kReconnectAttempts = 3;

// The restart budget: a stdio server that died or went deaf before answering anything after
// this many restarts in a row is given up on (the session is lost), so a server that does so
// after every restart costs a bounded number of restarts. Above the restarts one finding
// costs (its re-sends and the few shrink steps of a timed-out finding), so that finding is
// still judged stable.
constexpr std::size_t kFruitlessRestarts = 16;

// Once a server went deaf, a later pipeline waits this fraction of the timeout that silence
// took the first time, and no less than the floor: a server that answers at all answers a
// ping far sooner, and one that goes deaf again is known at a fraction of a timeout.
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
// request: it is reopened first. A stdio server that stayed silent is not among them: it may
// just have dropped a message it found invalid, which the caller finds out (MarkBroken).
bool LeavesSessionBroken(Outcome outcome) {
  return outcome == Outcome::kTimeout || outcome == Outcome::kConnectionRefused ||
         outcome == Outcome::kConnectionReset || outcome == Outcome::kExited;
}

Observation Failed(std::string detail) {
  Observation observation;
  observation.outcome = Outcome::kTransportError;
  observation.detail = std::move(detail);
  return observation;
}

// True when a raw body of `pipeline` spells out the id of one of the sentinel's late replies
// ("id":33, "id": "x"), as the server would read it.
bool RawBodyMayOwn(const Pipeline& pipeline, const Observation& sentinel) {
  for (const Request& request : pipeline.requests) {
    const auto* raw = std::get_if<RawBody>(&request.body);
    if (raw == nullptr) continue;
    for (const boost::json::value& late : sentinel.late_replies) {
      const auto* id = late.is_object() ? late.as_object().if_contains("id") : nullptr;
      if (id == nullptr) continue;
      const std::string wanted = boost::json::serialize(*id);
      for (std::size_t at = raw->bytes.find("\"id\""); at != std::string::npos;
           at = raw->bytes.find("\"id\"", at + 1)) {
        std::size_t next = raw->bytes.find_first_not_of(" \t:", at + 4);
        if (next != std::string::npos && raw->bytes.compare(next, wanted.size(), wanted) == 0) {
          return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

Session::Session(const TransportFactory& connect, Revision revision)
    : connect_(connect), revision_(revision) {
  context_.revision = revision;
}

Session::~Session() {
  // Ends a handshake-era HTTP session politely; a stdio server is shut down by its transport.
  if (client_ && !broken_ && !lost_) client_->Close();
  // The spare's server is shut down with it: no child outlives the session.
  if (spare_ && spare_->opener.joinable()) spare_->opener.join();
}

StdioTransport* Session::stdio() const {
  return kind_ == TransportKind::kStdio ? dynamic_cast<StdioTransport*>(transport_.get()) : nullptr;
}

bool Session::Connect(std::string& why) {
  client_.reset();
  transport_.reset();
  auto transport = connect_();
  if (!transport.ok()) {
    why = transport.error().message;
    return false;
  }
  transport_ = std::move(*transport);
  kind_ = transport_->kind();
  reproduce_at_ = transport_->ReproduceAt();
  client_ = std::make_unique<McpClient>(*transport_, revision_);
  auto opened = client_->Open();
  if (!opened.ok()) {
    why = opened.error().message;
    return false;
  }
  revision_ = client_->revision();
  ++generation_;
  ApplyPatience();
  return true;
}

void Session::PrepareSpare(std::unique_ptr<Transport> retired) {
  if (kind_ != TransportKind::kStdio || spare_ || lost_) return;
  auto transport = connect_();
  if (!transport.ok()) return;  // No spare: the next restart starts a server as it is needed.
  spare_ = std::make_unique<Spare>();
  spare_->transport = std::move(*transport);
  spare_->client = std::make_unique<McpClient>(*spare_->transport, revision_);
  spare_->retired = std::move(retired);
  // Only the factory call stays on this thread (tests count the connections a factory made);
  // the server's start-up and handshake overlap the cases sent meanwhile.
  spare_->opener = std::thread([spare = spare_.get()] {
    auto opened = spare->client->OpenAsAsked();
    spare->opened = opened.ok();
    if (!opened.ok()) spare->why = opened.error().message;
    spare->retired.reset();
  });
}

bool Session::TakeSpare(std::string& why) {
  if (!spare_) return false;
  spare_->opener.join();
  const std::unique_ptr<Spare> spare = std::move(spare_);
  if (!spare->opened) {
    why = spare->why;
    return false;
  }
  client_.reset();
  transport_ = std::move(spare->transport);
  client_ = std::move(spare->client);
  ++generation_;
  ApplyPatience();
  return true;
}

bool Session::Reopen(std::string& why) {
  client_.reset();
  std::unique_ptr<Transport> retired = std::move(transport_);
  bool reconnected = TakeSpare(why);
  if (reconnected) ++warm_reopens_;
  for (int attempt = 0; attempt < kReconnectAttempts && !reconnected; ++attempt) {
    reconnected = Connect(why);
  }
  // The next spare starts now, so it is warm by the next restart.
  if (reconnected) PrepareSpare(std::move(retired));
  return reconnected;
}

bool Session::Open(bool list_features, std::string& why) {
  if (!Connect(why)) return false;
  context_.revision = revision_;
  context_.transport = kind_;
  context_.capabilities = client_->server_capabilities();
  context_.session_assigned = client_->session_assigned();
  server_info_ = client_->server_info();
  if (list_features) ListFeatures();
  PrepareSpare(nullptr);
  return true;
}

void Session::ListFeatures() {
  ListedFeatures listed = mcpfuzz::ListFeatures(*client_);
  for (ListedFeatures::Tool& tool : listed.tools) {
    context_.tools.push_back({std::move(tool.name), std::move(tool.input_schema)});
  }
  context_.prompts = std::move(listed.prompts);
  context_.resource_uris = std::move(listed.resource_uris);
}

bool Session::Ready(Observation& failure) {
  if (lost_) {
    failure = Failed("the session was lost: " + lost_reason_);
    return false;
  }
  StdioTransport* process = stdio();
  const bool died_quietly = !broken_ && process != nullptr && !process->Alive();
  if (!broken_ && !died_quietly) return true;
  if (died_quietly) death_between_ = process->Shutdown();
  if (SpendsTheRestartBudget()) {
    failure = Failed("the session was lost: " + lost_reason_);
    return false;
  }
  fruitless_restarts_ = answered_since_open_ ? 0 : fruitless_restarts_ + 1;
  answered_since_open_ = false;
  std::string why;
  const bool reconnected = Reopen(why);
  ++reopens_;
  if (!reconnected) {
    lost_ = true;
    lost_reason_ = why;
    failure = Failed("the session could not be reopened: " + why);
    return false;
  }
  broken_ = false;
  return true;
}

Observation Session::Send(const Request& request) {
  Observation failure;
  if (!Ready(failure)) return failure;
  Observation observation = transport_->Send(request);
  Count(observation);
  CountDeafness(observation);
  if (LeavesSessionBroken(observation.outcome) || observation.exit_code ||
      observation.exit_signal) {
    MarkBroken();
  }
  return observation;
}

PipelineResult Session::SendPipelined(const Pipeline& pipeline) {
  PipelineResult result;
  Observation failure;
  if (!Ready(failure)) {
    result.observations.assign(pipeline.requests.size(), failure);
    result.sentinel = failure;
    return result;
  }
  result = transport_->SendPipelined(pipeline);
  for (const Observation& observation : result.observations) Count(observation);
  Count(result.sentinel);
  // Once per pipeline: the sentinel is unanswered whenever the server went deaf in it.
  CountDeafness(result.sentinel);
  if (!result.sentinel.late_replies.empty() && RawBodyMayOwn(pipeline, result.sentinel)) {
    // The transport cannot read a raw body's id, so the reply to a raw request of this very
    // pipeline can look like a late reply to an earlier request that used the same id: no
    // proof of disorder. That transport now distrusts its sentinels and the raw request was
    // not given its reply: the caller sends it again alone on a fresh connection.
    broken_ = true;
    result.ambiguous = true;
    return result;
  }
  if (!result.sentinel.late_replies.empty() && !out_of_order_) {
    out_of_order_ = true;
    const boost::json::value& late = result.sentinel.late_replies.front();
    const auto* id = late.is_object() ? late.as_object().if_contains("id") : nullptr;
    late_reply_ = "a reply to id " + (id != nullptr ? boost::json::serialize(*id) : "?");
  }
  auto breaks = [](const Observation& observation) {
    return LeavesSessionBroken(observation.outcome) || observation.exit_code ||
           observation.exit_signal;
  };
  // The sentinel's own end breaks nothing: a server found dead is restarted by the next
  // exchange as one that died between exchanges, and a deaf one is the caller's to judge.
  if (std::any_of(result.observations.begin(), result.observations.end(), breaks)) MarkBroken();
  return result;
}

bool Session::SpendsTheRestartBudget() {
  if (!lost_ && !answered_since_open_ && fruitless_restarts_ + 1 >= kFruitlessRestarts) {
    lost_ = true;
    lost_reason_ =
        "the server died or stopped answering before answering anything after each of "
        "the last " +
        std::to_string(kFruitlessRestarts) +
        " restarts (the restart budget); nothing more was sent to it";
  }
  return lost_;
}

void Session::MarkBroken() {
  broken_ = true;
  // Known now rather than at the next exchange, so that no case is counted that is not sent.
  SpendsTheRestartBudget();
}

void Session::Count(const Observation& observation) {
  if (Answered(observation)) {
    answered_since_open_ = true;
    fruitless_restarts_ = 0;
  }
}

void Session::CountDeafness(const Observation& observation) {
  if (observation.outcome != Outcome::kAliveButDeaf) return;
  if (patience_) {
    ++deaf_within_patience_;
    return;
  }
  ++deaf_timeouts_;
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(observation.elapsed);
  patience_ = std::max(kPatienceFloor, waited / kPatienceDivisor);
  ApplyPatience();
}

void Session::ApplyPatience() {
  if (StdioTransport* process = stdio(); process != nullptr && patience_) {
    process->LimitPatience(*patience_);
  }
}

Request Session::Probe() const {
  return MakeRequest(revision_, kind_,
                     EraOf(revision_) == Era::kStateless ? "server/discover" : "ping", {},
                     "mcpfuzz-probe");
}

Request Session::Sentinel() {
  return MakeRequest(revision_, kind_,
                     EraOf(revision_) == Era::kStateless ? "server/discover" : "ping", {},
                     boost::json::string("mcpfuzz-sentinel-" + std::to_string(++sentinels_)));
}

std::optional<ProcessExit> Session::TakeDeathBetweenExchanges() {
  return std::exchange(death_between_, std::nullopt);
}

std::optional<ProcessExit> Session::EndedAfterReply(const Observation* sentinel) {
  StdioTransport* process = stdio();
  if (process == nullptr || broken_ || lost_) return std::nullopt;
  Observation probed;
  if (sentinel == nullptr) {
    // On the process itself, not through Send: Send would restart a dead server first.
    probed = transport_->Send(Sentinel());
    sentinel = &probed;
  }
  if (sentinel->outcome != Outcome::kExited && !ProcessEnded(*sentinel)) {
    if (sentinel->outcome != Outcome::kOk) broken_ = true;
    return std::nullopt;
  }
  broken_ = true;
  return process->Shutdown();
}

}  // namespace mcpfuzz::campaign_detail
