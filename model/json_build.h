#pragma once
// Small builders every JSON writer uses: arrays of plain values, and arrays of the names of
// enum values (whatever ToString finds for them).

#include <boost/json/array.hpp>
#include <vector>

namespace mcpfuzz {

template <typename T>
boost::json::array JsonArray(const std::vector<T>& values) {
  return boost::json::array(values.begin(), values.end());
}

template <typename T>
boost::json::array JsonNames(const std::vector<T>& values) {
  boost::json::array out;
  for (const auto& value : values) out.emplace_back(ToString(value));
  return out;
}

}  // namespace mcpfuzz
