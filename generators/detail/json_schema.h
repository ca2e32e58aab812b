#pragma once
// Internal: values that a tool's inputSchema accepts, and single-property ways to break them.
// Only the JSON Schema keywords mcpfuzz can satisfy for certain are supported; a schema using
// anything else (pattern, format, $ref, oneOf...) yields no valid value rather than a guess.

#include <rapidcheck/Gen.h>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mcpfuzz::gen::detail {

/// A generator of values valid against `schema`, or nothing when validity cannot be promised.
std::optional<rc::Gen<boost::json::value>> ValidValue(const boost::json::value& schema,
                                                      int depth = 0);

/// One way to make an otherwise valid arguments object invalid in exactly one property.
struct ArgumentBreak {
  enum class Kind { kMissingRequired, kWrongType, kOutOfRange, kExtraProperty };
  Kind kind = Kind::kMissingRequired;
  /// The property the error should name.
  std::string property;
  /// The value it gets (unused for kMissingRequired).
  boost::json::value bad_value;
  std::string label;
};

/// A tool whose arguments can be built valid, and the breaks its schema allows.
struct BreakableTool {
  std::string name;
  /// Valid arguments: every required property and none of the others.
  rc::Gen<boost::json::object> valid_arguments;
  std::vector<ArgumentBreak> breaks;
};

/// The breakable form of a tool, or nothing when its required properties cannot all be given
/// valid values (then no break would break exactly one rule).
std::optional<BreakableTool> MakeBreakable(const std::string& name,
                                           const boost::json::object& input_schema);

}  // namespace mcpfuzz::gen::detail
