// JSON-RPC framing (tables §3): each check starts from a well-formed tools/list of the revision
// (correct headers, session and _meta) and breaks exactly one rule of the body.

#include <boost/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

// tools/list exists in every revision and has no side effects.
Request WellFormed(Connection& connection) { return connection.client().Make("tools/list"); }

// The well-formed request with its body object changed by `change`.
template <class Change>
Variant BodyVariant(std::string label, Change change) {
  return {std::move(label), [change](Connection& connection) {
            Request request = WellFormed(connection);
            change(BodyObject(request));
            return request;
          }};
}

Variant RawVariant(std::string label, std::string (*bytes)(const Request& well_formed)) {
  return {std::move(label), [bytes](Connection& connection) {
            Request request = WellFormed(connection);
            SetRawBody(request, bytes(request));
            return request;
          }};
}

std::string Truncated(const Request& well_formed) {
  std::string bytes = well_formed.WireBody();
  bytes.pop_back();
  return bytes;
}

// 0xC3 0x28 (a lead byte followed by no continuation byte) inside a params._meta string, which
// every revision leaves open to extra keys: read leniently (as U+FFFD) the body is the
// well-formed request with one harmless _meta member, so the UTF-8 is the one rule broken.
std::string InvalidUtf8(const Request& well_formed) {
  constexpr std::string_view kSlot = "mcpfuzz-utf8-slot";
  Request request = well_formed;
  Meta(request)["mcpfuzz/utf8"] = kSlot;
  std::string bytes = request.WireBody();
  bytes.replace(bytes.find(kSlot), kSlot.size(), "mcpfuzz\xC3\x28");
  return bytes;
}

std::string Empty(const Request& /*well_formed*/) { return {}; }

Request Batch(Connection& connection, std::string_view first, std::string_view second) {
  Request batch = connection.client().Make(first);
  Request other = connection.client().Make(second);
  batch.body = boost::json::array{*batch.BodyJson(), *other.BodyJson()};
  return batch;
}

}  // namespace

void ParseError(RevisionRun& run) {
  std::vector<Variant> variants = {RawVariant("truncated JSON", Truncated),
                                   RawVariant("invalid UTF-8", InvalidUtf8)};
  // A blank stdio line is no message at all (servers skip it), so only HTTP gets an empty body.
  if (run.http()) variants.push_back(RawVariant("empty body", Empty));
  ReportVariants(run, check::kParseError, variants);
}

void NotAnObject(RevisionRun& run) {
  ReportVariants(run, check::kNotAnObject,
                 {RawVariant("a number", [](const Request&) { return std::string("42"); }),
                  RawVariant("a string", [](const Request&) { return std::string("\"x\""); })});
}

void InvalidRequests(RevisionRun& run) {
  ReportVariants(
      run, check::kMissingJsonrpc,
      {BodyVariant("no jsonrpc", [](boost::json::object& body) { body.erase("jsonrpc"); })});
  ReportVariants(
      run, check::kWrongJsonrpc,
      {BodyVariant("jsonrpc \"1.0\"", [](boost::json::object& body) { body["jsonrpc"] = "1.0"; })});
  ReportVariants(
      run, check::kMissingMethod,
      {BodyVariant("no method", [](boost::json::object& body) { body.erase("method"); })});
  ReportVariants(run, check::kIdNull,
                 {BodyVariant("id null", [](boost::json::object& body) { body["id"] = nullptr; })});
  ReportVariants(run, check::kIdFloat,
                 {BodyVariant("id 1.5", [](boost::json::object& body) { body["id"] = 1.5; })});
  ReportVariants(run, check::kIdBool,
                 {BodyVariant("id true", [](boost::json::object& body) { body["id"] = true; })});
  ReportVariants(run, check::kIdObject, {BodyVariant("id {\"n\":1}", [](boost::json::object& body) {
                   body["id"] = boost::json::object{{"n", 1}};
                 })});
}

void ParamsNotObject(RevisionRun& run) {
  ReportVariants(run, check::kParamsNotObject,
                 {BodyVariant("params [1,2]", [](boost::json::object& body) {
                   body["params"] = boost::json::array{1, 2};
                 })});
}

void NotificationNoReply(RevisionRun& run) {
  auto notification = [](std::string label, std::string method) {
    return Variant{std::move(label), [method](Connection& connection) {
                     return connection.client().MakeNotification(method);
                   }};
  };
  ReportVariants(
      run, check::kNotificationNoReply,
      {notification("a known notification", "notifications/roots/list_changed"),
       notification("an unknown notification", "notifications/mcpfuzz/no_such_notification")});
}

void Batches(RevisionRun& run) {
  // 2025-03-26 must answer both requests; elsewhere a batch is not an MCP message.
  ReportVariants(run, check::kBatchAccepted,
                 {{"a batch of ping and tools/list", [](Connection& connection) {
                     return Batch(connection, "ping", "tools/list");
                   }}});
  ReportVariants(run, check::kBatchEmpty, {{"an empty batch []", [](Connection& connection) {
                                              Request empty = WellFormed(connection);
                                              empty.body = boost::json::array{};
                                              return empty;
                                            }}});
  ReportVariants(run, check::kBatchRejected,
                 {{"a batch of two tools/list", [](Connection& connection) {
                     return Batch(connection, "tools/list", "tools/list");
                   }}});
}

}  // namespace mcpfuzz::checks::detail
