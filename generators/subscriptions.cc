// 2026-07-28 subscriptions/listen opting into nothing, or only into what the target cannot
// deliver (a list_changed it did not declare, resource updates without resources.subscribe):
// the acknowledgement must come first, stamped with the request's id, and honor none of it
// (tables §4b V17). Nothing is ever delivered on such a stream, so a conformant server may end
// it at once, and the transports stop listening once it is acknowledged and quiet.

#include <rapidcheck.h>

#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "model/subscription.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

constexpr std::string_view kFamily = "subscriptions";

// Each opt-in the target cannot honor, as (filter member, its value).
std::vector<std::pair<std::string_view, boost::json::value>> Undeliverable(
    const GenContext& context) {
  std::vector<std::pair<std::string_view, boost::json::value>> opt_ins;
  for (auto [flag, capability] :
       {std::pair{"toolsListChanged", "tools"}, std::pair{"promptsListChanged", "prompts"},
        std::pair{"resourcesListChanged", "resources"}}) {
    if (!context.DeclaresFlag(capability, "listChanged")) opt_ins.emplace_back(flag, true);
  }
  if (!context.DeclaresFlag("resources", "subscribe")) {
    const std::string uri =
        context.resource_uris.empty() ? "mcpfuzz://nothing" : context.resource_uris.front();
    opt_ins.emplace_back("resourceSubscriptions", boost::json::array{boost::json::value(uri)});
  }
  return opt_ins;
}

}  // namespace

rc::Gen<GeneratedCase> Subscriptions(const GenContext& context) {
  const auto opt_ins = Undeliverable(context);
  const auto subsets = static_cast<int>(1U << opt_ins.size());
  return rc::gen::apply(
      [context, opt_ins](int subset, const boost::json::value& id) {
        boost::json::object filter;
        std::string label = "subscriptions/listen opting into";
        for (std::size_t i = 0; i < opt_ins.size(); ++i) {
          if ((static_cast<unsigned>(subset) & (1U << i)) == 0) continue;
          filter[opt_ins[i].first] = opt_ins[i].second;
          label += " " + std::string(opt_ins[i].first);
        }
        if (filter.empty()) label += " nothing";
        Request request =
            context.Make(kListenMethod, boost::json::object{{"notifications", filter}}, id);
        const Request well_formed = request;
        return detail::MakeCase(kFamily, check::kListenAcknowledged, std::move(request),
                                std::move(label), well_formed);
      },
      // Shrinks toward the empty filter.
      rc::gen::inRange(0, subsets), detail::RequestIdValue());
}

}  // namespace mcpfuzz::gen
