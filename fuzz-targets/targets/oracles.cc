// The oracles: every check judges any observation (status, content type, body, outcome) of a
// well-formed request without crashing, the verdict names the check it was asked, and judging
// without a PASS's text (VerdictText::kUnlessPass) changes nothing else.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz-targets/fuzz_data.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcpfuzz;
  fuzzing::FuzzData input({data, size});
  const std::string_view check_id = check::kAll[input.Below(check::kAll.size())];
  const Revision revision = kAllRevisions[input.Below(kAllRevisions.size())];
  const TransportKind transport =
      input.Below(2) == 0 ? TransportKind::kHttp : TransportKind::kStdio;
  constexpr Outcome kOutcomes[] = {Outcome::kOk,
                                   Outcome::kOk,
                                   Outcome::kOk,
                                   Outcome::kTimeout,
                                   Outcome::kExited,
                                   Outcome::kAliveButDeaf,
                                   Outcome::kConnectionReset,
                                   Outcome::kTooLarge};
  constexpr int kStatuses[] = {200, 202, 400, 401, 404, 405, 406, 415, 429, 500};
  const Outcome outcome = kOutcomes[input.Below(std::size(kOutcomes))];
  const int status = kStatuses[input.Below(std::size(kStatuses))];
  const bool sse = input.Below(2) == 1;
  JudgeContext context;
  const std::uint8_t flags = input.Byte();
  context.capability_declared = (flags & 1U) == 0;
  context.era_spoken = (flags & 2U) == 0;
  if ((flags & 4U) != 0) context.argument_name = "message";
  const std::string body(input.Rest());

  const Request request =
      MakeRequest(revision, transport, "tools/call", {{"name", "nope"}, {"arguments", {}}}, 1);
  Observation observation;
  observation.outcome = outcome;
  if (transport == TransportKind::kHttp) {
    observation.http_status = status;
    observation.content_type = sse ? "text/event-stream" : "application/json";
    observation.http_headers = {{"Content-Type", observation.content_type}};
    observation.body = body;
  } else {
    observation.stdout_lines = {body};
  }
  if (auto message = ParseJson(body)) {
    observation.messages.push_back(std::move(*message));
  } else {
    observation.non_json.push_back(body);
  }

  const Verdict verdict = Judge(check_id, request, observation, context);
  if (verdict.check_id != check_id) std::abort();
  if (verdict.kind == VerdictKind::kFail && verdict.findings.empty()) std::abort();
  // Leaving out a PASS's text changes nothing else: the same kind and findings, and every
  // other verdict complete, byte for byte.
  const Verdict terse = Judge(check_id, request, observation, context, VerdictText::kUnlessPass);
  if (verdict.kind != VerdictKind::kPass) {
    if (Summarize(terse) != Summarize(verdict) ||
        terse.observed.excerpt != verdict.observed.excerpt ||
        terse.spec_reference != verdict.spec_reference) {
      std::abort();
    }
  } else if (terse.kind != verdict.kind || terse.findings.size() != verdict.findings.size() ||
             terse.expected.channels != verdict.expected.channels ||
             terse.observed.channel != verdict.observed.channel) {
    std::abort();
  }
  return 0;
}
