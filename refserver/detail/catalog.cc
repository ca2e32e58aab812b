#include "refserver/detail/catalog.h"

#include <boost/json/array.hpp>
#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace mcpfuzz::refserver::detail {
namespace {

constexpr std::string_view kReadmeText =
    "mcpfuzz reference server: tools echo, add and fail_upstream; prompt greeting; this "
    "resource.\n";

RpcError InvalidParams(std::string message, std::optional<boost::json::value> data = {}) {
  return RpcError{-32602, std::move(message), std::move(data)};
}

boost::json::object TextContent(std::string_view text) {
  return {{"type", "text"}, {"text", text}};
}

boost::json::object ToolResult(std::string_view text, std::optional<bool> is_error) {
  boost::json::object result;
  result["content"] = boost::json::array{TextContent(text)};
  if (is_error) result["isError"] = *is_error;
  return result;
}

boost::json::object ObjectSchema(boost::json::object properties, boost::json::array required) {
  boost::json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

boost::json::array ToolDefinitions() {
  boost::json::object number{{"type", "number"}};
  return {
      {{"name", "echo"},
       {"description", "Returns the message it is given."},
       {"inputSchema",
        ObjectSchema({{"message", {{"type", "string"}, {"description", "Text to echo back"}}}},
                     {"message"})}},
      {{"name", "add"},
       {"description", "Adds two numbers."},
       {"inputSchema", ObjectSchema({{"a", number}, {"b", number}}, {"a", "b"})}},
      {{"name", "fail_upstream"},
       {"description", "Always fails, the way a tool whose upstream API timed out does."},
       {"inputSchema", ObjectSchema({}, {})}},
  };
}

bool IsNumber(const boost::json::value& value) {
  return value.is_int64() || value.is_uint64() || value.is_double();
}

std::string FormatSum(const boost::json::value& a, const boost::json::value& b) {
  std::int64_t exact = 0;
  if (a.is_int64() && b.is_int64() &&
      !__builtin_add_overflow(a.get_int64(), b.get_int64(), &exact)) {
    return std::to_string(exact);
  }
  double sum = a.to_number<double>() + b.to_number<double>();
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, sum);
  if (error != std::errc{}) return "NaN";
  return std::string(buffer, end);
}

// What a server that hands its schema validator's output to the client sends
// (validator-dump-in-errors): zod's issue list, as the TypeScript SDK v1 stacks do.
RpcError ValidatorDump(std::string_view expected, std::string_view received,
                       std::string_view path) {
  return RpcError{
      -32603,
      "MCP error -32603: [\n  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"" +
          std::string(expected) + "\",\n    \"received\": \"" + std::string(received) +
          "\",\n    \"path\": [\n      \"" + std::string(path) +
          "\"\n    ],\n    \"message\": \"Required\"\n  }\n]",
      std::nullopt};
}

// Input validation failures of a known tool (SEP-1303): an execution error the model can read,
// naming the argument; -32602 only under the input-validation-as-protocol-error fault.
MethodReply ArgumentProblem(const FaultSet& faults, std::string_view tool,
                            std::string_view problem) {
  if (faults.contains(Fault::kValidatorDumpInErrors)) {
    return {ValidatorDump("string", "undefined", "arguments")};
  }
  std::string text =
      "Invalid arguments for tool " + std::string(tool) + ": " + std::string(problem);
  if (faults.contains(Fault::kInputValidationAsProtocolError)) return {InvalidParams(text)};
  return {ToolResult(text, true)};
}

std::optional<std::string> MissingOrWrongType(const boost::json::object& arguments,
                                              std::string_view name, bool want_string) {
  const boost::json::value* value = arguments.if_contains(name);
  std::string quoted = "'" + std::string(name) + "'";
  if (value == nullptr) return "missing required property " + quoted;
  if (want_string && !value->is_string()) return "property " + quoted + " must be a string";
  if (!want_string && !IsNumber(*value)) return "property " + quoted + " must be a number";
  return std::nullopt;
}

// What `registry[name]` finds on a plain JavaScript object that has no such own property.
bool IsObjectPrototypeName(std::string_view name) {
  for (std::string_view inherited :
       {"__proto__", "constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty",
        "isPrototypeOf", "propertyIsEnumerable", "__defineGetter__", "__defineSetter__",
        "__lookupGetter__", "__lookupSetter__"}) {
    if (name == inherited) return true;
  }
  return false;
}

MethodReply UnknownTool(const FaultSet& faults, std::string_view name) {
  std::string text = "Unknown tool: " + std::string(name);
  if (faults.contains(Fault::kPrototypeNameLookup) && IsObjectPrototypeName(name)) {
    // The lookup found a function, whose `enabled` is undefined: SDK v1's "disabled".
    return {InvalidParams("Tool " + std::string(name) + " disabled")};
  }
  if (faults.contains(Fault::kHangOnUnknownTool)) {
    return {InvalidParams(text), Action::kHang};
  }
  if (faults.contains(Fault::kUnknownToolHtml)) {
    RawPage page;
    page.http_status = 500;
    page.content_type = "text/html; charset=utf-8";
    page.body =
        "<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n"
        "<body><h1>Internal Server Error</h1><p>No handler for this tool.</p></body></html>\n";
    page.stdio_line = "Internal Server Error: no handler for tool " + std::string(name);
    return {std::move(page)};
  }
  if (faults.contains(Fault::kUnknownToolWrongCode)) return {RpcError{-32601, text, {}}};
  if (faults.contains(Fault::kUnknownToolIsError)) {
    return {ToolResult("Tool " + std::string(name) + " not found", true)};
  }
  if (faults.contains(Fault::kUnknownToolPlainSuccess)) {
    return {ToolResult(text, std::nullopt)};
  }
  return {InvalidParams(text)};
}

MethodReply CallTool(const FaultSet& faults, const boost::json::object& params) {
  const boost::json::value* name = params.if_contains("name");
  if (name == nullptr || !name->is_string()) {
    if (faults.contains(Fault::kValidatorDumpInErrors)) {
      return {ValidatorDump("string", name == nullptr ? "undefined" : "other", "name")};
    }
    return {InvalidParams("Invalid params: tools/call needs a string 'name'")};
  }
  boost::json::object arguments;
  if (const boost::json::value* given = params.if_contains("arguments")) {
    if (!given->is_object()) {
      return {InvalidParams("Invalid params: 'arguments' must be an object")};
    }
    arguments = given->get_object();
  }
  std::string_view tool = name->get_string();
  if (tool == "echo") {
    if (auto problem = MissingOrWrongType(arguments, "message", true)) {
      return ArgumentProblem(faults, tool, *problem);
    }
    return {ToolResult(arguments.at("message").get_string(), std::nullopt)};
  }
  if (tool == "add") {
    for (std::string_view operand : {"a", "b"}) {
      if (auto problem = MissingOrWrongType(arguments, operand, false)) {
        return ArgumentProblem(faults, tool, *problem);
      }
    }
    return {ToolResult(FormatSum(arguments.at("a"), arguments.at("b")), std::nullopt)};
  }
  if (tool == "fail_upstream") return {ToolResult(kUpstreamFailureText, true)};
  return UnknownTool(faults, tool);
}

MethodReply GetPrompt(const FaultSet& faults, const boost::json::object& params) {
  const boost::json::value* name = params.if_contains("name");
  if (name == nullptr || !name->is_string()) {
    return {InvalidParams("Invalid params: prompts/get needs a string 'name'")};
  }
  if (faults.contains(Fault::kPrototypeNameLookup) && IsObjectPrototypeName(name->get_string())) {
    return {InvalidParams("Prompt " + std::string(name->get_string()) + " disabled")};
  }
  if (name->get_string() != "greeting") {
    return {InvalidParams("Unknown prompt: " + std::string(name->get_string()))};
  }
  const boost::json::value* arguments = params.if_contains("arguments");
  if (arguments != nullptr && !arguments->is_object()) {
    return {InvalidParams("Invalid params: 'arguments' must be an object")};
  }
  const boost::json::value* who =
      arguments != nullptr ? arguments->get_object().if_contains("name") : nullptr;
  if (who == nullptr) return {InvalidParams("Missing required argument: name")};
  if (!who->is_string()) return {InvalidParams("Invalid params: argument 'name' must be a string")};
  boost::json::object message{
      {"role", "user"},
      {"content", TextContent("Please greet " + std::string(who->get_string()) + " warmly.")}};
  return {boost::json::object{{"description", "A friendly greeting"},
                              {"messages", boost::json::array{std::move(message)}}}};
}

MethodReply ReadResource(const FaultSet& faults, Revision revision,
                         const boost::json::object& params) {
  const boost::json::value* uri = params.if_contains("uri");
  if (uri == nullptr || !uri->is_string()) {
    return {InvalidParams("Invalid params: resources/read needs a string 'uri'")};
  }
  if (uri->get_string() != kReadmeUri) {
    bool legacy_code =
        EraOf(revision) == Era::kHandshake || faults.contains(Fault::kResourceNotFoundLegacyCode);
    return {RpcError{legacy_code ? -32002 : -32602, "Resource not found",
                     boost::json::object{{"uri", *uri}}}};
  }
  boost::json::object contents{
      {"uri", kReadmeUri}, {"mimeType", "text/plain"}, {"text", kReadmeText}};
  return {boost::json::object{{"contents", boost::json::array{std::move(contents)}}}};
}

// The one paginated list: resources/templates/list answers an empty first page and a
// nextCursor to its (empty, last) second page, so a client has a cursor to carry (to another
// list, for cursor-across-lists). Cursors are opaque to the client and bound to their method.
constexpr std::string_view kPaginatedList = "resources/templates/list";

// The cursor `method` hands out for its second page: opaque (hex of "METHOD#2") but fixed, so
// the same run gives the same bytes.
std::string CursorFor(std::string_view method) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string cursor;
  for (char c : std::string(method) + "#2") {
    const auto byte = static_cast<unsigned char>(c);
    cursor += kHex[byte >> 4];
    cursor += kHex[byte & 15];
  }
  return cursor;
}

bool IsCursorOfAnotherList(std::string_view method, std::string_view cursor) {
  for (std::string_view other : {std::string_view("tools/list"), std::string_view("prompts/list"),
                                 std::string_view("resources/list"), kPaginatedList}) {
    if (other != method && cursor == CursorFor(other)) return true;
  }
  return false;
}

MethodReply List(const FaultSet& faults, std::string_view method, std::string_view key,
                 boost::json::array items, const boost::json::object& params) {
  const boost::json::value* cursor = params.if_contains("cursor");
  if (cursor == nullptr) {
    if (method != kPaginatedList) return {boost::json::object{{key, std::move(items)}}};
    return {boost::json::object{{key, boost::json::array{}}, {"nextCursor", CursorFor(method)}}};
  }
  const bool own = cursor->is_string() && cursor->get_string() == CursorFor(method);
  const bool foreign_accepted = cursor->is_string() && faults.contains(Fault::kCursorAcrossLists) &&
                                IsCursorOfAnotherList(method, cursor->get_string());
  if (!own && !foreign_accepted) return {InvalidParams("Invalid cursor")};
  if (own) return {boost::json::object{{key, boost::json::array{}}}};
  return {boost::json::object{{key, std::move(items)}}};
}

}  // namespace

boost::json::object ServerCapabilities(Era era) {
  boost::json::object capabilities{
      {"tools", boost::json::object{}},
      {"prompts", boost::json::object{}},
      {"resources", boost::json::object{}},
  };
  if (era == Era::kHandshake) {
    capabilities["logging"] = boost::json::object{};
    // 2026-07-28 removed resources/subscribe; its subscriptions/listen delivers no updates here.
    capabilities["resources"] = boost::json::object{{"subscribe", true}};
  }
  return capabilities;
}

std::string_view ServerInstructions() {
  return "Reference server of the mcpfuzz suite: call echo, add or fail_upstream.";
}

bool IsCatalogMethod(std::string_view method) {
  return method == "tools/list" || method == "tools/call" || method == "prompts/list" ||
         method == "prompts/get" || method == "resources/list" || method == "resources/read" ||
         method == "resources/templates/list";
}

MethodReply CallCatalog(const FaultSet& faults, Revision revision, std::string_view method,
                        const boost::json::object& params) {
  if (method == "tools/list") return List(faults, method, "tools", ToolDefinitions(), params);
  if (method == "tools/call") return CallTool(faults, params);
  if (method == "prompts/list") {
    boost::json::object name_argument{
        {"name", "name"}, {"description", "Who to greet"}, {"required", true}};
    boost::json::object greeting{{"name", "greeting"},
                                 {"description", "A friendly greeting"},
                                 {"arguments", boost::json::array{std::move(name_argument)}}};
    return List(faults, method, "prompts", {std::move(greeting)}, params);
  }
  if (method == "prompts/get") return GetPrompt(faults, params);
  if (method == "resources/list") {
    boost::json::object readme{{"uri", kReadmeUri},
                               {"name", "readme"},
                               {"description", "What this server offers"},
                               {"mimeType", "text/plain"}};
    return List(faults, method, "resources", {std::move(readme)}, params);
  }
  if (method == "resources/read") return ReadResource(faults, revision, params);
  if (method == "resources/templates/list")
    return List(faults, method, "resourceTemplates", {}, params);
  return {RpcError{-32601, "Method not found: " + std::string(method), std::nullopt}};
}

}  // namespace mcpfuzz::refserver::detail
