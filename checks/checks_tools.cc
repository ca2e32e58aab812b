// tools/call (tables §6). Read-only by default: every call names a tool that cannot exist,
// except the args probe, which runs only with CheckOptions::call_real_tools.

#include <algorithm>
#include <boost/json.hpp>
#include <charconv>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

bool RequireTools(RevisionRun& run, std::string_view check_id) {
  return run.RequireCapability(check_id, "tools");
}

bool RateLimited(const Observation& observation) {
  return observation.http_status == 429 || observation.http_status == 503;
}

// Retry-After in seconds when the server names it (an HTTP date is not honoured), capped.
std::chrono::milliseconds RetryDelay(const Observation& observation, const CheckOptions& options) {
  const auto header = FindHeader(observation.http_headers, "Retry-After");
  long seconds = 0;
  if (header) {
    const std::string_view text = *header;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (error == std::errc{} && end == text.data() + text.size() && seconds >= 0) {
      return std::min<std::chrono::milliseconds>(std::chrono::seconds(seconds),
                                                 options.max_retry_after);
    }
  }
  return options.retry_spacing;
}

std::string Ordinal(int attempt) { return attempt == 1 ? "1st call" : "2nd call"; }

// The first non-null JSON Schema type of a property, or "".
std::string TypeOf(const boost::json::value* property) {
  if (property == nullptr || !property->is_object()) return {};
  const auto* type = property->as_object().if_contains("type");
  if (type == nullptr) return {};
  if (type->is_string()) return std::string(type->as_string());
  if (type->is_array()) {
    for (const auto& item : type->as_array()) {
      if (item.is_string() && item.as_string() != "null") return std::string(item.as_string());
    }
  }
  return {};
}

// A value no schema of `type` accepts.
std::optional<boost::json::value> WrongValueFor(std::string_view type) {
  if (type == "string") return boost::json::value(12345);
  if (type == "number" || type == "integer") return boost::json::value("not a number");
  if (type == "boolean") return boost::json::value("not a boolean");
  if (type == "array") return boost::json::value("not an array");
  if (type == "object") return boost::json::value("not an object");
  return std::nullopt;
}

// The first tool whose inputSchema has a required property, and that property's type.
struct ProbeTarget {
  std::string tool;
  std::string argument;
  std::string type;
};

std::optional<ProbeTarget> FindProbeTarget(const Exchange& tools_list) {
  const Reply reply = ClassifyReply(tools_list.request, tools_list.observation);
  if (reply.channel != Channel::kSuccess) return std::nullopt;
  const auto* result = reply.message->as_object().if_contains("result");
  const auto* tools =
      result != nullptr && result->is_object() ? result->as_object().if_contains("tools") : nullptr;
  if (tools == nullptr || !tools->is_array()) return std::nullopt;
  for (const auto& tool : tools->as_array()) {
    if (!tool.is_object()) continue;
    const auto* name = tool.as_object().if_contains("name");
    const auto* schema = tool.as_object().if_contains("inputSchema");
    if (name == nullptr || !name->is_string() || schema == nullptr || !schema->is_object()) {
      continue;
    }
    const auto* required = schema->as_object().if_contains("required");
    if (required == nullptr || !required->is_array() || required->as_array().empty() ||
        !required->as_array().front().is_string()) {
      continue;
    }
    ProbeTarget target;
    target.tool = std::string(name->as_string());
    target.argument = std::string(required->as_array().front().as_string());
    const auto* properties = schema->as_object().if_contains("properties");
    if (properties != nullptr && properties->is_object()) {
      target.type = TypeOf(properties->as_object().if_contains(target.argument));
    }
    return target;
  }
  return std::nullopt;
}

// The `member` strings of result[key] in a successful */list reply (first page only).
std::vector<std::string> ListedNames(const Exchange& list, std::string_view key,
                                     std::string_view member) {
  std::vector<std::string> names;
  const Reply reply = ClassifyReply(list.request, list.observation);
  if (reply.channel != Channel::kSuccess) return names;
  const auto* result = reply.message->as_object().if_contains("result");
  const auto* items =
      result != nullptr && result->is_object() ? result->as_object().if_contains(key) : nullptr;
  if (items == nullptr || !items->is_array()) return names;
  for (const auto& item : items->as_array()) {
    const auto* value = item.is_object() ? item.as_object().if_contains(member) : nullptr;
    if (value != nullptr && value->is_string()) names.emplace_back(value->as_string());
  }
  return names;
}

}  // namespace

void UnknownTool(RevisionRun& run) {
  const std::string_view id = check::kUnknownTool;
  if (!RequireTools(run, id)) return;
  run.set_current_check(id);
  ResultBuilder result(run, id);
  std::vector<std::string> answers;
  std::string stopped;
  // Two different impossible names, each twice: the answer must not depend on the name or on
  // the attempt.
  for (std::string_view name : {kImpossibleTool, kSecondImpossibleTool}) {
    for (int attempt = 1; attempt <= 2 && stopped.empty(); ++attempt) {
      Connection* main = run.Main();
      if (main == nullptr) {
        stopped = run.MainFailure();
        break;
      }
      const Request request =
          main->client().Make("tools/call", {{"name", name}, {"arguments", boost::json::object{}}});
      Exchange exchange = main->Send(request);
      if (run.http() && RateLimited(exchange.observation)) {
        // One retry after the pause the server asks for; a second refusal stays UNVERIFIED.
        std::this_thread::sleep_for(RetryDelay(exchange.observation, run.options()));
        result.Add(std::move(exchange));
        exchange = main->Send(request);
      }
      const std::string label = std::string(name) + ", " + Ordinal(attempt);
      answers.push_back(label + ": " + DescribeAnswer(exchange));
      // A server that stopped answering would only cost a timeout per remaining probe.
      if (exchange.observation.outcome != Outcome::kOk &&
          exchange.observation.outcome != Outcome::kDropped) {
        stopped = "the exchange ended " + std::string(ToString(exchange.observation.outcome));
      }
      result.Judge(std::move(exchange), run.Context(), label);
    }
  }
  if (!result.judged_any()) return run.ReportUnreachable(id);
  if (!stopped.empty()) result.Note("the remaining calls were not sent: " + stopped);

  if (answers.size() < 2) return run.Report(std::move(result));
  auto answer_of = [](const std::string& line) { return line.substr(line.find(": ") + 2); };
  const bool consistent = std::all_of(answers.begin(), answers.end(), [&](const std::string& line) {
    return answer_of(line) == answer_of(answers.front());
  });
  if (consistent) {
    result.Note("all " + std::to_string(answers.size()) +
                " answers alike: " + answer_of(answers.front()));
  } else {
    std::string note = "the answers differ between calls:";
    for (const std::string& line : answers) note += " " + line + ";";
    note.pop_back();
    result.Note(note);
  }
  run.Report(std::move(result));
}

void UnknownNameConsistent(RevisionRun& run) {
  const std::string_view id = check::kUnknownNameConsistent;
  if (!run.Pending(id)) return;
  const std::pair<std::string_view, std::string_view> kMethods[] = {
      {"tools", "tools/call"}, {"prompts", "prompts/get"}, {"resources", "resources/read"}};
  run.set_current_check(id);
  ResultBuilder result(run, id);
  bool declared_any = false;
  for (const auto& [capability, method] : kMethods) {
    if (!run.Declares(capability)) continue;
    declared_any = true;
    Connection* main = run.Main();
    if (main == nullptr) break;
    // A name the server has is a real tool, prompt or resource: never asked for.
    std::vector<std::string> listed;
    const std::string_view list_method = capability == "tools"     ? "tools/list"
                                         : capability == "prompts" ? "prompts/list"
                                                                   : "resources/list";
    Exchange list = main->Send(main->client().Make(list_method));
    listed = ListedNames(list, capability == "resources" ? "resources" : capability,
                         capability == "resources" ? "uri" : "name");
    result.Add(std::move(list));
    const Request random = main->client().Make(method, NameParams(method, RandomNameFor(method)));
    Exchange reference = main->Send(random);
    if (reference.observation.outcome != Outcome::kOk) {
      // tools.unknown-name, prompts.unknown and resources.unknown judge that silence.
      result.Note(std::string(method) + " of a random name got no answer (" +
                  std::string(ToString(reference.observation.outcome)) + "): nothing to compare");
      continue;
    }
    JudgeContext context = run.Context();
    context.random_name_answer = ReadNameAnswer(reference.request, reference.observation);
    result.Note(std::string(method) + " of the random \"" + std::string(RandomNameFor(method)) +
                "\": " + DescribeAnswer(reference));
    result.Add(std::move(reference));
    for (std::string_view name : kPrototypeNames) {
      if (std::find(listed.begin(), listed.end(), name) != listed.end()) {
        result.Note(std::string(name) + " is listed by " + std::string(list_method) +
                    ", so it was not asked for");
        continue;
      }
      Connection* connection = run.Main();
      if (connection == nullptr) break;
      result.Judge(connection->Send(connection->client().Make(method, NameParams(method, name))),
                   context, std::string(method) + " " + std::string(name));
    }
  }
  if (!declared_any) {
    return run.ReportNotApplicable(id, "the target declared no tools, prompts or resources");
  }
  if (!result.judged_any()) return run.ReportUnreachable(id);
  run.Report(std::move(result));
}

void ToolMissingName(RevisionRun& run) {
  if (!RequireTools(run, check::kToolMissingName)) return;
  ReportVariants(
      run, check::kToolMissingName,
      {{"tools/call without name", [](Connection& connection) {
          return connection.client().Make("tools/call", {{"arguments", boost::json::object{}}});
        }}});
}

void ToolArgumentsNotObject(RevisionRun& run) {
  if (!RequireTools(run, check::kToolArgumentsNotObject)) return;
  ReportVariants(run, check::kToolArgumentsNotObject,
                 {{"arguments an array", [](Connection& connection) {
                     return connection.client().Make(
                         "tools/call", {{"name", kImpossibleTool},
                                        {"arguments", boost::json::array{"not", "an", "object"}}});
                   }}});
}

void ToolBadArguments(RevisionRun& run) {
  const std::string_view id = check::kToolBadArguments;
  if (!RequireTools(run, id)) return;
  if (!run.options().call_real_tools) {
    return run.ReportNotApplicable(id,
                                   "the args probe calls a real tool, so it runs only with "
                                   "`mcpfuzz check --call-real-tools`");
  }
  run.set_current_check(id);
  Connection* main = run.Main();
  if (main == nullptr) return run.ReportUnreachable(id);
  ResultBuilder result(run, id);
  Exchange tools_list = main->Send(main->client().Make("tools/list"));
  const std::optional<ProbeTarget> target = FindProbeTarget(tools_list);
  const std::string listed = DescribeAnswer(tools_list);
  result.Add(std::move(tools_list));
  if (!target) {
    return run.ReportNotApplicable(
        id, "tools/list (" + listed + ") named no tool whose inputSchema has a required property");
  }
  JudgeContext context = run.Context();
  context.argument_name = target->argument;
  const std::string quoted = "'" + target->argument + "'";

  result.Judge(main->Send(main->client().Make(
                   "tools/call", {{"name", target->tool}, {"arguments", boost::json::object{}}})),
               context, target->tool + " with {} (" + quoted + " missing)");
  if (std::optional<boost::json::value> wrong = WrongValueFor(target->type)) {
    if (Connection* again = run.Main()) {
      boost::json::object arguments{{target->argument, *wrong}};
      result.Judge(again->Send(again->client().Make(
                       "tools/call", {{"name", target->tool}, {"arguments", arguments}})),
                   context, target->tool + " with " + quoted + " not a " + target->type);
    }
  } else {
    result.Note("the schema gives " + quoted + " no type, so no wrong-typed call was made");
  }
  run.Report(std::move(result));
}

}  // namespace mcpfuzz::checks::detail
