#include "checks/detail/run.h"

#include <algorithm>
#include <boost/json.hpp>
#include <memory>
#include <utility>
#include <vector>

#include "model/channel.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/expectations.h"
#include "oracles/judgement.h"
#include "oracles/stdio_checks.h"

namespace mcpfuzz::checks::detail {
namespace {

std::string VariantNote(const std::string& label, const Verdict& verdict) {
  std::string note = label + ": " + std::string(ToString(verdict.kind)) + ", got " +
                     DescribeObserved(verdict.observed);
  if (!verdict.findings.empty()) note += "; " + verdict.findings.front().text;
  return note;
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
  JudgeContext in_session = context;
  if (in_session.session_id.empty()) in_session.session_id = exchange.session_id;
  Judgement judgement = JudgeCase(Case{exchange.request, check_id_, std::move(in_session)},
                                  exchange.observation, std::nullopt);
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
  if (auto history = history_from_.find(result_.judged); history != history_from_.end()) {
    result_.history_from = history->second;
  }
  if (auto replay = replay_.find(result_.judged); replay != replay_.end()) {
    result_.replay = std::move(replay->second);
  }
  return std::move(result_);
}

// --- RevisionRun -------------------------------------------------------------------------------

RevisionRun::RevisionRun(TargetLink& link, const CheckOptions& options, RevisionPlan plan,
                         CheckRun& out, const Progress& progress)
    : link_(link),
      options_(options),
      plan_(std::move(plan)),
      out_(out),
      progress_(progress),
      incidents_(plan_.revision),
      connections_(link, plan_.revision) {
  link_.set_observer(&incidents_);
}

RevisionRun::~RevisionRun() {
  for (const std::unique_ptr<Connection>& connection : done_with_) connection->Close();
  link_.set_observer(nullptr);
}

JudgeContext RevisionRun::Context(bool capability_declared) const {
  JudgeContext context;
  context.capability_declared = capability_declared;
  context.era_spoken = era_spoken();
  return context;
}

bool RevisionRun::Start() {
  set_current_check(stateless() ? check::kDiscoverResult : check::kInitialize);
  const bool connected = connections_.Start(std::move(plan_.probed));
  if (!out_.server_info) out_.server_info = connections_.server_info();
  return connected;
}

bool RevisionRun::RequireCapability(std::string_view check_id, std::string_view capability) {
  if (!capabilities_known()) {
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
  return detail::HasRow(check_id, revision(), kind());
}

bool HasRow(std::string_view check_id, Revision revision, TransportKind kind) {
  for (const Expectation* row : ExpectationsFor(check_id)) {
    if (row->revisions.Contains(revision) && Covers(row->transports, kind)) return true;
  }
  return false;
}

bool AheadView::DeclaresFlag(std::string_view capability, std::string_view flag) const {
  return supposing() || mcpfuzz::DeclaresFlag(run_->capabilities(), capability, flag);
}

void RevisionRun::Report(CheckResult result) {
  if (!Pending(result.verdict.check_id)) return;
  pending_.erase(result.verdict.check_id);
  // Judged: the run keeps a constant per exchange, however large the replies were.
  for (Exchange& exchange : result.exchanges) KeepExcerpts(exchange.observation);
  out_.results.push_back(std::move(result));
  if (progress_) progress_(out_.results.back());
}

void RevisionRun::Report(ResultBuilder&& builder) { Report(std::move(builder).Finish()); }

namespace {

// The result a repeated request belongs to: the one that judged that exchange, else one that
// kept it. Checks share ids across connections, so the request's bytes are compared too.
CheckResult* ResultOf(std::vector<CheckResult>& results, Revision revision,
                      const Request& request) {
  auto same = [&](const Exchange& exchange) {
    return exchange.request.RpcId() == request.RpcId() &&
           exchange.request.WireBody() == request.WireBody();
  };
  CheckResult* kept = nullptr;
  for (CheckResult& result : results) {
    if (result.revision != revision) continue;
    if (result.judged < result.exchanges.size() && same(result.exchanges[result.judged])) {
      return &result;
    }
    if (kept == nullptr && std::any_of(result.exchanges.begin(), result.exchanges.end(), same)) {
      kept = &result;
    }
  }
  return kept;
}

}  // namespace

void RevisionRun::JudgeRepeats() {
  // Found first: a result amended below keeps a later request's exchange, which must not make
  // it the owner of that request's own repeat.
  std::vector<std::pair<CheckResult*, const Repeat*>> owned;
  for (const Repeat& repeat : incidents_.repeats()) {
    if (CheckResult* result = ResultOf(out_.results, revision(), repeat.answered.request)) {
      owned.emplace_back(result, &repeat);
    }
  }
  for (auto [result, repeat] : owned) {
    std::optional<Finding> finding = CheckRepeatedResponse(repeat->answered.request, repeat->reply);
    Verdict& verdict = result->verdict;
    const bool known =
        !finding || std::any_of(verdict.findings.begin(), verdict.findings.end(),
                                [&](const Finding& old) { return old.text == finding->text; });
    if (known) continue;
    if (Severity(EffectOf(finding->strength)) > Severity(verdict.kind)) {
      verdict.kind = EffectOf(finding->strength);
      verdict.strength = finding->strength;
      verdict.unverified_reason = UnverifiedReason::kNone;
    }
    verdict.findings.push_back(std::move(*finding));
    verdict.notes.push_back(
        "the second response came after the exchange had ended, with the answer to a later "
        "request");
    // The reproducer sends the request, then the one its repeat came with.
    result->exchanges.push_back(repeat->answered);
    result->history_from = result->exchanges.size() - 1;
    result->exchanges.push_back(repeat->seen_in);
    result->judged = result->exchanges.size() - 1;
    result->one_connection = false;
    result->replay.clear();
  }
}

void RevisionRun::ReportNotApplicable(std::string_view check_id, std::string reason) {
  CheckResult result;
  result.revision = revision();
  result.transport = kind();
  result.verdict = NotApplicableVerdict(check_id, revision(), kind(), std::move(reason));
  Report(std::move(result));
}

void RevisionRun::ReportUnreachable(std::string_view check_id) {
  CheckResult result;
  result.revision = revision();
  result.transport = kind();
  result.verdict = UnreachableVerdict(check_id, revision(), kind(), era_spoken(),
                                      gave_up() ? TargetLink::GaveUpReason() : MainFailure());
  Report(std::move(result));
}

void RevisionRun::ReportPendingUnreachable() {
  const std::set<std::string_view> pending = pending_;
  for (std::string_view check_id : pending) ReportUnreachable(check_id);
}

// --- request surgery ---------------------------------------------------------------------------

void SetRawBody(Request& request, std::string bytes) { request.body = RawBody{std::move(bytes)}; }

Request HarmlessRequest(Connection& connection, const RevisionRun& run) {
  return connection.client().Make(HarmlessMethod(run.revision()));
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

namespace {

// Judges `exchange`, made on `connection`. A FAIL or WARN that rests on a silence learnt before
// the full limit passed is sent again alone on it first.
const Verdict& JudgeVariant(ResultBuilder& result, Connection& connection, Exchange exchange,
                            std::string_view check_id, const JudgeContext& context,
                            std::string label) {
  if (connection.session().SilenceCutShort(exchange.observation)) {
    const Judgement judged = JudgeCase(Case{exchange.request, std::string(check_id), context},
                                       exchange.observation, std::nullopt);
    if (judged.verdict.kind == VerdictKind::kFail || judged.verdict.kind == VerdictKind::kWarn) {
      const Request request = exchange.request;
      result.Add(std::move(exchange));
      exchange = connection.SendAlone(request);
    }
  }
  return result.Judge(std::move(exchange), context, std::move(label));
}

}  // namespace

void ReportVariants(RevisionRun& run, std::string_view check_id,
                    const std::vector<Variant>& variants, const JudgeContext& context) {
  if (!run.Pending(check_id)) return;
  run.set_current_check(check_id);
  ResultBuilder result(run, check_id);
  for (const Variant& variant : variants) {
    const std::string label = variants.size() > 1 ? variant.label : std::string();
    if (std::optional<SentAhead::Sent> alone =
            run.connections().TakeAlone(check_id, variant.label)) {
      // Its process is ended with it: nothing later is sent where it was.
      JudgeVariant(result, *alone->connection, std::move(alone->exchange), check_id, context,
                   label);
      continue;
    }
    Connection* main = run.Main();
    if (main == nullptr) {
      if (!result.judged_any()) return run.ReportUnreachable(check_id);
      result.Note("variant \"" + variant.label + "\" was not sent: " + run.MainFailure());
      continue;
    }
    const Verdict& verdict = JudgeVariant(
        result, *main, main->Send(variant.build(*main), variant.owed), check_id, context, label);
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
  const std::vector<Exchange>& first_open = run.connections().first_open();
  if (first_open.empty()) return run.ReportUnreachable(check_id);
  ResultBuilder result(run, check_id);
  for (const Exchange& exchange : first_open) result.Add(exchange);
  result.JudgeAt(0, run.Context());
  run.Report(std::move(result));
}

void ReportOnOwnConnection(RevisionRun& run, std::string_view check_id,
                           const std::function<void(Connection&, ResultBuilder&)>& steps) {
  std::vector<Exchange> opening;
  bool opened = false;
  std::unique_ptr<Connection> fresh = run.FreshOpened(opening, opened);
  if (!fresh || !opened || fresh->Dead()) return run.ReportUnreachable(check_id);
  ResultBuilder result(run, check_id);
  for (Exchange& exchange : opening) result.Add(std::move(exchange));
  steps(*fresh, result);
  run.CloseLater(std::move(fresh));
  result.OnOneConnection();
  run.Report(std::move(result));
}

bool Served(const Exchange& exchange) {
  return ClassifyReply(exchange.request, exchange.observation).channel == Channel::kSuccess;
}

std::string DescribeAnswer(const Exchange& exchange) {
  return DescribeReply(ClassifyReply(exchange.request, exchange.observation), exchange.observation);
}

}  // namespace mcpfuzz::checks::detail
