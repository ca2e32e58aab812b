#include "transport/era_probe.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "transport/client.h"
#include "transport/detail/session_connection.h"

namespace mcpfuzz {
namespace {

// Keeps what an era question exchanged while `tap` is set, for a connection kept open: the run
// that goes on with it shows its opening as one of its own.
class Recording final : public TransportDecorator {
 public:
  explicit Recording(std::unique_ptr<Transport> inner) : TransportDecorator(std::move(inner)) {}
  Observation Send(const Request& request) override {
    Observation observation = inner().Send(request);
    if (tap_ != nullptr) {
      tap_->push_back({request, observation, transport_detail::SessionIdOf(request, *this)});
    }
    return observation;
  }
  void set_tap(std::vector<Exchange>* tap) { tap_ = tap; }
  std::unique_ptr<Transport> Unwrap() { return ReleaseInner(); }

 private:
  std::vector<Exchange>* tap_ = nullptr;
};

// The connection of a question: recorded when its connection may be kept (for a caller that
// keeps them).
struct Asking {
  std::unique_ptr<Transport> transport;
  Recording* recording = nullptr;
  std::vector<Exchange> opening;
};

// Sets `asking` up in place: its recording's tap points into it.
void Prepare(Asking& asking, std::unique_ptr<Transport> transport, bool keep) {
  if (!keep) {
    asking.transport = std::move(transport);
    return;
  }
  auto recording = std::make_unique<Recording>(std::move(transport));
  asking.recording = recording.get();
  asking.recording->set_tap(&asking.opening);
  asking.transport = std::move(recording);
}

// Hands the opened connection to `keep`, bare: a session finds a stdio server's process by its
// transport's type, which the recording would hide. The client goes on as a new one on it.
void Keep(Asking& asking, const McpClient& opener, ProbedConnection* keep) {
  keep->transport = asking.recording->Unwrap();
  keep->client = std::make_unique<McpClient>(*keep->transport, opener.revision());
  keep->client->ContinueFrom(opener);
  keep->opening = std::move(asking.opening);
}

EraAttempt FailedToConnect(Revision asked, std::string method, const Error& error) {
  EraAttempt attempt;
  attempt.asked = asked;
  attempt.method = std::move(method);
  attempt.channel = Channel::kTransportFailure;
  attempt.outcome = Outcome::kTransportError;
  attempt.note = error.message;
  attempt.detail = error.message;
  return attempt;
}

EraAttempt Describe(Revision asked, std::string method, const Result<OpenOutcome>& opened,
                    const McpClient& client) {
  EraAttempt attempt;
  attempt.asked = asked;
  attempt.method = std::move(method);
  const OpenOutcome& outcome = *client.last_open();
  attempt.channel = outcome.reply.channel;
  attempt.error_code = outcome.reply.error_code;
  attempt.http_status = outcome.observation.http_status;
  attempt.stderr_tail = outcome.observation.stderr_tail;
  if (outcome.request.transport == TransportKind::kStdio) attempt.stdio_opening = outcome;
  if (!opened.ok()) attempt.note = opened.error().message;
  const Outcome ended = outcome.observation.outcome;
  attempt.outcome = ended;
  attempt.detail = outcome.observation.detail;
  if (ended == Outcome::kTimeout || ended == Outcome::kAliveButDeaf) {
    attempt.timed_out = outcome.observation.time_limit;
  }
  return attempt;
}

// With `keep`, a connection that opened as asked is kept there, open.
EraAttempt AskStateless(const TransportFactory& connect, ProbedConnection* keep) {
  const Revision asked = Revision::k2026_07_28;
  auto transport = connect();
  if (!transport.ok()) return FailedToConnect(asked, "server/discover", transport.error());
  Asking asking;
  Prepare(asking, std::move(*transport), keep != nullptr);
  McpClient client(*asking.transport, asked);
  auto opened = client.Open();
  EraAttempt attempt = Describe(asked, "server/discover", opened, client);
  if (!opened.ok()) return attempt;
  const auto& result = opened->reply.message->as_object().at("result").as_object();
  if (const auto* versions = result.if_contains("supportedVersions");
      versions != nullptr && versions->is_array()) {
    for (const auto& version : versions->as_array()) {
      if (!version.is_string()) continue;
      attempt.supported_versions.emplace_back(version.as_string());
      auto known = ParseRevision(std::string_view(version.as_string()));
      if (known && (!attempt.answered || *known > *attempt.answered)) attempt.answered = known;
    }
  }
  if (!attempt.answered) attempt.note = "discover succeeded without a known supportedVersions";
  if (!attempt.supported_versions.empty() && !attempt.Lists(asked)) {
    attempt.note = "discover succeeded, but its supportedVersions does not list " +
                   std::string(ToString(asked)) + ": not judged in it";
    attempt.unlisted_discover = *opened;
  } else if (asking.recording != nullptr) {
    Keep(asking, client, keep);
  }
  return attempt;
}

EraAttempt AskHandshake(const TransportFactory& connect, Revision asked, ProbedConnection* keep) {
  auto transport = connect();
  if (!transport.ok()) return FailedToConnect(asked, "initialize", transport.error());
  Asking asking;
  Prepare(asking, std::move(*transport), keep != nullptr);
  McpClient client(*asking.transport, asked);
  auto opened = client.Open();
  EraAttempt attempt = Describe(asked, "initialize", opened, client);
  if (opened.ok()) {
    attempt.answered = client.revision();
    if (client.revision() != asked) attempt.note = "answered another revision";
  }
  if (opened.ok() && client.revision() == asked && asking.recording != nullptr) {
    Keep(asking, client, keep);
  } else {
    client.Close();
  }
  return attempt;
}

}  // namespace

bool EraReport::Speaks(Revision revision) const {
  return std::find(speaks.begin(), speaks.end(), revision) != speaks.end();
}

std::optional<Revision> EraReport::Newest(Era era) const {
  for (Revision revision : speaks) {
    if (EraOf(revision) == era) return revision;
  }
  return std::nullopt;
}

ProbedConnection::~ProbedConnection() {
  if (client) client->Close();
}

EraReport DetectEras(const TransportFactory& connect, ProbedConnections* keep,
                     const std::function<void()>& before_alone) {
  std::vector<Revision> handshake;
  for (auto it = kAllRevisions.rbegin(); it != kAllRevisions.rend(); ++it) {
    if (EraOf(*it) == Era::kHandshake) handshake.push_back(*it);
  }
  // Each question has a connection of its own and its own slot, and a server answers each
  // connection alike whenever it is asked, so the questions go at once (one thread each, a
  // handful in all: over stdio every one starts the server, which takes most of the time).
  // The report is assembled in the fixed order afterwards, as asking one after the other did.
  // Only the exchanges overlap: opening a connection is quick, and taking the factory's calls
  // one at a time spares every factory (counting, budgeting, recording ones) from having to
  // be thread-safe.
  std::mutex opening;
  const TransportFactory one_at_a_time = [&]() {
    const std::lock_guard lock(opening);
    return connect();
  };
  std::vector<EraAttempt> attempts(1 + handshake.size());
  // One slot each, like the attempts; nullptr when the caller keeps none.
  std::vector<ProbedConnection> kept(attempts.size());
  const auto slot = [&](std::size_t i) { return keep != nullptr ? &kept[i] : nullptr; };
  std::vector<std::function<void()>> probes;
  probes.emplace_back([&] { attempts[0] = AskStateless(one_at_a_time, slot(0)); });
  for (std::size_t i = 0; i < handshake.size(); ++i) {
    probes.emplace_back(
        [&, i] { attempts[i + 1] = AskHandshake(one_at_a_time, handshake[i], slot(i + 1)); });
  }
  std::vector<std::thread> threads;
  threads.reserve(probes.size());
  for (auto& probe : probes) {
    try {
      threads.emplace_back(probe);
    } catch (const std::system_error&) {
      probe();  // No thread to be had: this question waits its turn.
    }
  }
  for (std::thread& thread : threads) thread.join();

  // A question a time limit ended says nothing of the revision: asked again, alone, so no
  // other start-up competes with its server's. A server that stays silent even alone is slow
  // or silent whatever it is asked: the questions after it are not asked a third time, each
  // costing a limit, and stay undetermined. Nor is a question whose reply had begun (an HTTP
  // status came) when the limit ended it: that server was up and answering, and a reply that
  // starts but does not finish in time is the reply's slowness, not a start's or a crowd's.
  bool silent_alone = false;
  bool alone = false;
  for (std::size_t i = 0; i < attempts.size() && !silent_alone; ++i) {
    if (!attempts[i].timed_out || attempts[i].http_status != 0) continue;
    if (!std::exchange(alone, true) && before_alone) before_alone();
    EraAttempt again =
        i == 0 ? AskStateless(connect, slot(i)) : AskHandshake(connect, handshake[i - 1], slot(i));
    again.asked_times = 2;
    if (!again.timed_out && again.note.empty()) {
      again.note = "answered when asked again alone, after a time limit";
    }
    silent_alone = again.timed_out.has_value();
    attempts[i] = std::move(again);
  }

  EraReport report;
  // A revision the server says it does not speak is not judged: a discover whose
  // supportedVersions leaves 2026-07-28 out speaks only what it lists (tables §4b V3).
  const EraAttempt& discover = attempts[0];
  if (discover.channel == Channel::kSuccess &&
      (discover.supported_versions.empty() || discover.Lists(discover.asked))) {
    report.speaks.push_back(discover.asked);
  }
  for (std::size_t i = 0; i < handshake.size(); ++i) {
    if (attempts[i + 1].answered == handshake[i]) report.speaks.push_back(handshake[i]);
  }
  for (const EraAttempt& attempt : attempts) {
    if (attempt.timed_out) report.undetermined.push_back(attempt.asked);
  }
  report.attempts = std::move(attempts);
  if (keep != nullptr) {
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const Revision revision = i == 0 ? Revision::k2026_07_28 : handshake[i - 1];
      if (kept[i].client && report.Speaks(revision)) keep->emplace(revision, std::move(kept[i]));
    }
  }
  return report;
}

std::vector<PlannedRevision> PlanRevisions(const EraReport& eras, std::optional<Revision> forced) {
  if (forced) return {{*forced, false}};
  std::vector<PlannedRevision> plans;
  for (Era era : {Era::kStateless, Era::kHandshake}) {
    if (auto newest = eras.Newest(era)) plans.push_back({*newest, false});
  }
  constexpr Revision kBatchRevision = Revision::k2025_03_26;
  if (eras.Speaks(kBatchRevision) && eras.Newest(Era::kHandshake) != kBatchRevision) {
    plans.push_back({kBatchRevision, true});
  }
  return plans;
}

}  // namespace mcpfuzz
