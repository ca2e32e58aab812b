// The serial case loop: one case after the other, in case order, on the lane the index falls
// to. Over HTTP the next case is drawn ahead on a thread of its own (prefetch.cc); the cases,
// verdicts and findings are the same either way.

#include "campaign/detail/campaign_loop.h"

namespace mcpfuzz::campaign_detail {

void Campaign::RunSerial() {
  for (std::size_t position = 0; position < indices_.Count() && !lanes_.empty(); ++position) {
    if (StopNow()) break;
    const std::size_t index = indices_.At(position);
    Lane& lane = lanes_[index % lanes_.size()];
    if (lane.session->lost()) {
      DropLostLane(index % lanes_.size());
      continue;
    }
    RunCase(lane, index);
    if (lane.steering && !StopNow()) RunMutant(lane, index);
    Report(/*force=*/false);
  }
}

}  // namespace mcpfuzz::campaign_detail
