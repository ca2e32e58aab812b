#pragma once
// Reading a report back from its JSON (mcpfuzz merge): members by name, with what a missing or
// mistyped member reads as, so a report another version wrote still reads.

#include <algorithm>
#include <boost/json.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/result.h"
#include "reports/detail/stopped_early.h"
#include "reports/report.h"

namespace mcpfuzz::reports::detail {

/// The string member `key`; empty when missing or not a string.
inline std::string Text(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

/// The boolean member `key`; `otherwise` when missing or not a boolean.
inline bool Flag(const boost::json::object& object, std::string_view key, bool otherwise) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_bool() ? value->as_bool() : otherwise;
}

/// The integer member `key`; nothing when missing or not an integer.
inline std::optional<std::int64_t> Integer(const boost::json::object& object,
                                           std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value != nullptr && value->is_int64()) return value->as_int64();
  if (value != nullptr && value->is_uint64()) return static_cast<std::int64_t>(value->as_uint64());
  return std::nullopt;
}

/// The count `key`; 0 when missing, negative or not an integer.
inline std::size_t Number(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value != nullptr && value->is_uint64()) return static_cast<std::size_t>(value->as_uint64());
  if (value != nullptr && value->is_int64()) {
    return static_cast<std::size_t>(std::max<std::int64_t>(0, value->as_int64()));
  }
  return 0;
}

/// The number `key`; 0 when missing or not a number.
inline double Real(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_number() ? value->to_number<double>() : 0.0;
}

/// The object member `key`; an empty object when missing or not an object.
inline const boost::json::object& Object(const boost::json::object& object, std::string_view key) {
  static const boost::json::object kEmpty;
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_object() ? value->as_object() : kEmpty;
}

/// The array member `key`; an empty array when missing or not an array.
inline const boost::json::array& Array(const boost::json::object& object, std::string_view key) {
  static const boost::json::array kEmpty;
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_array() ? value->as_array() : kEmpty;
}

/// A report of `kind` with what every report's JSON carries (the tool's version, when the run
/// started, what stopped it early), or an error when `value` is not a report in `format`
/// ("mcpfuzz-fuzz-report").
inline Result<Report> ReportHead(const boost::json::value& value, std::string_view format,
                                 ReportKind kind) {
  if (!value.is_object() || Text(value.as_object(), "format") != format) {
    return Error{"not an " + std::string(format)};
  }
  const boost::json::object& in = value.as_object();
  Report report;
  report.kind = kind;
  report.tool_version = Text(Object(in, "tool"), "version");
  report.started_at = Text(in, "started_at");
  report.stopped_by = StoppedByFromJson(in);
  report.fail_on = ParseFailOn(Text(in, "fail_on")).value_or(FailOn::kFail);
  return report;
}

}  // namespace mcpfuzz::reports::detail
