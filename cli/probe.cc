#include "cli/probe.h"

#include <algorithm>

#include "reports/terminal.h"
#include "transport/client.h"

namespace mcpfuzz::cli {

using reports::EscapeForTerminal;
using reports::Pad;
namespace {

std::string Excerpt(const Reply& reply) {
  if (!reply.message || !reply.message->is_object()) return reply.reason;
  const auto& object = reply.message->as_object();
  if (const auto* error = object.if_contains("error"); error && error->is_object()) {
    const auto* message = error->as_object().if_contains("message");
    if (message != nullptr && message->is_string()) return std::string(message->as_string());
  }
  if (const auto* result = object.if_contains("result"); result && result->is_object()) {
    const auto* content = result->as_object().if_contains("content");
    if (content != nullptr && content->is_array() && !content->as_array().empty()) {
      const auto& first = content->as_array().front();
      if (first.is_object()) {
        const auto* text = first.as_object().if_contains("text");
        if (text != nullptr && text->is_string()) return std::string(text->as_string());
      }
    }
  }
  return reply.reason;
}

ProbeRow Observe(std::string probe, Revision revision, const Request& request,
                 const Observation& observation) {
  Reply reply = ClassifyReply(request, observation);
  ProbeRow row;
  row.probe = std::move(probe);
  row.revision = revision;
  row.channel = reply.channel;
  row.error_code = reply.error_code;
  row.http_status = observation.http_status;
  row.excerpt = reply.channel == Channel::kTransportFailure ? observation.detail : Excerpt(reply);
  return row;
}

// A tools/list request cut off mid-object: the body is not JSON, everything else is right.
Request TruncatedBody(McpClient& client) {
  Request request = client.Make("tools/list");
  std::string bytes = request.WireBody();
  request.body = RawBody{bytes.substr(0, bytes.size() - 1)};
  return request;
}

void ProbeRevision(Target& target, Revision revision, std::vector<ProbeRow>& rows) {
  auto transport = target.Connect();
  if (!transport) return;
  McpClient client(**transport, revision);
  if (!client.Open()) return;

  Request unknown_tool = client.Make(
      "tools/call", {{"name", kImpossibleToolName}, {"arguments", boost::json::object{}}});
  rows.push_back(Observe("unknown tool", revision, unknown_tool, client.Send(unknown_tool)));
  Request unknown_method = client.Make("mcpfuzz/no_such_method");
  rows.push_back(Observe("unknown method", revision, unknown_method, client.Send(unknown_method)));
  Request parse_error = TruncatedBody(client);
  rows.push_back(Observe("parse error", revision, parse_error, client.Send(parse_error)));
  client.Close();
}

std::string Answer(Channel channel, std::optional<std::int64_t> code, int http_status) {
  std::string text(ToString(channel));
  if (code) text += " " + std::to_string(*code);
  if (http_status != 0) text += "  HTTP " + std::to_string(http_status);
  return text;
}

}  // namespace

bool ProbeReport::Unreachable() const {
  return std::all_of(eras.attempts.begin(), eras.attempts.end(), [](const EraAttempt& attempt) {
    return attempt.channel == Channel::kTransportFailure;
  });
}

ProbeReport RunProbe(Target& target) {
  ProbeReport report;
  report.target = target.Describe();
  report.eras = DetectEras(target.Factory());
  for (Era era : {Era::kStateless, Era::kHandshake}) {
    if (auto revision = report.eras.Newest(era)) ProbeRevision(target, *revision, report.rows);
  }
  return report;
}

void PrintProbeReport(const ProbeReport& report, std::ostream& out) {
  out << "target: " << EscapeForTerminal(report.target, 200) << "\n\n";
  out << "Revisions asked\n";
  out << "  " << Pad("asked", 12) << Pad("method", 17) << Pad("answer", 34) << "note\n";
  for (const EraAttempt& attempt : report.eras.attempts) {
    std::string note = attempt.note;
    if (attempt.answered && note.empty())
      note = "speaks " + std::string(ToString(*attempt.answered));
    out << "  " << Pad(ToString(attempt.asked), 12) << Pad(attempt.method, 17)
        << Pad(Answer(attempt.channel, attempt.error_code, attempt.http_status), 34)
        << EscapeForTerminal(note, 60) << "\n";
  }
  out << "\nSpeaks: ";
  if (report.eras.speaks.empty()) out << "no revision mcpfuzz knows";
  for (std::size_t i = 0; i < report.eras.speaks.size(); ++i) {
    out << (i ? ", " : "") << ToString(report.eras.speaks[i]);
  }
  out << "\n";
  if (report.rows.empty()) return;
  out << "\nProbes (observed, not judged)\n";
  out << "  " << Pad("probe", 16) << Pad("revision", 12) << Pad("answer", 34) << "text\n";
  for (const ProbeRow& row : report.rows) {
    out << "  " << Pad(row.probe, 16) << Pad(ToString(row.revision), 12)
        << Pad(Answer(row.channel, row.error_code, row.http_status), 34)
        << EscapeForTerminal(row.excerpt, 60) << "\n";
  }
}

}  // namespace mcpfuzz::cli
