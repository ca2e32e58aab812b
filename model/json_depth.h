#pragma once
// JSON at any depth, read without recursion. Boost.JSON, like most parsers, recurses per level
// (and refuses past max_depth), so mcpfuzz could not even read the id of a valid request nested
// 100,000 levels deep; these helpers let it judge such requests without parsing them whole.

#include <boost/json/value.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpfuzz {

/// True when `text` is exactly one JSON value (RFC 8259: strings of valid UTF-8 without raw
/// control characters, numbers, literals), whitespace around it allowed. Constant stack.
bool IsJsonText(std::string_view text);

/// The deepest nesting of arrays and objects in `text`, strings skipped (0 for a scalar).
std::size_t JsonNestingDepth(std::string_view text);

/// `text` with every array or object that opens deeper than `max_depth` levels replaced by
/// `null`, when `text` is one valid JSON value (IsJsonText); nothing otherwise.
std::optional<std::string> WithoutDeepNesting(std::string_view text, std::size_t max_depth);

/// ParseJson, and for valid JSON nested past the parser's depth limit, the parse of
/// WithoutDeepNesting: its id, method and shallow members are the request's own. Nothing for
/// text that is not JSON. For reading a request's envelope only: the deep values are gone.
std::optional<boost::json::value> ParseJsonEnvelope(std::string_view text);

/// ParseJsonEnvelope for a message's id and method only: a top-level object keeps its id,
/// method and jsonrpc members (whatever their keys' escapes), and every other member's value is
/// `null`. A body of megabytes (padding in params._meta, a long name) is then read without a
/// copy of it. Nothing for text that is not JSON.
std::optional<boost::json::value> ParseRpcEnvelope(std::string_view text);

}  // namespace mcpfuzz
