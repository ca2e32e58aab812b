// Captures what a campaign sends: the campaign runs in-process through a transport wrapper
// that keeps each request before handing it on. Same seed, same target, same cases as the
// `mcpfuzz fuzz` run it is compared with (the campaign's determinism contract).

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "benchmarks/e2e.h"
#include "campaign/campaign.h"
#include "transport/transport.h"

namespace mcpfuzz::bench {
namespace {

struct Log {
  std::mutex mutex;
  std::vector<SentRequest> sent;
  std::size_t connections = 0;
};

class RecordingTransport final : public TransportDecorator {
 public:
  RecordingTransport(std::unique_ptr<Transport> inner, Log& log, std::size_t connection)
      : TransportDecorator(std::move(inner)), log_(log), connection_(connection) {}
  Observation Send(const Request& request) override {
    std::size_t index = 0;
    {
      const std::lock_guard lock(log_.mutex);
      index = log_.sent.size();
      log_.sent.push_back({connection_, request, 0});
    }
    Observation observation = inner().Send(request);
    const std::lock_guard lock(log_.mutex);
    log_.sent[index].status = observation.http_status;
    return observation;
  }

 private:
  Log& log_;
  std::size_t connection_;
};

}  // namespace

Recording Record(const RecordSettings& settings) {
  Log log;
  Limits limits;
  limits.quiet_window = settings.quiet_window;
  const TransportFactory connect = [&]() -> Result<std::unique_ptr<Transport>> {
    Result<std::unique_ptr<Transport>> inner = Error{"no target"};
    if (!settings.url.empty()) {
      inner = OpenHttp(HttpTarget{settings.url, {}, false, limits});
    } else {
      StdioTarget stdio;
      stdio.argv = settings.stdio_argv;
      stdio.limits = limits;
      auto spawned = SpawnStdio(std::move(stdio));
      if (spawned) {
        inner = std::unique_ptr<Transport>(std::move(*spawned));
      } else {
        inner = spawned.error();
      }
    }
    if (!inner) return inner.error();
    const std::size_t connection = log.connections++;
    return std::unique_ptr<Transport>(
        std::make_unique<RecordingTransport>(std::move(*inner), log, connection));
  };
  CampaignOptions options;
  options.seed = settings.seed;
  options.max_cases = settings.cases;
  // The last progress call comes after the last case and before the sessions close.
  std::size_t sent_after_cases = 0;
  const CampaignResult result = RunCampaign(connect, options, [&](const CampaignProgress&) {
    const std::lock_guard lock(log.mutex);
    sent_after_cases = log.sent.size();
  });
  // Every case drawn is sent, or held back under a budget (a big input, a stdio sequence).
  if (!result.findings.empty() ||
      result.cases + result.big_inputs_held_back + result.sequences_held_back != settings.cases) {
    std::string why = "recording: the reference server was expected to be conformant (" +
                      std::to_string(result.findings.size()) + " findings, " +
                      std::to_string(result.cases) + " cases)";
    for (const CampaignFinding& finding : result.findings) why += "\n  " + finding.signature;
    for (const std::string& note : result.notes) why += "\n  note: " + note;
    throw std::runtime_error(why);
  }
  Recording recording;
  recording.sent = std::move(log.sent);
  recording.case_count = result.cases;
  recording.first_case = sent_after_cases - result.cases;
  return recording;
}

}  // namespace mcpfuzz::bench
