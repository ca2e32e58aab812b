#include "model/json_depth.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "model/request.h"
#include "model/text.h"

namespace mcpfuzz {
namespace {

// Deep enough for any envelope, well inside Boost.JSON's default limit of 32.
constexpr std::size_t kEnvelopeDepth = 16;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The first position from `pos` on, inside a string, of a byte that ends it or needs a look: a
// quote, a backslash or a control character; the text's end when there is none. Eight bytes
// at a time where none of them is one: a megabyte member is plain letters, read for every
// judgement of the body that carries it.
std::size_t NextSpecialInString(std::string_view text, std::size_t pos) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
  // Nonzero when a byte of `word` is below `bound` (at most 0x80); it may also flag a byte
  // above one that is, never miss one.
  const auto below = [](std::uint64_t word, std::uint64_t bound) {
    return (word - kOnes * bound) & ~word & kHighBits;
  };
  while (pos < text.size()) {
    if (pos + sizeof(std::uint64_t) <= text.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, text.data() + pos, sizeof word);
      if ((below(word, 0x20) | below(word ^ (kOnes * '"'), 1) | below(word ^ (kOnes * '\\'), 1)) ==
          0) {
        pos += sizeof word;
        continue;
      }
    }
    const auto c = static_cast<unsigned char>(text[pos]);
    if (c < 0x20 || c == '"' || c == '\\') return pos;
    ++pos;
  }
  return pos;
}

// One pass over the text: validates it and, with `out`, copies what lies at most `max_depth`
// levels deep, writing `null` for each container that opens deeper. With `envelope`, the
// members of a top-level object other than id, method and jsonrpc are copied with `null` for
// their values.
class Reader {
 public:
  Reader(std::string_view text, std::size_t max_depth, std::string* out, bool envelope = false)
      : text_(text), max_depth_(max_depth), out_(out), envelope_(envelope) {}

  bool Read() {
    enum class Want { kValue, kValueOrClose, kKeyOrClose, kKey, kColon, kCommaOrClose, kEnd };
    Want want = Want::kValue;
    while (true) {
      while (pos_ < text_.size() && IsBlank(text_[pos_])) ++pos_;
      if (pos_ == text_.size()) return want == Want::kEnd;
      const char c = text_[pos_];
      switch (want) {
        case Want::kEnd:
          return false;
        case Want::kColon:
          if (c != ':') return false;
          Emit(pos_++, 1);
          want = Want::kValue;
          continue;
        case Want::kCommaOrClose:
          if (c == ',') {
            Emit(pos_++, 1);
            want = stack_.back() == '[' ? Want::kValue : Want::kKey;
            continue;
          }
          if (!Close(c)) return false;
          want = stack_.empty() ? Want::kEnd : Want::kCommaOrClose;
          continue;
        case Want::kKeyOrClose:
        case Want::kKey:
          if (c == '}' && want == Want::kKeyOrClose) {
            if (!Close(c)) return false;
            want = stack_.empty() ? Want::kEnd : Want::kCommaOrClose;
            continue;
          }
          if (c != '"') return false;
          if (const std::size_t key = pos_; !String()) {
            return false;
          } else if (envelope_ && stack_.size() == 1) {
            mute_value_ = !EnvelopeKey(text_.substr(key, pos_ - key));
          }
          want = Want::kColon;
          continue;
        case Want::kValueOrClose:
          if (c == ']') {
            if (!Close(c)) return false;
            want = stack_.empty() ? Want::kEnd : Want::kCommaOrClose;
            continue;
          }
          [[fallthrough]];
        case Want::kValue:
          if (mute_value_) {
            // The value of a member the envelope leaves out: `null` stands for it.
            mute_value_ = false;
            muted_ = true;
            out_->append("null");
          }
          if (c == '[' || c == '{') {
            Open(c);
            want = c == '[' ? Want::kValueOrClose : Want::kKeyOrClose;
            continue;
          }
          if (!Scalar()) return false;
          if (stack_.size() == 1) muted_ = false;
          want = stack_.empty() ? Want::kEnd : Want::kCommaOrClose;
          continue;
      }
    }
  }

 private:
  bool Shown() const { return stack_.size() <= max_depth_ && !muted_; }
  void Emit(std::size_t from, std::size_t size) {
    if (out_ != nullptr && Shown()) out_->append(text_.substr(from, size));
  }
  void Open(char c) {
    stack_.push_back(c);
    if (out_ != nullptr && !muted_ && stack_.size() == max_depth_ + 1) out_->append("null");
    Emit(pos_++, 1);
  }
  bool Close(char c) {
    if (stack_.empty() || (c == ']' ? '[' : c == '}' ? '{' : 0) != stack_.back()) return false;
    Emit(pos_++, 1);
    stack_.pop_back();
    if (stack_.size() == 1) muted_ = false;
    return true;
  }
  // A member key as written, quotes and escapes included: decoded, since "\u0069d" is "id" (a
  // key written in more than 64 bytes is none of the three).
  static bool EnvelopeKey(std::string_view written) {
    const std::optional<boost::json::value> key =
        written.size() <= 64 ? ParseJson(written) : std::nullopt;
    if (!key || !key->is_string()) return false;
    const boost::json::string& name = key->as_string();
    return name == "id" || name == "method" || name == "jsonrpc";
  }
  bool String() {
    const std::size_t start = pos_++;
    while ((pos_ = NextSpecialInString(text_, pos_)) < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c < 0x20) return false;
      if (c == '"') {
        ++pos_;
        if (!IsValidUtf8(text_.substr(start + 1, pos_ - start - 2))) return false;
        Emit(start, pos_ - start);
        return true;
      }
      if (c == '\\') {
        if (++pos_ == text_.size()) return false;
        const char escape = text_[pos_];
        if (escape == 'u') {
          if (pos_ + 4 >= text_.size()) return false;
          for (std::size_t k = 1; k <= 4; ++k) {
            if (!IsHex(text_[pos_ + k])) return false;
          }
          pos_ += 4;
        } else if (std::string_view("\"\\/bfnrt").find(escape) == std::string_view::npos) {
          return false;
        }
      }
      ++pos_;
    }
    return false;
  }
  bool Digits() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    return pos_ > start;
  }
  bool Scalar() {
    const char c = text_[pos_];
    if (c == '"') return String();
    const std::size_t start = pos_;
    for (std::string_view literal : {"true", "false", "null"}) {
      if (text_.substr(pos_, literal.size()) == literal) {
        pos_ += literal.size();
        Emit(start, literal.size());
        return true;
      }
    }
    if (c == '-') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '0') {
      ++pos_;
    } else if (!Digits()) {
      return false;
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!Digits()) return false;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!Digits()) return false;
    }
    Emit(start, pos_ - start);
    return true;
  }

  std::string_view text_;
  std::size_t max_depth_;
  std::string* out_;
  bool envelope_ = false;
  bool mute_value_ = false;  // the next value is one the envelope leaves out
  bool muted_ = false;       // within such a value
  std::size_t pos_ = 0;
  std::vector<char> stack_;
};

}  // namespace

bool IsJsonText(std::string_view text) { return Reader(text, 0, nullptr).Read(); }

std::size_t JsonNestingDepth(std::string_view text) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (in_string && !escaped && (at = NextSpecialInString(text, at)) == text.size()) break;
    const char c = text[at];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::optional<std::string> WithoutDeepNesting(std::string_view text, std::size_t max_depth) {
  std::string out;
  if (!Reader(text, max_depth, &out).Read()) return std::nullopt;
  return out;
}

std::optional<boost::json::value> ParseRpcEnvelope(std::string_view text) {
  std::string out;
  if (!Reader(text, kEnvelopeDepth, &out, /*envelope=*/true).Read()) return std::nullopt;
  return ParseJson(out);
}

std::optional<boost::json::value> ParseJsonEnvelope(std::string_view text) {
  if (auto parsed = ParseJson(text)) return parsed;
  // Only text nested past the limit is worth a second look; the scan is cheap next to a parse.
  if (JsonNestingDepth(text) <= kEnvelopeDepth) return std::nullopt;
  const std::optional<std::string> shallow = WithoutDeepNesting(text, kEnvelopeDepth);
  if (!shallow) return std::nullopt;
  return ParseJson(*shallow);
}

}  // namespace mcpfuzz
