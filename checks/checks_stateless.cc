// 2026-07-28's per-request protocol fields (tables §4b): each check takes a well-formed request
// and removes or changes one _meta field (and, for version.unsupported, the header that must
// agree with it).

#include <boost/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "checks/detail/run.h"
#include "checks/detail/scenarios.h"
#include "model/request_builder.h"
#include "model/subscription.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::checks::detail {
namespace {

constexpr std::string_view kUnsupportedVersion = "1900-01-01";

Request WithoutMeta(Connection& connection) {
  Request request = connection.client().Make("tools/list");
  boost::json::object& body = BodyObject(request);
  Params(request).erase("_meta");
  if (Params(request).empty()) body.erase("params");
  return request;
}

template <class Change>
Variant MetaVariant(std::string label, std::string_view method, Change change,
                    Owed owed = Owed::kNothing) {
  return {std::move(label),
          [method, change](Connection& connection) {
            Request request = connection.client().Make(method);
            change(Meta(request), request);
            return request;
          },
          owed};
}

}  // namespace

void MetaMissing(RevisionRun& run) {
  std::vector<Variant> variants = {{"no _meta", WithoutMeta}};
  if (run.http()) {
    // Without the header the request carries no modern marker: a legacy request, which a
    // dual-era server may serve as 2025-03-26 (tables §10 X6), judged by the handshake-era
    // rows. The variant above keeps MCP-Protocol-Version 2026-07-28, so its missing envelope
    // is unambiguous. Over stdio the main connection is locked to 2026-07-28 (§4b V16).
    variants.push_back({"no _meta and no MCP-Protocol-Version", [](Connection& connection) {
                          Request request = WithoutMeta(connection);
                          RemoveHeader(request.headers, kHeaderProtocolVersion);
                          return request;
                        }});
  }
  ReportVariants(run, check::kMetaMissing, variants);
}

void MetaPartial(RevisionRun& run) {
  ReportVariants(
      run, check::kMetaPartial,
      {MetaVariant(
           "_meta without clientCapabilities", "tools/list",
           [](boost::json::object& meta, Request&) { meta.erase(kMetaClientCapabilities); }),
       MetaVariant("_meta without protocolVersion", "tools/list",
                   [](boost::json::object& meta, Request&) { meta.erase(kMetaProtocolVersion); })});
}

void MetaClientInfoOptional(RevisionRun& run) {
  // server/discover is implemented by every 2026-07-28 server, so success is owed.
  ReportVariants(
      run, check::kMetaClientInfoOptional,
      {MetaVariant(
          "_meta without clientInfo", "server/discover",
          [](boost::json::object& meta, Request&) { meta.erase(kMetaClientInfo); }, Owed::kReply)});
}

void VersionUnsupported(RevisionRun& run) {
  ReportVariants(run, check::kVersionUnsupported,
                 {MetaVariant("protocolVersion 1900-01-01 in _meta and header", "server/discover",
                              [](boost::json::object& meta, Request& request) {
                                meta[kMetaProtocolVersion] = kUnsupportedVersion;
                                // The header must agree, or this is a header mismatch instead.
                                if (FindHeader(request.headers, kHeaderProtocolVersion)) {
                                  SetHeader(request.headers, kHeaderProtocolVersion,
                                            kUnsupportedVersion);
                                }
                              })});
}

void DiscoverResult(RevisionRun& run) { ReportFirstOpen(run, check::kDiscoverResult); }

std::optional<CheckResult> UnlistedDiscover(const EraReport& eras) {
  for (const EraAttempt& attempt : eras.attempts) {
    if (!attempt.unlisted_discover) continue;
    const OpenOutcome& discover = *attempt.unlisted_discover;
    // The discover is judged though the revision is not spoken: what is judged is that it
    // served a revision it does not list.
    JudgeContext context;
    context.era_spoken = true;
    CheckResult result;
    result.verdict = Judge(check::kDiscoverResult, discover.request, discover.observation, context);
    result.verdict.notes.push_back("judged from the era probe's server/discover; " +
                                   std::string(ToString(attempt.asked)) +
                                   " is not judged otherwise, since the server does not list it");
    result.revision = attempt.asked;
    result.transport = discover.request.transport;
    result.exchanges.push_back({discover.request, discover.observation, {}});
    return result;
  }
  return std::nullopt;
}

void ListenAcknowledged(RevisionRun& run) {
  // Opting into nothing: the stream has nothing to carry but its acknowledgement, so a server
  // may end it at once, and a transport stops listening once it is acknowledged and quiet.
  ReportVariants(run, check::kListenAcknowledged,
                 {{"subscriptions/listen opting into nothing",
                   [](Connection& connection) {
                     return connection.client().Make(
                         kListenMethod,
                         boost::json::object{{"notifications", boost::json::object{}}});
                   },
                   Owed::kReply}});
}

}  // namespace mcpfuzz::checks::detail
