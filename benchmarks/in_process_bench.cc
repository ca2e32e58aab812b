// In-process throughput of mcpfuzz's own work per case, without any I/O: generating a case
// (per family, and the weighted mix the campaign draws from), judging a recorded answer, and
// the case-file codec. items_per_second is the figure: cases or verdicts per second.

#include <benchmark/benchmark.h>
#include <rapidcheck.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "benchmarks/recorded.h"
#include "generators/registry.h"
#include "model/case_file.h"
#include "oracles/judgement.h"
#include "oracles/oracle.h"

namespace mcpfuzz::bench {
namespace {

// Draws cases the way the campaign does: a fresh seed per case and the size cycling 0..100.
void Generate(benchmark::State& state, const rc::Gen<GeneratedCase>& generator) {
  std::uint64_t seed = 0;
  std::int64_t failures = 0;
  for (auto _ : state) {
    try {
      GeneratedCase generated = generator(rc::Random(seed), static_cast<int>(seed % 101)).value();
      benchmark::DoNotOptimize(generated.request.body);
    } catch (...) {
      ++failures;
    }
    ++seed;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["failures"] = static_cast<double>(failures);
}

// The recorded cases as the reference server answered them, and as a broken server would have:
// every reply replaced by a line that is not JSON, which fails each case whose row asserts a
// channel. Those that do FAIL are kept.
std::vector<RecordedCase> FailingCases() {
  std::vector<RecordedCase> failing;
  for (RecordedCase one : Recorded()) {
    one.observation.messages.clear();
    one.observation.non_json = {"<html>Internal error</html>"};
    one.observation.body = one.observation.non_json.front();
    one.observation.stdout_lines = one.observation.non_json;
    const Verdict verdict = mcpfuzz::Judge(one.generated.check_id, one.generated.request,
                                           one.observation, one.generated.context);
    if (verdict.kind == VerdictKind::kFail) failing.push_back(std::move(one));
  }
  return failing;
}

void Judge(benchmark::State& state, const std::vector<RecordedCase>& cases, VerdictText text) {
  std::size_t next = 0;
  std::int64_t passed = 0;
  for (auto _ : state) {
    const RecordedCase& one = cases[next];
    Verdict verdict = mcpfuzz::Judge(one.generated.check_id, one.generated.request, one.observation,
                                     one.generated.context, text);
    passed += verdict.kind == VerdictKind::kPass ? 1 : 0;
    benchmark::DoNotOptimize(verdict.kind);
    next = (next + 1) % cases.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["cases"] = static_cast<double>(cases.size());
  state.counters["pass_share"] = static_cast<double>(passed) /
                                 static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
}

// The whole judgement of an exchange as the fuzz targets reach it (oracles/judgement.h: the
// verdict, the finding rule, the signature of a finding). JudgeCase takes the observation by
// value, which the harness moves in; here each iteration copies the recorded one, a cost
// observation/copy measures alone.
void Judgement(benchmark::State& state, const std::vector<RecordedCase>& cases) {
  std::size_t next = 0;
  std::int64_t findings = 0;
  for (auto _ : state) {
    const RecordedCase& one = cases[next];
    mcpfuzz::Judgement judged = JudgeCase(one.generated, one.observation, std::nullopt,
                                          FindingRule::kHarness, VerdictText::kUnlessPass);
    findings += judged.finding ? 1 : 0;
    benchmark::DoNotOptimize(judged.verdict.kind);
    next = (next + 1) % cases.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["finding_share"] =
      static_cast<double>(findings) /
      static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
}

void ObservationCopy(benchmark::State& state) {
  const std::vector<RecordedCase>& recorded = Recorded();
  std::size_t next = 0;
  for (auto _ : state) {
    Observation copy = recorded[next].observation;
    benchmark::DoNotOptimize(copy.outcome);
    next = (next + 1) % recorded.size();
  }
  state.SetItemsProcessed(state.iterations());
}

void WireBody(benchmark::State& state) {
  const std::vector<RecordedCase>& recorded = Recorded();
  std::size_t next = 0;
  for (auto _ : state) {
    std::string body = recorded[next].generated.request.WireBody();
    benchmark::DoNotOptimize(body);
    next = (next + 1) % recorded.size();
  }
  state.SetItemsProcessed(state.iterations());
}

void CaseFileEncode(benchmark::State& state) {
  const std::vector<RecordedCase>& recorded = Recorded();
  std::size_t next = 0;
  for (auto _ : state) {
    std::string text = boost::json::serialize(RequestToJson(recorded[next].generated.request));
    benchmark::DoNotOptimize(text);
    next = (next + 1) % recorded.size();
  }
  state.SetItemsProcessed(state.iterations());
}

void CaseFileDecode(benchmark::State& state) {
  std::vector<std::string> texts;
  for (const RecordedCase& one : Recorded()) {
    texts.push_back(boost::json::serialize(RequestToJson(one.generated.request)));
  }
  std::size_t next = 0;
  for (auto _ : state) {
    auto request = RequestFromJson(*ParseJson(texts[next]));
    benchmark::DoNotOptimize(request);
    next = (next + 1) % texts.size();
  }
  state.SetItemsProcessed(state.iterations());
}

void RegisterAll() {
  for (const NamedContext& named : Contexts()) {
    benchmark::RegisterBenchmark(("generate/mix/" + named.name).c_str(), Generate,
                                 gen::AnyCase(named.context, gen::DefaultFamilies()));
  }
  // Each family in the first context it applies to.
  for (const gen::FamilyInfo& family : gen::AllFamilies()) {
    for (const NamedContext& named : Contexts()) {
      if (!family.applies(named.context)) continue;
      benchmark::RegisterBenchmark(
          ("generate/" + std::string(family.name) + "/" + named.name).c_str(), Generate,
          family.generator(named.context));
      break;
    }
  }
  // judge/recorded: the conformant server's answers (all PASS, see pass_share) with full text,
  // as `check` and `fuzz` judge them; /unless-pass: as the fuzz targets judge them
  // (VerdictText::kUnlessPass). judge/fail: broken answers, every verdict a FAIL.
  static const std::vector<RecordedCase> failing = FailingCases();
  benchmark::RegisterBenchmark("judge/recorded", Judge, Recorded(), VerdictText::kAlways);
  benchmark::RegisterBenchmark("judge/recorded/unless-pass", Judge, Recorded(),
                               VerdictText::kUnlessPass);
  benchmark::RegisterBenchmark("judge/fail", Judge, failing, VerdictText::kAlways);
  benchmark::RegisterBenchmark("judgement/recorded/harness", Judgement, Recorded());
  benchmark::RegisterBenchmark("judgement/fail/harness", Judgement, failing);
  benchmark::RegisterBenchmark("observation/copy", ObservationCopy);
  benchmark::RegisterBenchmark("request/wire-body", WireBody);
  benchmark::RegisterBenchmark("case-file/encode", CaseFileEncode);
  benchmark::RegisterBenchmark("case-file/decode", CaseFileDecode);
}

}  // namespace
}  // namespace mcpfuzz::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  mcpfuzz::bench::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
