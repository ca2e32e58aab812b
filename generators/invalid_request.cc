// Valid JSON that is not a valid request: each case changes exactly one member of a
// well-formed harmless request (or replaces the whole object by a scalar).

#include <rapidcheck.h>

#include <boost/json/serialize.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using boost::json::value;
using detail::MakeCase;

constexpr std::string_view kFamily = "invalid-request";

/// One member's new value (nothing: the member is removed) and a label.
struct MemberChange {
  std::optional<value> replacement;
  std::string label;
};

// Applies `change` to `member` of each drawn template.
rc::Gen<GeneratedCase> ChangeMember(const GenContext& context, std::string_view check_id,
                                    std::string member, rc::Gen<MemberChange> change) {
  return rc::gen::apply(
      [check_id, member](const Request& well_formed, const MemberChange& drawn) {
        Request request = well_formed;
        boost::json::object& body = BodyObject(request);
        if (drawn.replacement) {
          body[member] = *drawn.replacement;
        } else {
          body.erase(member);
        }
        return MakeCase(kFamily, check_id, std::move(request), drawn.label, well_formed);
      },
      detail::HarmlessRequest(context), std::move(change));
}

rc::Gen<MemberChange> Removed(std::string label) {
  return rc::gen::just(MemberChange{std::nullopt, std::move(label)});
}

// One of `values`, simplest first.
rc::Gen<MemberChange> OneOf(std::string member, std::vector<value> values) {
  return rc::gen::map(rc::gen::inRange(0, static_cast<int>(values.size())),
                      [member, values](int index) {
                        const value& chosen = values[static_cast<std::size_t>(index)];
                        return MemberChange{chosen, member + " " + boost::json::serialize(chosen)};
                      });
}

// Fractions a double holds exactly, so the id on the wire is the id that was drawn.
rc::Gen<MemberChange> FractionalId() {
  return rc::gen::apply(
      [](std::int64_t whole, int eighths) {
        const double id = static_cast<double>(whole) + static_cast<double>(eighths) / 8.0;
        return MemberChange{value(id), "id " + boost::json::serialize(value(id))};
      },
      rc::gen::inRange<std::int64_t>(0, 100000), rc::gen::inRange(1, 8));
}

rc::Gen<MemberChange> StructuredId() {
  return rc::gen::mapcat(rc::gen::inRange(0, 2), [](int kind) {
    return rc::gen::map(detail::SmallObject(), [kind](const boost::json::object& members) {
      value id = members;
      if (kind == 1) {
        // RequestId is string|integer: an array is as unreadable as an object (check id-object).
        boost::json::array items;
        for (const auto& member : members) items.push_back(member.value());
        id = items;
      }
      return MemberChange{id, "id " + boost::json::serialize(id)};
    });
  });
}

rc::Gen<GeneratedCase> NotAnObject(const GenContext& context) {
  static const std::vector<value> kScalars = {42, "x", true, false, nullptr, 1.5, -7, ""};
  auto scalar = rc::gen::mapcat(rc::gen::inRange(0, 2), [](int kind) -> rc::Gen<value> {
    if (kind == 0) {
      return rc::gen::map(rc::gen::inRange(0, static_cast<int>(kScalars.size())),
                          [](int index) { return kScalars[static_cast<std::size_t>(index)]; });
    }
    return detail::ScalarJson();
  });
  return rc::gen::apply(
      [](const Request& well_formed, const value& body) {
        Request request = well_formed;
        request.body = body;
        return MakeCase(kFamily, check::kNotAnObject, std::move(request),
                        "the body " + boost::json::serialize(body), well_formed);
      },
      detail::HarmlessRequest(context), scalar);
}

}  // namespace

rc::Gen<GeneratedCase> InvalidRequest(const GenContext& context) {
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>>
      variants =
          {
              {2, ChangeMember(context, check::kMissingJsonrpc, "jsonrpc", Removed("no jsonrpc"))},
              {3, ChangeMember(context, check::kWrongJsonrpc, "jsonrpc",
                               OneOf("jsonrpc", {"1.0", "2", "2.0.0", "", " 2.0", "2.0 ", "3.0",
                                                 "\xEF\xBC\x92.\xEF\xBC\x90", 2.0, 2, nullptr, true,
                                                 boost::json::array{"2.0"},
                                                 boost::json::object{{"version", "2.0"}}}))},
              {1, ChangeMember(context, check::kMissingMethod, "method", Removed("no method"))},
              {2, ChangeMember(context, check::kMissingMethod, "method",
                               OneOf("method", {42, nullptr, true, 1.5, boost::json::array{"ping"},
                                                boost::json::object{{"name", "ping"}}}))},
              {2, ChangeMember(context, check::kIdNull, "id",
                               rc::gen::just(MemberChange{value(nullptr), "id null"}))},
              {2, ChangeMember(context, check::kIdFloat, "id", FractionalId())},
              {2, ChangeMember(context, check::kIdBool, "id", OneOf("id", {true, false}))},
              {2, ChangeMember(context, check::kIdObject, "id", StructuredId())},
              {2, NotAnObject(context)},
              {2,
               ChangeMember(
                   context,
                   check::kParamsNotObject, "params",
                   rc::gen::mapcat(
                       rc::gen::inRange(0, 2),
                       [](int kind) -> rc::Gen<MemberChange> {
                         if (kind == 0) {
                           return OneOf("params",
                                        {boost::json::array{1, 2}, "x", 42, true, nullptr, 1.5});
                         }
                         return rc::gen::map(detail::ScalarJson(), [](const value& params) {
                           return MemberChange{params, "params " + boost::json::serialize(params)};
                         });
                       }))},
          };
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
