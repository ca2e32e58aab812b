#include "checks/detail/beside_probe.h"

#include <system_error>
#include <utility>

namespace mcpfuzz::checks::detail {

BesideProbe::BesideProbe(TargetLink& link, Revision revision, std::function<FreshSteps()> steps)
    : link_(link), revision_(revision), steps_(std::move(steps)) {
  try {
    thread_ = std::thread([this] { Run(); });
  } catch (const std::system_error&) {
    // No thread to be had: nothing is made ahead, and the run makes its sessions as before.
  }
}

BesideProbe::~BesideProbe() { static_cast<void>(Take()); }

TransportFactory BesideProbe::Watching(TransportFactory connect) {
  return [this, connect = std::move(connect)] {
    Result<std::unique_ptr<Transport>> made = connect();
    if (made.ok()) {
      const std::lock_guard lock(mutex_);
      if (!kind_) {
        kind_ = (*made)->kind();
        changed_.notify_all();
      }
    }
    return made;
  };
}

void BesideProbe::Run() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return kind_.has_value() || probe_ended_; });
    // Over stdio a session is a server process, and one started ahead would run beside the
    // checks, whose output is judged (Connections::Prepare makes none either).
    if (kind_ != TransportKind::kHttp || withdrawn_) return;
  }
  try {
    made_ = FreshPool::Make(link_, revision_, steps_());
  } catch (...) {
    made_ = FreshPool{};  // nothing made ahead: the run makes its sessions as before
  }
}

void BesideProbe::Withdraw() {
  {
    const std::lock_guard lock(mutex_);
    withdrawn_ = true;
  }
  // Dropped, its sessions end unobserved.
  static_cast<void>(Take());
}

FreshPool BesideProbe::Take() {
  {
    const std::lock_guard lock(mutex_);
    probe_ended_ = true;
    changed_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  return std::move(made_);
}

}  // namespace mcpfuzz::checks::detail
