// 2026-07-28's per-request protocol fields in params._meta: each case removes, retypes or
// changes exactly one of them (and, for an unsupported version over HTTP, the header that must
// agree with it, so the case is not a header mismatch instead).

#include <rapidcheck.h>

#include <boost/json/serialize.hpp>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "meta";

/// A change to one request, and its label.
struct Change {
  std::string label;
  std::function<void(Request&)> apply;
};

rc::Gen<GeneratedCase> Changed(std::string_view check_id, rc::Gen<Request> templates,
                               rc::Gen<Change> change) {
  return rc::gen::apply(
      [check_id](const Request& well_formed, const Change& drawn) {
        Request request = well_formed;
        drawn.apply(request);
        return MakeCase(kFamily, check_id, std::move(request), drawn.label, well_formed);
      },
      std::move(templates), std::move(change));
}

const std::vector<boost::json::value>& NotObjects() {
  static const std::vector<boost::json::value> kValues = {
      "x", 42, true, boost::json::array{}, boost::json::array{1}, nullptr};
  return kValues;
}

// No _meta at all. A _meta that is there but not an object is left out: servers that check
// params against the schema reject it as a malformed request (-32600) rather than as missing
// fields (-32602), and the spec does not say which is right.
rc::Gen<Change> MetaMissing(bool http) {
  return rc::gen::map(rc::gen::inRange(0, http ? 2 : 1), [](int kind) {
    if (kind == 0) {
      return Change{"no _meta", [](Request& request) {
                      Params(request).erase("_meta");
                      detail::DropEmptyParams(request);
                    }};
    }
    // Without the header as well: no modern marker is left, so this is a legacy request
    // (tables §10 X6, §12.6), judged by the handshake-era rows: served or refused, any
    // JSON-RPC answer. The "no _meta" case keeps MCP-Protocol-Version 2026-07-28.
    return Change{"no _meta and no MCP-Protocol-Version", [](Request& request) {
                    Params(request).erase("_meta");
                    detail::DropEmptyParams(request);
                    RemoveHeader(request.headers, kHeaderProtocolVersion);
                  }};
  });
}

rc::Gen<Change> MetaPartial() {
  return rc::gen::map(rc::gen::inRange(0, static_cast<int>(NotObjects().size()) + 2), [](int kind) {
    if (kind == 0) {
      return Change{"_meta without clientCapabilities",
                    [](Request& request) { Meta(request).erase(kMetaClientCapabilities); }};
    }
    if (kind == 1) {
      return Change{"_meta without protocolVersion",
                    [](Request& request) { Meta(request).erase(kMetaProtocolVersion); }};
    }
    // A protocolVersion of the wrong type could equally be read as a mismatch with the
    // header or as an unsupported version; clientCapabilities of the wrong type is only
    // ever a missing field.
    const boost::json::value& capabilities = NotObjects()[static_cast<std::size_t>(kind - 2)];
    return Change{"clientCapabilities " + boost::json::serialize(capabilities),
                  [capabilities](Request& request) {
                    Meta(request)[kMetaClientCapabilities] = capabilities;
                  }};
  });
}

// A protocolVersion no revision has. Header-safe: visible ASCII, so a header can carry it.
rc::Gen<std::string> UnsupportedVersion() {
  return rc::gen::mapcat(rc::gen::inRange(0, 3), [](int kind) -> rc::Gen<std::string> {
    if (kind == 0) {
      static const std::vector<std::string> kVersions = {"1900-01-01", "2099-12-31",    "v999.0.0",
                                                         "2026-07-29", "2024-11-04",    "2026-7-28",
                                                         "latest",     "DRAFT-2026-v1", "0"};
      return rc::gen::map(rc::gen::inRange(0, static_cast<int>(kVersions.size())),
                          [](int index) { return kVersions[static_cast<std::size_t>(index)]; });
    }
    if (kind == 1) {
      return rc::gen::apply(
          [](int year, int month, int day) {
            char text[16];
            std::snprintf(text, sizeof text, "%04d-%02d-%02d", year, month, day);
            return std::string(text);
          },
          rc::gen::inRange(1990, 2100), rc::gen::inRange(1, 13), rc::gen::inRange(1, 29));
    }
    return detail::VisibleAscii(1, 30);
  });
}

rc::Gen<Change> VersionUnsupported() {
  return rc::gen::map(UnsupportedVersion(), [](std::string version) {
    // Renamed, not filtered: a known revision is not unsupported.
    while (ParseRevision(version)) version += "-x";
    return Change{"protocolVersion " + detail::Quote(version), [version](Request& request) {
                    Meta(request)[kMetaProtocolVersion] = version;
                    if (FindHeader(request.headers, kHeaderProtocolVersion)) {
                      SetHeader(request.headers, kHeaderProtocolVersion, version);
                    }
                  }};
  });
}

// server/discover: the one method every 2026-07-28 server serves, so success is owed.
rc::Gen<Request> Discover(const GenContext& context) {
  return rc::gen::map(detail::RequestIdValue(), [context](const boost::json::value& id) {
    return context.Make("server/discover", {}, id);
  });
}

}  // namespace

rc::Gen<GeneratedCase> MetaEnvelope(const GenContext& context) {
  const rc::Gen<Request> harmless = detail::HarmlessRequest(context);
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> variants = {
      {3, Changed(check::kMetaMissing, harmless, MetaMissing(context.http()))},
      {3, Changed(check::kMetaPartial, harmless, MetaPartial())},
      {3, Changed(check::kVersionUnsupported, harmless, VersionUnsupported())},
      {1, Changed(check::kMetaClientInfoOptional, Discover(context),
                  rc::gen::just(
                      Change{"_meta without clientInfo",
                             [](Request& request) { Meta(request).erase(kMetaClientInfo); }}))},
  };
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
