#pragma once
// How stdout lines and exits become parts of an Observation, shared by the one-request
// exchange and the pipeline of the stdio transport.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "model/observation.h"
#include "transport/detail/child_process.h"
#include "transport/detail/line_splitter.h"
#include "transport/transport.h"

namespace mcpfuzz::transport_detail {

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

/// Stdout bytes one reply window may read, kept or dropped. What is kept is capped by
/// Limits::max_response_bytes; dropping the rest of an over-long line costs no memory, so it
/// may go on much longer (a 200 MiB line is still read to its end, and the next exchange
/// starts in sync), but not forever: a stream that never sends '\n' ends the window after
/// this much, a fraction of a second at pipe speed.
std::size_t WindowReadBudget(std::size_t max_response_bytes);

/// Which cap a full reply window reached: "more than 1000 lines", for an observation's detail.
std::string DescribeWindowCap(std::size_t lines, std::size_t kept_bytes, const Limits& limits);

/// An over-long line for an observation's detail: its size and an escaped excerpt.
std::string DescribeTooLong(const LinePiece& piece, std::size_t cap);

/// "; writing the request failed after 10 of 80 bytes (EPIPE)", or "" without an error.
std::string DescribeWriteFailure(std::optional<int> error, std::size_t written, std::size_t total);

}  // namespace mcpfuzz::transport_detail
