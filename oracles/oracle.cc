#include "oracles/oracle.h"

#include <algorithm>
#include <boost/json.hpp>
#include <optional>

#include "model/channel.h"
#include "oracles/check_ids.h"
#include "oracles/detail/batch.h"
#include "oracles/detail/envelope.h"
#include "oracles/detail/judge_aspects.h"
#include "oracles/detail/related_notifications.h"
#include "oracles/detail/request_json.h"
#include "oracles/detail/table.h"
#include "oracles/expectations.h"
#include "oracles/judgement.h"
#include "oracles/stdio_checks.h"

namespace mcpfuzz {
namespace {

using oracles_detail::AnalyzeBatch;
using oracles_detail::BatchAnswer;
using oracles_detail::Judging;

// A 401 or 429 is the server's own answer only where the row names that very status.
bool ExpectsExactly(const StatusRule& rule, int status) {
  auto exact = [status](const StatusRange& range) {
    return range.low == status && range.high == status;
  };
  return std::any_of(rule.conformant.begin(), rule.conformant.end(), exact) ||
         std::any_of(rule.tolerated.begin(), rule.tolerated.end(), exact);
}

// The exchanges whose reply channel the rows judge: a complete reply, or a request dropped
// (silence, proven by the sentinel answered after it: Channel::kNoReply).
bool Answered(Outcome outcome) { return outcome == Outcome::kOk || outcome == Outcome::kDropped; }

std::string FirstContentText(const boost::json::object& result) {
  const auto* content = result.if_contains("content");
  if (content == nullptr || !content->is_array()) return {};
  for (const auto& block : content->as_array()) {
    if (!block.is_object()) continue;
    const auto* text = block.as_object().if_contains("text");
    if (text != nullptr && text->is_string()) return std::string(text->as_string());
  }
  return {};
}

// The serialized `message` as far as an excerpt needs it: one byte past the limit tells that it
// was cut and where. A long result (a whole tools/list) is not serialized only to be cut.
std::string SerializedStart(const boost::json::value& message) {
  boost::json::serializer serializer;
  serializer.reset(&message);
  std::string text;
  char buffer[kExcerptLimit + 1];
  while (!serializer.done() && text.size() <= kExcerptLimit) {
    const std::string_view piece = serializer.read(buffer, sizeof buffer);
    text.append(piece.data(), piece.size());
  }
  return text;
}

std::string ReplyExcerpt(const Observation& observation, const Reply& reply) {
  if (reply.channel == Channel::kTransportFailure) return Excerpt(observation.detail);
  if (reply.message && reply.message->is_object()) {
    const auto& object = reply.message->as_object();
    if (const auto* error = object.if_contains("error"); error != nullptr && error->is_object()) {
      const auto* message = error->as_object().if_contains("message");
      if (message != nullptr && message->is_string()) return Excerpt(message->as_string());
    }
    if (const auto* result = object.if_contains("result");
        result != nullptr && result->is_object()) {
      std::string text = FirstContentText(result->as_object());
      if (!text.empty()) return Excerpt(text);
    }
  }
  if (reply.message) return Excerpt(SerializedStart(*reply.message));
  if (!observation.non_json.empty()) return Excerpt(observation.non_json.front());
  return Excerpt(observation.body);
}

// Everything of the observation but the excerpt, which Describe adds.
ObservedAnswer Observe(const Observation& observation, const Reply& reply) {
  ObservedAnswer observed;
  observed.outcome = observation.outcome;
  observed.channel = reply.channel;
  observed.code = reply.error_code;
  observed.http_status = observation.http_status;
  return observed;
}

// The row's expectation without its text, which Describe adds.
ExpectedAnswer Expect(const Expectation& row, TransportKind transport) {
  const ExpectedAnswer* described = oracles_detail::TableRowExpected(row, transport);
  if (described == nullptr) return DescribeExpected(row, transport);
  ExpectedAnswer expected;
  expected.channels = described->channels;
  expected.tolerated = described->tolerated;
  expected.codes = described->codes;
  expected.forbidden_codes = described->forbidden_codes;
  expected.http_statuses = described->http_statuses;
  expected.tolerated_http_statuses = described->tolerated_http_statuses;
  expected.data_members = described->data_members;
  return expected;
}

// What a verdict says for people, beyond its kind and the notes and findings of the judgement.
struct Describer {
  const Expectation* row;
  TransportKind transport;
  const Observation& observation;
  const Reply& reply;

  Verdict operator()(Verdict verdict) const {
    verdict.observed.excerpt = ReplyExcerpt(observation, reply);
    if (row != nullptr) {
      const ExpectedAnswer* described = oracles_detail::TableRowExpected(*row, transport);
      if (described != nullptr) verdict.expected.text = described->text;
      verdict.spec_reference = std::string(row->reference);
    }
    return verdict;
  }
};

// S1 (stdout carries only JSON-RPC messages, one per line) binds a stdio server in every
// revision, so what its stdout carried breaks it whether or not a revision was spoken: a
// server that floods stdout with "y" or pretty-prints its replies may never complete a
// handshake mcpfuzz recognises. Only a MUST broken stands without a revision; clean stdout,
// or a blank line (a SHOULD), says nothing about a target that speaks no revision.
bool BreaksStdoutWithoutEra(const Expectation& row, const Request& request,
                            const Observation& observation) {
  if (row.shape != ShapeCheck::kStdoutOnlyJsonRpc) return false;
  const std::vector<Finding> found = CheckStdout(observation, request.revision);
  return std::any_of(found.begin(), found.end(),
                     [](const Finding& finding) { return finding.strength == Strength::kMust; });
}

Verdict Finish(const Describer& describe, Verdict verdict, VerdictKind kind,
               UnverifiedReason reason, std::string note) {
  verdict.kind = kind;
  verdict.unverified_reason = reason;
  if (!note.empty()) verdict.notes.push_back(std::move(note));
  return describe(std::move(verdict));
}

}  // namespace

Verdict Judge(std::string_view check_id, const Request& request, const Observation& observation,
              const JudgeContext& context, VerdictText text) {
  const oracles_detail::RequestJson body(request);
  const Reply reply =
      ClassifyReply(Answered(observation.outcome) ? body.id() : std::nullopt, observation);
  Verdict verdict;
  verdict.check_id = std::string(check_id);
  verdict.observed = Observe(observation, reply);

  const Expectation* row = FindExpectation(check_id, request);
  const Describer describe{row, request.transport, observation, reply};
  if (row == nullptr) {
    const std::string why = check::IsKnown(check_id)
                                ? "no expectation for this check in " +
                                      std::string(ToString(request.revision)) + " over " +
                                      std::string(ToString(request.transport))
                                : "unknown check id";
    return Finish(describe, std::move(verdict), VerdictKind::kNotApplicable,
                  UnverifiedReason::kNone, why);
  }
  verdict.strength = oracles_detail::PrimaryStrength(*row);
  verdict.expected = Expect(*row, request.transport);

  const bool judged_without_era =
      !context.era_spoken && BreaksStdoutWithoutEra(*row, request, observation);
  if (judged_without_era) {
    verdict.notes.push_back("the target does not speak " + std::string(ToString(request.revision)) +
                            ", but stdout framing binds every revision: judged from what "
                            "stdout carried");
  } else if (!context.era_spoken) {
    return Finish(describe, std::move(verdict), VerdictKind::kUnverified,
                  UnverifiedReason::kEraNotSpoken,
                  "the target does not speak " + std::string(ToString(request.revision)));
  }
  if (row->capability == CapabilityRequirement::kDeclared && !context.capability_declared) {
    return Finish(describe, std::move(verdict), VerdictKind::kNotApplicable,
                  UnverifiedReason::kNone, "the target did not declare what this check exercises");
  }
  if (row->capability == CapabilityRequirement::kUndeclared && context.capability_declared) {
    return Finish(describe, std::move(verdict), VerdictKind::kNotApplicable,
                  UnverifiedReason::kNone,
                  "the target declared the capability, so nothing unadvertised was probed");
  }
  if (row->shape == ShapeCheck::kSameAnswerAsRandomName && !context.random_name_answer) {
    return Finish(describe, std::move(verdict), VerdictKind::kNotApplicable,
                  UnverifiedReason::kNone, "no answer to a random name to compare with");
  }
  const bool batch_row = row->shape == ShapeCheck::kBatchResponses ||
                         row->shape == ShapeCheck::kBatchProcessingTolerated;
  const BatchAnswer batch = batch_row ? AnalyzeBatch(request, observation) : BatchAnswer{};
  if (batch_row && !batch.is_batch) {
    return Finish(describe, std::move(verdict), VerdictKind::kNotApplicable,
                  UnverifiedReason::kNone, "the request is not a batch");
  }
  if (row->closed_without_answer && request.transport == TransportKind::kHttp &&
      observation.outcome == Outcome::kConnectionReset && observation.http_status == 0) {
    verdict.findings.push_back(
        {Aspect::kChannel, *row->closed_without_answer,
         "the server closed the connection without an HTTP response; a refusal owes HTTP 413 (or "
         "another 4xx) or a JSON-RPC error"});
    verdict.strength = *row->closed_without_answer;
    return Finish(describe, std::move(verdict), EffectOf(*row->closed_without_answer),
                  UnverifiedReason::kNone,
                  std::string(ToString(observation.outcome)) + ": " + observation.detail);
  }
  if (!Answered(observation.outcome) &&
      !(row->judges_transport_failure && ServerSideFailure(observation.outcome))) {
    return Finish(describe, std::move(verdict), VerdictKind::kUnverified,
                  UnverifiedReason::kTransportError,
                  std::string(ToString(observation.outcome)) + ": " + observation.detail);
  }
  if (request.transport == TransportKind::kHttp) {
    const int status = observation.http_status;
    if ((status == 401 || status == 403) && !ExpectsExactly(row->http_status, status)) {
      return Finish(describe, std::move(verdict), VerdictKind::kUnverified,
                    UnverifiedReason::kCredentialRequired,
                    "HTTP " + std::to_string(status) + ": turned away before the check");
    }
    if ((status == 429 || status == 503) && !ExpectsExactly(row->http_status, status)) {
      return Finish(describe, std::move(verdict), VerdictKind::kUnverified,
                    UnverifiedReason::kRateLimited, "HTTP " + std::to_string(status));
    }
  }

  const Judging c{*row, request, observation, reply, context};
  std::vector<Finding>& findings = verdict.findings;
  const bool batch_judged = batch_row && oracles_detail::JudgeBatch(c, batch, findings);
  if (!batch_judged && oracles_detail::JudgeChannel(c, findings, verdict.notes)) {
    oracles_detail::JudgeCode(c, findings);
    oracles_detail::JudgeData(c, findings);
  }
  oracles_detail::JudgeStatus(c, findings);
  oracles_detail::JudgeShape(c, findings, verdict.notes);
  // The process-level checks judge the process, not a reply; a batch has no single reply.
  // Rows that assert no channel judge HTTP-level rejections by their status alone: the body of
  // such a 4xx is unspecified and MAY be an error without id (tables §9b H5, H17, §10 X18,
  // §12.16), so its envelope is not the server's answer to the request.
  const bool status_only_rejection = (row->channel.conformant.empty() ||
                                      row->channel.http_rejection == HttpRejection::kStatusOnly) &&
                                     c.Http4xx();
  const bool judges_reply = !batch_judged && !status_only_rejection &&
                            row->shape != ShapeCheck::kStdoutOnlyJsonRpc &&
                            row->shape != ShapeCheck::kProcessAlive;
  if (judges_reply) {
    // Copied only for the rare legacy row: Judge is on the fuzz loop's hot path.
    std::optional<Request> as_legacy;
    if (row->legacy_request) {
      as_legacy = request;
      as_legacy->revision = Revision::k2025_03_26;
    }
    std::vector<Finding> envelope = oracles_detail::CheckReplyEnvelope(
        as_legacy ? *as_legacy : request, body, observation, reply);
    findings.insert(findings.end(), envelope.begin(), envelope.end());
    std::vector<Finding> related =
        oracles_detail::CheckRelatedNotifications(request, observation, context);
    findings.insert(findings.end(), related.begin(), related.end());
  }

  // Every body a server sends is read for leaks, not only JSON-RPC error text (issue #26: an
  // HTML 413 page with a stack trace and server paths passed).
  std::vector<Finding> leaks = oracles_detail::CheckNonJsonLeaks(observation);
  findings.insert(findings.end(), leaks.begin(), leaks.end());

  verdict.kind = VerdictKind::kPass;
  for (const Finding& finding : findings) {
    const VerdictKind effect = EffectOf(finding.strength);
    if (effect == VerdictKind::kFail ||
        (effect == VerdictKind::kWarn && verdict.kind == VerdictKind::kPass)) {
      verdict.kind = effect;
      verdict.strength = finding.strength;
    }
  }
  if (verdict.kind == VerdictKind::kPass && text == VerdictText::kUnlessPass) return verdict;
  return describe(std::move(verdict));
}

}  // namespace mcpfuzz
