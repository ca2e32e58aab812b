#include "cli/host_limiter.h"

#include <thread>

namespace mcpfuzz::cli {
namespace {

class Limited : public TransportDecorator {
 public:
  Limited(std::unique_ptr<Transport> inner, HostLimiter& limiter, std::string host)
      : TransportDecorator(std::move(inner)), limiter_(limiter), host_(std::move(host)) {}

  Observation Send(const Request& request) override {
    if (!limiter_.Acquire(host_)) {
      Observation refused;
      refused.outcome = Outcome::kTransportError;
      refused.detail = "not sent: the per-host request budget for " + host_ + " is used up";
      return refused;
    }
    return inner().Send(request);
  }

 private:
  HostLimiter& limiter_;
  std::string host_;
};

}  // namespace

bool HostLimiter::Acquire(const std::string& host) {
  Host* state = nullptr;
  {
    std::lock_guard lock(hosts_mutex_);
    auto& slot = hosts_[host];
    if (!slot) slot = std::make_unique<Host>();
    state = slot.get();
  }
  // Held while waiting, so requests to one host queue up in order, spaced.
  std::lock_guard lock(state->mutex);
  if (budget_ != 0 && state->sent >= budget_) return false;
  if (state->sent > 0) std::this_thread::sleep_until(state->last + spacing_);
  state->last = std::chrono::steady_clock::now();
  ++state->sent;
  return true;
}

std::string HostLimiter::HostOf(const std::string& url) {
  std::string rest = url;
  if (auto scheme = rest.find("://"); scheme != std::string::npos) rest = rest.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);
  if (rest.starts_with("[")) return rest.substr(0, rest.find(']') + 1);
  return rest.substr(0, rest.find(':'));
}

std::unique_ptr<Transport> LimitedTransport(std::unique_ptr<Transport> inner, HostLimiter& limiter,
                                            std::string host) {
  return std::make_unique<Limited>(std::move(inner), limiter, std::move(host));
}

}  // namespace mcpfuzz::cli
