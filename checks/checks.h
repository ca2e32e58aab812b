#pragma once
// The checklist of `mcpfuzz check`: fixed, read-only questions asked of a target in every era
// it speaks, each answer judged by the oracles. The checks drive transports; they never judge
// by themselves and never perform I/O except through a Transport.

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/reproducer.h"
#include "model/request.h"
#include "oracles/pre_init.h"
#include "oracles/verdict.h"
#include "transport/client.h"
#include "transport/era_probe.h"

namespace mcpfuzz::checks {

/// The judgement of one check in one revision over one transport.
struct CheckResult {
  Verdict verdict;  ///< verdict.check_id names the check.
  Revision revision = kLatestRevision;
  TransportKind transport = TransportKind::kHttp;
  /// Every exchange the check made, in order; the one the verdict is about is `judged`.
  std::vector<Exchange> exchanges;
  std::size_t judged = 0;
  /// The exchanges up to `judged` went in order on one fresh connection, and what they did
  /// before it is the point (the era a stdio connection was locked to): a reproducer replays
  /// them all as a sequence, not the judged request alone.
  bool one_connection = false;
  /// The exchanges from `history_from` up to `judged` went in order on the connection the
  /// judged one was sent on, after it was opened, and the judged answer needs them (a server
  /// deaf after a big line, a session used after its DELETE): a reproducer opens a connection
  /// and sends them all (model/reproducer.h), not the judged request alone.
  std::optional<std::size_t> history_from;
  /// When not empty, what a reproducer sends instead, as a sequence: the judged answer needs
  /// requests that went on other connections (a session's DELETE that ended another one).
  std::vector<Request> replay;
};

/// The shell command that sends again what the result's judged answer needs (model/reproducer.h):
/// its `replay`, or the exchanges from `history_from`, or of the check's own connection
/// (`one_connection`), or the judged request alone. Empty when the check judged no exchange.
std::string Reproducer(const CheckResult& result, const ReproducerTarget& target);

/// Observations that are not verdicts, reported beside them.
struct HandshakeControl {
  Revision revision = kLatestHandshakeRevision;
  PreInitClassification pre_init;
};

struct CheckOptions {
  /// Check ids (or dotted prefixes, "headers." or "tools") to run; empty means all.
  std::set<std::string> only;
  /// Check ids (or prefixes) to leave out.
  std::set<std::string> skip;
  /// Run the checks in this revision only instead of the newest revision of each era spoken.
  std::optional<Revision> revision;
  /// `--call-real-tools`: run the args probe, which calls the first tool that has required
  /// arguments with `{}` and with a wrong-typed value. Off by default: it calls a real tool.
  bool call_real_tools = false;
  /// How long to wait before one retry of a request answered 429/503 when the server names no
  /// Retry-After (a Retry-After up to max_retry_after is honoured).
  std::chrono::milliseconds retry_spacing{1000};
  std::chrono::milliseconds max_retry_after{10000};
  /// Over stdio, run the revisions' checks at the same time, each revision on server processes
  /// of its own (their results still in plan order, as one after the other gives them). Off
  /// (`--one-revision-at-a-time`) for a server that cannot run twice at once: one holding a
  /// lock, a port or a file. Over HTTP the revisions always run one after the other, on one
  /// server.
  bool revisions_at_once = true;
  /// Set from elsewhere (a signal handler) to stop after the scenario in flight; the checks
  /// not reached are left out of the run. Nothing means never.
  const std::atomic<bool>* stop = nullptr;
};

struct CheckRun {
  EraReport eras;
  std::vector<CheckResult> results;
  std::vector<HandshakeControl> handshake_controls;
  /// What the target announced (McpClient::server_info) on the first main connection of the run
  /// that opened with one, revisions taken in the order they run (PlanRevisions: newest
  /// first); one is enough, as a server names itself alike in every revision. Nothing when no
  /// session opened or none announced anything.
  std::optional<ServerInfo> server_info;
  /// What happened to the run as a whole, for people: that mcpfuzz gave up on a target that
  /// stopped answering in time, say.
  std::vector<std::string> notes;
};

/// A check as listed by `mcpfuzz check --list`.
struct CheckInfo {
  std::string_view id;
  std::string_view title;
};
/// Every check the runner knows, in the order it runs them.
std::span<const CheckInfo> AllChecks();

/// Tool names no server has, and the names of Object.prototype that names.unknown-consistent
/// sends only when tools/list did not name them. Unless CheckOptions::call_real_tools is set,
/// every tools/call the checks send names one of these, so no real tool ever runs.
std::span<const std::string_view> ImpossibleToolNames();

/// True when the --only / --skip selector `selector` names check `id`: the id itself, or a
/// prefix of it that ends at a dot ("tools" and "tools." name "tools.unknown-name", "tool"
/// names nothing). Both the runner's selection and the CLI's refusal of a selector naming no
/// check use this, so they cannot disagree.
bool SelectorMatches(std::string_view selector, std::string_view id);

/// True when `id` is selected by `options.only` / `options.skip`.
bool Selected(std::string_view id, const CheckOptions& options);

/// Detects the eras `connect` speaks, then runs every selected check in the newest revision of
/// each era spoken (and in 2025-03-26 for the batch checks, when spoken). `progress` is called
/// after each result, for progress lines on long runs. A target that speaks no revision (and no
/// options.revision) gets no results, CheckRun::eras saying what was asked, but for a FAIL of
/// stdio.stdout-only-jsonrpc when a stdio server's stdout carried more than JSON-RPC messages
/// (stdout framing binds every revision).
CheckRun RunChecks(const TransportFactory& connect, const CheckOptions& options,
                   const std::function<void(const CheckResult&)>& progress = {});

}  // namespace mcpfuzz::checks
