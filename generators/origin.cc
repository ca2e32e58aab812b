// Streamable HTTP: a harmless request that comes from a foreign web page, as a DNS-rebinding
// attack would send it: the one change is an Origin header naming a host that is not the
// server's loopback address.

#include <rapidcheck.h>

#include <string>
#include <utility>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "origin";

// Never a loopback host, so every server must refuse it. Besides plain foreign names, hosts
// that start like a loopback address catch servers that compare prefixes.
rc::Gen<std::string> ForeignOrigin() {
  return rc::gen::mapcat(rc::gen::inRange(0, 5), [](int kind) -> rc::Gen<std::string> {
    switch (kind) {
      case 0:
        return rc::gen::map(detail::Token(1, 30), [](const std::string& host) {
          return "http://mcpfuzz-" + host + ".example";
        });
      case 1:
        return rc::gen::map(rc::gen::pair(detail::Token(1, 20), rc::gen::inRange(1, 65536)),
                            [](const std::pair<std::string, int>& drawn) {
                              return "https://mcpfuzz-" + drawn.first +
                                     ".example:" + std::to_string(drawn.second);
                            });
      case 2:
        // TEST-NET-3 (RFC 5737): documentation addresses, never this machine.
        return rc::gen::map(rc::gen::inRange(1, 255),
                            [](int octet) { return "http://203.0.113." + std::to_string(octet); });
      case 3:
        return rc::gen::map(detail::Token(1, 20), [](const std::string& label) {
          return "http://localhost.mcpfuzz-" + label + ".example";
        });
      default:
        return rc::gen::map(detail::Token(1, 20), [](const std::string& label) {
          return "http://127.0.0.1.mcpfuzz-" + label + ".example";
        });
    }
  });
}

}  // namespace

rc::Gen<GeneratedCase> ForeignOrigins(const GenContext& context) {
  return rc::gen::apply(
      [](const Request& well_formed, const std::string& origin) {
        Request request = well_formed;
        SetHeader(request.headers, "Origin", origin);
        return MakeCase(kFamily, check::kOriginInvalid, std::move(request),
                        "Origin " + detail::Quote(origin), well_formed);
      },
      detail::HarmlessRequest(context), ForeignOrigin());
}

}  // namespace mcpfuzz::gen
