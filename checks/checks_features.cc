// Methods and server features (tables §5, §7): names and values no server has, sent with an
// otherwise well-formed request.

#include <boost/json.hpp>
#include <string>
#include <utility>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

constexpr std::string_view kLogLevelKey = "io.modelcontextprotocol/logLevel";

Variant Call(std::string label, std::string method, boost::json::object params) {
  return {
      std::move(label),
      [method, params](Connection& connection) { return connection.client().Make(method, params); },
      Owed::kReply};
}

}  // namespace

void UnknownMethod(RevisionRun& run) {
  ReportVariants(run, check::kUnknownMethod,
                 {Call("mcpfuzz/no_such_method", "mcpfuzz/no_such_method", {})});
}

void UnknownResource(RevisionRun& run) {
  if (!run.RequireCapability(check::kUnknownResource, "resources")) return;
  ReportVariants(
      run, check::kUnknownResource,
      {Call("an unknown URI", "resources/read", {{"uri", "mcpfuzz://no-such-resource/4f1c9a"}})});
}

void UnknownPrompt(RevisionRun& run) {
  if (!run.RequireCapability(check::kUnknownPrompt, "prompts")) return;
  ReportVariants(
      run, check::kUnknownPrompt,
      {Call("an unknown prompt", "prompts/get", {{"name", "mcpfuzz_no_such_prompt_4f1c9a"}})});
}

void InvalidCursor(RevisionRun& run) {
  if (!run.capabilities_known()) return run.ReportUnreachable(check::kInvalidCursor);
  for (std::string_view capability : {"tools", "prompts", "resources"}) {
    if (!run.Declares(capability)) continue;
    const std::string method = std::string(capability) + "/list";
    return ReportVariants(run, check::kInvalidCursor,
                          {Call(method + " with a garbage cursor", method,
                                {{"cursor", "mcpfuzz-garbage-cursor-4f1c9a"}})});
  }
  run.ReportNotApplicable(check::kInvalidCursor,
                          "the server declared none of tools, prompts and resources, so it has "
                          "no list to page through");
}

void InvalidLogLevel(RevisionRun& run) {
  if (!run.RequireCapability(check::kInvalidLogLevel, "logging")) return;
  if (!run.stateless()) {
    return ReportVariants(run, check::kInvalidLogLevel,
                          {Call("logging/setLevel with an unknown level", "logging/setLevel",
                                {{"level", "mcpfuzz-no-such-level"}})});
  }
  // 2026-07-28 has no logging/setLevel: the level travels in each request's _meta.
  ReportVariants(run, check::kInvalidLogLevel,
                 {{"server/discover with an unknown _meta logLevel", [](Connection& connection) {
                     Request request = connection.client().Make("server/discover");
                     Meta(request)[kLogLevelKey] = "mcpfuzz-no-such-level";
                     return request;
                   }}});
}

}  // namespace mcpfuzz::checks::detail
