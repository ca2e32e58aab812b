#pragma once
// How stdout lines and exits become parts of an Observation, shared by the one-request
// exchange and the pipeline of the stdio transport.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "model/observation.h"
#include "transport/detail/child_process.h"

namespace mcpfuzz::detail {

/// The JSON value of a stdout line, if it is one. A '\r' before the '\n' is tolerated.
std::optional<boost::json::value> ParseLine(std::string_view line);

/// Appends a stdout line and its parse (from ParseLine) to `observation`: stdout_lines, and
/// messages or non_json. Returns the value as stored, if it parsed.
const boost::json::value* RecordLine(Observation& observation, std::string line,
                                     std::optional<boost::json::value> parsed);
/// The same, parsing the line itself.
const boost::json::value* RecordLine(Observation& observation, std::string line);

/// "the server exited with code 3", for an observation's detail.
std::string DescribeExit(const ExitStatus& exit);

}  // namespace mcpfuzz::detail
