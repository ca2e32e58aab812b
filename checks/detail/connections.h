#pragma once
// Internal: the connections of one revision's checks, each a TargetSession (transport/
// session.h) of the run's one TargetLink, whose observer is the revision's IncidentLog. The
// main connection is kept open and reopened under the session policy; fresh ones serve checks
// that need a connection of their own. What the server declared when the main connection first
// opened is kept for every check.

#include <boost/json/object.hpp>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "model/observation.h"
#include "model/request.h"
#include "transport/client.h"
#include "transport/era_probe.h"
#include "transport/session.h"

namespace mcpfuzz::checks::detail {

/// One connection (for stdio, one server process) and the McpClient speaking on it.
class Connection {
 public:
  /// `link` must outlive the connection.
  Connection(TargetLink& link, Revision revision, SessionPolicy policy);

  /// The handshake (handshake era) or server/discover (stateless era) on this connection. The
  /// exchanges it made are appended to `exchanges` when given.
  bool Open(std::vector<Exchange>* exchanges = nullptr);
  /// Why Open failed, for notes.
  std::string OpenFailure() const { return session_.why(); }

  /// Sends `request` and returns the exchange (TargetSession::Send: over stdio a request owed
  /// nothing has a sentinel written behind it; on the main connection, an HTTP session that
  /// ended under it is opened anew and the request sent again).
  Exchange Send(const Request& request, Owed owed = Owed::kReply);
  /// Send without that recovery: the answer of a session that ended is the point.
  Exchange SendUnrecovered(const Request& request, Owed owed = Owed::kReply);
  /// Sends `request` alone under the full limit (TargetSession::SendAlone).
  Exchange SendAlone(const Request& request);
  /// Writes `pipeline` back to back; its requests' exchanges, then the sentinel's, go to `made`.
  PipelineResult SendPipelined(const Pipeline& pipeline, std::vector<Exchange>& made);

  McpClient& client() { return session_.client(); }
  TargetSession& session() { return session_; }
  /// A stdio server that exited or stopped answering; HTTP connections never count as dead.
  bool Dead();
  /// Ends a handshake-era HTTP session with DELETE; returns the exchange it made, if any.
  std::vector<Exchange> Close() { return session_.Close(); }

 private:
  friend class Connections;
  friend struct FreshPool;
  friend class SentAhead;

  TargetSession session_;
};

/// One way of breaking a rule: a label for notes and the request, built on the connection it
/// is sent on (so its id is fresh there), and whether it is owed a reply (TargetSession::Send).
struct Variant {
  std::string label;
  std::function<Request(Connection&)> build;
  Owed owed = Owed::kNothing;
};

/// A variant of `check_id` that may cost a stdio server the whole time limit (a line that
/// deafens it): sent on a server process of its own, opened first, from the start of the
/// revision (SentAhead), so that its wait runs beside the other checks instead of after them.
struct AloneVariant {
  std::string_view check_id;
  Variant variant;
};

/// What the checks of a revision will do first on connections of their own, so that it can be
/// done for all of them at once (Connections::Prepare).
struct FreshSteps {
  /// Connections to open (FreshOpened).
  std::size_t opened = 0;
  /// Requests each sent first on a connection not opened (FreshSending), owed a reply.
  std::vector<Request> sent;
  /// Over stdio: variants each sent on a process of its own (TakeAlone).
  std::vector<AloneVariant> alone;
};

/// A variant sent on a stdio server process of its own, on a thread of its own, while the run
/// goes on. Everything it exchanges, its opening too, is held (TargetSession::HoldObservations)
/// and reaches the run's observer when its check takes it, as if made then. What one process
/// answers does not depend on what the others were sent, so it is what sending it then would
/// give, a head start aside.
class SentAhead {
 public:
  /// Connects on the calling thread (a factory's calls come one at a time: TransportFactory),
  /// then opens and sends on a thread of its own. `link` must outlive this.
  SentAhead(TargetLink& link, Revision revision, Variant variant);
  ~SentAhead();
  SentAhead(const SentAhead&) = delete;
  SentAhead& operator=(const SentAhead&) = delete;

  struct Sent {
    /// The process it was sent on, which the caller may send to again (ReportVariants sends a
    /// silence cut short again alone) before it ends with it.
    std::unique_ptr<Connection> connection;
    Exchange exchange;
  };
  /// Waits for the exchange and hands it to the run's observer. Nothing when no process could
  /// be started or opened, or no thread had: the caller then sends the variant itself.
  std::optional<Sent> Take();

 private:
  std::unique_ptr<Connection> connection_;
  Variant variant_;
  std::optional<Exchange> sent_;
  std::thread thread_;
};

/// HTTP connections made ahead for a revision's checks, each opened or sent its first request
/// while nothing of it was observed (TargetSession::HoldObservations); those whose answer did
/// not come are left out. Ended unobserved when dropped.
struct FreshPool {
  struct Prepared {
    std::unique_ptr<Connection> connection;
    /// Sent first, owed a reply (FreshSteps::sent); nothing for one opened.
    std::optional<Request> first;
    bool opened = false;
    Exchange sent;
  };
  /// Makes `steps` in `revision`, all at once (OpenAtOnce); the link's factory is called from
  /// the calling thread only.
  static FreshPool Make(TargetLink& link, Revision revision, const FreshSteps& steps);

  Revision revision = kLatestRevision;
  std::vector<Prepared> prepared;
  /// TargetLink::changes_seen() when they were made: they stand while it stays put.
  std::size_t changes_when_made = 0;
};

/// The connections of one revision: the main one, kept open (and reopened) across checks, and
/// fresh ones for checks that need a connection of their own.
class Connections {
 public:
  Connections(TargetLink& link, Revision revision);
  ~Connections();
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  /// Known once the first connection was made; kHttp before.
  TransportKind kind() const { return main_.session_.kind(); }

  /// Opens the main connection, or goes on with `probed` (the era probe's, in this revision)
  /// when it holds one. False when no connection could be made at all.
  bool Start(ProbedConnection probed);
  /// The main connection, opened in this revision; a stdio server that died or went deaf is
  /// reopened first (the session's restart budget). nullptr when it cannot be; MainFailure()
  /// says why.
  Connection* Main();
  /// Starts the stdio server afresh before the next request: a server that accepted what it
  /// should have refused may have changed state (an era pinned per connection, say), and later
  /// checks must not inherit that. HTTP connections are kept: the server behind them does not
  /// restart.
  void RetireMain() { main_.session_.Retire(); }
  std::string MainFailure() const;
  /// A fresh connection (for stdio, a new server process), connected but not opened, never
  /// reopened: what the check does to it is the point. nullptr when none could be made.
  std::unique_ptr<Connection> Fresh();
  /// Over HTTP, makes `steps` now, all at once, on connections that wait for FreshOpened and
  /// FreshSending: a server slow to open sessions costs one opening for them all, not one per
  /// check. Nothing of them is observed before they are taken. Over stdio it starts only
  /// `steps.alone` (SentAhead), each a wait of a whole time limit that would otherwise come
  /// after the checks before it: a server started ahead for less would cost more CPU beside
  /// the checks than it saves.
  /// What `ahead` (made earlier for this revision, beside the era probe) holds is used first,
  /// while the target has answered everything in time since it was made; only the steps it
  /// lacks are made now. What is left of it is kept, unused, until the revision ends.
  void Prepare(const FreshSteps& steps, FreshPool ahead = {});
  /// A fresh connection, opened (Connection::Open), its opening exchanges appended to
  /// `opening` and whether it opened in `opened`: one Prepare opened, while the target has
  /// answered everything in time since (so it is what opening one now would give), else one
  /// opened now. nullptr when none could be made.
  std::unique_ptr<Connection> FreshOpened(std::vector<Exchange>& opening, bool& opened);
  /// A fresh connection on which `first` was sent first, owed a reply, its exchange in `sent`:
  /// one Prepare sent it on, under the same condition, else one it is sent on now.
  std::unique_ptr<Connection> FreshSending(const Request& first, Exchange& sent);
  /// The variant labelled `label` of `check_id` that Prepare sent on a process of its own
  /// (FreshSteps::alone), once sent; nothing when Prepare sent none, or could not.
  std::optional<SentAhead::Sent> TakeAlone(std::string_view check_id, std::string_view label);

  /// What the server declared when the main connection was first opened.
  bool Declares(std::string_view capability) const { return capabilities().contains(capability); }
  const boost::json::object& capabilities() const { return main_.session_.capabilities(); }
  /// The main connection opened at Start, so capabilities() and session_assigned() are known.
  bool capabilities_known() const { return capabilities_known_; }
  /// The server assigned an Mcp-Session-Id to the main connection (handshake era over HTTP).
  bool session_assigned() const { return main_.session_.session_assigned(); }
  /// What the server announced when the main connection first opened.
  const std::optional<ServerInfo>& server_info() const { return main_.session_.server_info(); }
  /// The exchanges of the main connection's first Open (initialize or server/discover).
  const std::vector<Exchange>& first_open() const { return first_open_; }
  /// How many times the main connection's session ended under it (Connection::Send).
  std::size_t main_sessions_ended() const { return main_.session_.counts().sessions_ended; }

 private:
  TargetLink& link_;
  Revision revision_;
  Connection main_;
  bool capabilities_known_ = false;
  std::string fresh_failure_;
  std::vector<Exchange> first_open_;

  using Prepared = FreshPool::Prepared;
  /// Takes the prepared connection whose first step was `first` (or an opening), while the
  /// target answered everything in time since Prepare; otherwise those left go unused.
  std::optional<Prepared> TakePrepared(const std::optional<Request>& first);
  std::vector<Prepared> prepared_;
  /// TargetLink::changes_seen() when Prepare ended.
  std::size_t changes_when_prepared_ = 0;
  /// Made ahead but not to be used: ended with the revision, as the checks' own sessions are
  /// (a server may end every session with one DELETE).
  std::vector<Prepared> unused_;
  /// Over stdio, FreshSteps::alone by check id and label.
  std::map<std::pair<std::string_view, std::string>, std::unique_ptr<SentAhead>> alone_;
};

}  // namespace mcpfuzz::checks::detail
