#include "generators/detail/json_schema.h"

#include <rapidcheck.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdint>

#include "generators/detail/values.h"

namespace mcpfuzz::gen::detail {
namespace {

using boost::json::object;
using boost::json::value;

constexpr std::int64_t kIntegerLimit = 1'000'000;
constexpr int kMaxDepth = 3;

std::vector<std::string> TypesOf(const object& schema) {
  std::vector<std::string> types;
  const value* type = schema.if_contains("type");
  if (type == nullptr) return types;
  if (type->is_string()) types.emplace_back(type->as_string());
  if (type->is_array()) {
    for (const value& item : type->as_array()) {
      if (item.is_string()) types.emplace_back(item.as_string());
    }
  }
  return types;
}

bool Allows(const std::vector<std::string>& types, std::string_view type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

std::optional<double> NumberOf(const object& schema, std::string_view key) {
  const value* number = schema.if_contains(key);
  if (number == nullptr || !number->is_number()) return std::nullopt;
  return number->to_number<double>();
}

// Keywords whose constraints mcpfuzz cannot promise to satisfy.
bool UsesUnsupported(const object& schema) {
  for (std::string_view keyword :
       {"pattern", "format", "$ref", "oneOf", "allOf", "not", "if", "multipleOf",
        "patternProperties", "dependentRequired", "dependencies", "dependentSchemas",
        "propertyNames", "minProperties", "contains", "prefixItems", "unevaluatedProperties"}) {
    if (schema.contains(keyword)) return true;
  }
  // Draft 4's boolean exclusiveMinimum/exclusiveMaximum.
  for (std::string_view keyword : {"exclusiveMinimum", "exclusiveMaximum"}) {
    const value* bound = schema.if_contains(keyword);
    if (bound != nullptr && !bound->is_number()) return true;
  }
  return false;
}

// The inclusive integer range the schema's bounds leave, clipped to ±kIntegerLimit.
std::optional<std::pair<std::int64_t, std::int64_t>> IntegerRange(const object& schema) {
  double low = -static_cast<double>(kIntegerLimit);
  double high = static_cast<double>(kIntegerLimit);
  if (auto minimum = NumberOf(schema, "minimum")) low = std::max(low, std::ceil(*minimum));
  if (auto minimum = NumberOf(schema, "exclusiveMinimum")) {
    low = std::max(low, std::floor(*minimum) + 1);
  }
  if (auto maximum = NumberOf(schema, "maximum")) high = std::min(high, std::floor(*maximum));
  if (auto maximum = NumberOf(schema, "exclusiveMaximum")) {
    high = std::min(high, std::ceil(*maximum) - 1);
  }
  if (low > high) return std::nullopt;
  return std::pair{static_cast<std::int64_t>(low), static_cast<std::int64_t>(high)};
}

// Adds one more valid member to every object `objects` produces.
rc::Gen<object> WithMember(rc::Gen<object> objects, std::string key, rc::Gen<value> member) {
  return rc::gen::mapcat(std::move(objects), [key, member](const object& partial) {
    return rc::gen::map(member, [partial, key](const value& chosen) {
      object next = partial;
      next[key] = chosen;
      return next;
    });
  });
}

std::optional<rc::Gen<value>> ValidObject(const object& schema, int depth) {
  if (depth > kMaxDepth) return std::nullopt;
  const value* properties_value = schema.if_contains("properties");
  const object* properties = properties_value != nullptr ? properties_value->if_object() : nullptr;
  rc::Gen<object> built = rc::gen::just(object{});
  if (const value* required = schema.if_contains("required"); required != nullptr) {
    if (!required->is_array()) return std::nullopt;
    for (const value& name : required->as_array()) {
      if (!name.is_string()) return std::nullopt;
      const value* property =
          properties != nullptr ? properties->if_contains(name.as_string()) : nullptr;
      std::optional<rc::Gen<value>> member =
          property != nullptr ? ValidValue(*property, depth + 1)
                              : std::optional<rc::Gen<value>>(rc::gen::just(value("mcpfuzz")));
      if (!member) return std::nullopt;
      built = WithMember(std::move(built), std::string(name.as_string()), *member);
    }
  }
  return rc::gen::map(std::move(built), [](const object& done) { return value(done); });
}

std::optional<rc::Gen<value>> ValidArray(const object& schema, int depth) {
  const value* items = schema.if_contains("items");
  std::optional<rc::Gen<value>> item = rc::gen::just(value("mcpfuzz"));
  if (items != nullptr) {
    if (!items->is_object()) return std::nullopt;
    item = ValidValue(*items, depth + 1);
    if (!item) return std::nullopt;
  }
  auto min_items = static_cast<int>(NumberOf(schema, "minItems").value_or(0));
  int max_items = min_items + 3;
  if (auto limit = NumberOf(schema, "maxItems"))
    max_items = std::min(max_items, static_cast<int>(*limit));
  const value* unique = schema.if_contains("uniqueItems");
  if (unique != nullptr && unique->is_bool() && unique->as_bool()) {
    if (min_items > 1) return std::nullopt;
    max_items = std::min(max_items, 1);
  }
  if (min_items > max_items) return std::nullopt;
  return rc::gen::mapcat(rc::gen::inRange(min_items, max_items + 1), [item](int count) {
    return rc::gen::map(
        rc::gen::container<std::vector<value>>(static_cast<std::size_t>(count), *item),
        [](const std::vector<value>& values) {
          return value(boost::json::array(values.begin(), values.end()));
        });
  });
}

std::optional<rc::Gen<value>> ValidOfType(const object& schema, std::string_view type, int depth) {
  if (type == "string") {
    auto min = static_cast<int>(NumberOf(schema, "minLength").value_or(0));
    auto max = static_cast<int>(NumberOf(schema, "maxLength").value_or(min + 20));
    max = std::min(max, min + 20);
    if (min > max || min > 100000) return std::nullopt;
    return rc::gen::map(Token(min, max), [](const std::string& text) { return value(text); });
  }
  if (type == "integer" || type == "number") {
    auto range = IntegerRange(schema);
    if (!range) return std::nullopt;
    return rc::gen::map(rc::gen::inRange<std::int64_t>(range->first, range->second + 1),
                        [](std::int64_t number) { return value(number); });
  }
  if (type == "boolean") {
    return rc::gen::map(rc::gen::arbitrary<bool>(), [](bool flag) { return value(flag); });
  }
  if (type == "null") return rc::gen::just(value(nullptr));
  if (type == "array") return ValidArray(schema, depth);
  if (type == "object") return ValidObject(schema, depth);
  return std::nullopt;
}

// A value of a JSON type `types` does not allow, or nothing when it allows them all.
std::optional<value> WrongType(const std::vector<std::string>& types) {
  const std::vector<std::pair<value, std::vector<std::string_view>>> candidates = {
      {value(12345), {"integer", "number"}},
      {value("mcpfuzz-not-this-type"), {"string"}},
      {value(true), {"boolean"}},
      {value(boost::json::array{"x"}), {"array"}},
      {value(object{{"x", 1}}), {"object"}},
      {value(nullptr), {"null"}},
  };
  for (const auto& [candidate, accepted_by] : candidates) {
    const bool accepted = std::any_of(accepted_by.begin(), accepted_by.end(),
                                      [&](std::string_view type) { return Allows(types, type); });
    if (!accepted) return candidate;
  }
  return std::nullopt;
}

// Values of the property's own type that its bounds or enum reject.
std::vector<std::pair<value, std::string>> OutOfRange(const object& schema,
                                                      const std::vector<std::string>& types) {
  std::vector<std::pair<value, std::string>> found;
  const bool integer = Allows(types, "integer") && !Allows(types, "number");
  if (Allows(types, "integer") || Allows(types, "number")) {
    if (auto minimum = NumberOf(schema, "minimum")) {
      const double below = integer ? std::ceil(*minimum) - 1 : *minimum - 1;
      found.emplace_back(value(static_cast<std::int64_t>(std::floor(below))), "below minimum");
    }
    if (auto minimum = NumberOf(schema, "exclusiveMinimum")) {
      if (std::floor(*minimum) == *minimum) {
        found.emplace_back(value(static_cast<std::int64_t>(*minimum)), "at exclusiveMinimum");
      }
    }
    if (auto maximum = NumberOf(schema, "maximum")) {
      const double above = integer ? std::floor(*maximum) + 1 : *maximum + 1;
      found.emplace_back(value(static_cast<std::int64_t>(std::ceil(above))), "above maximum");
    }
    if (auto maximum = NumberOf(schema, "exclusiveMaximum")) {
      if (std::floor(*maximum) == *maximum) {
        found.emplace_back(value(static_cast<std::int64_t>(*maximum)), "at exclusiveMaximum");
      }
    }
  }
  if (Allows(types, "string")) {
    if (auto min = NumberOf(schema, "minLength"); min && *min >= 1 && *min <= 100000) {
      found.emplace_back(value(std::string(static_cast<std::size_t>(*min) - 1, 'a')),
                         "shorter than minLength");
    }
    if (auto max = NumberOf(schema, "maxLength"); max && *max >= 0 && *max <= 100000) {
      found.emplace_back(value(std::string(static_cast<std::size_t>(*max) + 1, 'a')),
                         "longer than maxLength");
    }
    const value* allowed = schema.if_contains("enum");
    if (allowed != nullptr && allowed->is_array()) {
      value outside("mcpfuzz-not-in-enum");
      const auto& values = allowed->as_array();
      if (std::find(values.begin(), values.end(), outside) == values.end()) {
        found.emplace_back(outside, "not in enum");
      }
    }
  }
  return found;
}

}  // namespace

std::optional<rc::Gen<value>> ValidValue(const value& schema, int depth) {
  if (schema.is_bool()) {
    if (!schema.as_bool()) return std::nullopt;
    return rc::gen::just(value("mcpfuzz"));
  }
  if (!schema.is_object() || depth > kMaxDepth) return std::nullopt;
  const object& rules = schema.as_object();
  if (const value* constant = rules.if_contains("const")) return rc::gen::just(*constant);
  if (const value* allowed = rules.if_contains("enum")) {
    if (!allowed->is_array() || allowed->as_array().empty()) return std::nullopt;
    std::vector<value> values(allowed->as_array().begin(), allowed->as_array().end());
    return rc::gen::elementOf(values);
  }
  if (UsesUnsupported(rules)) return std::nullopt;
  if (const value* any_of = rules.if_contains("anyOf")) {
    if (!any_of->is_array()) return std::nullopt;
    for (const value& branch : any_of->as_array()) {
      if (auto valid = ValidValue(branch, depth + 1)) return valid;
    }
    return std::nullopt;
  }
  std::vector<std::string> types = TypesOf(rules);
  if (types.empty()) {
    if (rules.contains("properties") || rules.contains("required"))
      return ValidObject(rules, depth);
    return rc::gen::just(value("mcpfuzz"));  // No constraint: anything is valid.
  }
  // The first listed type that can be produced; null only when nothing else is allowed.
  for (const std::string& type : types) {
    if (type == "null") continue;
    if (auto valid = ValidOfType(rules, type, depth)) return valid;
  }
  if (Allows(types, "null")) return rc::gen::just(value(nullptr));
  return std::nullopt;
}

std::optional<BreakableTool> MakeBreakable(const std::string& name,
                                           const boost::json::object& input_schema) {
  const std::vector<std::string> types = TypesOf(input_schema);
  if (!types.empty() && !Allows(types, "object")) return std::nullopt;
  std::optional<rc::Gen<value>> valid = ValidObject(input_schema, 0);
  if (!valid || UsesUnsupported(input_schema)) return std::nullopt;

  BreakableTool tool{name,
                     rc::gen::map(*valid,
                                  [](const value& arguments) {
                                    return arguments.is_object() ? arguments.as_object() : object{};
                                  }),
                     {}};

  const value* properties_value = input_schema.if_contains("properties");
  const object* properties = properties_value != nullptr ? properties_value->if_object() : nullptr;
  if (const value* required = input_schema.if_contains("required");
      required != nullptr && required->is_array()) {
    for (const value& property : required->as_array()) {
      if (!property.is_string()) continue;
      const std::string key(property.as_string());
      tool.breaks.push_back(
          {ArgumentBreak::Kind::kMissingRequired, key, nullptr, "required '" + key + "' missing"});
    }
  }
  if (properties != nullptr) {
    for (const auto& member : *properties) {
      if (!member.value().is_object()) continue;
      const object& property = member.value().as_object();
      const std::string key(member.key());
      const std::vector<std::string> property_types = TypesOf(property);
      if (!property_types.empty()) {
        if (auto wrong = WrongType(property_types)) {
          tool.breaks.push_back({ArgumentBreak::Kind::kWrongType, key, *wrong,
                                 "'" + key + "' given " + boost::json::serialize(*wrong)});
        }
      }
      for (auto& [bad, why] : OutOfRange(property, property_types)) {
        tool.breaks.push_back({ArgumentBreak::Kind::kOutOfRange, key, bad,
                               "'" + key + "' " + why + ": " + boost::json::serialize(bad)});
      }
    }
  }
  const value* additional = input_schema.if_contains("additionalProperties");
  constexpr std::string_view kExtra = "mcpfuzz_extra";
  if (additional != nullptr && additional->is_bool() && !additional->as_bool() &&
      (properties == nullptr || !properties->contains(kExtra))) {
    tool.breaks.push_back({ArgumentBreak::Kind::kExtraProperty, std::string(kExtra), value(1),
                           "an extra property where none is allowed"});
  }
  return tool;
}

}  // namespace mcpfuzz::gen::detail
