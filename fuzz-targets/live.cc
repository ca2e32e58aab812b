#include "fuzz-targets/live.h"

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <utility>

#include "oracles/oracle.h"
#include "transport/client.h"
#include "transport/session.h"

namespace mcpfuzz::fuzzing {

struct LiveTarget::Session {
  std::unique_ptr<TargetSession> session;
  KnownNames known;
  /// The target would not open a session of this revision: it does not speak it.
  bool unspoken = false;
};

Result<LiveSettings> LiveSettingsFromEnvironment() {
  LiveSettings settings;
  const char* url = std::getenv("MCPFUZZ_TARGET_URL");
  const char* command = std::getenv("MCPFUZZ_TARGET_COMMAND");
  if (url != nullptr && *url != '\0') settings.url = url;
  if (command != nullptr) {
    std::istringstream words(command);
    for (std::string word; words >> word;) settings.command.push_back(word);
  }
  if (settings.url.empty() == settings.command.empty()) {
    return Error{
        "set exactly one of MCPFUZZ_TARGET_URL (an HTTP endpoint on 127.0.0.1) and "
        "MCPFUZZ_TARGET_COMMAND (a stdio server's command line)"};
  }
  const char* timeout = std::getenv("MCPFUZZ_TIMEOUT_MS");
  settings.limits.timeout = std::chrono::milliseconds(
      timeout != nullptr && std::atoi(timeout) > 0 ? std::atoi(timeout) : 5000);
  // A notification is answered by silence; waiting the default quarter second for it would
  // make most of a run waiting.
  settings.limits.quiet_window = std::chrono::milliseconds(50);
  return settings;
}

LiveTarget::LiveTarget(LiveSettings settings)
    : settings_(std::move(settings)), link_(std::make_unique<TargetLink>([this] {
        Result<std::unique_ptr<Transport>> transport = Error{""};
        if (!settings_.url.empty()) {
          transport = OpenHttp(HttpTarget{settings_.url, {}, false, settings_.limits});
        } else if (auto stdio = SpawnStdio(StdioTarget{settings_.command, {}, settings_.limits})) {
          transport = std::unique_ptr<Transport>(std::move(*stdio));
        } else {
          transport = stdio.error();
        }
        return transport;
      })) {}

LiveTarget::~LiveTarget() = default;

LiveTarget::Session* LiveTarget::SessionFor(Revision revision) {
  auto& slot = sessions_[revision];
  if (slot) return slot.get();
  slot = std::make_unique<Session>();
  slot->session = std::make_unique<TargetSession>(*link_, revision);
  if (auto opened = slot->session->Open(); !opened) {
    // Said once per revision: why every input of that revision is skipped.
    std::cerr << "live_target: no " << ToString(revision) << " session (" << opened.error().message
              << "); its inputs are skipped\n";
    slot->unspoken = true;
    return slot.get();
  }
  slot->known = ListKnownNames(slot->session->client());
  return slot.get();
}

std::optional<Judged> LiveTarget::Run(const CaseSpec& spec) {
  const TransportKind kind = settings_.url.empty() ? TransportKind::kStdio : TransportKind::kHttp;
  CaseSpec fitted = spec;
  fitted.transport = kind == TransportKind::kHttp ? 0 : 1;
  Session* session = SessionFor(SpecRevision(fitted));
  if (session->unspoken) return std::nullopt;
  TargetSession& target = *session->session;
  auto fuzz_case = BuildCase(fitted, target.revision(), kind, session->known);
  if (!fuzz_case) return std::nullopt;
  if (fuzz_case->capability == "session") {
    fuzz_case->context.capability_declared = !target.session_id().empty();
  } else if (!fuzz_case->capability.empty()) {
    fuzz_case->context.capability_declared = target.Declares(fuzz_case->capability);
  }
  // A case breaks a rule: over stdio a sentinel behind it tells a drop from a hang.
  Observation observation = target.Send(fuzz_case->request, Owed::kNothing);
  return JudgeFuzzCase(std::move(*fuzz_case), std::move(observation));
}

}  // namespace mcpfuzz::fuzzing
