#include "campaign/detail/steering.h"

#include <algorithm>
#include <utility>

#include "campaign/detail/campaign_loop.h"

namespace mcpfuzz::campaign_detail {
namespace {

// Havoc mutants a new entry gets before entries are drawn by weight.
constexpr std::size_t kEnergy = 32;
// A sequence's: each costs a connection (over stdio a server start, the time of some fifty
// ordinary cases; over HTTP a session of its own), so a new one is not worth a run of 32 at
// once, and in the draw by weight it counts this much less (AFL favours the fast inputs too).
constexpr std::size_t kSequenceEnergy = 4;
constexpr std::uint64_t kSequenceCost = 8;
// The dictionary's size: the server's strings, kept first come, first kept.
constexpr std::size_t kMaxTokens = 1024;
// Draws of a havoc mutant before the case goes without one (each draw may be refused).
constexpr int kDraws = 4;

}  // namespace

Steering::Steering(std::uint64_t seed, const GenContext& context) : seed_(seed) {
  mutation_.call_real_tools = context.call_real_tools;
  mutation_.stateless = context.stateless();
  auto keep = [this](const std::string& token) {
    if (token_set_.insert(token).second) mutation_.tokens.push_back(token);
  };
  for (const ToolInfo& tool : context.tools) keep(tool.name);
  for (const std::string& prompt : context.prompts) keep(prompt);
  for (const std::string& uri : context.resource_uris) keep(uri);
}

void Steering::Heard(const Observation& observation) {
  for (const boost::json::value& message : observation.messages) {
    if (mutation_.tokens.size() >= kMaxTokens) return;
    for (std::string& token : gen::TokensOf(message)) {
      if (mutation_.tokens.size() >= kMaxTokens) return;
      if (token_set_.insert(token).second) mutation_.tokens.push_back(std::move(token));
    }
  }
}

void Steering::Add(const GeneratedCase& generated, std::size_t index, bool ran_new,
                   std::size_t blocks, bool new_answer, const Observation& observation) {
  CorpusEntry entry;
  entry.generated = generated;
  entry.index = index;
  entry.blocks = blocks;
  entry.new_answer = new_answer;
  std::vector<gen::HandedOut> handed_out;
  for (const boost::json::value& message : observation.messages) {
    for (gen::HandedOut& handed : gen::HandedOutIn(message))
      handed_out.push_back(std::move(handed));
    for (std::string& token : gen::TokensOf(message)) entry.near.push_back(std::move(token));
  }
  const std::size_t position = corpus_.size();
  corpus_.push_back(std::move(entry));
  // A new answer with no new code is kept to mutate from, but earns no stage of its own.
  if (!ran_new) return;
  const CorpusEntry& added = corpus_.back();
  const std::string label = "case " + std::to_string(index);
  mutation_.near = added.near;
  for (const gen::HandedOut& handed : handed_out) {
    if (auto mutant = gen::WriteBack(added.generated, handed, mutation_, label)) {
      ready_.emplace_back(position, std::move(*mutant));
    }
  }
  for (GeneratedCase& mutant : gen::BoundaryMutants(added.generated, mutation_, label)) {
    ready_.emplace_back(position, std::move(mutant));
  }
  energy_.emplace_back(position, added.generated.steps.empty() ? kEnergy : kSequenceEnergy);
}

std::optional<std::size_t> Steering::Pick(std::uint64_t draw, bool sequences) {
  auto may = [&](std::size_t entry) { return sequences || corpus_[entry].generated.steps.empty(); };
  while (!energy_.empty() && energy_.back().second == 0) energy_.pop_back();
  for (auto charged = energy_.rbegin(); charged != energy_.rend(); ++charged) {
    if (charged->second == 0 || !may(charged->first)) continue;
    --charged->second;
    return charged->first;
  }
  // By weight: (1 + blocks found first) / (1 + mutants drawn), a sequence's over its cost, in
  // fixed point.
  std::vector<std::uint64_t> weights;
  weights.reserve(corpus_.size());
  std::uint64_t total = 0;
  for (std::size_t entry = 0; entry < corpus_.size(); ++entry) {
    const CorpusEntry& drawn = corpus_[entry];
    const std::uint64_t cost = drawn.generated.steps.empty() ? 1 : kSequenceCost;
    if (may(entry)) total += (1 + drawn.blocks) * 1024 / ((1 + drawn.mutants) * cost) + 1;
    weights.push_back(total);
  }
  if (total == 0) return std::nullopt;
  const std::uint64_t at = draw % total;
  return static_cast<std::size_t>(std::upper_bound(weights.begin(), weights.end(), at) -
                                  weights.begin());
}

std::optional<GeneratedCase> Steering::Mutant(std::size_t index, bool sequences) {
  if (corpus_.empty()) return std::nullopt;
  if (!ready_.empty()) {
    auto [entry, mutant] = std::move(ready_.front());
    ready_.pop_front();
    ++corpus_[entry].mutants;
    return std::move(mutant);
  }
  std::uint64_t draw = SplitMix64(CaseSeed(seed_, index) ^ 0x4841'564fULL);
  for (int attempt = 0; attempt < kDraws; ++attempt, draw = SplitMix64(draw)) {
    const std::optional<std::size_t> chosen = Pick(draw, sequences);
    if (!chosen) return std::nullopt;
    CorpusEntry& entry = corpus_[*chosen];
    const CorpusEntry& donor = corpus_[SplitMix64(draw) % corpus_.size()];
    mutation_.near = entry.near;
    const std::string label = "case " + std::to_string(entry.index);
    auto mutant = entry.generated.steps.empty()
                      ? gen::Mutate(entry.generated, &donor.generated, mutation_,
                                    SplitMix64(draw ^ 0x1ULL), label)
                      : gen::MutateSequence(entry.generated, &donor.generated, mutation_,
                                            SplitMix64(draw ^ 0x1ULL), label);
    if (mutant) {
      ++entry.mutants;
      return mutant;
    }
  }
  return std::nullopt;
}

}  // namespace mcpfuzz::campaign_detail
