#pragma once
// Internal: one MCP session of a campaign or replay, in one revision, kept alive across cases:
// a stdio server that died or went deaf is started again, an HTTP connection that failed is
// opened again (with a new session in the handshake era). A stdio session keeps one spare
// server started and opened ahead of time, so a restart costs no start-up on the critical path.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "generators/generated_case.h"
#include "model/reproducer.h"
#include "transport/client.h"
#include "transport/era_probe.h"

namespace mcpfuzz::campaign_detail {

class Session {
 public:
  Session(const TransportFactory& connect, Revision revision);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// Connects and opens the session. With `list_features`, also lists tools, prompts and
  /// resources into context(). False (and why) when the target could not be opened.
  bool Open(bool list_features, std::string& why);

  /// Sends `request`, first reopening the session when the previous exchange left it broken.
  /// An observation with Outcome::kTransportError and a detail says when that failed.
  Observation Send(const Request& request);
  /// Sends `pipeline` as the transport does (back to back, the sentinel last), first reopening
  /// the session as Send does. When that fails, every observation says so.
  PipelineResult SendPipelined(const Pipeline& pipeline);

  /// A stdio server found ended before a Send, after answering the exchange before it: the
  /// exit, once. The session was restarted for the Send.
  std::optional<ProcessExit> TakeDeathBetweenExchanges();
  /// Whether a stdio server ended right after answering its last exchange, learnt without
  /// timing: `sentinel`, the observation of a sentinel written behind that exchange, or else
  /// a probe sent now on the same process. An answer proves the server alive; its end (EOF,
  /// exit) proves it dead, and the exit is returned. Silence proves neither: the server is
  /// alive but deaf, which the next exchange finds (the session is left broken).
  std::optional<ProcessExit> EndedAfterReply(const Observation* sentinel);

  /// A well-formed request every server of the revision answers (ping, or server/discover).
  Request Probe() const;
  /// Probe() with an id of its own ("mcpfuzz-sentinel-<n>"), to write behind a case: its reply
  /// shows that the server read past the case, so a case still unanswered was dropped.
  Request Sentinel();
  /// The next Send reopens the session first (a stdio server that stopped answering).
  void MarkBroken();
  bool broken() const { return broken_; }
  /// The server answered a request after the sentinel written behind it (a late reply to a
  /// request taken for dropped): sentinels prove nothing here, so from then on every case
  /// waits for its reply as Send waits, on this and every later connection.
  bool out_of_order() const { return out_of_order_; }
  /// The first late reply seen, for notes.
  const std::string& late_reply() const { return late_reply_; }
  /// Counts the connections made: a pipelined reply is only worth judging when it came from
  /// the connection the session still uses.
  std::size_t generation() const { return generation_; }

  /// What the server announced when Open() succeeded (McpClient::server_info); reopening
  /// does not change it.
  const std::optional<ServerInfo>& server_info() const { return server_info_; }
  /// The session could not be reopened: nothing more is sent.
  bool lost() const { return lost_; }
  const std::string& lost_reason() const { return lost_reason_; }
  Revision revision() const { return revision_; }
  TransportKind kind() const { return kind_; }
  /// Where requests go, for reproducers.
  const ReproducerTarget& reproduce_at() const { return reproduce_at_; }
  const GenContext& context() const { return context_; }
  GenContext& mutable_context() { return context_; }
  std::size_t reopens() const { return reopens_; }
  /// Exchanges whose server went deaf (nothing answered, the process alive): learnt by
  /// waiting out the timeout, the first time; within the patience of a server known to go
  /// deaf, every later time.
  std::size_t deaf_timeouts() const { return deaf_timeouts_; }
  std::size_t deaf_within_patience() const { return deaf_within_patience_; }
  /// Reopens that took the spare instead of starting a server.
  std::size_t warm_reopens() const { return warm_reopens_; }

 private:
  /// A stdio server started and opened on a thread of its own while cases go on. Only that
  /// thread touches `transport` and `client` until it is joined.
  struct Spare {
    std::unique_ptr<Transport> transport;
    std::unique_ptr<McpClient> client;
    /// The connection the spare replaces, shut down on the spare's thread (a server that does
    /// not exit when stdin closes costs the shutdown grace).
    std::unique_ptr<Transport> retired;
    bool opened = false;
    std::string why;
    std::thread opener;
  };

  bool Connect(std::string& why);
  /// Makes the session usable for the next exchange; false (and `failure`) when it is lost.
  bool Ready(Observation& failure);
  bool Reopen(std::string& why);
  /// True (and the session lost) when the restart the session needs would spend the restart
  /// budget (kFruitlessRestarts).
  bool SpendsTheRestartBudget();
  /// Counts what `observation` (of a case or a sentinel) shows for the restart budget.
  void Count(const Observation& observation);
  /// Counts one exchange on which the server went deaf, and learns its patience the first time.
  void CountDeafness(const Observation& observation);
  /// Limits the stdio server's patience, once one of this session went deaf.
  void ApplyPatience();
  /// Starts the spare (stdio only, at most one); `retired` is shut down on its thread.
  void PrepareSpare(std::unique_ptr<Transport> retired);
  /// Takes the spare as the session's connection; false when there was none or it failed.
  bool TakeSpare(std::string& why);
  void ListFeatures();
  StdioTransport* stdio() const;

  const TransportFactory& connect_;
  Revision revision_;
  TransportKind kind_ = TransportKind::kHttp;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<McpClient> client_;
  std::unique_ptr<Spare> spare_;
  GenContext context_;
  std::optional<ServerInfo> server_info_;
  ReproducerTarget reproduce_at_;
  bool broken_ = false;
  bool lost_ = false;
  bool out_of_order_ = false;
  std::string late_reply_;
  std::string lost_reason_;
  std::optional<ProcessExit> death_between_;
  std::size_t reopens_ = 0;
  /// The restart budget (kFruitlessRestarts): whether the server answered anything since the
  /// session was last (re)opened, and how many restarts in a row bought no answer.
  bool answered_since_open_ = false;
  std::size_t fruitless_restarts_ = 0;
  /// Set once a server of this session went deaf: later exchanges wait this long, not the
  /// timeout.
  std::optional<std::chrono::milliseconds> patience_;
  std::size_t deaf_timeouts_ = 0;
  std::size_t deaf_within_patience_ = 0;
  std::size_t warm_reopens_ = 0;
  std::size_t generation_ = 0;
  std::size_t sentinels_ = 0;
};

}  // namespace mcpfuzz::campaign_detail
