#include "model/request_edit.h"

namespace mcpfuzz {

boost::json::object& BodyObject(Request& request) {
  auto* value = std::get_if<boost::json::value>(&request.body);
  if (value == nullptr || !value->is_object()) {
    request.body = boost::json::value(boost::json::object{});
  }
  return std::get<boost::json::value>(request.body).as_object();
}

boost::json::object& Params(Request& request) {
  boost::json::value& params = BodyObject(request)["params"];
  if (!params.is_object()) params = boost::json::object{};
  return params.as_object();
}

const boost::json::object* ObjectMember(const boost::json::object& object, std::string_view key) {
  const boost::json::value* member = object.if_contains(key);
  return member != nullptr ? member->if_object() : nullptr;
}

bool DeclaresFlag(const boost::json::object& capabilities, std::string_view capability,
                  std::string_view member) {
  const boost::json::object* declared = ObjectMember(capabilities, capability);
  const boost::json::value* flag = declared != nullptr ? declared->if_contains(member) : nullptr;
  return flag != nullptr && flag->is_bool() && flag->get_bool();
}

const boost::json::object* ParamsMeta(const boost::json::value& message) {
  const boost::json::object* object = message.if_object();
  const boost::json::object* params = object != nullptr ? ObjectMember(*object, "params") : nullptr;
  return params != nullptr ? ObjectMember(*params, "_meta") : nullptr;
}

boost::json::object& Meta(Request& request) {
  boost::json::value& meta = Params(request)["_meta"];
  if (!meta.is_object()) meta = boost::json::object{};
  return meta.as_object();
}

}  // namespace mcpfuzz
