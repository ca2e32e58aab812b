#include "model/reproducer.h"

#include <string>
#include <vector>

#include "checks/checks.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks {
namespace {

// A stdio server gone deaf shows it only in what it leaves unanswered after the line that
// deafened it: a request it never answers could as well be one it dropped. So the reproducer
// of stdio.keeps-answering sends a sentinel ping behind, as the run did and as a fuzz finding's
// reproducer does: a deaf server leaves both unanswered, a conformant one answers the ping.
bool NeedsSentinel(const CheckResult& result, const ReproducerTarget& target) {
  return result.verdict.check_id == check::kKeepsAnswering &&
         target.kind == TransportKind::kStdio && result.transport == TransportKind::kStdio;
}

}  // namespace

std::string Reproducer(const CheckResult& result, const ReproducerTarget& target) {
  if (result.judged >= result.exchanges.size()) return {};
  const bool sentinel = NeedsSentinel(result, target);
  if (!result.replay.empty()) {
    std::vector<Request> steps = result.replay;
    if (sentinel) steps.push_back(SentinelAfter(steps, result.revision, TransportKind::kStdio));
    return SequenceReproducer(steps, target);
  }
  // The requests the judged answer needs, in order, the judged one last: those that opened a
  // connection of the check's own (one_connection), those sent after its opening
  // (history_from), or the judged request alone.
  const std::size_t from = result.history_from.value_or(result.one_connection ? 0 : result.judged);
  std::vector<Request> requests;
  for (std::size_t index = from; index <= result.judged; ++index) {
    requests.push_back(result.exchanges[index].request);
  }
  if (sentinel) {
    requests.push_back(SentinelAfter(requests, result.revision, TransportKind::kStdio));
  }
  return result.one_connection && !result.history_from ? SequenceReproducer(requests, target)
                                                       : mcpfuzz::Reproducer(requests, target);
}

}  // namespace mcpfuzz::checks
