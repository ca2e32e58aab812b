#pragma once
// A reader over libFuzzer's bytes that never throws and never fails: past the end every byte
// reads as 0 and every string as empty, so each input decodes to something.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace mcpfuzz::fuzzing {

class FuzzData {
 public:
  explicit FuzzData(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  /// The next byte, or 0 when none is left.
  std::uint8_t Byte() { return position_ < bytes_.size() ? bytes_[position_++] : 0; }
  /// The next byte modulo `count` (which must not be 0).
  std::size_t Below(std::size_t count) { return Byte() % count; }
  /// Everything not read yet.
  std::string_view Rest() {
    const auto* begin = reinterpret_cast<const char*>(bytes_.data()) + position_;  // NOLINT
    const std::size_t size = bytes_.size() - position_;
    position_ = bytes_.size();
    return {begin, size};
  }
  bool empty() const { return position_ >= bytes_.size(); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
};

}  // namespace mcpfuzz::fuzzing
