#include "fuzz-targets/live.h"

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <utility>

#include "oracles/oracle.h"
#include "transport/client.h"

namespace mcpfuzz::fuzzing {

struct LiveTarget::Session {
  std::unique_ptr<Transport> transport;
  std::unique_ptr<McpClient> client;
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

LiveTarget::LiveTarget(LiveSettings settings) : settings_(std::move(settings)) {}

LiveTarget::~LiveTarget() {
  for (auto& [revision, session] : sessions_) {
    if (session->client) session->client->Close();
  }
}

LiveTarget::Session* LiveTarget::SessionFor(Revision revision) {
  auto& slot = sessions_[revision];
  if (slot && (slot->unspoken || slot->client)) return slot.get();
  slot = std::make_unique<Session>();
  Result<std::unique_ptr<Transport>> transport = Error{""};
  if (!settings_.url.empty()) {
    transport = OpenHttp(HttpTarget{settings_.url, {}, false, settings_.limits});
  } else {
    auto stdio = SpawnStdio(StdioTarget{settings_.command, {}, settings_.limits});
    if (stdio) {
      transport = std::unique_ptr<Transport>(std::move(*stdio));
    } else {
      transport = stdio.error();
    }
  }
  if (!transport) {
    std::cerr << "live_target: " << transport.error().message << "\n";
    slot->unspoken = true;
    return slot.get();
  }
  slot->transport = std::move(*transport);
  auto client = std::make_unique<McpClient>(*slot->transport, revision);
  if (auto opened = client->Open(); !opened) {
    // Said once per revision: why every input of that revision is skipped.
    std::cerr << "live_target: no " << ToString(revision) << " session (" << opened.error().message
              << "); its inputs are skipped\n";
    slot->unspoken = true;
    return slot.get();
  }
  slot->known = ListKnownNames(*client);
  slot->client = std::move(client);
  return slot.get();
}

std::optional<Judged> LiveTarget::Run(const CaseSpec& spec) {
  const TransportKind kind = settings_.url.empty() ? TransportKind::kStdio : TransportKind::kHttp;
  CaseSpec fitted = spec;
  fitted.transport = kind == TransportKind::kHttp ? 0 : 1;
  Session* session = SessionFor(SpecRevision(fitted));
  if (session->unspoken) return std::nullopt;
  auto fuzz_case = BuildCase(fitted, session->client->revision(), kind, session->known);
  if (!fuzz_case) return std::nullopt;
  if (fuzz_case->capability == "session") {
    fuzz_case->context.capability_declared = !session->transport->session_id().empty();
  } else if (!fuzz_case->capability.empty()) {
    fuzz_case->context.capability_declared = session->client->Declares(fuzz_case->capability);
  }
  Observation observation = session->transport->Send(fuzz_case->request);
  return JudgeFuzzCase(std::move(*fuzz_case), std::move(observation));
}

}  // namespace mcpfuzz::fuzzing
