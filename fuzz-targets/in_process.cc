// The reference server driven in process: Requests go to ReferenceServer::HandleHttp or
// HandleStdioLine instead of a socket or a pipe, and the replies are read back into an
// Observation by the same code the HTTP transport uses, so the oracles see what they would
// see over the wire.

#include <algorithm>
#include <csignal>
#include <memory>
#include <string>
#include <utility>

#include "fuzz-targets/harness.h"
#include "oracles/oracle.h"
#include "refserver/refserver.h"
#include "transport/client.h"
#include "transport/http_exchange.h"

namespace mcpfuzz::fuzzing {
namespace {

class InProcessTransport final : public Transport {
 public:
  InProcessTransport(refserver::ReferenceServer& server, TransportKind kind)
      : server_(server), kind_(kind) {}

  Observation Send(const Request& request) override {
    return kind_ == TransportKind::kHttp ? SendHttp(request) : SendStdio(request);
  }
  TransportKind kind() const override { return kind_; }
  std::string Describe() const override { return "in-process reference server"; }
  void set_session_id(std::string id) override { session_id_ = std::move(id); }
  std::string session_id() const override { return session_id_; }

 private:
  Observation SendHttp(const Request& request) {
    refserver::HttpRequest exchange;
    exchange.method = request.http_method;
    exchange.path = std::string(refserver::kEndpointPath);
    exchange.headers = request.headers;
    if (request.session == SessionBinding::kAttach && !session_id_.empty() &&
        !FindHeader(request.headers, kHeaderSessionId)) {
      exchange.headers.push_back({std::string(kHeaderSessionId), session_id_});
    }
    exchange.body = request.WireBody();
    const refserver::HttpReply reply = server_.HandleHttp(exchange);

    Observation observation;
    if (Broken(reply.action, observation)) return observation;
    observation.http_status = reply.status;
    HttpExchange reader(observation, request, Limits{}.max_response_bytes);
    reader.OnHeaderLine("HTTP/1.1 " + std::to_string(reply.status) + " X\r\n");
    for (const Header& header : reply.headers) {
      reader.OnHeaderLine(header.name + ": " + header.value + "\r\n");
    }
    reader.OnHeaderLine("\r\n");
    reader.OnBody(reply.body);
    reader.Finish();
    return observation;
  }

  Observation SendStdio(const Request& request) {
    const refserver::StdioReply reply = server_.HandleStdioLine(request.WireBody());
    Observation observation;
    if (Broken(reply.action, observation)) return observation;
    for (const std::string& line : reply.lines) {
      if (auto message = ParseJson(line)) {
        observation.messages.push_back(std::move(*message));
      } else {
        observation.non_json.push_back(line);
      }
      observation.stdout_lines.push_back(line);
    }
    return observation;
  }

  // The I/O-level faults, as a client would see them.
  bool Broken(refserver::Action action, Observation& observation) const {
    const bool http = kind_ == TransportKind::kHttp;
    if (action == refserver::Action::kCrash) {
      observation.outcome = http ? Outcome::kConnectionReset : Outcome::kExited;
      if (!http) observation.exit_signal = SIGABRT;
      observation.detail = "the server crashed";
      return true;
    }
    if (action == refserver::Action::kHang) {
      observation.outcome = http ? Outcome::kTimeout : Outcome::kAliveButDeaf;
      observation.detail = "the server never answered";
      return true;
    }
    return false;
  }

  refserver::ReferenceServer& server_;
  TransportKind kind_;
  std::string session_id_;
};

// The reference server's catalog, listed once through a conformant server of each era.
const KnownNames& CatalogNames(Revision revision) {
  static const auto list = [](Revision era_revision) {
    refserver::ReferenceServer server;
    InProcessTransport transport(server, TransportKind::kHttp);
    McpClient client(transport, era_revision);
    return client.Open().ok() ? ListKnownNames(client) : KnownNames{};
  };
  static const KnownNames handshake = list(kLatestHandshakeRevision);
  static const KnownNames stateless = list(kLatestRevision);
  return EraOf(revision) == Era::kStateless ? stateless : handshake;
}

}  // namespace

KnownNames ListKnownNames(McpClient& client) {
  ListedFeatures listed = ListFeatures(client);
  KnownNames known;
  for (ListedFeatures::Tool& tool : listed.tools) known.tools.push_back(std::move(tool.name));
  known.prompts = std::move(listed.prompts);
  known.resource_uris = std::move(listed.resource_uris);
  return known;
}

// A server with the session of one revision open, at the state its checkpoint remembers.
struct InProcessServer::Session {
  Session(const refserver::FaultSet& faults, Revision revision, TransportKind kind)
      : server(refserver::ServerOptions{faults}),
        transport(server, kind),
        client(transport, revision) {
    open = client.Open().ok();
    server.Checkpoint();
  }
  refserver::ReferenceServer server;
  InProcessTransport transport;
  McpClient client;
  bool open = false;
};

InProcessServer::InProcessServer(refserver::FaultSet faults, ServerLifetime lifetime)
    : faults_(std::move(faults)), lifetime_(lifetime), sessions_(kAllRevisions.size() * 2) {}

InProcessServer::~InProcessServer() = default;

InProcessServer::Session* InProcessServer::SessionFor(Revision revision, TransportKind transport) {
  if (lifetime_ == ServerLifetime::kFreshPerCase) {
    fresh_ = std::make_unique<Session>(faults_, revision, transport);
    return fresh_->open ? fresh_.get() : nullptr;
  }
  const auto index = static_cast<std::size_t>(
      std::find(kAllRevisions.begin(), kAllRevisions.end(), revision) - kAllRevisions.begin());
  std::unique_ptr<Session>& slot =
      sessions_.at(index * 2 + (transport == TransportKind::kHttp ? 0 : 1));
  if (!slot) slot = std::make_unique<Session>(faults_, revision, transport);
  if (!slot->open) return nullptr;
  slot->server.Rewind();
  return slot.get();
}

std::optional<Judged> InProcessServer::SendOn(Session& session, FuzzCase fuzz_case) {
  Observation observation = session.transport.Send(fuzz_case.request);
  return JudgeFuzzCase(std::move(fuzz_case), std::move(observation));
}

std::optional<Judged> InProcessServer::Run(const CaseSpec& spec) {
  Session* session = SessionFor(SpecRevision(spec), SpecTransport(spec));
  if (session == nullptr) return std::nullopt;
  auto fuzz_case = BuildCase(spec, session->client.revision(), session->transport.kind(),
                             CatalogNames(session->client.revision()));
  if (!fuzz_case) return std::nullopt;
  if (fuzz_case->capability == "session") {
    fuzz_case->context.capability_declared = !session->transport.session_id().empty();
  } else if (!fuzz_case->capability.empty()) {
    fuzz_case->context.capability_declared = session->client.Declares(fuzz_case->capability);
  }
  return SendOn(*session, std::move(*fuzz_case));
}

std::optional<Judged> InProcessServer::Send(FuzzCase fuzz_case) {
  Session* session = SessionFor(fuzz_case.request.revision, fuzz_case.request.transport);
  if (session == nullptr) return std::nullopt;
  return SendOn(*session, std::move(fuzz_case));
}

}  // namespace mcpfuzz::fuzzing
