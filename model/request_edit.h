#pragma once
// Request surgery: the few edits every way of breaking one rule starts from. Each returns a
// reference into the request's JSON body, creating what is missing.

#include <boost/json/object.hpp>

#include "model/request.h"

namespace mcpfuzz {

/// The JSON object body of `request`; a raw, missing or non-object body is replaced by {}.
boost::json::object& BodyObject(Request& request);
/// `params` of the object body, created (or replaced) as an object.
boost::json::object& Params(Request& request);
/// `params._meta` of the object body, created (or replaced) as an object.
boost::json::object& Meta(Request& request);

}  // namespace mcpfuzz
