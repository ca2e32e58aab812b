#include "transport/detail/line_splitter.h"

namespace mcpfuzz::transport_detail {

void LineSplitter::Feed(std::string_view bytes) {
  if (discarding_) {
    const std::size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) return;
    discarding_ = false;
    bytes.remove_prefix(newline + 1);
  }
  Compact();
  buffer_.append(bytes);
}

std::optional<LinePiece> LineSplitter::Next() {
  if (discarding_) return std::nullopt;
  const std::size_t newline = buffer_.find('\n', consumed_ + scanned_);
  if (newline == std::string::npos) {
    scanned_ = pending_bytes();
    if (pending_bytes() <= max_line_bytes_) return std::nullopt;
    LinePiece piece{LinePiece::Kind::kTooLong, buffer_.substr(consumed_, kExcerptBytes),
                    pending_bytes()};
    buffer_.clear();
    consumed_ = 0;
    scanned_ = 0;
    discarding_ = true;
    return piece;
  }
  const std::size_t length = newline - consumed_;
  LinePiece piece;
  if (length > max_line_bytes_) {
    piece.kind = LinePiece::Kind::kTooLong;
    piece.line.assign(buffer_, consumed_, kExcerptBytes);
    piece.size = length;
  } else {
    piece.line.assign(buffer_, consumed_, length);
  }
  consumed_ = newline + 1;
  scanned_ = 0;
  return piece;
}

std::optional<std::string> LineSplitter::TakeRemainder() {
  if (discarding_ || pending_bytes() == 0) return std::nullopt;
  std::string rest = buffer_.substr(consumed_);
  buffer_.clear();
  consumed_ = 0;
  scanned_ = 0;
  return rest;
}

void LineSplitter::Compact() {
  // Dropping returned lines only once they dominate keeps appends amortised O(1).
  if (consumed_ > 0 && consumed_ >= buffer_.size() / 2) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
}

}  // namespace mcpfuzz::transport_detail
