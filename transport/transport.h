#pragma once
// Transports are the only code in mcpfuzz that performs I/O. Each sends exactly the bytes a
// Request holds and reports everything that came back as an Observation. They never throw
// and never "fix" a request: failures are outcomes, not exceptions.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/observation.h"
#include "model/reproducer.h"
#include "model/request.h"
#include "model/result.h"

namespace mcpfuzz {

/// Bounds on one exchange, so a hostile or broken server costs bounded time and memory.
struct Limits {
  /// Per request: from sending the first byte to the complete reply.
  std::chrono::milliseconds timeout{5000};
  /// A stdio server's first reply after it was started: a start-up is not a reply, and a cold
  /// `npx -y` or a Python server importing a lot takes 6-20 s on a busy machine (five era probes
  /// starting at once, say). The process ending ends the wait at once, so a server that cannot
  /// start costs no more than its own exit.
  std::chrono::milliseconds startup_timeout{30000};
  /// Bytes kept of one reply; beyond it the exchange ends with Outcome::kTooLarge. On stdio
  /// it caps one line and, as well, everything read from stdout in one reply window (kept or
  /// dropped: the rest of an over-long line counts too), so a server flooding stdout costs one
  /// cap of memory and ends the exchange at once instead of at the timeout.
  std::size_t max_response_bytes = std::size_t{4} << 20U;
  /// Stdio: lines kept in one reply window; HTTP: SSE events kept of one reply. Beyond it the
  /// exchange ends with kTooLarge. A reply preceded by this many log lines or notifications
  /// is a flood, not a conversation; the cap bounds the per-line (per-event) bookkeeping a
  /// flood of short lines ("y\n") or an endless event stream would cost.
  std::size_t max_reply_lines = 1000;
  /// How long to listen after a message that expects no reply (a notification, a GET stream),
  /// so anything the server sends back anyway is still observed.
  std::chrono::milliseconds quiet_window{250};
  /// HTTP: how long a GET asking for an event stream (the standalone stream of the handshake
  /// era) waits for its response headers. A server may hold them until it has an event to
  /// send (Node's SDK v2 does), and nothing the checklist sends makes one; a 405 or an opened
  /// stream comes at once. Ending the wait early costs nothing but the verdict (UNVERIFIED,
  /// as at the full limit), where the full limit cost `check` 5 of its seconds.
  std::chrono::milliseconds stream_open{1000};
  /// Which limit `timeout` is, for what an exchange that ends without a reply says. A
  /// transport sets it for one exchange; callers leave it.
  TimeLimit time_limit = TimeLimit::kReply;
  /// Stdio under TimeLimit::kPatience: the silence allowed once the request is written whole.
  /// A large request's read allowance (TimeoutFor) pays for the writing; a server seen deaf
  /// before that has read all of it is given its patience from there, not the allowance's
  /// rest, which made each re-send of a 10 MiB deafness cost 14 s instead of 6. A transport
  /// sets it for one exchange.
  std::optional<std::chrono::milliseconds> patience_once_written;
  /// Stdio: the part of `timeout` that is this exchange's read allowance (ReadAllowanceFor).
  /// A server idle once the rest has passed is not given it (AllowanceWatch). A transport sets
  /// it for one exchange.
  std::chrono::milliseconds read_allowance{0};

  /// The time limit for an exchange that writes `request_bytes`: the timeout, and more for a
  /// large input (ReadAllowanceFor), so a server that reads a huge line slowly is not taken
  /// for one that stopped reading.
  std::chrono::milliseconds TimeoutFor(std::size_t request_bytes) const;
  /// What a large input adds to the time limit: kReadAllowancePerMiB per whole MiB.
  static std::chrono::milliseconds ReadAllowanceFor(std::size_t request_bytes);
};

/// What a large request adds to the time limit, per MiB written. Reading and parsing a line
/// costs time in proportion to its size: servers without a line cap answered a 10 MiB line
/// after 3-9 s on a 2-core machine at load 6-14 (0.3-0.9 s per MiB), so a second per MiB keeps
/// such a server from being called deaf while a small request's limit stays the timeout.
inline constexpr std::chrono::milliseconds kReadAllowancePerMiB{1000};

/// Requests written back to back on one connection, and a sentinel behind them.
struct Pipeline {
  std::vector<Request> requests;
  /// A cheap request the server is known to answer (ping, tools/list, server/discover),
  /// written after `requests`, with a string or integer id used by nothing else in the
  /// pipeline. Once its reply is in, a request still unanswered after a short grace is
  /// Outcome::kDropped instead of waiting out the timeout, and a notification's quiet window
  /// ends: what the server said before the sentinel's reply is its answer. Without one (or
  /// with one whose id cannot be echoed), each request waits as Send does.
  std::optional<Request> sentinel;
};

/// What the caller learnt of how a server orders its replies to one request of a pipeline
/// (ReplyOrders, transport/reply_orders.h).
struct ReplyOrderHint {
  /// The kind of message (ReplyOrders::KindOf): named back when a drop of it concluded without
  /// its grace is answered late after all (PipelineResult::late_after_spared_grace).
  std::string kind;
  /// The server is known to answer this kind in the order it reads.
  bool in_order = false;
};

struct PipelineResult {
  /// One per request, in order, each as Send would give it (elapsed counts from the start of
  /// the pipeline). A request the server answered neither before nor after the sentinel within
  /// the timeout gets Send's outcome (kAliveButDeaf, kExited): deafness is not dropping.
  std::vector<Observation> observations;
  /// What the sentinel got; Outcome::kOk with its reply when the server answered it. Replies
  /// that arrived late for requests dropped in earlier exchanges are in its `late_replies`.
  Observation sentinel;
  /// Something came back that cannot be told apart per request: output without a matching id
  /// (a non-JSON line, a server notification or request, a response with a null, missing or
  /// unknown id) or an over-long line while more than the last request was open, or the
  /// process ended then. Also set, with nothing sent and every outcome kTransportError, when
  /// two messages share an id or a pipeline of several holds a request without an echoable
  /// id. The caller sends the requests again one at a time to learn whose it was. With one
  /// request and a sentinel, only what Send would attribute as well is ever attributed.
  bool ambiguous = false;
  /// One per request: its reply was taken after the sentinel's. A pipe keeps the order the
  /// server wrote in, so such a reply was written after the server read everything written
  /// before the sentinel (a cancellation behind the request, say). Always false for transports
  /// that send one request after the other.
  std::vector<bool> answered_after_sentinel;
  /// One per request: it was still open when the sentinel's reply came, so a grace was waited
  /// for it, or spared (StdioTransport::SpareSentinelGrace).
  std::vector<bool> open_at_sentinel;
  /// What was open at the sentinel's reply was concluded without a grace.
  bool grace_spared = false;
  /// Of the sentinel's late replies, those to requests an earlier pipeline concluded dropped
  /// without their grace: their kind is not answered in order after all.
  struct LateAfterSparedGrace {
    boost::json::value id;
    std::string kind;
  };
  std::vector<LateAfterSparedGrace> late_after_spared_grace;
  /// Output given to a request (its reply, or output without an id) was taken after the
  /// sentinel's reply: the server does not write in the order it reads.
  bool taken_after_sentinel = false;
};

class Transport {
 public:
  virtual ~Transport() = default;

  /// Sends `request` and observes what comes back.
  /// On stdio, an observation carries the process's exit status only when the process ended
  /// before the reply (Outcome::kExited): a reply written just before exiting is kOk, and the
  /// exit is the next exchange's kExited, however the scheduler ordered the write and the
  /// exit.
  virtual Observation Send(const Request& request) = 0;
  /// Sends `pipeline` and observes each request's reply. This default sends one request
  /// after the other with Send, the sentinel last; the stdio transport writes them back to
  /// back and learns silence from the sentinel (Outcome::kDropped). It remembers the ids it
  /// concluded dropped: a later reply carrying one shows up in an Observation's
  /// `late_replies`, and from then on that transport no longer concludes kDropped. Callers
  /// that want that check keep ids unique over the life of a transport.
  virtual PipelineResult SendPipelined(const Pipeline& pipeline);
  virtual TransportKind kind() const = 0;
  /// Where requests go, for people: "http://127.0.0.1:8931/mcp" or "stdio: node server.js".
  virtual std::string Describe() const = 0;
  /// Where requests go, as data: the URL, or the server's command line, so a reproducer need
  /// not read them back out of Describe(). This default knows only the kind; the HTTP and
  /// stdio transports fill in the rest, and decorators forward it.
  virtual ReproducerTarget ReproduceAt() const { return {kind(), {}, {}, {}}; }

  /// Asks the coverage agent of the server behind this transport (StdioTarget::coverage_agent,
  /// ServerCommand::coverage_agent) what ran since it was last asked, and returns its reply line
  /// as written (the coverage library reads it). The agent answers on the server's event loop,
  /// after what the server is busy with: it is given the time limit. An error, and no coverage,
  /// for a server started without the agent, one that showed it runs without ever greeting on
  /// the channel (it did not load the agent: neither a Node nor a Python process, or its
  /// NODE_OPTIONS or PYTHONPATH replaced), one that ended, or a silent agent; this default has
  /// no agent to ask.
  /// `all`: every block that ran since, not only those that ran for the first time.
  virtual Result<std::string> TakeCoverage(bool all = false);
  /// Which server process TakeCoverage asks, where one run's connections reach processes
  /// started one after another (an HTTP server mcpfuzz started again, ServedHttpServer): each
  /// agent numbers its scripts itself, so replies are merged by it. 0 otherwise.
  virtual std::size_t coverage_process() const { return 0; }
  /// The server process this connection reached has ended, and what is sent on it would reach
  /// another (an HTTP server mcpfuzz started again on its port, ServedHttpServer): the session
  /// is to be opened anew. Never for a server mcpfuzz did not start.
  virtual bool server_ended() const { return false; }

  /// The handshake-era session id attached to requests whose SessionBinding is kAttach and
  /// that carry no Mcp-Session-Id header of their own. Empty means none. Only the HTTP
  /// transport keeps one (McpClient sets it after initialize); decorators forward both to the
  /// transport they wrap, and every other transport has none.
  virtual void set_session_id(std::string id) { static_cast<void>(id); }
  virtual std::string session_id() const { return {}; }
};

/// Opens a fresh connection to the same target (for stdio: starts the server again). DetectEras
/// calls it from several threads, one call at a time; the transports it returns are used at
/// the same time.
using TransportFactory = std::function<Result<std::unique_ptr<Transport>>()>;

/// `connect`, which over stdio has the next server process started while the one it handed out
/// is in use: a check run starts a dozen servers one after the other, and each start-up (0.3-
/// 0.4 s for a node server) now overlaps the work before it. Nothing is sent to a process
/// before it is handed out, so it is what starting one then would give, a head start aside.
/// One process more runs beside the run, ended with the factory's last copy (at once: it was
/// sent nothing). Over HTTP, when a start fails, or under a start gate (StartsLimited), it is
/// `connect` unchanged. Its calls are taken one at a time, `connect`'s with them, so threads may
/// share it: check's revisions at once each connect through one.
TransportFactory StartingAhead(TransportFactory connect);

/// A transport wrapping another to count, limit or record its exchanges. What the wrapped one
/// is stays the wrapped one's: its kind, where it sends and its session id are read from and
/// set on it, so McpClient can open a session through any number of decorators.
class TransportDecorator : public Transport {
 public:
  explicit TransportDecorator(std::unique_ptr<Transport> inner) : inner_(std::move(inner)) {}

  TransportKind kind() const override { return inner_->kind(); }
  std::string Describe() const override { return inner_->Describe(); }
  ReproducerTarget ReproduceAt() const override { return inner_->ReproduceAt(); }
  void set_session_id(std::string id) override { inner_->set_session_id(std::move(id)); }
  std::string session_id() const override { return inner_->session_id(); }
  Result<std::string> TakeCoverage(bool all) override { return inner_->TakeCoverage(all); }
  std::size_t coverage_process() const override { return inner_->coverage_process(); }
  bool server_ended() const override { return inner_->server_ended(); }

 protected:
  Transport& inner() const { return *inner_; }
  /// Hands the inner transport over; the decorator is left empty, not to be used again.
  std::unique_ptr<Transport> ReleaseInner() { return std::move(inner_); }

 private:
  std::unique_ptr<Transport> inner_;
};

/// A Streamable HTTP endpoint.
struct HttpTarget {
  std::string url;
  /// Sent with every request, after the request's own headers (authentication, for example).
  /// Only ever sent to `url`'s host: redirects are never followed.
  Headers extra_headers;
  /// Off by default: mcpfuzz talks to 127.0.0.1 / localhost / [::1] only.
  bool allow_remote = false;
  Limits limits;
};

/// Opens a libcurl transport with connection reuse. Fails for a malformed URL, a scheme other
/// than http/https, or a non-loopback host without allow_remote.
Result<std::unique_ptr<Transport>> OpenHttp(HttpTarget target);

/// A server started as a child process speaking newline-delimited JSON on stdin/stdout.
struct StdioTarget {
  std::vector<std::string> argv;
  /// Added to (or replacing in) the inherited environment.
  std::vector<std::pair<std::string, std::string>> env;
  Limits limits;
  /// Between closing stdin and SIGTERM, and between SIGTERM and SIGKILL, at shutdown.
  std::chrono::milliseconds shutdown_grace{1000};
  /// How much of stderr to keep.
  std::size_t stderr_tail_bytes = 8192;
  /// The folder of the coverage agents (laid out as coverage/agent/: kCoverageAgentNodeFile
  /// and kCoverageAgentPythonFile), loaded before the server's own code and answering on a
  /// side channel of their own, never on stdout (Transport::TakeCoverage). Both are
  /// offered to every server, a Node one by `--require` added to NODE_OPTIONS, a Python one by
  /// the folder put first on PYTHONPATH, so whichever runtime the server is loads its agent.
  std::optional<std::string> coverage_agent{};
  /// False (`--env-clear`): the server starts with `env` alone, nothing of mcpfuzz's own.
  bool inherit_env = true;
};

/// The first line a coverage agent writes on its channel, before the server's code runs.
inline constexpr std::string_view kCoverageAgentGreeting = R"({"agent":"mcpfuzz-coverage")";
/// How the take a coverage agent writes unasked as its process exits begins.
inline constexpr std::string_view kCoverageAgentLastTake = R"({"last":true,)";
/// Whether an agent's `reply` is that last take: its process is ending.
inline bool IsLastTake(std::string_view reply) { return reply.starts_with(kCoverageAgentLastTake); }
/// The agents' files in StdioTarget::coverage_agent's folder (coverage/agent.h writes them).
inline constexpr std::string_view kCoverageAgentNodeFile = "mcpfuzz-coverage-agent.cjs";
inline constexpr std::string_view kCoverageAgentPythonFile = "sitecustomize.py";

/// The exit of a stdio server.
struct ProcessExit {
  std::optional<int> exit_code;
  std::optional<int> signal;
  /// True when the process ended because mcpfuzz sent it a signal.
  bool killed_by_mcpfuzz = false;
  std::string stderr_tail;
};

class StdioTransport : public Transport {
 public:
  /// True while the child process runs.
  virtual bool Alive() = 0;
  /// Ends the server as the spec's stdio shutdown says: close stdin, wait, SIGTERM the process
  /// group, wait, SIGKILL. A server never sent anything (a spare started ahead) gets its
  /// SIGTERM at once. Idempotent.
  virtual ProcessExit Shutdown() = 0;
  /// From now on, waits at most `patience` (when shorter than the timeout; nothing: the
  /// timeout) for the server before an exchange ends unanswered: for a caller that saw this
  /// server go deaf before, so that learning it again costs a short wait instead of a timeout
  /// per exchange. A transport that waits on nothing (a test double) ignores it.
  virtual void LimitPatience(std::optional<std::chrono::milliseconds> patience) {
    static_cast<void>(patience);
  }
  /// From now on, listens at least `quiet` for what a message owed no echoed reply gets (a
  /// notification, a request whose id cannot be echoed): for a server known to answer such
  /// messages late. Once `quiet` is more than nothing, a response with a null id that comes
  /// after such a request went unanswered is taken for that request's late reply, not for the
  /// answer of the message it comes with. A transport that waits on nothing ignores it.
  virtual void WidenQuietWindow(std::chrono::milliseconds quiet) { static_cast<void>(quiet); }
  /// For the next pipeline, one per request: what the caller learnt of the order this server
  /// answers such a request in (ReplyOrders). When every request still open at the sentinel's
  /// reply is answered in order, they are concluded at once instead of after the grace kept for
  /// servers that handle requests concurrently. A transport that waits on nothing ignores it.
  virtual void SpareSentinelGrace(std::vector<ReplyOrderHint> hints) { static_cast<void>(hints); }
  /// Writes nothing and waits, up to the full time limit, for the reply to `request`, which an
  /// earlier exchange sent and concluded dropped: whether the server drops such requests or
  /// answers them late, learnt by the event itself. kOk with the reply in `messages` when it
  /// came; kAliveButDeaf when the limit passed in silence. A test double that cannot wait says
  /// it never came.
  virtual Observation AwaitReply(const Request& request);
};

/// Spawns `target.argv` in its own process group (so `npx`/`node` grandchildren die with it).
Result<std::unique_ptr<StdioTransport>> SpawnStdio(StdioTarget target);

}  // namespace mcpfuzz
