#include "model/observation.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <utility>

namespace mcpfuzz {
namespace {

// The first kExcerptBytes of `whole`, ending before a UTF-8 sequence the cut would split, so
// a text reply's excerpt stays text.
std::string Prefix(const std::string& whole) {
  std::size_t end = std::min(whole.size(), kExcerptBytes);
  for (int back = 0; back < 3 && end < whole.size() && end > 0 &&
                     (static_cast<unsigned char>(whole[end]) & 0xC0U) == 0x80U;
       ++back) {
    --end;
  }
  return whole.substr(0, end);
}

ReplyExcerpt Cut(std::string of, const std::string& whole) {
  return {std::move(of), Prefix(whole), whole.size()};
}

// Keeps the first kKeptPieces of `pieces`, moving each one over kExcerptBytes (measured by
// `size_of`, cut by `cut`) out to `observation.excerpts`.
template <typename Piece, typename SizeOf, typename CutPiece>
void KeepPieces(Observation& observation, std::vector<Piece>& pieces, SizeOf size_of,
                CutPiece cut) {
  std::vector<Piece> kept;
  std::size_t taken = 0;
  for (Piece& piece : pieces) {
    const std::size_t bytes = size_of(piece);
    if (taken++ >= kKeptPieces) {
      ++observation.left_out;
      observation.left_out_bytes += bytes;
    } else if (bytes > kExcerptBytes) {
      observation.excerpts.push_back(cut(piece));
    } else {
      kept.push_back(std::move(piece));
    }
  }
  pieces = std::move(kept);
}

}  // namespace

void KeepExcerpts(Observation& observation) {
  if (observation.body.size() > kExcerptBytes) {
    observation.excerpts.push_back(Cut("body", observation.body));
    observation.body.clear();
    observation.body.shrink_to_fit();
  }
  KeepPieces(
      observation, observation.messages,
      [](const boost::json::value& message) { return boost::json::serialize(message).size(); },
      [](const boost::json::value& message) {
        return Cut("message", boost::json::serialize(message));
      });
  KeepPieces(
      observation, observation.non_json, [](const std::string& piece) { return piece.size(); },
      [](const std::string& piece) { return Cut("non_json", piece); });
  // Read as messages and non-JSON pieces already, and reported as those: cut, not counted.
  if (observation.stdout_lines.size() > kKeptPieces) observation.stdout_lines.resize(kKeptPieces);
  for (std::string& line : observation.stdout_lines) {
    if (line.size() > kExcerptBytes) line = Prefix(line);
  }
  if (observation.sse_events.size() > kKeptPieces) observation.sse_events.resize(kKeptPieces);
  for (SseEvent& event : observation.sse_events) {
    if (event.data.size() > kExcerptBytes) event.data = Prefix(event.data);
  }
  if (observation.late_replies.size() > kKeptPieces) {
    observation.late_replies.resize(kKeptPieces);
  }
}

}  // namespace mcpfuzz
