// Stdio pipelining: RunSerial's outcome at the server's own rate. When the walk in case order
// reaches a case of a lane with nothing sent ahead, the lane's next cases with ids a server can
// echo are written back to back with one sentinel behind them; each is then judged when the
// walk reaches it, exactly as if it had just been sent alone. What would make the outcome
// differ from one-at-a-time sending sends the cases again one at a time:
// - a window whose answers cannot be attributed (ambiguous), or in which the server died,
//   went deaf or did not answer the sentinel: its cases go alone, on a fresh server;
// - a finding re-sent and shrunk on the lane: the re-sends and shrinking restart the server,
//   so the cases written behind it on the old one are written again on the new one.
// Checks whose cases were answered in a way no pipeline can place go alone on that lane (learnt
// from the server's answers, so the same for the same seed).
// One difference remains: a case written ahead is sent even when cases of its check on
// another lane go unanswered meanwhile until it is skipped (it is then not judged).

#include <algorithm>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "campaign/detail/campaign_loop.h"

namespace mcpfuzz::campaign_detail {
namespace {

// After this many windows that had to be sent again one at a time, a lane sends one case at a
// time: a server whose answers cannot be attributed (stray output, replies without ids) in
// ways the checks sent alone do not show would otherwise get every case twice.
constexpr std::size_t kTroubledWindowsBeforeSerial = 8;

// A request whose reply can name it: an object with a string or integer id (the ids a server
// can echo). Anything else (a raw body, a batch, a notification, id null) may be answered by
// silence or output that cannot be placed, so it goes alone. A raw body is never pipelined:
// the server may read those bytes otherwise than mcpfuzz does.
bool HasEchoableId(const Request& request) {
  const auto* body = std::get_if<boost::json::value>(&request.body);
  if (body == nullptr || !body->is_object()) return false;
  const auto* id = body->as_object().if_contains("id");
  if (id == nullptr) return false;
  if (id->is_string()) return !id->as_string().starts_with("mcpfuzz-sentinel-");
  return id->is_int64() || id->is_uint64();
}

// What the server wrote for a request sent alone that no pipeline could have placed: output
// that is not JSON, a message that is not the reply to its id, or its end.
bool Unplaceable(const Request& request, const Observation& observation) {
  if (!observation.non_json.empty() || observation.exit_code || observation.exit_signal) {
    return true;
  }
  const std::optional<boost::json::value> id = request.RpcId();
  return std::any_of(observation.messages.begin(), observation.messages.end(),
                     [&](const boost::json::value& message) {
                       if (!IsResponseShaped(message)) return true;
                       const auto* echoed = message.as_object().if_contains("id");
                       return echoed == nullptr || !id || *echoed != *id;
                     });
}

bool EndedBadly(const Observation& observation) {
  return (observation.outcome != Outcome::kOk && observation.outcome != Outcome::kDropped) ||
         observation.exit_code || observation.exit_signal;
}

}  // namespace

void NoteUnplaceable(Lane& lane, const GeneratedCase& generated, const Observation& observation) {
  if (HasEchoableId(generated.request) && Unplaceable(generated.request, observation)) {
    lane.alone_checks.insert(generated.check_id);
  }
}

void Campaign::SendAhead(Lane& lane, std::size_t index, std::size_t depth,
                         std::set<std::size_t>& alone) {
  if (lane.troubled_windows >= kTroubledWindowsBeforeSerial || lane.session->out_of_order()) {
    return;
  }
  std::vector<GeneratedCase> window;
  std::vector<std::size_t> indices;
  std::vector<boost::json::value> ids;
  // The lane's next cases: every lanes_.size()-th index of the run, of this shard's only.
  for (std::size_t next = index; next < indices_.end && window.size() < depth;
       next += indices_.step) {
    if (next % lanes_.size() != index % lanes_.size()) continue;
    if (alone.contains(next)) break;
    std::optional<GeneratedCase> generated = Preview(lane, next);
    // A sequence goes alone, on a connection of its own; a big input alone, since whether it
    // is sent at all is decided in case order, once the cases before it are.
    if (!generated || !generated->steps.empty() || BigInputClass(*generated) ||
        WillSkip(*generated, next) || !HasEchoableId(generated->request) ||
        lane.alone_checks.contains(generated->check_id)) {
      break;
    }
    boost::json::value id = *generated->request.RpcId();
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) break;
    ids.push_back(std::move(id));
    window.push_back(std::move(*generated));
    indices.push_back(next);
  }
  if (window.size() < 2) return;  // A lone case is sent as RunCase sends it.

  TargetSession& session = *lane.session;
  Pipeline pipeline;
  for (const GeneratedCase& generated : window) pipeline.requests.push_back(generated.request);
  pipeline.sentinel = session.Sentinel();
  const auto sent = Clock::now();
  PipelineResult result = session.SendPipelined(pipeline);
  std::optional<ProcessExit> death = session.TakeDeathBetweenExchanges();

  bool troubled = result.ambiguous || result.observations.size() != window.size() ||
                  !SentinelAnswered(*pipeline.sentinel, result.sentinel) || session.lost() ||
                  session.broken();
  bool silent = false;
  for (std::size_t k = 0; k < result.observations.size() && k < window.size(); ++k) {
    const Observation& observation = result.observations[k];
    troubled = troubled || EndedBadly(observation);
    silent = silent || observation.outcome == Outcome::kDropped ||
             ClassifyReply(window[k].request, observation).channel == Channel::kNoReply;
  }
  Add(silent ? result_.timing.silence : result_.timing.sending, sent);
  // A drop is proven once per target, by a case sent alone: until then a silent window goes
  // again one case at a time.
  troubled = troubled || (silent && !session.drops_proven());
  if (troubled) {
    ++lane.troubled_windows;
    alone.insert(indices.begin(), indices.end());
    // Sent again from a fresh server, as the first of them would have found it serially; a
    // death found before the window is blamed when the first is judged.
    session.MarkBroken();
    lane.death_before_next = std::move(death);
    return;
  }
  for (std::size_t k = 0; k < window.size(); ++k) {
    SentAhead ahead{std::move(window[k]), std::move(result.observations[k]),
                    *pipeline.sentinel,   result.sentinel,
                    session.generation(), std::nullopt};
    if (k == 0) ahead.death_before = std::move(death);
    lane.ahead.emplace(indices[k], std::move(ahead));
  }
}

void Campaign::RunPipelined(std::size_t depth) {
  std::set<std::size_t> alone;  // cases of windows gone wrong, sent one at a time
  for (std::size_t at = 0; at < indices_.Count() && !lanes_.empty(); ++at) {
    if (StopNow()) break;
    const std::size_t index = indices_.At(at);
    const std::size_t position = index % lanes_.size();
    Lane& lane = lanes_[position];
    TargetSession& session = *lane.session;
    if (session.lost()) {
      DropLostLane(position);
      continue;
    }
    // Written on a connection the session no longer uses (a finding restarted the server):
    // those cases are written again.
    if (!lane.ahead.empty() &&
        (session.broken() || lane.ahead.begin()->second.generation != session.generation())) {
      lane.ahead.clear();
    }
    if (!lane.ahead.contains(index) && !alone.contains(index)) {
      SendAhead(lane, index, depth, alone);
    }
    auto pending = lane.ahead.find(index);
    if (pending == lane.ahead.end()) {
      alone.erase(index);
      // A case that answered so no pipeline could place it: its check goes alone on this lane
      // from now on, so its windows are not sent twice.
      RunCase(lane, index);
      Report(/*force=*/false);
      continue;
    }
    SentAhead ahead = std::move(pending->second);
    lane.ahead.erase(pending);
    if (RecordAndSkip(ahead.generated, index)) continue;
    CountSent(ahead.generated);
    ++result_.pipelined;
    const Judged judged =
        JudgeExchange(session, ahead.generated, std::move(ahead.observation),
                      Exchange{ahead.sentinel, ahead.sentinel_observation, {}}, /*settle=*/false);
    Decide(lane, std::move(ahead.generated), index, judged, std::move(ahead.death_before));
    Report(/*force=*/false);
  }
}

}  // namespace mcpfuzz::campaign_detail
