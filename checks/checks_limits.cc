// Requests at the limits parsers set (tables §15 Z1, Z2): valid JSON nested 100,000 levels deep,
// an id that is a string of 100,000 characters, and a body one byte over 10 MiB, the line past
// which every stdio stack measured stopped answering. Sent as raw bytes, so mcpfuzz's own JSON
// library never holds the nesting. A server that stops answering afterwards is found by the
// incidents stdio.keeps-answering judges.

#include <boost/json.hpp>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

constexpr int kDeepNesting = 100000;
constexpr std::size_t kOverTenMiB = (std::size_t{10} << 20) + 1;
// Past the buffers an id is commonly copied into (4, 8, 64 KiB), and below the 1 MiB past which
// a server may answer without having read the id (oracles: the envelope), so the echo is judged.
constexpr std::size_t kLongId = 100000;
constexpr std::string_view kPlaceholder = "mcpfuzz-limits-placeholder";

// `request` with the placeholder string value replaced by `raw` JSON text.
Request WithRawValue(Request request, const std::string& raw) {
  std::string body = request.WireBody();
  const std::string quoted = "\"" + std::string(kPlaceholder) + "\"";
  body.replace(body.find(quoted), quoted.size(), raw);
  SetRawBody(request, std::move(body));
  return request;
}

std::string NestedArrays(int depth) {
  std::string text(static_cast<std::size_t>(depth), '[');
  text.append(static_cast<std::size_t>(depth), ']');
  return text;
}

Variant OverTenMiB(Revision revision) {
  return {"a body of 10 MiB and one byte (_meta padding)", [revision](Connection& connection) {
            Request request = connection.client().Make(HarmlessMethod(revision));
            Meta(request)["mcpfuzz/padding"] = kPlaceholder;
            const std::size_t base = request.WireBody().size() - kPlaceholder.size();
            return WithRawValue(std::move(request),
                                "\"" + std::string(kOverTenMiB - base, 'a') + "\"");
          }};
}

}  // namespace

void DeepNesting(RevisionRun& run) {
  std::vector<Variant> variants = {
      {std::to_string(kDeepNesting) + " arrays nested in _meta",
       [&run](Connection& connection) {
         Request request = HarmlessRequest(connection, run);
         Meta(request)["mcpfuzz/nested"] = kPlaceholder;
         return WithRawValue(std::move(request), NestedArrays(kDeepNesting));
       }},
  };
  if (run.Declares("tools")) {
    variants.push_back(
        {std::to_string(kDeepNesting) + " arrays nested in the arguments of an impossible tool",
         [](Connection& connection) {
           return WithRawValue(
               connection.client().Make(
                   "tools/call",
                   {{"name", kImpossibleTool},
                    {"arguments", boost::json::object{{"mcpfuzz_nested", kPlaceholder}}}}),
               NestedArrays(kDeepNesting));
         }});
  }
  ReportVariants(run, check::kDeepNesting, variants);
}

void OversizedRequest(RevisionRun& run) {
  ReportVariants(run, check::kOversizedRequest,
                 {{"an id of " + std::to_string(kLongId) + " characters (a string)",
                   [&run](Connection& connection) {
                     Request request = HarmlessRequest(connection, run);
                     BodyObject(request)["id"] = std::string(kLongId, 'a');
                     return request;
                   }},
                  OverTenMiB(run.revision())});
}

void OversizedRequestAhead(const AheadView& run, FreshSteps& steps) {
  // Every stdio stack measured stops reading at the line over 10 MiB, which then costs a whole
  // time limit: on a process of its own it is waited out beside the other checks.
  if (!run.http()) steps.alone.push_back({check::kOversizedRequest, OverTenMiB(run.revision())});
}

}  // namespace mcpfuzz::checks::detail
