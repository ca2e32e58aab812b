// Log levels that are not one of the eight syslog levels MCP names: logging/setLevel in the
// handshake era, _meta io.modelcontextprotocol/logLevel in 2026-07-28.

#include <rapidcheck.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "model/logging.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "log-levels";
bool IsLevel(const boost::json::value& level) {
  return level.is_string() && LogLevelRank(level.as_string()).has_value();
}

// Nothing (the member left out) or a value that is not a level.
rc::Gen<std::optional<boost::json::value>> NotALevel() {
  using Drawn = std::optional<boost::json::value>;
  return rc::gen::mapcat(rc::gen::inRange(0, 6), [](int kind) -> rc::Gen<Drawn> {
    switch (kind) {
      case 0: {
        static const std::vector<std::string> kNearMisses = {
            "warn", "fatal", "trace", "verbose", "err", "information", "crit", "panic",
            "all",  "off",   " info", "info ",   ""};
        return rc::gen::map(
            rc::gen::inRange(0, static_cast<int>(kNearMisses.size())), [](int index) -> Drawn {
              return boost::json::value(kNearMisses[static_cast<std::size_t>(index)]);
            });
      }
      case 1:
        // The levels are lowercase and case-sensitive.
        return rc::gen::mapcat(
            rc::gen::inRange(0, static_cast<int>(kLogLevels.size())), [](int index) {
              return rc::gen::map(
                  detail::CaseVariantOf(std::string(kLogLevels[static_cast<std::size_t>(index)])),
                  [](const std::string& level) -> Drawn { return boost::json::value(level); });
            });
      case 2:
        // RFC 5424 numbers the same severities 0..7; MCP names them.
        return rc::gen::map(
            rc::gen::inRange<std::int64_t>(-1, 9),
            [](std::int64_t number) -> Drawn { return boost::json::value(number); });
      case 3:
        return rc::gen::map(detail::Utf8Text(1, 20, true), [](const std::string& text) -> Drawn {
          return boost::json::value("mcpfuzz-" + text);
        });
      case 4:
        return rc::gen::map(rc::gen::inRange(0, 3), [](int index) -> Drawn {
          static const std::vector<boost::json::value> kOthers = {nullptr, true,
                                                                  boost::json::array{"info"}};
          return kOthers[static_cast<std::size_t>(index)];
        });
      default:
        return rc::gen::just(Drawn{});
    }
  });
}

}  // namespace

rc::Gen<GeneratedCase> LogLevels(const GenContext& context) {
  const bool stateless = context.stateless();
  return rc::gen::apply(
      [context, stateless](const std::optional<boost::json::value>& level,
                           const boost::json::value& id) {
        JudgeContext judge;
        judge.capability_declared = context.Declares("logging");
        // A value that is a level after all is turned into one that is not.
        std::optional<boost::json::value> bad = level;
        if (bad && IsLevel(*bad)) bad = boost::json::value(std::string(bad->as_string()) + "x");
        const std::string label =
            bad ? "log level " + boost::json::serialize(*bad).substr(0, 60) : "no log level";
        if (stateless) {
          Request well_formed = context.Make("server/discover", {}, id);
          Request request = well_formed;
          // In 2026-07-28 the level is optional; leaving it out is no error.
          Meta(request)[kMetaLogLevel] = bad.value_or(boost::json::value("mcpfuzz"));
          return MakeCase(kFamily, check::kInvalidLogLevel, std::move(request),
                          bad ? label : "log level \"mcpfuzz\"", well_formed, judge);
        }
        const Request well_formed = context.Make("logging/setLevel", {{"level", "info"}}, id);
        boost::json::object params;
        if (bad) params["level"] = *bad;
        Request request = context.Make("logging/setLevel", params, id);
        return MakeCase(kFamily, check::kInvalidLogLevel, std::move(request), label, well_formed,
                        judge);
      },
      NotALevel(), detail::RequestIdValue());
}

}  // namespace mcpfuzz::gen
