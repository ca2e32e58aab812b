// */list with a cursor the server never issued. Cursors are opaque, so a garbage one is
// recognisable only by never having been handed out: every cursor here carries "mcpfuzz" or
// is not a string at all, and none is empty (which a server could read as "no cursor").

#include <rapidcheck.h>

#include <boost/json/serialize.hpp>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "pagination";

struct ListMethod {
  std::string method;
  std::string capability;
};

std::vector<ListMethod> ListMethods(const GenContext& context) {
  std::vector<ListMethod> methods;
  if (context.Declares("tools")) methods.push_back({"tools/list", "tools"});
  if (context.Declares("prompts")) methods.push_back({"prompts/list", "prompts"});
  if (context.Declares("resources")) {
    methods.push_back({"resources/list", "resources"});
    methods.push_back({"resources/templates/list", "resources"});
  }
  return methods;
}

rc::Gen<boost::json::value> GarbageCursor() {
  return rc::gen::mapcat(rc::gen::inRange(0, 5), [](int kind) -> rc::Gen<boost::json::value> {
    switch (kind) {
      case 0:
        return rc::gen::map(detail::Token(1, 30), [](const std::string& token) {
          return boost::json::value("mcpfuzz-garbage-cursor-" + token);
        });
      case 1:
        return rc::gen::map(detail::Utf8Text(1, 30, true), [](const std::string& text) {
          return boost::json::value("mcpfuzz-" + text);
        });
      case 2:
        return rc::gen::map(detail::LongText("mcpfuzz", 100, 10000),
                            [](const std::string& text) { return boost::json::value(text); });
      case 3:
        // Base64 of JSON that no server wrote, in the shape many servers use for cursors.
        return rc::gen::just(boost::json::value("eyJtY3BmdXp6IjoiZ2FyYmFnZSJ9"));
      default:
        return rc::gen::map(rc::gen::inRange(0, 3), [](int index) {
          static const std::vector<boost::json::value> kNotStrings = {
              42, boost::json::object{{"mcpfuzz", 1}}, boost::json::array{"mcpfuzz"}};
          return kNotStrings[static_cast<std::size_t>(index)];
        });
    }
  });
}

}  // namespace

rc::Gen<GeneratedCase> PaginationCursors(const GenContext& context) {
  std::vector<ListMethod> methods = ListMethods(context);
  if (methods.empty()) methods.push_back({"tools/list", "tools"});
  return rc::gen::apply(
      [context, methods](int index, const boost::json::value& cursor,
                         const boost::json::value& id) {
        const ListMethod& chosen = methods[static_cast<std::size_t>(index)];
        const Request well_formed = context.Make(chosen.method, {}, id);
        Request request = context.Make(chosen.method, {{"cursor", cursor}}, id);
        JudgeContext judge;
        judge.capability_declared = context.Declares(chosen.capability);
        return MakeCase(
            kFamily, check::kInvalidCursor, std::move(request),
            chosen.method + " with the cursor " + boost::json::serialize(cursor).substr(0, 60),
            well_formed, judge);
      },
      rc::gen::inRange(0, static_cast<int>(methods.size())), GarbageCursor(),
      detail::RequestIdValue());
}

}  // namespace mcpfuzz::gen
