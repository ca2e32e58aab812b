#pragma once
// One target session: the only way mcpfuzz talks to a live target that may be slow, silent,
// deaf or dead (check, fuzz, diff, replay, surveys and the live harness alike). A session
// opens a connection in one revision through McpClient; sends, with a sentinel behind every
// stdio request so silence is learnt in one round trip; learns drops, deafness and death; and
// reopens under the policy it is given. Every exchange, the session's own included, goes to
// the run's observer. Where `check` and `fuzz` once had rules of their own, SessionPolicy
// holds the one choice, with its reason.

#include <atomic>
#include <boost/json/object.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/observation.h"
#include "model/result.h"
#include "transport/client.h"
#include "transport/era_probe.h"
#include "transport/reply_orders.h"
#include "transport/transport.h"

namespace mcpfuzz {

namespace transport_detail {
class SessionConnection;
struct Spare;
}  // namespace transport_detail

/// Whether an exchange was owed a reply: what its silence means to an observer that judges the
/// process (deaf when owed one; perhaps the server's tolerated answer otherwise). A request
/// with a sentinel behind it is owed nothing of its own: the sentinel asks for the reply.
enum class Owed { kReply, kNothing };

/// One exchange as the observer sees it.
struct ObservedExchange {
  // Borrowed, not an Exchange: an observer that keeps nothing of an exchange (every one over
  // HTTP) does not pay a copy of a megabyte request.
  const Request& request;
  const Observation& observation;
  /// Exchange::session_id.
  const std::string& session_id;
  Owed owed = Owed::kReply;
  /// The connection it went on, counted from 1 over the run (over stdio, one server process).
  std::size_t connection = 0;
  bool stdio = false;

  Exchange Copy() const { return {request, observation, session_id}; }
};

/// Sees every exchange of every session of a run in order, and the deaths found between them.
class SessionObserver {
 public:
  virtual ~SessionObserver() = default;
  virtual void Saw(const ObservedExchange& exchange) = 0;
  /// A stdio server found ended between two exchanges, after answering the first.
  virtual void DiedBetween(const ProcessExit& exit, std::size_t connection) {
    static_cast<void>(exit);
    static_cast<void>(connection);
  }
};

/// What every session of one run against one target shares: how to connect, the connections
/// made so far, whether the target still answers in time, and who observes the exchanges.
/// Sessions on several threads (fuzz --concurrency) may share one; its observer is then called
/// from the thread that sent.
class TargetLink {
 public:
  /// After this many harmless requests (handshakes, sentinels, the pings after an HTTP
  /// timeout) in a row ended unanswered in time (a timeout, deafness), the
  /// run gives up on the target and nothing more is sent: a server that drips its replies or
  /// hangs on everything costs a few time limits, not one per request. Any exchange answered
  /// in time (a restarted server's handshake too) starts the count again, so a stdio server
  /// that goes deaf on some inputs is restarted and judged on (the restart budget bounds one
  /// that goes deaf on every input).
  static constexpr int kUnansweredBeforeGivingUp = 3;

  explicit TargetLink(TransportFactory connect, SessionObserver* observer = nullptr)
      : connect_(std::move(connect)), observer_(observer) {}

  /// A fresh connection (over stdio, a new server process), counted.
  Result<std::unique_ptr<Transport>> Connect();
  std::size_t connections_made() const { return connections_made_.load(); }
  SessionObserver* observer() const { return observer_; }
  /// For a run whose parts observe in turn (the checks, one revision after the other).
  void set_observer(SessionObserver* observer) { observer_ = observer; }

  /// Counts an exchange's answer for the give-up rule.
  void Count(const Observation& observation);
  bool gave_up() const { return gave_up_.load(); }
  /// Notes what any observed exchange was and got, for changes_seen().
  void NoteAnswer(const Request& request, const Observation& observation);
  /// Observed exchanges after which what was asked of the target ahead may no longer be what it
  /// would answer now: one that ended without an answer in time (a timeout, a refused or reset
  /// connection, deafness, a local failure), or a DELETE that ended a session (a server may end
  /// others with it). While it stays put, answers made ahead stand.
  std::size_t changes_seen() const { return changes_seen_.load(); }
  /// Why nothing more is sent once gave_up().
  static std::string GaveUpReason();

  /// Whether a sentinel's answer proves that a request before it was dropped. Unproven until the
  /// first drop on this target, which is then awaited under the full limit: a reply that comes
  /// late proves the target answers out of order (sentinels prove nothing about it, for the
  /// rest of the run); silence proves its drops are real. A late reply seen at any time since
  /// also ends the trust.
  enum class SentinelTrust { kUnproven, kTrusted, kDistrusted };
  SentinelTrust sentinel_trust() const { return sentinel_trust_.load(); }
  void TrustSentinels();
  /// `late_reply` says what proved it, for notes; `lateness`, how long after the sentinel's
  /// reply the late one came, when that was measured.
  void DistrustSentinels(std::string late_reply,
                         std::chrono::milliseconds lateness = std::chrono::milliseconds{0});
  /// How long a message owed no echoed reply is listened to at this target: the transports'
  /// quiet window, or twice the lateness of its late replies (kLateQuietFactor) when longer.
  std::chrono::milliseconds quiet_window(std::chrono::milliseconds base) const;
  /// A server that answered late once answers late again: twice the lateness seen leaves room
  /// for a busier moment than the one measured.
  static constexpr int kLateQuietFactor = 2;
  bool out_of_order() const { return sentinel_trust() == SentinelTrust::kDistrusted; }
  std::string late_reply() const;

  /// The order this stdio target answers each kind of message in, learnt by every session.
  ReplyOrders& reply_orders() { return reply_orders_; }
  const ReplyOrders& reply_orders() const { return reply_orders_; }

 private:
  TransportFactory connect_;
  SessionObserver* observer_;
  std::atomic<std::size_t> connections_made_{0};
  std::atomic<bool> gave_up_{false};
  std::atomic<std::size_t> changes_seen_{0};
  std::atomic<SentinelTrust> sentinel_trust_{SentinelTrust::kUnproven};
  std::atomic<std::chrono::milliseconds::rep> lateness_ms_{0};
  ReplyOrders reply_orders_;
  mutable std::mutex mutex_;  // guards the two below
  int unanswered_in_a_row_ = 0;
  std::string late_reply_;
};

/// How a session treats a target that dies, goes deaf or stops answering.
struct SessionPolicy {
  /// The restart budget: a server that died or went deaf before answering anything after each
  /// of this many restarts in a row is given up on, so one that fails at once every time costs
  /// a bounded number of restarts, while one that fails now and then keeps being judged. (fuzz
  /// had 16 in a row, check 5 in all: one rule now, above what one fuzz finding costs, its
  /// re-sends and the few shrink steps of a timed-out one, so that finding is judged stable.)
  static constexpr std::size_t kFruitlessRestarts = 16;

  /// Reopen (a stdio server started anew, a new HTTP session) before the next request when an
  /// exchange left the connection broken or the server ended. Off for a connection of a check's
  /// own, whose history is the point: once broken, every later Send reports it instead.
  /// Under it too, an HTTP session the server ended unasked (a 404 to a request in it, and to
  /// a ping after it) is opened anew and the request sent again, as a client must
  /// (basic/transports: a 404 to a request with an Mcp-Session-Id starts a new session), so
  /// that no later request is judged on an earlier one's end.
  bool reopen = true;
  /// Keep one stdio server started and opened ahead, so a restart costs no start-up on the
  /// critical path: for fuzz, whose findings restart the server several times each.
  bool warm_spare = false;
  /// List tools, prompts and resources when opened (listed()).
  bool list_features = false;
};

/// Counts a session keeps for reports.
struct SessionCounts {
  /// Reopens, and those that took the warm spare.
  std::size_t reopens = 0;
  std::size_t warm_reopens = 0;
  /// Stdio exchanges on which the server went deaf: learnt by waiting out the full limit (the
  /// first), and within the patience kept for a server seen going deaf (the later ones).
  std::size_t deaf_timeouts = 0;
  std::size_t deaf_within_patience = 0;
  /// HTTP sessions the server ended unasked, opened anew (SessionPolicy::reopen).
  std::size_t sessions_ended = 0;
};

/// What a run says of `count` sessions the server ended unasked in `revision`.
std::string EndedSessionsNote(Revision revision, std::size_t count);

class TargetSession {
 public:
  TargetSession(TargetLink& link, Revision revision, SessionPolicy policy = {});
  ~TargetSession();
  TargetSession(const TargetSession&) = delete;
  TargetSession& operator=(const TargetSession&) = delete;

  /// Connects and opens (initialize, or server/discover) in the revision asked, not one the
  /// server falls back to. The error says why not; opening() holds what it exchanged.
  Result<OpenOutcome> Open();
  /// Connects without opening, for a caller that sends the handshake itself (a sequence, a
  /// request before initialization) or opens later (Open then uses this connection). False,
  /// with why(), when no connection could be made.
  bool Connect();
  /// Goes on with a connection the era probe opened in this revision (DetectEras' kept
  /// connections) as Open would with one it opened itself: opening() holds its exchanges, which
  /// the run's observer sees now.
  void Continue(ProbedConnection probed);
  /// Ends a handshake-era HTTP session with DELETE (nothing otherwise) and returns what that
  /// exchanged; the session sends nothing more.
  std::vector<Exchange> Close();
  /// From Connect on, the exchanges of this session reach the run's observer and the give-up
  /// count only at ReleaseObservations, as if made then: for a session opened (or sent its first
  /// request) on a thread of its own, ahead of the moment its caller needs it. A session never
  /// released leaves no trace in the run.
  void HoldObservations();
  void ReleaseObservations();
  /// Makes the session usable for the next request: reopens it when broken, under the policy.
  /// False, with why(), when it is lost.
  bool Ready();

  /// Sends `request`, reopening first when needed. Over stdio a request owed nothing has a
  /// sentinel written behind it, so a drop is known in one round trip (Outcome::kDropped) and
  /// deafness when the sentinel gets no answer either (last_sentinel()); the first drop at a
  /// target is awaited under the full limit, to learn whether it answers late. A request owed
  /// a reply, or any at a target whose sentinels prove nothing (out_of_order()), waits for its
  /// own reply; over stdio a silence is then followed by a sentinel, to tell a drop from
  /// deafness.
  Observation Send(const Request& request, Owed owed);
  /// Send(request, Owed::kReply) under the full limit, without the patience kept for a server
  /// that went deaf: a silence learnt sooner, sent again before it is believed.
  Observation SendAlone(const Request& request);
  /// Send without opening anew a session the server ended under it: its 404 is the point.
  Observation SendUnrecovered(const Request& request, Owed owed);
  /// Sends `request` and nothing else, however it ends: for a sequence, whose every message is
  /// part of what is judged. Nothing is reopened.
  Observation SendExactly(const Request& request);
  /// `pipeline` written back to back (stdio), reopening first when needed; each exchange goes to
  /// the observer. A request left unanswered whose sentinel was answered is Outcome::kDropped,
  /// unproven (drops_proven()): a caller that would judge such a drop sends it again with Send.
  PipelineResult SendPipelined(const Pipeline& pipeline);

  /// A sentinel with an id of its own, for a pipeline built by the caller.
  Request Sentinel();
  /// The sentinel and what it got in the last Send over stdio; nothing over HTTP or alone.
  const std::optional<Exchange>& last_sentinel() const { return last_sentinel_; }
  /// The next request goes to a fresh connection (a server that accepted what it should have
  /// refused may have changed state). Not a failure: it spends no restart budget.
  void Retire();
  /// The connection is broken (a stdio server stopped answering): the next request reopens it.
  void MarkBroken();
  bool broken() const { return broken_; }

  /// A stdio server found ended before a request, after answering the one before: its exit,
  /// once. The session was reopened for the request.
  std::optional<ProcessExit> TakeDeathBetweenExchanges();
  /// Whether a stdio server ended right after its last answer: `sentinel` (what the sentinel
  /// behind that exchange got) shows an end already, or a sentinel sent now on the same process,
  /// after the replies came, meets it. The sentinel behind the exchange alone proves nothing:
  /// the server may have read it with the request and answered both in the turn of its event
  /// loop that ended it (a crash scheduled with setImmediate). The end is returned.
  std::optional<ProcessExit> EndedAfterReply(const Observation* sentinel);

  /// The target answered a request after the sentinel behind it: sentinels prove nothing about
  /// it, so from then on every request waits for its own reply (TargetLink::SentinelTrust).
  bool out_of_order() const { return link_.out_of_order(); }
  /// A drop at this target was awaited under the full limit and stayed silent: a sentinel's
  /// answer proves drops here (until a late reply says otherwise).
  bool drops_proven() const {
    return link_.sentinel_trust() == TargetLink::SentinelTrust::kTrusted;
  }
  /// A verdict on `observation` rests on a silence learnt before the full time limit passed and
  /// not proven at this target: a drop while drops are not proven yet, or a deafness within
  /// the patience. A caller sends such a request again alone (SendAlone) before it counts.
  bool SilenceCutShort(const Observation& observation) const {
    return (observation.outcome == Outcome::kDropped && !drops_proven()) ||
           (observation.outcome == Outcome::kAliveButDeaf &&
            observation.time_limit == TimeLimit::kPatience);
  }
  std::string late_reply() const { return link_.late_reply(); }
  /// The coverage agent's report on the current connection (Transport::TakeCoverage), and
  /// which agent it was: over stdio the connection's serial, unique in the run, since each
  /// server process numbers its scripts itself; over HTTP 0, the one server mcpfuzz started.
  struct CoverageReply {
    std::size_t agent = 0;
    std::string reply;
    /// The take the agent wrote as its process exited (kCoverageAgentLastTake): the last
    /// request ended the server, which the next exchange will find.
    bool ended = false;
  };
  Result<CoverageReply> TakeCoverage(bool all = false);
  /// Counts the connections this session used: an answer is only worth judging when it came
  /// from the connection the session still uses.
  std::size_t generation() const { return generation_; }
  /// Nothing more is sent: the restart budget is spent, a reopen failed, or the run gave up.
  bool lost() const { return lost_; }
  const std::string& why() const { return why_; }

  McpClient& client();
  Revision revision() const { return revision_; }
  TransportKind kind() const { return kind_; }
  bool stdio() const { return kind_ == TransportKind::kStdio; }
  ReproducerTarget reproduce_at() const { return reproduce_at_; }
  /// What the target declared and announced when the session first opened.
  const boost::json::object& capabilities() const { return capabilities_; }
  bool Declares(std::string_view capability) const { return capabilities_.contains(capability); }
  bool session_assigned() const { return session_assigned_; }
  const std::optional<ServerInfo>& server_info() const { return server_info_; }
  const ListedFeatures& listed() const { return listed_; }
  /// The exchanges of the last Open.
  const std::vector<Exchange>& opening() const { return opening_; }
  /// The session id of the current connection (handshake era over HTTP); set to send requests
  /// in another session.
  std::string session_id() const;
  void set_session_id(std::string id);
  /// The session id that goes with `request` (its own header, or the connection's).
  std::string SessionIdFor(const Request& request) const;
  /// False once the stdio server of the current connection has ended; true over HTTP.
  bool alive();
  const SessionCounts& counts() const { return counts_; }

 private:
  bool Reconnect();
  Result<OpenOutcome> OpenConnection();
  /// Keeps what the target declared and announced when the session first opened.
  void OpenedFirst();
  bool Reopen();
  bool SpendsTheRestartBudget();
  /// The first drop at a target of unproven sentinels: awaited under the full limit.
  void ProveDrop(const Request& request, Observation& observation);
  void Lose(std::string why);
  void Count(const Observation& observation);
  void CountDeafness(const Observation& observation);
  void PrepareSpare(std::unique_ptr<transport_detail::SessionConnection> retired);
  bool TakeSpare();
  void Adopt(std::unique_ptr<transport_detail::SessionConnection> connection);
  // What the sentinel's late replies (to requests concluded unanswered) tell of the order.
  void NoteLateReplies(const PipelineResult& result);
  // Tells the link what `result` showed about the order this target answers each of `kinds`
  // (ReplyOrders::KindOf of the pipeline's requests) in.
  void LearnReplyOrder(const Pipeline& pipeline, const std::vector<std::string>& kinds,
                       const PipelineResult& result);
  Observation SendWaiting(const Request& request, Owed owed, bool full_limit);
  Observation SendAloneOnce(const Request& request);
  /// Under a policy that reopens: whether `observation` found the HTTP session ended under
  /// `request` (a ping in it gets a 404 too: some servers refuse a request with a 404 of its
  /// own); if so, the next request opens a new one.
  bool EndedUnasked(const Request& request, const Observation& observation);
  /// SendPipelined on a session already Ready().
  PipelineResult SendPipelinedNow(const Pipeline& pipeline);

  TargetLink& link_;
  Revision revision_;
  SessionPolicy policy_;
  TransportKind kind_ = TransportKind::kHttp;
  ReproducerTarget reproduce_at_;
  std::unique_ptr<transport_detail::SessionConnection> connection_;
  std::unique_ptr<transport_detail::Spare> spare_;

  boost::json::object capabilities_;
  bool session_assigned_ = false;
  std::optional<ServerInfo> server_info_;
  ListedFeatures listed_;
  std::vector<Exchange> opening_;
  std::optional<Exchange> last_sentinel_;

  bool opened_once_ = false;
  /// The current connection was made by Connect and not yet opened.
  bool connected_unopened_ = false;
  bool closed_ = false;
  bool held_ = false;
  bool broken_ = false;
  bool retire_ = false;
  bool lost_ = false;
  std::string why_;
  std::optional<ProcessExit> death_between_;
  std::size_t generation_ = 0;
  std::size_t sentinels_ = 0;
  /// The restart budget: whether the server answered anything since the last (re)open, and
  /// how many restarts in a row bought no answer.
  bool answered_since_open_ = false;
  std::size_t fruitless_restarts_ = 0;
  /// Set once a server of this session went deaf: later exchanges wait this long at most.
  std::optional<std::chrono::milliseconds> patience_;
  SessionCounts counts_;
};

/// Sessions opened at once, at most: opening one is mostly waiting (a stdio server starting up,
/// a handshake), so opening them one after the other put the sum of their openings before the
/// work; a bound keeps a run that needs a hundred from opening them at one instant.
inline constexpr std::size_t kOpenAtOnce = 8;

/// Runs open(0) ... open(count - 1), up to kOpenAtOnce at a time, the calling thread among
/// them; `open` must not throw. Each call must touch only its own session: the factory of a
/// TargetLink is called one at a time (TargetSession::Connect first, on the calling thread).
void OpenAtOnce(std::size_t count, const std::function<void(std::size_t)>& open);

}  // namespace mcpfuzz
