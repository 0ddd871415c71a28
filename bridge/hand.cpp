#include "bridge/hand.hpp"

namespace cardtable::bridge {

std::string Hand::suit_text(Suit s) const {
  std::string out;
  std::uint32_t b = suit_bits(s);
  for (int r = kRanks - 1; r >= 0; --r)
    if ((b >> r) & 1U) out += rank_char(static_cast<Rank>(r));
  return out;
}

std::string Hand::pbn() const {
  std::string out;
  out.reserve(17);
  for (int i = 0; i < kSuits; ++i) {
    if (i) out += '.';
    out += suit_text(kDisplaySuits[i]);
  }
  return out;
}

std::string Hand::suit_display(Suit s) const {
  std::string out;
  std::uint32_t b = suit_bits(s);
  for (int r = kRanks - 1; r >= 0; --r) {
    if (!((b >> r) & 1U)) continue;
    if (!out.empty()) out += ' ';
    out += rank_display(static_cast<Rank>(r));
  }
  return out.empty() ? "\u2014" : out;
}

}  // namespace cardtable::bridge
