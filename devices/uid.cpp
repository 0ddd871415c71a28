#include "devices/uid.hpp"

namespace cardtable::devices {

std::optional<Uid> Uid::from_bytes(std::span<const std::uint8_t> bytes) {
  if (!valid_length(bytes.size())) return std::nullopt;
  Uid u;
  for (std::size_t i = 0; i < bytes.size(); ++i) u.bytes_[i] = bytes[i];
  u.size_ = bytes.size();
  return u;
}

std::optional<Uid> Uid::parse(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0 || !valid_length(hex.size() / 2)) return std::nullopt;
  std::array<std::uint8_t, kMax> b{};
  for (std::size_t i = 0; i < hex.size() / 2; ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    b[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return from_bytes(std::span<const std::uint8_t>(b.data(), hex.size() / 2));
}

std::string Uid::str() const {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string s;
  for (std::size_t i = 0; i < size_; ++i) {
    s += kHex[bytes_[i] >> 4];
    s += kHex[bytes_[i] & 0xF];
  }
  return s;
}

}  // namespace cardtable::devices
