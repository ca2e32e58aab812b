#pragma once
// Internal: the fresh HTTP sessions of a revision's checks, made while the era probe asks its
// questions. They need the revision the probe finds, so they were made after it; a server slow
// to open sessions then cost two openings one after the other, the probe's and the checks'
// (fastmcp waits a second in every initialize, polling for the client's capabilities, which
// only that initialize carries). Made beside the probe, supposing the revision spoken, they
// cost one; those the run ends up not taking are ended unused with the revision.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "checks/detail/connections.h"
#include "transport/session.h"
#include "transport/transport.h"

namespace mcpfuzz::checks::detail {

class BesideProbe {
 public:
  /// Makes `steps()` in `revision` on `link`, on a thread of its own, once a connection the
  /// probe made (Watching) says the target is reached over HTTP. `link` must outlive this.
  BesideProbe(TargetLink& link, Revision revision, std::function<FreshSteps()> steps);
  ~BesideProbe();
  BesideProbe(const BesideProbe&) = delete;
  BesideProbe& operator=(const BesideProbe&) = delete;

  /// `connect`, telling this the kind of the first connection it makes: nothing is made before
  /// that, so no stdio server is ever started only to learn it. Thread-safe when `connect` is.
  TransportFactory Watching(TransportFactory connect);
  /// The probe asks a question again alone (DetectEras' before_alone): waits for what is being
  /// made and ends it, so that none of it crowds the target; the run makes its sessions after
  /// the probe, as without this.
  void Withdraw();
  /// The probe has ended: waits for what is being made (nothing when the probe made no HTTP
  /// connection or was withdrawn) and hands it over.
  FreshPool Take();

 private:
  void Run();

  TargetLink& link_;
  Revision revision_;
  std::function<FreshSteps()> steps_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<TransportKind> kind_;
  bool probe_ended_ = false;
  bool withdrawn_ = false;
  FreshPool made_;
  std::thread thread_;
};

}  // namespace mcpfuzz::checks::detail
