#include "model/pretty_json.h"

#include <boost/json/serialize.hpp>

namespace mcpfuzz {
namespace {

constexpr int kPrettyDepth = 6;

void WritePretty(const boost::json::value& json, int depth, std::string& out) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  const std::string inner(static_cast<std::size_t>(depth + 1) * 2, ' ');
  if (depth >= kPrettyDepth) {
    out += boost::json::serialize(json);
  } else if (const auto* object = json.if_object(); object != nullptr && !object->empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& member : *object) {
      if (!first) out += ",\n";
      first = false;
      out += inner + boost::json::serialize(boost::json::value(member.key())) + ": ";
      WritePretty(member.value(), depth + 1, out);
    }
    out += "\n" + indent + "}";
  } else if (const auto* array = json.if_array(); array != nullptr && !array->empty()) {
    bool scalars = true;
    for (const auto& item : *array) scalars = scalars && !item.is_structured();
    if (scalars) {
      out += boost::json::serialize(json);
      return;
    }
    out += "[\n";
    bool first = true;
    for (const auto& item : *array) {
      if (!first) out += ",\n";
      first = false;
      out += inner;
      WritePretty(item, depth + 1, out);
    }
    out += "\n" + indent + "]";
  } else {
    out += boost::json::serialize(json);
  }
}

}  // namespace

std::string PrettyJson(const boost::json::value& json) {
  std::string out;
  WritePretty(json, 0, out);
  return out + "\n";
}

}  // namespace mcpfuzz
