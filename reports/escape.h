#pragma once
// Escaping for the report formats. Everything that came from a server — messages, headers,
// bodies, names — goes through one of these before it is written, so a server cannot inject
// markup, break out of a table or a code block, or produce a file a parser rejects.

#include <boost/json/value.hpp>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcpfuzz::reports {

/// Valid UTF-8 with every control character except newline and tab written visibly: invalid
/// bytes become U+FFFD, C0 controls, DEL and C1 controls "\xNN"/"\u00NN", and the
/// noncharacters U+FFFE and U+FFFF (illegal in XML) "\uFFFE"/"\uFFFF".
std::string Visible(std::string_view text);

/// Text or attribute content for HTML and XML: Visible(), then & < > " ' as entities.
std::string EscapeMarkup(std::string_view text);

/// Inline Markdown (a paragraph or a table cell): Visible(), newlines as spaces, HTML
/// metacharacters as entities and Markdown punctuation backslash-escaped.
std::string EscapeMarkdownInline(std::string_view text);

/// A fenced Markdown code block whose fence is longer than any backtick run in `text`, so the
/// text cannot close it early.
std::string MarkdownCodeBlock(std::string_view text, std::string_view language = "");

/// Replaces bytes that are not UTF-8 in every string of `value` (in place): Boost.JSON would
/// write them raw and produce a document no JSON parser accepts.
void MakeJsonStringsValidUtf8(boost::json::value& value);

/// How many lines of a stdio server's stderr tail the reports show: the terminal under a run's
/// exit reason, the JSON report in each era attempt.
inline constexpr std::size_t kStderrTailLines = 5;

/// The last `count` non-blank lines of `tail`, as written (a '\r' before each '\n' dropped; the
/// first may be cut, since a tail is bytes, and the last may lack its '\n'). Callers escape
/// them for their format.
std::vector<std::string_view> LastLines(std::string_view tail, std::size_t count);

}  // namespace mcpfuzz::reports
