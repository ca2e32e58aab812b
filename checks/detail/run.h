#pragma once
// Internal: the machinery every check family shares. A RevisionRun runs the checklist in one
// revision over one target: it says which checks are wanted and still pending, and turns judged
// exchanges into CheckResults. Its Connections own the connections (and restart a stdio server
// that died or went deaf); its IncidentLog keeps what every exchange showed beyond its own
// answer, so stdio output and incidents can be judged as a whole.

#include <array>
#include <boost/json/object.hpp>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.h"
#include "checks/detail/connections.h"
#include "checks/detail/incidents.h"
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
/// Property names every JavaScript object has: names.unknown-consistent calls them only when
/// tools/list did not name them.
inline constexpr std::array<std::string_view, 4> kPrototypeNames = {"__proto__", "constructor",
                                                                    "toString", "hasOwnProperty"};
/// Needs the =?base64?…?= form in Mcp-Name: it holds a non-ASCII letter.
inline constexpr std::string_view kImpossibleToolNeedingBase64 = "mcpfuzz_n\xC3\xB6_such_tool";

class RevisionRun;

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
  /// See CheckResult::one_connection.
  void OnOneConnection() { result_.one_connection = true; }
  /// The exchange at `index` followed those from `from` on its connection, and its answer
  /// needs them: CheckResult::history_from, should it be the one judged.
  void ReplaysFrom(std::size_t index, std::size_t from) { history_from_[index] = from; }
  /// The exchange at `index` needs what went on another connection before it: CheckResult::
  /// replay, should it be the one judged.
  void ReplaysAs(std::size_t index, std::vector<Request> requests) {
    replay_[index] = std::move(requests);
  }
  std::size_t size() const { return result_.exchanges.size(); }
  const std::vector<Exchange>& exchanges() const { return result_.exchanges; }
  bool judged_any() const { return best_.has_value(); }

  CheckResult Finish() &&;

 private:
  std::string check_id_;
  CheckResult result_;
  std::optional<Verdict> best_;
  std::map<std::size_t, std::size_t> history_from_;
  std::map<std::size_t, std::vector<Request>> replay_;
  std::vector<std::string> variant_notes_;
  std::vector<std::string> extra_notes_;
};

/// How a revision's run was planned.
struct RevisionPlan {
  Revision revision = kLatestRevision;
  /// When not empty, only these checks run in this revision (2025-03-26 runs only the batch
  /// checks).
  std::set<std::string_view> restricted_to;
  /// The era probe's connection in this revision, kept open to go on with; empty when none.
  ProbedConnection probed;
};

/// The checklist in one revision over one target.
class RevisionRun {
 public:
  using Progress = std::function<void(const CheckResult&)>;

  /// Results and handshake controls go to `out` (whose `eras` must be filled in); `progress`
  /// is called after each result. The revision's IncidentLog observes `link` while it runs.
  RevisionRun(TargetLink& link, const CheckOptions& options, RevisionPlan plan, CheckRun& out,
              const Progress& progress);
  ~RevisionRun();
  RevisionRun(const RevisionRun&) = delete;
  RevisionRun& operator=(const RevisionRun&) = delete;

  Revision revision() const { return plan_.revision; }
  Era era() const { return EraOf(plan_.revision); }
  bool stateless() const { return era() == Era::kStateless; }
  /// Known once the first connection was made; kHttp before.
  TransportKind kind() const { return connections_.kind(); }
  bool http() const { return kind() == TransportKind::kHttp; }
  bool stdio() const { return kind() == TransportKind::kStdio; }
  bool era_spoken() const { return out_.eras.Speaks(plan_.revision); }
  /// The newest revision of `era` the era probe found the target speaking.
  std::optional<Revision> NewestSpoken(Era era) const { return out_.eras.Newest(era); }
  const CheckOptions& options() const { return options_; }

  /// The JudgeContext for this revision.
  JudgeContext Context(bool capability_declared = true) const;

  Connections& connections() { return connections_; }
  const Connections& connections() const { return connections_; }
  const IncidentLog& incidents() const { return incidents_; }

  // --- the connections, as the families use them (see Connections) --------------------------

  /// Opens the main connection, blaming what it sees on initialize (or server/discover).
  bool Start();
  Connection* Main() { return connections_.Main(); }
  std::size_t main_sessions_ended() const { return connections_.main_sessions_ended(); }
  /// Judges the repeats the incident log saw (a second response outside the window of the
  /// request it answers) in the results of the checks whose requests they repeat, reported by
  /// then: the one-response rule, as for a repeat inside the window.
  void JudgeRepeats();
  void RetireMain() { connections_.RetireMain(); }
  std::string MainFailure() const { return connections_.MainFailure(); }
  std::unique_ptr<Connection> Fresh() { return connections_.Fresh(); }
  std::unique_ptr<Connection> FreshOpened(std::vector<Exchange>& opening, bool& opened) {
    return connections_.FreshOpened(opening, opened);
  }
  std::unique_ptr<Connection> FreshSending(const Request& first, Exchange& sent) {
    return connections_.FreshSending(first, sent);
  }
  /// A check is done with its fresh connection. An HTTP session is ended (DELETE) only when the
  /// revision's checks are done: a server may end other sessions with it, among them those
  /// opened ahead for later checks. A stdio server is shut down now.
  void CloseLater(std::unique_ptr<Connection> connection) {
    if (connection && http()) done_with_.push_back(std::move(connection));
  }
  bool Declares(std::string_view capability) const { return connections_.Declares(capability); }
  const boost::json::object& capabilities() const { return connections_.capabilities(); }
  bool capabilities_known() const { return connections_.capabilities_known(); }
  bool session_assigned() const { return connections_.session_assigned(); }
  /// The target stopped answering in time (TargetLink): nothing more is sent.
  bool gave_up() const { return link_.gave_up(); }
  /// True when `capability` was declared. Otherwise reports `check_id` NOT_APPLICABLE (or
  /// UNVERIFIED when the capabilities are unknown) and returns false.
  bool RequireCapability(std::string_view check_id, std::string_view capability);

  // --- which checks this run reports -------------------------------------------------------

  /// Selected by the options and allowed by the plan.
  bool Wants(std::string_view check_id) const;
  /// The checks the running scenario should report.
  void set_pending(std::set<std::string_view> ids) { pending_ = std::move(ids); }
  bool Pending(std::string_view check_id) const { return pending_.contains(check_id); }
  /// The check whose exchanges are being made, for incidents.
  void set_current_check(std::string_view check_id) { incidents_.set_current_check(check_id); }
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

 private:
  TargetLink& link_;
  const CheckOptions& options_;
  RevisionPlan plan_;
  CheckRun& out_;
  const Progress& progress_;
  /// Declared before the connections, which record into it until they are closed.
  IncidentLog incidents_;
  Connections connections_;
  /// Ended when the run is (CloseLater), before the incident log stops observing.
  std::vector<std::unique_ptr<Connection>> done_with_;
  std::set<std::string_view> pending_;
};

/// True when the tables have a row for `check_id` in `revision` over `kind`.
bool HasRow(std::string_view check_id, Revision revision, TransportKind kind);

/// What a scenario's Ahead (scenarios.h) may ask of its revision's run: the revision, the
/// transport, the checks it is to report, and what the target declared. The runner also asks
/// before the target has declared anything, to open the sessions while the era probe asks its
/// questions: the view then supposes every capability and flag declared and a session
/// assigned, so that what the Aheads name covers whatever the run will take.
class AheadView {
 public:
  AheadView(const RevisionRun& run, std::set<std::string_view> pending)
      : run_(&run), revision_(run.revision()), kind_(run.kind()), pending_(std::move(pending)) {}
  /// Before the target declared anything: everything supposed declared.
  AheadView(Revision revision, TransportKind kind, std::set<std::string_view> pending)
      : revision_(revision), kind_(kind), pending_(std::move(pending)) {}

  Revision revision() const { return revision_; }
  TransportKind kind() const { return kind_; }
  bool http() const { return kind_ == TransportKind::kHttp; }
  bool stateless() const { return EraOf(revision_) == Era::kStateless; }
  bool Pending(std::string_view check_id) const { return pending_.contains(check_id); }
  bool capabilities_known() const { return supposing() || run_->capabilities_known(); }
  bool Declares(std::string_view capability) const {
    return supposing() || run_->Declares(capability);
  }
  bool DeclaresFlag(std::string_view capability, std::string_view flag) const;
  bool session_assigned() const { return supposing() || run_->session_assigned(); }

 private:
  bool supposing() const { return run_ == nullptr; }

  const RevisionRun* run_ = nullptr;
  Revision revision_;
  TransportKind kind_;
  std::set<std::string_view> pending_;
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

/// Sends every variant on the main connection (restarting a dead stdio server first), or takes
/// it from the process of its own it was sent on (FreshSteps::alone), and reports one result
/// for `check_id`: the worst verdict wins. A FAIL or WARN that rests on a silence learnt before
/// the full limit passed is sent again alone under the full limit first, as fuzz does: a
/// server that answers late is judged by its answer.
void ReportVariants(RevisionRun& run, std::string_view check_id,
                    const std::vector<Variant>& variants, const JudgeContext& context);
void ReportVariants(RevisionRun& run, std::string_view check_id,
                    const std::vector<Variant>& variants);

/// Judges the main connection's first Open (initialize, or server/discover) as `check_id`.
void ReportFirstOpen(RevisionRun& run, std::string_view check_id);

/// Runs `steps` on a connection of the check's own (a new stdio process, a new HTTP session),
/// opened first, every exchange kept in one result for `check_id`; closes it after and reports
/// the result as of one connection. UNVERIFIED (unreachable) when none could be opened. For
/// checks about a session's state, which the main connection must not carry into later checks.
void ReportOnOwnConnection(RevisionRun& run, std::string_view check_id,
                           const std::function<void(Connection&, ResultBuilder&)>& steps);

/// The exchange got a result.
bool Served(const Exchange& exchange);

/// "protocol_error -32602 (HTTP 200)" for the reply in `exchange`.
std::string DescribeAnswer(const Exchange& exchange);

}  // namespace mcpfuzz::checks::detail
