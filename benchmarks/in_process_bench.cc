// In-process throughput of mcpfuzz's own work per case, without any I/O: generating a case
// (per family, and the weighted mix the campaign draws from), judging a recorded answer, and
// the case-file codec. items_per_second is the figure: cases or verdicts per second.

#include <benchmark/benchmark.h>
#include <rapidcheck.h>

#include <boost/json/serialize.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "benchmarks/recorded.h"
#include "generators/registry.h"
#include "model/case_file.h"
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

void Judge(benchmark::State& state) {
  const std::vector<RecordedCase>& recorded = Recorded();
  std::size_t next = 0;
  for (auto _ : state) {
    const RecordedCase& one = recorded[next];
    Verdict verdict = mcpfuzz::Judge(one.generated.check_id, one.generated.request, one.observation,
                                     one.generated.context);
    benchmark::DoNotOptimize(verdict.kind);
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
  benchmark::RegisterBenchmark("judge/recorded", Judge);
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
