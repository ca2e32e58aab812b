// Arguments for the target's REAL tools, derived from each tool's inputSchema: valid except
// for one property. A server that validates runs nothing; one that does not runs the tool,
// which is why the family is off unless the user enables it.

#include <rapidcheck.h>

#include <boost/json/serialize.hpp>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/json_schema.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::ArgumentBreak;
using detail::BreakableTool;
using detail::MakeCase;

constexpr std::string_view kFamily = "tool-arguments";

std::vector<BreakableTool> BreakableTools(const GenContext& context) {
  std::vector<BreakableTool> tools;
  for (const ToolInfo& tool : context.tools) {
    auto breakable = detail::MakeBreakable(tool.name, tool.input_schema);
    if (breakable && !breakable->breaks.empty()) tools.push_back(std::move(*breakable));
  }
  return tools;
}

struct Chosen {
  std::size_t tool = 0;
  std::size_t breakage = 0;
};

rc::Gen<GeneratedCase> BadArguments(const GenContext& context) {
  const std::vector<BreakableTool> tools = BreakableTools(context);
  std::vector<Chosen> choices;
  for (std::size_t tool = 0; tool < tools.size(); ++tool) {
    for (std::size_t breakage = 0; breakage < tools[tool].breaks.size(); ++breakage) {
      choices.push_back({tool, breakage});
    }
  }
  return rc::gen::mapcat(
      rc::gen::inRange<std::size_t>(0, std::max<std::size_t>(choices.size(), 1)),
      [context, tools, choices](std::size_t index) {
        const Chosen chosen = choices.at(index);
        const BreakableTool& tool = tools[chosen.tool];
        const ArgumentBreak breakage = tool.breaks[chosen.breakage];
        const std::string name = tool.name;
        return rc::gen::apply(
            [context, name, breakage](const boost::json::object& valid,
                                      const boost::json::value& id) {
              const Request well_formed =
                  context.Make("tools/call", {{"name", name}, {"arguments", valid}}, id);
              boost::json::object arguments = valid;
              if (breakage.kind == ArgumentBreak::Kind::kMissingRequired) {
                arguments.erase(breakage.property);
              } else {
                arguments[breakage.property] = breakage.bad_value;
              }
              Request request =
                  context.Make("tools/call", {{"name", name}, {"arguments", arguments}}, id);
              JudgeContext judge;
              judge.capability_declared = context.Declares("tools");
              judge.argument_name = breakage.property;
              return MakeCase(kFamily, check::kToolBadArguments, std::move(request),
                              name + ": " + breakage.label, well_formed, judge);
            },
            tool.valid_arguments, detail::RequestIdValue());
      });
}

rc::Gen<GeneratedCase> NotAnObject(const GenContext& context) {
  std::vector<std::string> names;
  for (const ToolInfo& tool : context.tools) names.push_back(tool.name);
  static const std::vector<boost::json::value> kArguments = {
      boost::json::array{"not", "an", "object"}, "x", 42, nullptr, boost::json::array{}};
  return rc::gen::apply(
      [context, names](int tool, int kind, const boost::json::value& id) {
        const std::string& name = names.at(static_cast<std::size_t>(tool));
        const boost::json::value& arguments = kArguments[static_cast<std::size_t>(kind)];
        const Request well_formed =
            context.Make("tools/call", {{"name", name}, {"arguments", boost::json::object{}}}, id);
        Request request =
            context.Make("tools/call", {{"name", name}, {"arguments", arguments}}, id);
        JudgeContext judge;
        judge.capability_declared = context.Declares("tools");
        return MakeCase(kFamily, check::kToolArgumentsNotObject, std::move(request),
                        name + ": arguments " + boost::json::serialize(arguments), well_formed,
                        judge);
      },
      rc::gen::inRange(0, std::max(static_cast<int>(names.size()), 1)),
      rc::gen::inRange(0, static_cast<int>(kArguments.size())), detail::RequestIdValue());
}

}  // namespace

rc::Gen<GeneratedCase> ToolArguments(const GenContext& context) {
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> variants = {
      {BreakableTools(context).empty() ? 0 : 4, BadArguments(context)},
      {context.tools.empty() ? 0 : 1, NotAnObject(context)},
  };
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
