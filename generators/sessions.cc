// Handshake-era sessions over Streamable HTTP: a request that leaves the live session out, or
// names one that does not exist. The live session itself is never ended, so the run keeps it.

#include <rapidcheck.h>

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

constexpr std::string_view kFamily = "sessions";

JudgeContext SessionContext(const GenContext& context) {
  JudgeContext judge;
  judge.capability_declared = context.session_assigned;
  return judge;
}

// Visible ASCII only (H11): anything else could not travel in a header at all.
rc::Gen<std::string> UnknownSessionId() {
  return rc::gen::mapcat(rc::gen::inRange(0, 4), [](int kind) -> rc::Gen<std::string> {
    switch (kind) {
      case 0:
        return rc::gen::map(detail::Token(1, 40),
                            [](const std::string& token) { return "mcpfuzz-" + token; });
      case 1:
        return rc::gen::container<std::string>(32,
                                               rc::gen::elementOf(std::string("0123456789abcdef")));
      case 2:
        return detail::VisibleAscii(1, 80);
      default:
        return detail::LongText("f", 100, 2000);
    }
  });
}

rc::Gen<GeneratedCase> MissingSession(const GenContext& context) {
  return rc::gen::map(detail::HarmlessRequest(context), [context](const Request& well_formed) {
    Request request = well_formed;
    request.session = SessionBinding::kOmit;
    return MakeCase(kFamily, check::kSessionMissing, std::move(request), "no Mcp-Session-Id",
                    well_formed, SessionContext(context));
  });
}

// POST only: a server that does not let clients end sessions answers every DELETE 405 (a
// MAY), whatever the session id, so a DELETE would not test the id at all.
rc::Gen<GeneratedCase> UnknownSession(const GenContext& context) {
  return rc::gen::apply(
      [context](const Request& well_formed, const std::string& session_id) {
        Request request = well_formed;
        SetHeader(request.headers, kHeaderSessionId, session_id);
        return MakeCase(kFamily, check::kSessionUnknown, std::move(request),
                        "the unknown Mcp-Session-Id " + detail::Quote(session_id), well_formed,
                        SessionContext(context));
      },
      detail::HarmlessRequest(context), UnknownSessionId());
}

}  // namespace

rc::Gen<GeneratedCase> SessionHeaders(const GenContext& context) {
  return detail::Pick<GeneratedCase>({{1, MissingSession(context)}, {2, UnknownSession(context)}});
}

}  // namespace mcpfuzz::gen
