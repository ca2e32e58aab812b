#pragma once
// Internal: the machinery every check family shares. A RevisionRun runs the checklist in one
// revision over one target: it owns the connections, records every exchange (so each result can
// carry its reproducer and stdio output can be judged as a whole), restarts a stdio server that
// died or went deaf, and turns judged exchanges into CheckResults.

#include <boost/json/object.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.h"
#include "model/request_edit.h"
#include "oracles/oracle.h"
#include "transport/client.h"
#include "transport/era_probe.h"
#include "transport/transport.h"

namespace mcpfuzz::checks::detail {

/// Tool names no server has. Unless CheckOptions::call_real_tools is set, every tools/call the
/// checks send names one of these, so no real tool ever runs.
inline constexpr std::string_view kImpossibleTool = "mcpfuzz_no_such_tool_4f1c9a";
inline constexpr std::string_view kSecondImpossibleTool = "mcpfuzz-impossible-tool-7b2e";
/// Needs the =?base64?…?= form in Mcp-Name: it holds a non-ASCII letter.
inline constexpr std::string_view kImpossibleToolNeedingBase64 = "mcpfuzz_n\xC3\xB6_such_tool";

class RevisionRun;

/// A target that stopped answering in time: after this many consecutive exchanges ended in a
/// timeout (HTTP) or deafness (stdio), nothing more is sent to it in the whole run, so a server
/// that drips its replies costs a few timeouts, not one per check. Any answered exchange
/// (restarted stdio servers included) resets the count.
inline constexpr int kTimeoutsBeforeGivingUp = 3;

/// Whether the target still answers in time, shared by the revisions of one run.
struct Responsiveness {
  int consecutive_timeouts = 0;
  bool gave_up = false;
};

/// Whether a request is owed a reply, which decides what a stdio timeout means.
enum class Owed {
  /// Well-formed with an id: silence means the server stopped answering.
  kReply,
  /// Malformed or a notification: silence may be the server's (tolerated) answer.
  kNothing,
};

/// Every exchange a Connection made since the last Take, including those McpClient makes on
/// its own (initialize, notifications/initialized).
class RecordingTransport final : public Transport {
 public:
  RecordingTransport(std::unique_ptr<Transport> inner, RevisionRun& run);

  Observation Send(const Request& request) override;
  /// Forwards to the real transport, and records each request's exchange and the sentinel's.
  /// A request left unanswered whose sentinel was answered is recorded as dropped, whichever
  /// transport learnt it.
  PipelineResult SendPipelined(const Pipeline& pipeline) override;
  TransportKind kind() const override { return inner_->kind(); }
  std::string Describe() const override { return inner_->Describe(); }

  /// The exchanges recorded since the last call, oldest first.
  std::vector<Exchange> Take();
  /// False once a stdio server process has ended. HTTP servers cannot be watched: always true.
  bool ProcessAlive();
  /// The stdio transport underneath, or nullptr over HTTP.
  StdioTransport* stdio() const { return stdio_; }
  /// Whether the next request is owed a reply; by default, whether it has an id.
  void set_next_owed(Owed owed) { next_owed_ = owed; }
  /// The process's end was already recorded as an incident.
  bool death_reported() const { return death_reported_; }
  void set_death_reported() { death_reported_ = true; }
  /// A server of this run answered a request after the sentinel behind it: sentinels prove
  /// nothing about it, so requests owed nothing wait out the quiet window or the timeout.
  bool sentinels_prove_nothing() const;
  /// Tells the connections of one run apart (addresses may be reused).
  std::size_t serial() const { return serial_; }

 private:
  std::unique_ptr<Transport> inner_;
  std::size_t serial_ = 0;
  StdioTransport* stdio_ = nullptr;
  RevisionRun& run_;
  std::vector<Exchange> log_;
  std::optional<Owed> next_owed_;
  bool death_reported_ = false;
};

/// One transport (for stdio: one server process) and the McpClient speaking on it.
class Connection {
 public:
  Connection(std::unique_ptr<Transport> transport, RevisionRun& run);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// The handshake (handshake era) or server/discover (stateless era). The exchanges it made
  /// are appended to `exchanges` when given.
  bool Open(std::vector<Exchange>* exchanges = nullptr);
  /// Why Open failed, for notes.
  std::string OpenFailure() const;

  /// Sends `request` and returns the exchange, with the session id that went with it. Over
  /// stdio a request owed nothing has a sentinel written behind it, so a server that drops it
  /// is known in one round trip (its exchange reads "no reply"), not after the timeout.
  Exchange Send(const Request& request, Owed owed = Owed::kReply);

  McpClient& client() { return client_; }
  RecordingTransport& transport() { return *transport_; }
  /// A stdio server that exited or stopped answering; HTTP connections never count as dead.
  bool Dead();
  /// Ends a handshake-era HTTP session with DELETE; returns the exchange it made, if any.
  std::vector<Exchange> Close();

 private:
  std::unique_ptr<RecordingTransport> transport_;
  McpClient client_;
  std::optional<Result<OpenOutcome>> opened_;
  /// A stdio exchange ended with the server gone or silent: restart before reusing it.
  bool broken_ = false;
  std::size_t sentinels_ = 0;
};

/// A stdio server that stopped answering (deaf) or ended (death) during a check: itself a
/// finding, judged under stdio.keeps-answering or stdio.no-early-exit.
struct Incident {
  std::string check_id;
  /// The exchange before the one that saw the incident, on the same process, if any: the
  /// server may have died right after answering it.
  std::optional<Exchange> previous;
  Exchange exchange;
};

/// Builds one CheckResult from one or more judged exchanges: the worst verdict wins (FAIL, WARN,
/// UNVERIFIED, PASS, NOT_APPLICABLE), and each labelled variant gets a note with its verdict.
class ResultBuilder {
 public:
  ResultBuilder(const RevisionRun& run, std::string_view check_id);

  /// Keeps an exchange that is not judged (setup, cleanup); returns its index.
  std::size_t Add(Exchange exchange);
  /// Keeps and judges `exchange`; a non-empty `label` names the variant in a note.
  const Verdict& Judge(Exchange exchange, const JudgeContext& context, std::string label = {});
  /// Judges an exchange kept earlier.
  const Verdict& JudgeAt(std::size_t index, const JudgeContext& context, std::string label = {});
  /// Merges a verdict reached elsewhere for the exchange at `index`.
  void Merge(Verdict verdict, std::size_t index, std::string label = {});
  void Note(std::string note) { extra_notes_.push_back(std::move(note)); }
  std::size_t size() const { return result_.exchanges.size(); }
  const std::vector<Exchange>& exchanges() const { return result_.exchanges; }
  bool judged_any() const { return best_.has_value(); }

  CheckResult Finish() &&;

 private:
  std::string check_id_;
  CheckResult result_;
  std::optional<Verdict> best_;
  std::vector<std::string> variant_notes_;
  std::vector<std::string> extra_notes_;
};

/// How a revision's run was planned.
struct RevisionPlan {
  Revision revision = kLatestRevision;
  /// When not empty, only these checks run in this revision (2025-03-26 runs only the batch
  /// checks).
  std::set<std::string_view> restricted_to;
};

/// The checklist in one revision over one target.
class RevisionRun {
 public:
  using Progress = std::function<void(const CheckResult&)>;

  /// Results and handshake controls go to `out` (whose `eras` must be filled in); `progress`
  /// is called after each result.
  RevisionRun(const TransportFactory& connect, const CheckOptions& options, RevisionPlan plan,
              CheckRun& out, const Progress& progress, Responsiveness& responsiveness);
  ~RevisionRun();
  RevisionRun(const RevisionRun&) = delete;
  RevisionRun& operator=(const RevisionRun&) = delete;

  Revision revision() const { return plan_.revision; }
  Era era() const { return EraOf(plan_.revision); }
  bool stateless() const { return era() == Era::kStateless; }
  /// Known once the first connection was made; kHttp before.
  TransportKind kind() const { return kind_; }
  bool http() const { return kind_ == TransportKind::kHttp; }
  bool stdio() const { return kind_ == TransportKind::kStdio; }
  bool era_spoken() const { return out_.eras.Speaks(plan_.revision); }
  const CheckOptions& options() const { return options_; }

  /// The JudgeContext for this revision.
  JudgeContext Context(bool capability_declared = true) const;

  /// The target stopped answering in time (kTimeoutsBeforeGivingUp): nothing more is sent.
  bool gave_up() const { return responsiveness_.gave_up; }
  /// Why nothing more is sent, for the verdicts of the checks left.
  static std::string GaveUpReason();

  /// Connects and opens the main connection. False when no connection could be made at all.
  bool Start();
  /// The main connection, opened in this revision; a stdio server that died or went deaf is
  /// restarted first. nullptr when it cannot be (re)opened; MainFailure() says why.
  Connection* Main();
  /// Starts the stdio server afresh before the next request: a server that accepted what it
  /// should have refused may have changed state (an era pinned per connection, say), and later
  /// checks must not inherit that. Not counted as a restart after a failure. HTTP connections
  /// are kept: the server behind them does not restart.
  void RetireMain() { retire_main_ = kind_ == TransportKind::kStdio; }
  const std::string& MainFailure() const { return main_failure_; }
  /// A fresh, unopened connection (for stdio: a new server process), or nullptr.
  std::unique_ptr<Connection> Fresh();

  /// What the server declared when the main connection was first opened.
  bool Declares(std::string_view capability) const { return capabilities_.contains(capability); }
  /// The main connection opened at Start, so capabilities() and session_assigned() are known.
  bool capabilities_known() const { return capabilities_known_; }
  /// True when `capability` was declared. Otherwise reports `check_id` NOT_APPLICABLE (or
  /// UNVERIFIED when the capabilities are unknown) and returns false.
  bool RequireCapability(std::string_view check_id, std::string_view capability);
  const boost::json::object& capabilities() const { return capabilities_; }
  /// The server assigned an Mcp-Session-Id to the main connection (handshake era over HTTP).
  bool session_assigned() const { return session_assigned_; }
  /// The exchanges of the main connection's first Open (initialize or server/discover).
  const std::vector<Exchange>& first_open() const { return first_open_; }

  // --- which checks this run reports -------------------------------------------------------

  /// Selected by the options and allowed by the plan.
  bool Wants(std::string_view check_id) const;
  /// The checks the running scenario should report.
  void set_pending(std::set<std::string_view> ids) { pending_ = std::move(ids); }
  bool Pending(std::string_view check_id) const { return pending_.contains(check_id); }
  /// The check whose exchanges are being made, for incidents.
  void set_current_check(std::string_view check_id) { current_check_ = check_id; }
  std::string_view current_check() const { return current_check_; }
  /// True when the tables have a row for `check_id` in this revision over this transport.
  bool HasRow(std::string_view check_id) const;

  // --- reporting ---------------------------------------------------------------------------

  /// Reports `result` if its check is pending.
  void Report(CheckResult result);
  /// Reports `builder`'s result if its check is pending.
  void Report(ResultBuilder&& builder);
  /// NOT_APPLICABLE without sending anything, for `reason`.
  void ReportNotApplicable(std::string_view check_id, std::string reason);
  /// UNVERIFIED without sending anything, because the main connection is gone.
  void ReportUnreachable(std::string_view check_id);
  /// ReportUnreachable for every pending check.
  void ReportPendingUnreachable();
  /// Keeps an observation of the handshake control beside the verdicts.
  void AddHandshakeControl(HandshakeControl control) {
    out_.handshake_controls.push_back(std::move(control));
  }

  // --- recording (RecordingTransport calls this) ---------------------------------------------

  void Record(const Exchange& exchange, RecordingTransport& transport, Owed owed);
  /// A sentinel saw a late reply (RecordingTransport::sentinels_prove_nothing).
  void set_out_of_order() { out_of_order_ = true; }
  bool out_of_order() const { return out_of_order_; }
  /// A serial number for a new connection, from 1.
  std::size_t NextConnectionSerial() { return ++connections_made_; }

  /// Stdio incidents seen so far in this run, in order.
  const std::vector<Incident>& deaths() const { return deaths_; }
  const std::vector<Incident>& deafness() const { return deafness_; }
  std::size_t deaths_seen() const { return deaths_seen_; }
  /// Every stdout line seen over stdio in this run, as one observation.
  const Observation& stdout_seen() const { return stdout_seen_; }
  /// The exchanges whose stdout broke the stdio framing rules (capped), and how many did.
  const std::vector<Exchange>& stdout_offenders() const { return stdout_offenders_; }
  std::size_t stdout_exchanges() const { return stdout_exchanges_; }
  /// The last exchange recorded over stdio.
  const std::optional<Exchange>& last_stdio_exchange() const { return last_stdio_exchange_; }

 private:
  const TransportFactory& connect_;
  const CheckOptions& options_;
  RevisionPlan plan_;
  CheckRun& out_;
  const Progress& progress_;
  Responsiveness& responsiveness_;
  TransportKind kind_ = TransportKind::kHttp;

  std::unique_ptr<Connection> main_;
  /// The main connection cannot be (re)opened; checks that need it are UNVERIFIED.
  bool main_broken_ = false;
  int restarts_ = 0;
  bool retire_main_ = false;
  std::string main_failure_;
  boost::json::object capabilities_;
  bool capabilities_known_ = false;
  bool session_assigned_ = false;
  std::vector<Exchange> first_open_;

  std::set<std::string_view> pending_;
  std::string_view current_check_;

  std::vector<Incident> deaths_;
  std::vector<Incident> deafness_;
  std::size_t deaths_seen_ = 0;
  Observation stdout_seen_;
  std::vector<Exchange> stdout_offenders_;
  std::size_t stdout_exchanges_ = 0;
  std::optional<Exchange> last_stdio_exchange_;
  /// RecordingTransport::serial() of last_stdio_exchange_'s connection; 0 for none.
  std::size_t last_stdio_serial_ = 0;
  std::size_t connections_made_ = 0;
  bool out_of_order_ = false;
};

// --- request surgery shared by the families ---------------------------------------------------

// BodyObject, Params and Meta come from model/request_edit.h.
/// Replaces the body by `bytes`, sent verbatim.
void SetRawBody(Request& request, std::string bytes);

/// A well-formed request every server answers without side effects: ping in the handshake era,
/// server/discover in the stateless one (where ping no longer exists).
Request HarmlessRequest(Connection& connection, const RevisionRun& run);

/// The JSON-RPC method a carrier of Mcp-Name should use and its params for `name`: tools/call
/// when tools are declared, else prompts/get, else resources/read (then `name` becomes a URI).
struct NamedCall {
  std::string method;
  boost::json::object params;
};
NamedCall ImpossibleNamedCall(const RevisionRun& run, std::string_view name);

/// One way of breaking a rule: a label for notes and the request, built on the connection it
/// is sent on (so its id is fresh there).
struct Variant {
  std::string label;
  std::function<Request(Connection&)> build;
  Owed owed = Owed::kNothing;
};

/// Sends every variant on the main connection (restarting a dead stdio server first) and
/// reports one result for `check_id`: the worst verdict wins.
void ReportVariants(RevisionRun& run, std::string_view check_id,
                    const std::vector<Variant>& variants, const JudgeContext& context);
void ReportVariants(RevisionRun& run, std::string_view check_id,
                    const std::vector<Variant>& variants);

/// Judges the main connection's first Open (initialize, or server/discover) as `check_id`.
void ReportFirstOpen(RevisionRun& run, std::string_view check_id);

/// "protocol_error -32602 (HTTP 200)" for the reply in `exchange`.
std::string DescribeAnswer(const Exchange& exchange);

}  // namespace mcpfuzz::checks::detail
