#pragma once
// Which protocol revisions a target speaks, found by asking it: `server/discover` for the
// stateless era, and one `initialize` per handshake revision, each on a fresh connection
// (a fresh process for stdio), as the era probe in the seed documents does.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/channel.h"
#include "model/result.h"
#include "transport/client.h"
#include "transport/transport.h"

namespace mcpfuzz {

/// One question asked and what came back.
struct EraAttempt {
  Revision asked = kLatestRevision;
  std::string method;  ///< "server/discover" or "initialize"
  Channel channel = Channel::kNoReply;
  std::optional<std::int64_t> error_code;
  int http_status = 0;
  /// The revision the server answered with (initialize's protocolVersion); for discover, the
  /// newest supportedVersions entry mcpfuzz knows.
  std::optional<Revision> answered;
  /// supportedVersions of a discover result, as the server spelled them.
  std::vector<std::string> supported_versions;
  /// `revision` is among supported_versions.
  bool Lists(Revision revision) const {
    return std::find(supported_versions.begin(), supported_versions.end(), ToString(revision)) !=
           supported_versions.end();
  }
  std::string note;
  /// How the question's exchange ended: refused, reset, exited, too large, timed out; a
  /// transport error with no exchange at all when no connection could be made (a stdio server
  /// that could not start). Why a target could not be reached, as `check` and surveys say it.
  Outcome outcome = Outcome::kOk;
  /// What the transport said of that end ("curl: Failed to connect to …", "the server exited
  /// with code 2"); `note` has it too, inside the answer as a channel describes it.
  std::string detail;
  /// The last bytes a stdio server wrote to stderr during the attempt, as it wrote them: why
  /// a server that exited did so is usually there.
  std::string stderr_tail;
  /// Over stdio, the request that opened the attempt and everything the server wrote back
  /// (bounded by the transport's caps): stdout framing binds every revision, so what stdout
  /// carried can be judged even when no revision is spoken. Nothing over HTTP.
  std::optional<OpenOutcome> stdio_opening;
  /// A server/discover that succeeded although its supportedVersions leaves out the revision
  /// it asked: its exchange, over either transport. The revision is not judged, but the
  /// discover itself broke a rule (tables §4b V3: refused with -32022, or V5: listed), which
  /// `check` reports as discover.result.
  std::optional<OpenOutcome> unlisted_discover;
  /// The question went unanswered until a time limit passed: which one (a timeout tells
  /// nothing about the revision, so it is asked again on a fresh connection).
  std::optional<TimeLimit> timed_out;
  /// How many times it was asked: 2 when the first went unanswered in time.
  int asked_times = 1;
};

struct EraReport {
  /// Revisions the target accepted as asked, newest first.
  std::vector<Revision> speaks;
  /// Revisions whose question went unanswered in time, twice: not determined, never taken for
  /// "not spoken". Newest first.
  std::vector<Revision> undetermined;
  std::vector<EraAttempt> attempts;

  bool Speaks(Revision revision) const;
  /// The newest revision spoken in `era`, if any.
  std::optional<Revision> Newest(Era era) const;
};

/// A connection an era question opened in a revision the target speaks (over stdio, a server
/// process), kept open for a run to go on with (TargetSession::Continue) instead of opening
/// another the same way: a server that takes long to open sessions, or to start, costs one
/// opening, not two. Ends its session (an HTTP DELETE, a process stopped), as the era probe does
/// with those it keeps not, when dropped unused.
struct ProbedConnection {
  ProbedConnection() = default;
  ProbedConnection(ProbedConnection&&) = default;
  ProbedConnection& operator=(ProbedConnection&&) = default;
  ~ProbedConnection();

  std::unique_ptr<Transport> transport;
  /// Opened through `transport`.
  std::unique_ptr<McpClient> client;
  /// What opening it exchanged: initialize and notifications/initialized, or server/discover.
  std::vector<Exchange> opening;
};
using ProbedConnections = std::map<Revision, ProbedConnection>;

/// Asks every revision, each on a connection of its own, all at once (at most one thread per
/// revision); the report lists them in the same order whatever order they finish in. A question
/// left unanswered until a time limit passed (servers starting at once starve each other) is
/// asked again alone on a fresh connection; still unanswered, its revision is `undetermined`.
/// Never throws; a target that cannot be reached yields an empty `speaks` and attempts whose
/// channel is kTransportFailure.
/// With `keep`, the connections of the revisions found spoken are kept there, open.
/// `before_alone` is called once before the first question is asked again: whatever else the
/// caller has in flight at the target ends there, so that alone means alone (a server serving a
/// few connections at a time is crowded by the caller's own as much as by the other questions).
EraReport DetectEras(const TransportFactory& connect, ProbedConnections* keep = nullptr,
                     const std::function<void()>& before_alone = {});

/// A revision a run (check or fuzz) covers.
struct PlannedRevision {
  Revision revision = kLatestRevision;
  /// Covered only for what exists in this revision alone (2025-03-26's batches): the newest
  /// revision of its era covers the rest.
  bool batches_only = false;
};

/// The revisions a run covers: `forced` alone when given; otherwise the newest revision of each
/// era spoken (stateless first), and 2025-03-26, the one revision that must process batches,
/// when it is spoken and not already the newest of its era. Empty when nothing known is spoken.
std::vector<PlannedRevision> PlanRevisions(const EraReport& eras,
                                           std::optional<Revision> forced = std::nullopt);

}  // namespace mcpfuzz
