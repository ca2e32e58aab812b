#pragma once
// Internal: one connection of a TargetSession (over stdio, one server process): the factory's
// transport behind a decorator that hands each exchange to the run's observer and counts it
// for the give-up rule, and the McpClient speaking on it.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "transport/client.h"
#include "transport/session.h"
#include "transport/transport.h"

namespace mcpfuzz::transport_detail {

/// An exchange that failed on this side (no session, nothing sent): a local failure the
/// oracles judge UNVERIFIED, with the reason in its detail.
Observation Failed(std::string detail);

/// What a request not sent (the run gave up on the target) is recorded as: Failed, "not
/// sent: " and why.
Observation NotSent(const std::string& why);

/// The session id `request` goes out with on `transport`: its own header's, else the live one
/// when the request attaches it.
std::string SessionIdOf(const Request& request, const Transport& transport);

/// An answer in time, or a drop a sentinel proved: the target still reads and answers.
bool AnsweredInTime(Outcome outcome);

class ObservingTransport final : public TransportDecorator {
 public:
  ObservingTransport(std::unique_ptr<Transport> inner, TargetLink& link, std::size_t serial);

  Observation Send(const Request& request) override;
  /// Forwards, then: a request left unanswered whose sentinel was answered is Outcome::kDropped,
  /// whichever transport learnt it; each request is observed as owed nothing (the sentinel is
  /// owed the reply). The sentinel's answer counts for the give-up rule.
  PipelineResult SendPipelined(const Pipeline& pipeline) override;

  /// Sends `request` and observes it as owed `owed`. `harmless`: the request is a sentinel or
  /// a liveness probe, whose answer counts for the give-up rule (TargetLink::Count).
  Observation SendOwed(const Request& request, Owed owed, bool harmless = false);
  StdioTransport* stdio() const { return stdio_; }
  std::size_t serial() const { return serial_; }
  /// While set (during an open), every exchange is also appended to `tap` and counts for the
  /// give-up rule, as a handshake is a question every server must answer.
  void set_tap(std::vector<Exchange>* tap) { tap_ = tap; }
  /// Observes an exchange made on this connection before it was observed (the era probe's
  /// handshake), as one made now.
  void Observed(const Exchange& exchange);
  /// Off while a spare opens on a thread of its own: the run's observer and count see one
  /// thread's exchanges, in order.
  void set_observed(bool observed) { observed_ = observed; }
  /// While held, exchanges still go to the tap but reach the run's observer and count only at
  /// Release, as if made then: for a connection prepared on a thread of its own ahead of the
  /// moment its caller would have made them. Never released, they are never observed.
  void Hold() { held_.emplace(); }
  void Release();

 private:
  struct Held {
    Exchange exchange;
    Owed owed;
    bool counts;
  };
  void Observe(const Request& request, const Observation& observation, Owed owed, bool harmless);
  void Record(const ObservedExchange& observed, bool harmless);
  void HandOn(const ObservedExchange& observed, bool counts);

  TargetLink& link_;
  std::size_t serial_;
  StdioTransport* stdio_;
  std::vector<Exchange>* tap_ = nullptr;
  bool observed_ = true;
  std::optional<std::vector<Held>> held_;
};

class SessionConnection {
 public:
  SessionConnection(std::unique_ptr<Transport> transport, TargetLink& link, std::size_t serial,
                    Revision revision)
      : transport_(std::move(transport), link, serial), client_(transport_, revision) {}

  ObservingTransport& transport() { return transport_; }
  McpClient& client() { return client_; }
  StdioTransport* stdio() const { return transport_.stdio(); }
  std::size_t serial() const { return transport_.serial(); }

 private:
  ObservingTransport transport_;
  McpClient client_;
};

/// A stdio server started and opened on a thread of its own while requests go on. Only that
/// thread touches `connection` until it is joined.
struct Spare {
  std::unique_ptr<SessionConnection> connection;
  /// The connection the spare replaces, shut down on the spare's thread (a server that does
  /// not exit when stdin closes costs the shutdown grace).
  std::unique_ptr<SessionConnection> retired;
  bool opened = false;
  std::string why;
  std::thread opener;
};

}  // namespace mcpfuzz::transport_detail
