#pragma once
// Internal: coverage-guided steering of one lane (CampaignOptions::coverage, kSteer). Cases
// (sequences among them) that ran server code no case ran before, or got an answer of a new
// shape, join a corpus; once it
// has an entry, a mutant of an entry follows each generated case (the generated cases stay
// those of a run without steering, so what they find a steered run finds). The scheduling is
// AFL's, cut to what a live server affords:
//   - a new entry that ran new code is first put through the deterministic stage: the values
//     the server handed out in its reply sent back, one each (a cursor as a cursor, anything
//     else in _meta), then each string of its params at the boundary lengths;
//   - then it has kEnergy havoc mutants of its own, newest entry first (favour recent); a
//     sequence fewer, since each costs a connection, and its mutants edit one of its steps;
//   - after that an entry is drawn by weight: the blocks it found first, over the mutants drawn
//     from it already (favour rare discoveries, and spread the effort), and for a sequence over
//     what its connection costs.
// Every choice follows from the run seed, the case index and what came back before, in case
// order, so a run against the same server sends the same cases.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "generators/generated_case.h"
#include "generators/mutation.h"
#include "model/observation.h"

namespace mcpfuzz::campaign_detail {

/// A case larger than this joins no corpus: the limits family's nestings and long names are
/// about their size, which mutants would only carry along.
inline constexpr std::size_t kMaxParentBytes = 4096;

struct CorpusEntry {
  GeneratedCase generated;
  /// The case index it was sent at, and why it joined.
  std::size_t index = 0;
  std::size_t blocks = 0;         ///< blocks no case ran before, that ran again when re-sent
  bool new_answer = false;        ///< its answer's shape (channel, code) was new
  std::size_t mutants = 0;        ///< mutants drawn from it
  std::vector<std::string> near;  ///< its reply's strings
};

class Steering {
 public:
  Steering(std::uint64_t seed, const GenContext& context);

  /// The mutant after case `index`; nothing while the corpus is empty or every draw was
  /// refused. `sequences`: whether it may be a sequence's (each costs a connection, over stdio
  /// a server start, so the campaign allows one under the stdio sequences' budget).
  std::optional<GeneratedCase> Mutant(std::size_t index, bool sequences);

  /// Everything the server answered feeds the dictionary (strings and keys it wrote).
  void Heard(const Observation& observation);
  /// Whether `shape` (a case's check, channel and code) was never seen: a new shape joins.
  bool NewAnswer(const std::string& shape) { return answers_.insert(shape).second; }
  /// `generated`, sent at `index` and answered with `observation`, joins the corpus.
  /// `ran_new`: it ran blocks no case ran before, `blocks` of which ran again when it was re-sent.
  void Add(const GeneratedCase& generated, std::size_t index, bool ran_new, std::size_t blocks,
           bool new_answer, const Observation& observation);

  const std::vector<CorpusEntry>& corpus() const { return corpus_; }

 private:
  // The entry to draw a havoc mutant from; nothing when no entry may be drawn.
  std::optional<std::size_t> Pick(std::uint64_t draw, bool sequences);

  std::uint64_t seed_;
  gen::MutationContext mutation_;
  std::set<std::string> token_set_;
  std::set<std::string> answers_;
  std::vector<CorpusEntry> corpus_;
  // The deterministic stage's mutants, in order, each with the entry it came from.
  std::deque<std::pair<std::size_t, GeneratedCase>> ready_;
  // Entries with havoc energy, newest last (an entry's may be left while a newer one is drawn:
  // a sequence's, where the case may not draw one).
  std::vector<std::pair<std::size_t, std::size_t>> energy_;
};

}  // namespace mcpfuzz::campaign_detail
