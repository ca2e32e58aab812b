#pragma once
// What a server answered to a tools/call, prompts/get or resources/read naming something it
// does not have, reduced to what names.unknown-consistent compares: channel, code and message.
// Pure: the caller sends the random name and keeps this as the judge's context.

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/channel.h"
#include "model/observation.h"
#include "model/request.h"

namespace mcpfuzz {

struct NameAnswer {
  /// The method and the name asked for (params.name, or params.uri for resources/read).
  std::string method;
  std::string name;
  Channel channel = Channel::kNoReply;
  std::optional<std::int64_t> code;
  /// error.message, or the first text of a result's content.
  std::string message;
};

/// A name no server has for `method` (tools/call, prompts/get or resources/read): the random
/// name an impossible one is compared with.
std::string_view RandomNameFor(std::string_view method);
/// The params of `method` asking for `name` (tools/call with empty arguments).
boost::json::object NameParams(std::string_view method, std::string_view name);

/// The name `request` asks for, "" for none.
std::string NameAskedFor(const Request& request);
/// The answer `observation` gave to `request`.
NameAnswer ReadNameAnswer(const Request& request, const Observation& observation);
/// `reference.message` with every occurrence of the reference's name replaced by `name`: what
/// a server whose answer does not depend on the name says to `name`.
std::string MessageFor(const NameAnswer& reference, const std::string& name);

}  // namespace mcpfuzz
