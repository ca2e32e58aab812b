#include "cli/send.h"

#include <boost/json/serialize.hpp>
#include <fstream>
#include <sstream>

#include "model/case_file.h"
#include "transport/client.h"

namespace mcpfuzz::cli {
namespace {

Result<Request> ReadCase(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{"cannot read case file " + path};
  std::stringstream text;
  text << file.rdbuf();
  auto json = ParseJson(text.str());
  if (!json) return Error{path + " is not JSON"};
  // A fuzz finding file (what `replay` reads) carries its minimal request as "request": send
  // takes both kinds of case file.
  const auto* object = json->if_object();
  const auto* format = object != nullptr ? object->if_contains("format") : nullptr;
  const bool finding = format != nullptr && *format == "mcpfuzz-case";
  const auto* inner = finding ? object->if_contains("request") : nullptr;
  if (finding && inner == nullptr) return Error{path + ": a finding file without \"request\""};
  auto request = RequestFromJson(finding ? *inner : *json);
  if (!request) return Error{path + ": " + request.error().message};
  return request;
}

}  // namespace

int RunSend(const std::vector<std::string>& case_files, Target& target, std::ostream& out,
            std::ostream& err) {
  for (const std::string& path : case_files) {
    auto request = ReadCase(path);
    if (!request) {
      err << "mcpfuzz: " << request.error().message << "\n";
      return 2;
    }
    auto transport = target.Connect();
    if (!transport) {
      err << "mcpfuzz: " << transport.error().message << "\n";
      return 2;
    }
    // A handshake-era case is sent inside a session of its revision, unless it asks to be sent
    // without one (to see how a server treats requests before initialize).
    McpClient client(**transport, request->revision);
    const bool needs_session =
        EraOf(request->revision) == Era::kHandshake && request->session == SessionBinding::kAttach;
    if (needs_session) {
      if (auto opened = client.Open(); !opened) {
        err << "mcpfuzz: " << path << ": could not open a session: " << opened.error().message
            << "\n";
      }
    }
    Observation observation = (*transport)->Send(*request);
    Reply reply = ClassifyReply(*request, observation);
    boost::json::object line;
    line["case"] = path;
    line["request"] = RequestToJson(*request);
    line["channel"] = ToString(reply.channel);
    if (reply.error_code) line["error_code"] = *reply.error_code;
    line["observation"] = ObservationToJson(observation);
    out << boost::json::serialize(line) << "\n";
    client.Close();
  }
  return 0;
}

}  // namespace mcpfuzz::cli
