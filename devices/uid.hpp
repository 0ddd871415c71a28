// A tag's unique identifier: 4, 7 or 10 bytes (ISO 14443-3 single, double, triple size UIDs), written in
// upper-case hex in deck files and logs ("04A1B2C3D4E5F6").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cardtable::devices {

class Uid {
 public:
  static constexpr std::size_t kMax = 10;
  Uid() = default;
  // Null unless 4, 7 or 10 bytes.
  static std::optional<Uid> from_bytes(std::span<const std::uint8_t> bytes);
  static std::optional<Uid> parse(std::string_view hex);
  static bool valid_length(std::size_t n) { return n == 4 || n == 7 || n == 10; }
  std::string str() const;
  std::span<const std::uint8_t> bytes() const { return {bytes_.data(), size_}; }
  std::size_t size() const { return size_; }
  friend bool operator==(const Uid&, const Uid&) = default;
  friend auto operator<=>(const Uid&, const Uid&) = default;

 private:
  std::array<std::uint8_t, kMax> bytes_{};
  std::size_t size_ = 0;
};

}  // namespace cardtable::devices
