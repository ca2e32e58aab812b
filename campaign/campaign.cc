#include "campaign/campaign.h"

#include <rapidcheck.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "campaign/detail/campaign_loop.h"
#include "campaign/detail/judging.h"
#include "campaign/detail/random_names.h"
#include "generators/registry.h"

namespace mcpfuzz {
namespace campaign_detail {
namespace {

constexpr auto kProgressInterval = std::chrono::milliseconds(250);

std::set<std::string> FamiliesFor(const CampaignOptions& options) {
  if (!options.families.empty()) return options.families;
  std::set<std::string> families = gen::DefaultFamilies();
  if (options.call_real_tools) {
    for (const gen::FamilyInfo& family : gen::AllFamilies()) {
      if (family.calls_real_tools) families.emplace(family.name);
    }
  }
  return families;
}

// What opening a session gave: the session, or why it did not open.
struct Opened {
  std::unique_ptr<TargetSession> session;
  std::string error;
};

// Opens `session`, catching what escapes, since it runs on a thread of OpenAtOnce.
Opened Open(std::unique_ptr<TargetSession> session) {
  Opened opened;
  try {
    if (auto outcome = session->Open(); !outcome.ok()) {
      opened.error = outcome.error().message;
      return opened;
    }
  } catch (const std::exception& error) {
    opened.error = error.what();
    return opened;
  } catch (...) {
    opened.error = "unknown error";
    return opened;
  }
  opened.session = std::move(session);
  return opened;
}

// Fuzz sessions reopen after a failure and keep a warm spare: a finding's re-sends and shrinking
// restart a stdio server several times, and each restart would otherwise wait for a start-up.
SessionPolicy LaneSessionPolicy() {
  SessionPolicy policy;
  policy.warm_spare = true;
  policy.list_features = true;
  return policy;
}

}  // namespace

void Campaign::OpenLanes() {
  std::vector<Revision> revisions;
  if (options_.revision) {
    revisions.push_back(*options_.revision);
  } else {
    result_.eras = DetectEras(connect_);
    for (const EraAttempt& attempt : result_.eras.attempts) {
      if (attempt.unlisted_discover) {
        result_.notes.push_back(attempt.note + "; `check` reports the discover (discover.result)");
      }
    }
    // A revision kept for batches only is a whole lane: fuzz sends every family there.
    for (const PlannedRevision& planned : PlanRevisions(result_.eras)) {
      revisions.push_back(planned.revision);
    }
    if (revisions.empty()) {
      result_.notes.emplace_back("the target speaks no MCP revision mcpfuzz knows");
    }
  }
  const std::set<std::string> families = FamiliesFor(options_);
  for (const std::string& name : families) {
    if (gen::FindFamily(name) == nullptr) result_.notes.push_back("no family named " + name);
  }
  // Opened at once, each with its questions to the target; decided below in revision order.
  std::vector<Opened> opened(revisions.size());
  std::vector<GenContext> contexts(revisions.size());
  std::vector<std::exception_ptr> failures(revisions.size());
  OpenAtOnce(revisions.size(), [&](std::size_t i) {
    opened[i] = Open(std::make_unique<TargetSession>(link_, revisions[i], LaneSessionPolicy()));
    if (!opened[i].session) return;
    TargetSession& session = *opened[i].session;
    GenContext& context = contexts[i];
    context = ContextOf(session);
    context.call_real_tools = options_.call_real_tools;
    // Only a probe tells: with a forced revision the target is not known to speak both eras.
    context.speaks_both_eras = result_.eras.Newest(Era::kStateless).has_value() &&
                               result_.eras.Newest(Era::kHandshake).has_value();
    context.max_request_bytes = options_.max_request_bytes;
    if (options_.ask_random_names) {
      // Behind a sentinel: a server that never answers an unknown name costs one round trip
      // over stdio, not a timeout per session.
      try {
        context.random_name_answers = campaign_detail::AskRandomNames(
            context,
            [&session](const Request& request) { return session.Send(request, Owed::kNothing); });
      } catch (...) {
        failures[i] = std::current_exception();  // thrown again below, on the calling thread
      }
    }
  });
  for (std::size_t i = 0; i < revisions.size(); ++i) {
    if (failures[i]) std::rethrow_exception(failures[i]);
    const std::string revision(ToString(revisions[i]));
    if (!opened[i].session) {
      result_.notes.push_back("no session in " + revision + ": " + opened[i].error);
      continue;
    }
    Lane lane;
    lane.session = std::move(opened[i].session);
    lane.context = std::move(contexts[i]);
    if (!result_.server_info) result_.server_info = lane.session->server_info();
    if (gen::ApplicableFamilies(lane.context, families).empty()) {
      result_.notes.push_back("no selected family applies in " + revision);
      continue;
    }
    lane.generator = gen::AnyCase(lane.context, families);
    GenContext unwritten = lane.context;
    unwritten.big_bodies_unwritten = true;
    lane.preview = gen::AnyCase(unwritten, families);
    // Over stdio or over HTTP to a server mcpfuzz started: either way, a server with an agent.
    if (options_.coverage == CoverageUse::kSteer) {
      lane.steering = std::make_unique<Steering>(options_.seed, lane.context);
    }
    if (options_.families.empty() && !options_.call_real_tools) {
      GenContext allowed = lane.context;
      allowed.call_real_tools = true;
      for (const gen::FamilyInfo& family : gen::AllFamilies()) {
        if (family.calls_real_tools && family.applies(allowed)) {
          result_.real_tool_families_left_out.emplace(family.name);
        }
      }
    }
    if (options_.families.empty() &&
        !gen::ApplicableFamilies(lane.context, {"sequences"}).empty()) {
      lane.sequences = gen::AnyCase(lane.context, {"sequences"});
    }
    result_.revisions.push_back(lane.session->revision());
    lanes_.push_back(std::move(lane));
  }
}

std::size_t Campaign::OpenWorkerSessions(std::size_t wanted) {
  if (wanted <= 1 || lanes_.empty()) return 1;
  SessionPolicy policy = LaneSessionPolicy();
  policy.list_features = false;
  // Over stdio each worker is a server process of its own: the warm spare, a process more per
  // session, stays with the first session, on which findings restart the server.
  policy.warm_spare = false;
  const std::size_t per_lane = wanted - 1;
  std::vector<Opened> opened(lanes_.size() * per_lane);
  OpenAtOnce(opened.size(), [&](std::size_t i) {
    opened[i] = Open(
        std::make_unique<TargetSession>(link_, lanes_[i / per_lane].session->revision(), policy));
  });
  // The workers every lane can serve: up to the first session a lane could not open.
  std::size_t workers = wanted;
  for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
    for (std::size_t k = 0; k + 1 < workers; ++k) {
      Opened& extra = opened[lane * per_lane + k];
      if (!extra.session) {
        result_.notes.push_back("ran with concurrency " + std::to_string(k + 1) + ": another " +
                                std::string(ToString(lanes_[lane].session->revision())) +
                                " session could not be opened: " + extra.error);
        workers = k + 1;
        break;
      }
      lanes_[lane].extra.push_back(std::move(extra.session));
    }
  }
  return workers;
}

void Campaign::Report(bool force) {
  if (!progress_) return;
  const auto now = Clock::now();
  if (!force && now - last_report_ < kProgressInterval) return;
  last_report_ = now;
  CampaignProgress progress;
  progress.cases = result_.cases;
  progress.findings = result_.findings.size();
  progress.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(now - limits_.start);
  const double seconds = std::chrono::duration<double>(now - limits_.start).count();
  progress.cases_per_second = seconds > 0 ? static_cast<double>(result_.cases) / seconds : 0;
  if (options_.max_cases != std::numeric_limits<std::size_t>::max()) {
    progress.planned_cases = indices_.Count();
  }
  progress.duration = limits_.duration;
  progress_(progress);
}

void Campaign::AddCounts(const TargetSession& session) {
  result_.restarts += session.counts().reopens;
  result_.warm_restarts += session.counts().warm_reopens;
  result_.deaf_timeouts += session.counts().deaf_timeouts;
  result_.deaf_within_patience += session.counts().deaf_within_patience;
  sessions_ended_[session.revision()] += session.counts().sessions_ended;
}

void Campaign::DropLostLane(std::size_t position) {
  const TargetSession& session = *lanes_[position].session;
  AddCounts(session);
  result_.notes.push_back("the " + std::string(ToString(session.revision())) +
                          " session was lost after " + std::to_string(result_.cases) +
                          " cases: " + session.why());
  lanes_.erase(lanes_.begin() + static_cast<std::ptrdiff_t>(position));
  // Which lane a case index goes to changed: what was sent ahead is for the old assignment.
  for (Lane& lane : lanes_) lane.ahead.clear();
}

CampaignResult Campaign::Run() {
  // Nothing may escape: a finding already written stays written, and the partial result is
  // still returned.
  try {
    const auto starting = Clock::now();
    OpenLanes();
    // Steering needs each case's coverage apart: cases go one at a time, on one worker, since a
    // pipelined window or a second worker would run cases between two takes.
    const bool steered = !lanes_.empty() && lanes_.front().steering != nullptr;
    if (steered && options_.concurrency > 1) {
      result_.notes.emplace_back(
          "coverage steering sends one case at a time: --concurrency "
          "was not used");
    }
    const std::size_t workers =
        steered ? 1 : OpenWorkerSessions(std::max<std::size_t>(options_.concurrency, 1));
    Add(result_.timing.startup, starting);
    const bool stdio = !lanes_.empty() && lanes_.front().session->kind() == TransportKind::kStdio;
    if (steered) {
      RunSerial();
    } else if (workers > 1) {
      // The workers send while the coordinator judges: the loop's time, findings aside.
      const auto sending = Clock::now();
      RunParallel(workers);
      Add(result_.timing.sending, sending);
      result_.timing.sending -=
          std::min(result_.timing.sending, result_.timing.resends + result_.timing.shrinking);
    } else if (stdio && options_.stdio_pipeline_depth > 1) {
      RunPipelined(options_.stdio_pipeline_depth);
    } else {
      RunSerial();
    }
  } catch (const std::exception& error) {
    result_.notes.push_back(std::string("the campaign stopped: ") + error.what());
  } catch (...) {
    result_.notes.emplace_back("the campaign stopped on an unknown error");
  }
  for (const Lane& lane : lanes_) {
    AddCounts(*lane.session);
    for (const auto& extra : lane.extra) AddCounts(*extra);
  }
  for (const auto& [revision, ended] : sessions_ended_) {
    if (ended == 0) continue;
    result_.notes.push_back(EndedSessionsNote(revision, ended) +
                            "; check's sessions.delete judges whether one session's DELETE "
                            "ends another");
  }
  if (const std::vector<std::string> reorders = link_.reply_orders().reorders();
      !reorders.empty()) {
    std::string kinds;
    for (const std::string& kind : reorders) kinds += (kinds.empty() ? "" : "; ") + kind;
    result_.notes.push_back(
        "the server wrote output for a request after its reply to the sentinel written behind it "
        "(" +
        kinds +
        "): a pipeline with such a message open at the sentinel's reply waited a grace for it, "
        "since the server does not answer these in the order it reads");
  }
  if (result_.coverage) {
    result_.coverage->scripts = coverage_.Scripts();
    for (const Lane& lane : lanes_) {
      if (!lane.steering) continue;
      for (const CorpusEntry& entry : lane.steering->corpus()) {
        result_.coverage->corpus.push_back({entry.index, entry.generated.family,
                                            entry.generated.variant, entry.blocks, entry.new_answer,
                                            entry.mutants});
      }
    }
  }
  // Every server ends here, spares included, before the run reports its time.
  lanes_.clear();
  result_.elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - limits_.start);
  result_.sessions_opened = connections_;
  Report(/*force=*/true);
  return std::move(result_);
}

}  // namespace campaign_detail

namespace {

struct CpuTimes {
  std::chrono::microseconds own{0};
  std::chrono::microseconds children{0};
};

CpuTimes CpuNow() {
  const auto spent = [](int who) {
    rusage usage{};
    ::getrusage(who, &usage);
    const auto micros = [](const timeval& time) {
      return std::chrono::seconds(time.tv_sec) + std::chrono::microseconds(time.tv_usec);
    };
    return std::chrono::duration_cast<std::chrono::microseconds>(micros(usage.ru_utime) +
                                                                 micros(usage.ru_stime));
  };
  return {spent(RUSAGE_SELF), spent(RUSAGE_CHILDREN)};
}

}  // namespace

CampaignResult RunCampaign(const TransportFactory& connect, const CampaignOptions& options,
                           const CampaignProgressCallback& progress) {
  const CpuTimes before = CpuNow();
  CampaignResult result = campaign_detail::Campaign(connect, options, progress).Run();
  // Read once the campaign has ended its servers: a child's time counts once it is waited for.
  const CpuTimes after = CpuNow();
  result.timing.own_cpu = after.own - before.own;
  result.timing.servers_cpu = after.children - before.children;
  return result;
}

}  // namespace mcpfuzz
