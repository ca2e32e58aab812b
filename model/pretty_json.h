#pragma once
// JSON for people: case files and reports are read and diffed by hand, so they are indented;
// everything machine-only stays compact.

#include <boost/json/value.hpp>
#include <string>

namespace mcpfuzz {

/// `json` indented by two spaces, with a final newline. Arrays of scalars (header pairs,
/// codes) stay on one line, and so does anything nested deeper than a few levels: a body
/// nested thousands of levels deep would otherwise cost megabytes of indentation.
std::string PrettyJson(const boost::json::value& json);

}  // namespace mcpfuzz
