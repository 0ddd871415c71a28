#pragma once
// Whole numbers typed on cardtablectl's command line. Boost's unsigned option parser takes "-1" as
// 18446744073709551615 without a word (a replay from there is silently empty; a seed of -1 a
// different deal set than the one asked for), so such arguments are read as text and checked here.
#include <cstdint>
#include <optional>
#include <string>

namespace cardtable::tools {

// Digits only, at most 19 of them (every such number fits in 64 bits): no sign, space or suffix.
inline std::optional<std::uint64_t> parse_unsigned(const std::string& text) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoull(text);
}

// An event's seq: 1 or more (the journal's first event is seq 1).
inline std::optional<std::uint64_t> parse_seq(const std::string& text) {
  const auto v = parse_unsigned(text);
  return v && *v >= 1 ? v : std::nullopt;
}

}  // namespace cardtable::tools
