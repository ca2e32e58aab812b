#pragma once
// How stdout lines and exits become parts of an Observation, shared by the one-request
// exchange and the pipeline of the stdio transport.

#include <boost/json/stream_parser.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// Stdout lines as the framing of one exchange gives them: each line on its own, or the lines
/// of one JSON text a server spread over several (pretty-printed), which newline-delimited
/// framing forbids but which is still the server's answer. A line that does not parse but
/// opens an object or array starts such a text; the lines after it are added while they keep
/// it a valid prefix, until it is complete. A line that breaks it ends it: its lines were
/// not JSON after all. What it may cost is bounded by the caller's caps on the lines and
/// bytes of a reply window, since every line still counts against them.
class StdoutFramer {
 public:
  /// One framed piece: the lines, and the JSON value they form, if they form one.
  struct Framed {
    std::vector<std::string> lines;
    std::optional<boost::json::value> value;
  };

  /// Takes the next line; returns what it completes, oldest first: nothing while a text is
  /// open, the line alone, or (when it breaks an open text) that text's lines, then what the
  /// line itself completes.
  std::vector<Framed> Feed(std::string line);
  /// Ends a text still open (the exchange is over): its lines, with no value.
  std::optional<Framed> Flush();

 private:
  std::optional<boost::json::stream_parser> parser_;
  std::vector<std::string> open_lines_;
};

/// Appends `framed` to `observation` as RecordLine does for a line; a value framed from several
/// lines is noted in multi_line_messages as well. Returns the value as stored, if any.
const boost::json::value* RecordFramed(Observation& observation, StdoutFramer::Framed framed);

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
