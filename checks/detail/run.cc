#include "checks/detail/run.h"

#include <boost/json.hpp>
#include <utility>

#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/expectations.h"
#include "oracles/judgement.h"
#include "oracles/stdio_checks.h"

namespace mcpfuzz::checks::detail {
namespace {

// Bounds what a run keeps of a server that dies or misbehaves on every request.
constexpr std::size_t kMaxIncidents = 10;
constexpr std::size_t kMaxStdoutOffenders = 10;
// A server that dies (or stops answering) on most requests would otherwise cost a restart, or
// a timeout, per check: after this many restarts in a revision the remaining checks go
// unanswered (UNVERIFIED).
constexpr int kMaxRestarts = 5;

std::string SessionIdOf(const Request& request, const Transport& transport) {
  if (auto header = FindHeader(request.headers, kHeaderSessionId)) return std::string(*header);
  if (request.session == SessionBinding::kAttach) return transport.session_id();
  return {};
}

std::string VariantNote(const std::string& label, const Verdict& verdict) {
  std::string note = label + ": " + std::string(ToString(verdict.kind)) + ", got " +
                     DescribeObserved(verdict.observed);
  if (!verdict.findings.empty()) note += "; " + verdict.findings.front().text;
  return note;
}

// A complete reply, or a drop the sentinel behind it proved: the server still reads and answers.
bool AnsweredInTime(Outcome outcome) {
  return outcome == Outcome::kOk || outcome == Outcome::kDropped || outcome == Outcome::kTooLarge;
}

bool TimedOut(Outcome outcome) {
  return outcome == Outcome::kTimeout || outcome == Outcome::kAliveButDeaf;
}

// What a request not sent (the run gave up on the target) is recorded as: a local refusal the
// oracles judge UNVERIFIED, with the reason in its detail.
Observation NotSent() {
  Observation observation;
  observation.outcome = Outcome::kTransportError;
  observation.detail = "not sent: " + RevisionRun::GaveUpReason();
  return observation;
}

// A POST the server never answered within the time limit. Every POST is owed an HTTP response
// (the JSON-RPC response, 202 Accepted, or an error status: transports.mdx "Sending Messages to
// the Server"), so the hang is itself a finding, as fuzz counts it (FindingRule::kCampaign); a
// check reports verdicts, not findings, so here the hang is the verdict. A GET may hold an
// event stream open for good, and stdio deafness is judged under stdio.keeps-answering.
bool HungOnPost(const Exchange& exchange, const Judgement& judgement) {
  return exchange.request.transport == TransportKind::kHttp &&
         exchange.request.http_method == "POST" &&
         exchange.observation.outcome == Outcome::kTimeout && judgement.finding &&
         judgement.verdict.kind == VerdictKind::kUnverified;
}

void JudgeHang(Verdict& verdict) {
  verdict.kind = VerdictKind::kFail;
  verdict.strength = Strength::kMust;
  verdict.unverified_reason = UnverifiedReason::kNone;
  verdict.findings.push_back(
      {Aspect::kChannel, Strength::kMust,
       "no HTTP response within the time limit: the server hung on a POST it owes a response"});
}

}  // namespace

// --- RecordingTransport ------------------------------------------------------------------------

RecordingTransport::RecordingTransport(std::unique_ptr<Transport> inner, RevisionRun& run)
    : inner_(std::move(inner)),
      serial_(run.NextConnectionSerial()),
      stdio_(dynamic_cast<StdioTransport*>(inner_.get())),
      run_(run) {}

Observation RecordingTransport::Send(const Request& request) {
  if (run_.gave_up()) {
    log_.push_back({request, NotSent(), SessionIdOf(request, *this)});
    next_owed_.reset();
    return log_.back().observation;
  }
  // McpClient keeps the session id on this decorator; the real transport attaches it.
  inner_->set_session_id(session_id());
  Exchange exchange{request, inner_->Send(request), SessionIdOf(request, *this)};
  const Owed owed = request.RpcId() ? Owed::kReply : Owed::kNothing;
  run_.Record(exchange, *this, next_owed_.value_or(owed));
  next_owed_.reset();
  log_.push_back(std::move(exchange));
  return log_.back().observation;
}

PipelineResult RecordingTransport::SendPipelined(const Pipeline& pipeline) {
  inner_->set_session_id(session_id());
  PipelineResult result;
  if (run_.gave_up()) {
    result.observations.assign(pipeline.requests.size(), NotSent());
    if (pipeline.sentinel) result.sentinel = NotSent();
  } else {
    result = inner_->SendPipelined(pipeline);
  }
  if (!result.sentinel.late_replies.empty()) run_.set_out_of_order();
  const bool sentinel_answered =
      pipeline.sentinel &&
      ClassifyReply(*pipeline.sentinel, result.sentinel).channel != Channel::kTransportFailure;
  for (std::size_t k = 0; k < pipeline.requests.size() && k < result.observations.size(); ++k) {
    Observation& observation = result.observations[k];
    // A transport that sends one request after the other waits out the timeout on a dropped
    // one; the sentinel answered after it tells the same as a transport that learns drops.
    if (sentinel_answered && observation.outcome == Outcome::kAliveButDeaf) {
      observation.outcome = Outcome::kDropped;
    }
    if (observation.outcome == Outcome::kDropped) {
      // The oracles judge a dropped request as answered by silence (Channel::kNoReply).
      observation.detail = "dropped: no reply, and the sentinel written after it was answered";
    }
    const Request& request = pipeline.requests[k];
    Exchange exchange{request, observation, SessionIdOf(request, *this)};
    const Owed owed = request.RpcId() ? Owed::kReply : Owed::kNothing;
    run_.Record(exchange, *this, k == 0 ? next_owed_.value_or(owed) : owed);
    log_.push_back(std::move(exchange));
  }
  next_owed_.reset();
  if (pipeline.sentinel) {
    Exchange exchange{*pipeline.sentinel, result.sentinel, SessionIdOf(*pipeline.sentinel, *this)};
    run_.Record(exchange, *this, Owed::kReply);
    log_.push_back(std::move(exchange));
  }
  return result;
}

std::vector<Exchange> RecordingTransport::Take() { return std::exchange(log_, {}); }

bool RecordingTransport::sentinels_prove_nothing() const { return run_.out_of_order(); }

bool RecordingTransport::ProcessAlive() { return stdio_ == nullptr || stdio_->Alive(); }

// --- Connection --------------------------------------------------------------------------------

Connection::Connection(std::unique_ptr<Transport> transport, RevisionRun& run)
    : transport_(std::make_unique<RecordingTransport>(std::move(transport), run)),
      client_(*transport_, run.revision()) {}

Connection::~Connection() = default;

bool Connection::Open(std::vector<Exchange>* exchanges) {
  const Revision asked = client_.revision();
  transport_->Take();
  Result<OpenOutcome> outcome = client_.Open();
  std::vector<Exchange> made = transport_->Take();
  if (exchanges != nullptr) exchanges->insert(exchanges->end(), made.begin(), made.end());
  for (const Exchange& exchange : made) {
    if (exchange.observation.outcome == Outcome::kAliveButDeaf) broken_ = true;
  }
  // Every later request must be in the revision under test, not one the server fell back to.
  if (outcome.ok() && client_.revision() != asked) {
    outcome = Error{"initialize answered " + std::string(ToString(client_.revision())) +
                    " instead of " + std::string(ToString(asked))};
  }
  opened_ = std::move(outcome);
  return opened_->ok();
}

std::string Connection::OpenFailure() const {
  if (!opened_) return "the connection was never opened";
  return opened_->ok() ? std::string() : opened_->error().message;
}

Exchange Connection::Send(const Request& request, Owed owed) {
  transport_->set_next_owed(owed);
  auto breaks = [this](const Exchange& exchange) {
    const Outcome outcome = exchange.observation.outcome;
    if (outcome == Outcome::kAliveButDeaf || outcome == Outcome::kExited) broken_ = true;
  };
  if (owed == Owed::kNothing && transport_->stdio() != nullptr &&
      !transport_->sentinels_prove_nothing()) {
    // The one request ping (or server/discover) never breaks: answered, it shows the server
    // read past the request; unanswered, the server stopped answering (an incident).
    Request sentinel =
        client_.Make(EraOf(client_.revision()) == Era::kStateless ? "server/discover" : "ping");
    BodyObject(sentinel)["id"] = "mcpfuzz-sentinel-" + std::to_string(++sentinels_);
    const PipelineResult result = transport_->SendPipelined(Pipeline{{request}, sentinel});
    std::vector<Exchange> made = transport_->Take();
    for (const Exchange& exchange : made) breaks(exchange);
    // Output that cannot be told apart: the server is restarted before the next check.
    if (result.ambiguous) broken_ = true;
    return std::move(made.front());
  }
  transport_->Send(request);
  std::vector<Exchange> made = transport_->Take();
  Exchange exchange = std::move(made.back());
  breaks(exchange);
  return exchange;
}

bool Connection::Dead() {
  if (transport_->stdio() == nullptr) return false;
  return broken_ || !transport_->ProcessAlive();
}

std::vector<Exchange> Connection::Close() {
  if (transport_->stdio() != nullptr) return {};
  client_.Close();
  return transport_->Take();
}

// --- ResultBuilder -----------------------------------------------------------------------------

ResultBuilder::ResultBuilder(const RevisionRun& run, std::string_view check_id)
    : check_id_(check_id) {
  result_.revision = run.revision();
  result_.transport = run.kind();
}

std::size_t ResultBuilder::Add(Exchange exchange) {
  result_.exchanges.push_back(std::move(exchange));
  return result_.exchanges.size() - 1;
}

const Verdict& ResultBuilder::Judge(Exchange exchange, const JudgeContext& context,
                                    std::string label) {
  return JudgeAt(Add(std::move(exchange)), context, std::move(label));
}

const Verdict& ResultBuilder::JudgeAt(std::size_t index, const JudgeContext& context,
                                      std::string label) {
  const Exchange& exchange = result_.exchanges[index];
  // The checks judge the process and stdout in checks of their own (checks_stdio.cc), from the
  // run's incident log: no process history here.
  Judgement judgement =
      JudgeCase(Case{exchange.request, check_id_, context}, exchange.observation, std::nullopt);
  if (HungOnPost(exchange, judgement)) JudgeHang(judgement.verdict);
  Merge(std::move(judgement.verdict), index, std::move(label));
  return *best_;
}

void ResultBuilder::Merge(Verdict verdict, std::size_t index, std::string label) {
  if (!label.empty()) variant_notes_.push_back(VariantNote(label, verdict));
  if (!best_ || Severity(verdict.kind) > Severity(best_->kind)) {
    best_ = std::move(verdict);
    result_.judged = index;
  }
}

CheckResult ResultBuilder::Finish() && {
  if (best_) {
    result_.verdict = std::move(*best_);
  } else {
    result_.verdict.check_id = check_id_;
    result_.verdict.kind = VerdictKind::kNotApplicable;
    result_.verdict.notes.push_back("nothing was judged");
  }
  for (std::string& note : variant_notes_) result_.verdict.notes.push_back(std::move(note));
  for (std::string& note : extra_notes_) result_.verdict.notes.push_back(std::move(note));
  return std::move(result_);
}

// --- RevisionRun -------------------------------------------------------------------------------

RevisionRun::RevisionRun(const TransportFactory& connect, const CheckOptions& options,
                         RevisionPlan plan, CheckRun& out, const Progress& progress,
                         Responsiveness& responsiveness)
    : connect_(connect),
      options_(options),
      plan_(std::move(plan)),
      out_(out),
      progress_(progress),
      responsiveness_(responsiveness) {}

std::string RevisionRun::GaveUpReason() {
  return "the last " + std::to_string(kTimeoutsBeforeGivingUp) +
         " requests went unanswered within the time limit";
}

RevisionRun::~RevisionRun() {
  if (main_) main_->Close();
}

JudgeContext RevisionRun::Context(bool capability_declared) const {
  JudgeContext context;
  context.capability_declared = capability_declared;
  context.era_spoken = era_spoken();
  return context;
}

std::unique_ptr<Connection> RevisionRun::Fresh() {
  if (gave_up()) {
    main_failure_ = GaveUpReason();
    return nullptr;
  }
  auto transport = connect_();
  if (!transport.ok()) {
    main_failure_ = "could not connect: " + transport.error().message;
    return nullptr;
  }
  kind_ = (*transport)->kind();
  return std::make_unique<Connection>(std::move(*transport), *this);
}

bool RevisionRun::Start() {
  set_current_check(stateless() ? check::kDiscoverResult : check::kInitialize);
  main_ = Fresh();
  if (!main_) {
    main_broken_ = true;
    return false;
  }
  if (!main_->Open(&first_open_)) {
    main_failure_ =
        "opening " + std::string(ToString(revision())) + " failed: " + main_->OpenFailure();
    main_->Close();
    main_.reset();
    main_broken_ = true;
    return true;
  }
  capabilities_ = main_->client().server_capabilities();
  capabilities_known_ = true;
  session_assigned_ = !main_->transport().session_id().empty();
  return true;
}

Connection* RevisionRun::Main() {
  if (main_broken_) return nullptr;
  if (gave_up()) {
    main_failure_ = GaveUpReason();
    main_broken_ = true;
    return nullptr;
  }
  const bool retired = std::exchange(retire_main_, false);
  if (main_ && !main_->Dead() && !retired) return main_.get();
  // A stdio server that died or stopped answering: start it again so later checks still run.
  const bool died = main_ == nullptr || main_->Dead();
  if (main_) main_->Close();
  main_.reset();
  if (!died) {
    main_ = Fresh();
    if (main_ && main_->Open()) return main_.get();
    main_.reset();
  }
  if (restarts_ == kMaxRestarts) {
    main_failure_ = "the server was restarted " + std::to_string(kMaxRestarts) +
                    " times in this revision and is not restarted again";
    main_broken_ = true;
    return nullptr;
  }
  ++restarts_;
  main_ = Fresh();
  if (main_ && main_->Open()) return main_.get();
  if (main_) {
    main_failure_ = "restarting the server failed: " + main_->OpenFailure();
    main_.reset();
  }
  main_broken_ = true;
  return nullptr;
}

bool RevisionRun::RequireCapability(std::string_view check_id, std::string_view capability) {
  if (!capabilities_known_) {
    ReportUnreachable(check_id);
    return false;
  }
  if (Declares(capability)) return true;
  ReportNotApplicable(check_id,
                      "the server did not declare the " + std::string(capability) + " capability");
  return false;
}

bool RevisionRun::Wants(std::string_view check_id) const {
  if (!Selected(check_id, options_)) return false;
  return plan_.restricted_to.empty() || plan_.restricted_to.contains(check_id);
}

bool RevisionRun::HasRow(std::string_view check_id) const {
  for (const Expectation* row : ExpectationsFor(check_id)) {
    if (row->revisions.Contains(revision()) && Covers(row->transports, kind_)) return true;
  }
  return false;
}

void RevisionRun::Report(CheckResult result) {
  if (!Pending(result.verdict.check_id)) return;
  pending_.erase(result.verdict.check_id);
  out_.results.push_back(std::move(result));
  if (progress_) progress_(out_.results.back());
}

void RevisionRun::Report(ResultBuilder&& builder) { Report(std::move(builder).Finish()); }

void RevisionRun::ReportNotApplicable(std::string_view check_id, std::string reason) {
  CheckResult result;
  result.revision = revision();
  result.transport = kind_;
  result.verdict = NotApplicableVerdict(check_id, revision(), kind_, std::move(reason));
  Report(std::move(result));
}

void RevisionRun::ReportUnreachable(std::string_view check_id) {
  CheckResult result;
  result.revision = revision();
  result.transport = kind_;
  result.verdict = UnreachableVerdict(check_id, revision(), kind_, era_spoken(),
                                      gave_up() ? GaveUpReason() : main_failure_);
  Report(std::move(result));
}

void RevisionRun::ReportPendingUnreachable() {
  const std::set<std::string_view> pending = pending_;
  for (std::string_view check_id : pending) ReportUnreachable(check_id);
}

void RevisionRun::Record(const Exchange& exchange, RecordingTransport& transport, Owed owed) {
  const Observation& observation = exchange.observation;
  if (AnsweredInTime(observation.outcome)) {
    responsiveness_.consecutive_timeouts = 0;
  } else if (TimedOut(observation.outcome) &&
             ++responsiveness_.consecutive_timeouts >= kTimeoutsBeforeGivingUp &&
             !responsiveness_.gave_up) {
    responsiveness_.gave_up = true;
    out_.notes.push_back("gave up on the target in " + std::string(ToString(revision())) + ": " +
                         GaveUpReason() +
                         "; nothing more was sent, so the checks left are UNVERIFIED");
  }
  if (transport.stdio() == nullptr) return;

  if (!observation.stdout_lines.empty()) ++stdout_exchanges_;
  auto append = [](auto& into, const auto& from) {
    into.insert(into.end(), from.begin(), from.end());
  };
  append(stdout_seen_.stdout_lines, observation.stdout_lines);
  append(stdout_seen_.messages, observation.messages);
  append(stdout_seen_.non_json, observation.non_json);
  if (!CheckStdout(observation, revision()).empty() &&
      stdout_offenders_.size() < kMaxStdoutOffenders) {
    stdout_offenders_.push_back(exchange);
  }

  std::optional<Exchange> previous;
  if (last_stdio_serial_ == transport.serial()) previous = last_stdio_exchange_;
  if (ProcessEnded(observation) && !observation.killed_by_mcpfuzz) {
    // Only the first exchange that sees a process gone is about its death.
    if (!transport.death_reported()) {
      transport.set_death_reported();
      ++deaths_seen_;
      if (deaths_.size() < kMaxIncidents) {
        deaths_.push_back({std::string(current_check_), std::move(previous), exchange});
      }
    }
  } else if (observation.outcome == Outcome::kAliveButDeaf && owed == Owed::kReply &&
             deafness_.size() < kMaxIncidents) {
    deafness_.push_back({std::string(current_check_), std::move(previous), exchange});
  }
  last_stdio_exchange_ = exchange;
  last_stdio_serial_ = transport.serial();
}

// --- request surgery ---------------------------------------------------------------------------

void SetRawBody(Request& request, std::string bytes) { request.body = RawBody{std::move(bytes)}; }

Request HarmlessRequest(Connection& connection, const RevisionRun& run) {
  return connection.client().Make(run.stateless() ? "server/discover" : "ping");
}

NamedCall ImpossibleNamedCall(const RevisionRun& run, std::string_view name) {
  if (!run.Declares("tools") && run.Declares("prompts")) {
    return {"prompts/get", {{"name", name}}};
  }
  if (!run.Declares("tools") && run.Declares("resources")) {
    return {"resources/read", {{"uri", "mcpfuzz://" + std::string(name)}}};
  }
  return {"tools/call", {{"name", name}, {"arguments", boost::json::object{}}}};
}

void ReportVariants(RevisionRun& run, std::string_view check_id,
                    const std::vector<Variant>& variants, const JudgeContext& context) {
  if (!run.Pending(check_id)) return;
  run.set_current_check(check_id);
  ResultBuilder result(run, check_id);
  for (const Variant& variant : variants) {
    Connection* main = run.Main();
    if (main == nullptr) {
      if (!result.judged_any()) return run.ReportUnreachable(check_id);
      result.Note("variant \"" + variant.label + "\" was not sent: " + run.MainFailure());
      continue;
    }
    const std::string label = variants.size() > 1 ? variant.label : std::string();
    const Verdict& verdict =
        result.Judge(main->Send(variant.build(*main), variant.owed), context, label);
    // The next variant must not inherit what a wrongly accepted request did to the server.
    if (verdict.kind == VerdictKind::kFail) run.RetireMain();
  }
  run.Report(std::move(result));
}

void ReportVariants(RevisionRun& run, std::string_view check_id,
                    const std::vector<Variant>& variants) {
  ReportVariants(run, check_id, variants, run.Context());
}

void ReportFirstOpen(RevisionRun& run, std::string_view check_id) {
  if (run.first_open().empty()) return run.ReportUnreachable(check_id);
  ResultBuilder result(run, check_id);
  for (const Exchange& exchange : run.first_open()) result.Add(exchange);
  result.JudgeAt(0, run.Context());
  run.Report(std::move(result));
}

std::string DescribeAnswer(const Exchange& exchange) {
  return DescribeReply(ClassifyReply(exchange.request, exchange.observation), exchange.observation);
}

}  // namespace mcpfuzz::checks::detail
