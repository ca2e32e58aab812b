#include "model/reproducer.h"

#include <string>
#include <vector>

#include "checks/checks.h"

namespace mcpfuzz::checks {

std::string Reproducer(const CheckResult& result, const ReproducerTarget& target) {
  if (result.judged >= result.exchanges.size()) return {};
  if (!result.replay.empty()) return SequenceReproducer(result.replay, target);
  // The requests the judged answer needs, in order, the judged one last: those that opened a
  // connection of the check's own (one_connection), those sent after its opening
  // (history_from), or the judged request alone.
  const std::size_t from = result.history_from.value_or(result.one_connection ? 0 : result.judged);
  std::vector<Request> requests;
  for (std::size_t index = from; index <= result.judged; ++index) {
    requests.push_back(result.exchanges[index].request);
  }
  return result.one_connection && !result.history_from ? SequenceReproducer(requests, target)
                                                       : mcpfuzz::Reproducer(requests, target);
}

}  // namespace mcpfuzz::checks
