// Handshake era over Streamable HTTP: initialize asking for a protocol version the server
// cannot speak. Sent without a session, it opens a new one, as any client's first request
// would; it never touches the campaign's own session. Over stdio the live connection is
// initialized already, and a second initialize asks another question, so stdio is left out.

#include <rapidcheck.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "initialize";

bool IsRevision(const std::string& text) { return ParseRevision(text).has_value(); }

// Strings no revision is named by. 2026-07-28 is left out on purpose: a server of both eras
// may read it as a request for the stateless era rather than as an unknown version.
rc::Gen<std::string> UnsupportedVersion() {
  static const std::vector<std::string> kFixed = {"1900-01-01",  "2099-12-31", "2024-11-06",
                                                  "2025-11-25x", "v999.0.0",   ""};
  return rc::gen::mapcat(rc::gen::inRange(0, 3), [](int kind) -> rc::Gen<std::string> {
    if (kind == 0) {
      return rc::gen::map(rc::gen::inRange(0, static_cast<int>(kFixed.size())),
                          [](int index) { return kFixed[static_cast<std::size_t>(index)]; });
    }
    if (kind == 1) {
      return rc::gen::map(rc::gen::tuple(rc::gen::inRange(1000, 10000), rc::gen::inRange(1, 13),
                                         rc::gen::inRange(1, 29)),
                          [](const std::tuple<int, int, int>& date) {
                            char text[16];
                            std::snprintf(text, sizeof text, "%04d-%02d-%02d", std::get<0>(date),
                                          std::get<1>(date), std::get<2>(date));
                            std::string version(text);
                            if (IsRevision(version)) version += "x";
                            return version;
                          });
    }
    return rc::gen::map(detail::VisibleAscii(1, 30), [](std::string version) {
      if (IsRevision(version)) version += "x";
      return version;
    });
  });
}

}  // namespace

rc::Gen<GeneratedCase> InitializeVersions(const GenContext& context) {
  return rc::gen::apply(
      [context](const boost::json::value& id, const std::string& version) {
        const boost::json::object client_info{{"name", "mcpfuzz"}, {"version", "0.1.0"}};
        Request well_formed = context.Make("initialize",
                                           {{"protocolVersion", ToString(context.revision)},
                                            {"capabilities", boost::json::object{}},
                                            {"clientInfo", client_info}},
                                           id);
        well_formed.session = SessionBinding::kOmit;
        Request request = well_formed;
        Params(request)["protocolVersion"] = version;
        return MakeCase(kFamily, check::kInitializeUnsupportedVersion, std::move(request),
                        "initialize asking for " + detail::Quote(version), well_formed);
      },
      detail::RequestIdValue(), UnsupportedVersion());
}

}  // namespace mcpfuzz::gen
