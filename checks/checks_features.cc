// Methods and server features (tables §5, §7): names and values no server has, sent with an
// otherwise well-formed request.

#include <boost/json.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "model/channel.h"
#include "model/logging.h"
#include "model/request_builder.h"
#include "model/request_edit.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

Variant Call(std::string label, std::string method, boost::json::object params) {
  return {
      std::move(label),
      [method, params](Connection& connection) { return connection.client().Make(method, params); },
      Owed::kReply};
}

// `method` with `params` sent on `connection`, a reply owed.
Exchange Ask(Connection& connection, std::string_view method, boost::json::object params = {}) {
  return connection.Send(connection.client().Make(method, std::move(params)), Owed::kReply);
}

struct PromptArgument {
  std::string prompt;
  std::string argument;
};

// The first listed prompt with an argument marked required.
std::optional<PromptArgument> FindRequiredPromptArgument(const Exchange& prompts_list) {
  const Reply reply = ClassifyReply(prompts_list.request, prompts_list.observation);
  if (reply.channel != Channel::kSuccess) return std::nullopt;
  const auto* result = reply.message->as_object().if_contains("result");
  const auto* prompts = result != nullptr && result->is_object()
                            ? result->as_object().if_contains("prompts")
                            : nullptr;
  if (prompts == nullptr || !prompts->is_array()) return std::nullopt;
  for (const auto& prompt : prompts->as_array()) {
    if (!prompt.is_object()) continue;
    const auto* name = prompt.as_object().if_contains("name");
    const auto* arguments = prompt.as_object().if_contains("arguments");
    if (name == nullptr || !name->is_string() || arguments == nullptr || !arguments->is_array()) {
      continue;
    }
    for (const auto& argument : arguments->as_array()) {
      if (!argument.is_object()) continue;
      const auto* argument_name = argument.as_object().if_contains("name");
      const auto* required = argument.as_object().if_contains("required");
      if (argument_name != nullptr && argument_name->is_string() && required != nullptr &&
          required->is_bool() && required->as_bool()) {
        return PromptArgument{std::string(name->as_string()),
                              std::string(argument_name->as_string())};
      }
    }
  }
  return std::nullopt;
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

void PromptMissingArguments(RevisionRun& run) {
  const std::string_view id = check::kPromptMissingArguments;
  if (!run.RequireCapability(id, "prompts")) return;
  run.set_current_check(id);
  Connection* main = run.Main();
  if (main == nullptr) return run.ReportUnreachable(id);
  ResultBuilder result(run, id);
  Exchange prompts_list = main->Send(main->client().Make("prompts/list"));
  const std::optional<PromptArgument> target = FindRequiredPromptArgument(prompts_list);
  const std::string listed = DescribeAnswer(prompts_list);
  result.Add(std::move(prompts_list));
  if (!target) {
    return run.ReportNotApplicable(
        id, "prompts/list (" + listed + ") named no prompt with a required argument");
  }
  // prompts/get only renders a template: unlike tools/call it runs nothing on the server.
  result.Judge(
      main->Send(main->client().Make(
          "prompts/get", {{"name", target->prompt}, {"arguments", boost::json::object{}}})),
      run.Context(), target->prompt + " without '" + target->argument + "'");
  run.Report(std::move(result));
}

// The nextCursor a successful list reply handed out.
std::optional<std::string> NextCursor(const Exchange& list) {
  const Reply reply = ClassifyReply(list.request, list.observation);
  if (reply.channel != Channel::kSuccess) return std::nullopt;
  const auto* result = reply.message->as_object().if_contains("result");
  const auto* next = result != nullptr && result->is_object()
                         ? result->as_object().if_contains("nextCursor")
                         : nullptr;
  if (next == nullptr || !next->is_string()) return std::nullopt;
  return std::string(next->as_string());
}

// The list methods of the capabilities the server declared.
std::vector<std::string> DeclaredLists(const RevisionRun& run) {
  std::vector<std::string> lists;
  for (std::string_view capability : {"tools", "prompts", "resources"}) {
    if (run.Declares(capability)) lists.push_back(std::string(capability) + "/list");
  }
  if (run.Declares("resources")) lists.emplace_back("resources/templates/list");
  return lists;
}

void InvalidCursor(RevisionRun& run) {
  if (!run.capabilities_known()) return run.ReportUnreachable(check::kInvalidCursor);
  const std::vector<std::string> lists = DeclaredLists(run);
  if (lists.empty()) {
    return run.ReportNotApplicable(check::kInvalidCursor,
                                   "the server declared none of tools, prompts and resources, so "
                                   "it has no list to page through");
  }
  std::vector<Variant> variants = {Call(lists.front() + " with a garbage cursor", lists.front(),
                                        {{"cursor", "mcpfuzz-garbage-cursor-4f1c9a"}})};
  // A cursor is bound to the list that handed it out (tables C1): the first nextCursor any list
  // hands out, sent to another list, must be refused too.
  if (Connection* main = run.Main(); main != nullptr && lists.size() > 1) {
    for (const std::string& method : lists) {
      const std::optional<std::string> cursor = NextCursor(main->Send(main->client().Make(method)));
      if (!cursor) continue;
      const std::string& other = method == lists.front() ? lists[1] : lists.front();
      variants.push_back(
          Call(other + " with the nextCursor of " + method, other, {{"cursor", *cursor}}));
      break;
    }
  }
  ReportVariants(run, check::kInvalidCursor, variants);
}

// The first nextCursor a declared list hands out, sent with that list twice on a connection of
// its own (tables §7 C2): the second use must get a result as the first did, cursors being
// stable. Not judged where no list hands out a cursor or the first use is refused.
void CursorReused(RevisionRun& run) {
  const std::string_view id = check::kCursorReused;
  if (!run.capabilities_known()) return run.ReportUnreachable(id);
  ReportOnOwnConnection(run, id, [&run](Connection& connection, ResultBuilder& result) {
    for (const std::string& method : DeclaredLists(run)) {
      if (connection.Dead()) break;
      const std::optional<std::string> cursor =
          NextCursor(result.exchanges()[result.Add(Ask(connection, method))]);
      if (!cursor) continue;
      const std::size_t first = result.Add(Ask(connection, method, {{"cursor", *cursor}}));
      if (!Served(result.exchanges()[first])) {
        return result.Note(method + " refused its own nextCursor the first time it was sent back");
      }
      if (connection.Dead()) return;
      result.Judge(Ask(connection, method, {{"cursor", *cursor}}), run.Context(),
                   method + " with its nextCursor a second time");
      return;
    }
    result.Note("no declared list handed out a nextCursor to send twice");
  });
}

void CursorReusedAhead(const AheadView& run, FreshSteps& steps) {
  if (run.capabilities_known()) ++steps.opened;
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
                     Meta(request)[kMetaLogLevel] = "mcpfuzz-no-such-level";
                     return request;
                   }}});
}

// The uri of the first resource a resources/list reply names.
std::optional<std::string> FirstResourceUri(const Exchange& list) {
  const Reply reply = ClassifyReply(list.request, list.observation);
  if (reply.channel != Channel::kSuccess) return std::nullopt;
  const boost::json::object* result = ObjectMember(reply.message->as_object(), "result");
  const boost::json::value* resources = result ? result->if_contains("resources") : nullptr;
  if (resources == nullptr || !resources->is_array() || resources->as_array().empty()) {
    return std::nullopt;
  }
  const boost::json::value& first = resources->as_array().front();
  const boost::json::object* resource = first.if_object();
  const boost::json::value* uri = resource ? resource->if_contains("uri") : nullptr;
  if (uri == nullptr || !uri->is_string()) return std::nullopt;
  return std::string(uri->as_string());
}

// resources/subscribe of the first resource resources/list names, its resources/unsubscribe,
// then a ping, on a connection of their own (tables §7 R4s). Nothing is judged where the
// server names no resource or refuses the subscribe: the unsubscribe would follow none.
void Unsubscribe(RevisionRun& run) {
  const std::string_view id = check::kUnsubscribe;
  if (!run.RequireCapability(id, "resources")) return;
  if (!DeclaresFlag(run.capabilities(), "resources", "subscribe")) {
    return run.ReportNotApplicable(id, "the server did not declare resources.subscribe");
  }
  ReportOnOwnConnection(run, id, [&run](Connection& connection, ResultBuilder& result) {
    const std::optional<std::string> uri =
        FirstResourceUri(result.exchanges()[result.Add(Ask(connection, "resources/list"))]);
    if (!uri) return result.Note("resources/list named no resource to subscribe to");
    if (connection.Dead()) return;
    if (!Served(result.exchanges()[result.Add(
            Ask(connection, "resources/subscribe", {{"uri", *uri}}))])) {
      return result.Note(
          "resources/subscribe was not answered with a result, so there is no subscription to "
          "end");
    }
    if (connection.Dead()) return;
    JudgeContext context = run.Context();
    result.Judge(Ask(connection, "resources/unsubscribe", {{"uri", *uri}}), context,
                 "resources/unsubscribe");
    context.unsubscribed_uris = {*uri};
    if (!connection.Dead()) result.Judge(Ask(connection, "ping"), context, "a ping after it");
  });
}

void UnsubscribeAhead(const AheadView& run, FreshSteps& steps) {
  if (run.Declares("resources") && run.DeclaresFlag("resources", "subscribe")) {
    ++steps.opened;
  }
}

// logging/setLevel on a connection of its own, then a ping (tables §7 G4). The level is the most
// severe one, so that any log message the ping's reply carries is below it.
void SessionLogLevel(RevisionRun& run) {
  const std::string_view id = check::kSessionLogLevel;
  if (!run.RequireCapability(id, "logging")) return;
  ReportOnOwnConnection(run, id, [&run](Connection& connection, ResultBuilder& result) {
    constexpr std::string_view kLevel = kLogLevels.back();
    if (!Served(result.exchanges()[result.Add(
            Ask(connection, "logging/setLevel", {{"level", kLevel}}))])) {
      // Not judged (NOT_APPLICABLE): without a level set there is nothing to judge messages by.
      return result.Note(
          "logging/setLevel was not answered with a result, so no level was set to judge later "
          "log messages by");
    }
    JudgeContext context = run.Context();
    context.session_log_level = std::string(kLevel);
    if (!connection.Dead()) {
      result.Judge(Ask(connection, "ping"), context);
    }
  });
}

void SessionLogLevelAhead(const AheadView& run, FreshSteps& steps) {
  if (run.Declares("logging")) ++steps.opened;
}

}  // namespace mcpfuzz::checks::detail
