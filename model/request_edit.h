#pragma once
// Request surgery: the few edits every way of breaking one rule starts from. Each returns a
// reference into the request's JSON body, creating what is missing. And the one read of a
// message's `params._meta`, which creates nothing.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string_view>

#include "model/request.h"

namespace mcpfuzz {

/// The JSON object body of `request`; a raw, missing or non-object body is replaced by {}.
boost::json::object& BodyObject(Request& request);
/// `params` of the object body, created (or replaced) as an object.
boost::json::object& Params(Request& request);
/// `params._meta` of the object body, created (or replaced) as an object.
boost::json::object& Meta(Request& request);

/// `object[key]` when it is an object; null otherwise.
const boost::json::object* ObjectMember(const boost::json::object& object, std::string_view key);
/// `params._meta` of a JSON-RPC message, when both are objects; null otherwise.
const boost::json::object* ParamsMeta(const boost::json::value& message);
/// Declared server `capabilities` set `capability`.`member` true ("resources", "subscribe").
bool DeclaresFlag(const boost::json::object& capabilities, std::string_view capability,
                  std::string_view member);

}  // namespace mcpfuzz
