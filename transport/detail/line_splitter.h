#pragma once
// Splits a byte stream into newline-delimited lines with bounded memory, as stdio framing needs.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpfuzz::transport_detail {

/// One piece of the stream: a complete line, or the news that a line exceeded the cap.
struct LinePiece {
  enum class Kind { kLine, kTooLong };
  Kind kind = Kind::kLine;
  /// The line's bytes without its '\n' (a '\r' before it is kept); for kTooLong its first
  /// kExcerptBytes only, so an over-long line costs a constant, not its size.
  std::string line;
  /// kTooLong: the bytes of the line seen when it was reported (its size when its '\n' was
  /// already buffered, a lower bound otherwise).
  std::size_t size = 0;
};

/// How much of an over-long line is kept, for a person to see what it was.
inline constexpr std::size_t kExcerptBytes = 256;

/// Feed bytes in chunks of any size and take lines out one at a time; lines not taken stay
/// buffered for later. A line longer than `max_line_bytes` is reported once as kTooLong and
/// its bytes are dropped up to and including its '\n', so the lines after it stay in sync even
/// when that '\n' arrives in a later chunk.
class LineSplitter {
 public:
  explicit LineSplitter(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  void Feed(std::string_view bytes);
  /// The next piece, or nothing until more bytes arrive.
  std::optional<LinePiece> Next();
  /// At end of stream: the bytes of an unterminated last line, if any (never while dropping).
  std::optional<std::string> TakeRemainder();

  /// True while the rest of an over-long line is being dropped.
  bool discarding() const { return discarding_; }
  /// Bytes buffered and not yet returned.
  std::size_t pending_bytes() const { return buffer_.size() - consumed_; }

 private:
  void Compact();

  std::size_t max_line_bytes_;
  std::string buffer_;
  /// Bytes at the front of buffer_ already returned.
  std::size_t consumed_ = 0;
  /// How far past consumed_ the search for '\n' has already looked.
  std::size_t scanned_ = 0;
  bool discarding_ = false;
};

}  // namespace mcpfuzz::transport_detail
