#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "transport/start_gate.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

struct Ahead {
  explicit Ahead(TransportFactory inner) : connect(std::move(inner)) {}

  Result<std::unique_ptr<Transport>> Next() {
    const std::lock_guard lock(mutex);
    Result<std::unique_ptr<Transport>> next = started ? std::move(*started) : connect();
    started.reset();
    // Only a stdio server has a start-up to overlap; an HTTP connection costs nothing to open.
    if (next.ok() && (*next)->kind() == TransportKind::kStdio && !StartsLimited()) {
      Result<std::unique_ptr<Transport>> following = connect();
      if (following.ok()) started.emplace(std::move(following));
    }
    return next;
  }

  TransportFactory connect;
  std::mutex mutex;
  std::optional<Result<std::unique_ptr<Transport>>> started;
};

}  // namespace

TransportFactory StartingAhead(TransportFactory connect) {
  auto ahead = std::make_shared<Ahead>(std::move(connect));
  return [ahead] { return ahead->Next(); };
}

}  // namespace mcpfuzz
