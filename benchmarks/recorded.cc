#include "benchmarks/recorded.h"

#include <rapidcheck.h>

#include <memory>
#include <optional>
#include <utility>

#include "generators/registry.h"
#include "model/request_builder.h"
#include "model/sse.h"
#include "refserver/refserver.h"

namespace mcpfuzz::bench {
namespace {

/// The reference server in one session of one revision, answered in-process.
class InProcessSession {
 public:
  InProcessSession(Revision revision, TransportKind transport)
      : revision_(revision), transport_(transport) {
    if (EraOf(revision) == Era::kHandshake) {
      opened_ = Send(MakeInitialize(revision, transport, 0));
      for (const Header& header : opened_.http_headers) {
        if (header.name == "Mcp-Session-Id") session_id_ = header.value;
      }
      Send(MakeNotification(revision, transport, "notifications/initialized"));
    }
  }

  Observation Send(const Request& request) {
    return request.transport == TransportKind::kStdio ? SendStdio(request) : SendHttp(request);
  }

  GenContext Context() {
    GenContext context;
    context.revision = revision_;
    context.transport = transport_;
    context.session_assigned = !session_id_.empty();
    context.call_real_tools = true;
    const Observation found =
        EraOf(revision_) == Era::kStateless
            ? Send(MakeRequest(revision_, transport_, "server/discover", {}, 1))
            : opened_;
    if (const auto* result = Result(found)) {
      if (const auto* capabilities = result->if_contains("capabilities")) {
        if (capabilities->is_object()) context.capabilities = capabilities->as_object();
      }
    }
    const Observation listed = Send(MakeRequest(revision_, transport_, "tools/list", {}, 2));
    if (const auto* result = Result(listed)) {
      if (const auto* tools = result->if_contains("tools"); tools && tools->is_array()) {
        for (const auto& tool : tools->as_array()) {
          ToolInfo info;
          info.name = std::string(tool.at("name").as_string());
          if (const auto* schema = tool.as_object().if_contains("inputSchema")) {
            info.input_schema = schema->as_object();
          }
          context.tools.push_back(std::move(info));
        }
      }
    }
    return context;
  }

 private:
  static const boost::json::object* Result(const Observation& observation) {
    for (const auto& message : observation.messages) {
      if (const auto* object = message.if_object()) {
        if (const auto* result = object->if_contains("result"); result && result->is_object()) {
          return &result->as_object();
        }
      }
    }
    return nullptr;
  }

  Observation SendStdio(const Request& request) {
    Observation observation;
    for (std::string& line : server_.HandleStdioLine(request.WireBody()).lines) {
      if (auto message = ParseJson(line)) {
        observation.messages.push_back(std::move(*message));
      } else {
        observation.non_json.push_back(line);
      }
      observation.stdout_lines.push_back(std::move(line));
    }
    return observation;
  }

  Observation SendHttp(const Request& request) {
    refserver::HttpRequest exchange;
    exchange.method = request.http_method;
    exchange.headers = request.headers;
    if (request.session == SessionBinding::kAttach && !session_id_.empty() &&
        !FindHeader(request.headers, "Mcp-Session-Id")) {
      exchange.headers.push_back({"Mcp-Session-Id", session_id_});
    }
    exchange.body = request.WireBody();
    refserver::HttpReply reply = server_.HandleHttp(exchange);
    Observation observation;
    observation.http_status = reply.status;
    observation.http_headers = reply.headers;
    if (auto type = FindHeader(reply.headers, "Content-Type")) observation.content_type = *type;
    if (observation.content_type.starts_with("text/event-stream")) {
      observation.sse_events = ParseSse(reply.body);
      for (const SseEvent& event : observation.sse_events) {
        if (auto message = ParseJson(event.data)) observation.messages.push_back(*message);
      }
    } else if (!reply.body.empty()) {
      if (auto message = ParseJson(reply.body)) {
        observation.messages.push_back(std::move(*message));
      } else {
        observation.non_json.push_back(reply.body);
      }
    }
    observation.body = std::move(reply.body);
    return observation;
  }

  refserver::ReferenceServer server_;
  Revision revision_;
  TransportKind transport_;
  std::string session_id_;
  Observation opened_;
};

struct Setting {
  const char* name;
  Revision revision;
  TransportKind transport;
};
constexpr Setting kSettings[] = {
    {"2026-07-28/http", Revision::k2026_07_28, TransportKind::kHttp},
    {"2025-11-25/http", Revision::k2025_11_25, TransportKind::kHttp},
    {"2025-11-25/stdio", Revision::k2025_11_25, TransportKind::kStdio},
};

}  // namespace

const std::vector<NamedContext>& Contexts() {
  static const std::vector<NamedContext> contexts = [] {
    std::vector<NamedContext> built;
    for (const Setting& setting : kSettings) {
      InProcessSession session(setting.revision, setting.transport);
      built.push_back({setting.name, session.Context()});
    }
    return built;
  }();
  return contexts;
}

const std::vector<RecordedCase>& Recorded(std::size_t count) {
  static const std::vector<RecordedCase> recorded = [count] {
    std::vector<RecordedCase> cases;
    for (std::size_t which = 0; which < std::size(kSettings); ++which) {
      const Setting& setting = kSettings[which];
      InProcessSession session(setting.revision, setting.transport);
      const rc::Gen<GeneratedCase> any = gen::AnyCase(Contexts()[which].context, {});
      for (std::size_t seed = 0; seed < count; ++seed) {
        std::optional<GeneratedCase> generated;
        try {
          generated = any(rc::Random(seed), static_cast<int>(seed % 101)).value();
        } catch (...) {
          continue;
        }
        Observation observation = session.Send(generated->request);
        cases.push_back({std::move(*generated), std::move(observation)});
      }
    }
    return cases;
  }();
  return recorded;
}

}  // namespace mcpfuzz::bench
