#include "table/unshuffled.hpp"

#include <algorithm>

namespace cardtable::table {
using namespace cardtable::bridge;

namespace {

constexpr int kPacketSizes[] = {1, 2, 3, 4, 13};
constexpr int kOrders = 96;  // 24 suit orders x ascending/descending x suit-major/rank-major

// The pack of order o: suit-major (all of one suit, then the next) or rank-major (the four aces, then
// the kings...), with one of the 24 orders of the suits, ranks descending or ascending.
std::array<Card, kCards> pack(int order) {
  std::array<Suit, 4> suits = {Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs};
  int perm = order % 24;
  for (int i = 0; i < perm; ++i) std::next_permutation(suits.begin(), suits.end());
  bool ascending = (order / 24) % 2 == 1;
  bool rank_major = order / 48 == 1;
  std::array<Card, kCards> out{};
  std::size_t n = 0;
  for (int a = 0; a < (rank_major ? kRanks : 4); ++a)
    for (int b = 0; b < (rank_major ? 4 : kRanks); ++b) {
      int rank_step = rank_major ? a : b;
      Suit s = suits[static_cast<std::size_t>(rank_major ? b : a)];
      auto r = static_cast<Rank>(ascending ? rank_step : kRanks - 1 - rank_step);
      out[n++] = Card(s, r);
    }
  return out;
}

// Deals the pack, cut at `cut`, in packets of k round the table until every hand has 13.
Deal deal_pack(const std::array<Card, kCards>& p, int cut, int k) {
  Deal d;
  std::size_t next = 0;
  int seat = 0;
  while (next < kCards) {
    Hand& h = d.hand(static_cast<Seat>(seat));
    for (int i = 0; i < k && h.size() < 13 && next < kCards; ++i)
      h.add(p[(next++ + static_cast<std::size_t>(cut)) % kCards]);
    seat = (seat + 1) % 4;
  }
  return d;
}

}  // namespace

UnshuffledDeals::Key UnshuffledDeals::key_of(const Deal& d) {
  Key k = {d.hands()[0].bits(), d.hands()[1].bits(), d.hands()[2].bits(), d.hands()[3].bits()};
  std::sort(k.begin(), k.end());
  return k;
}

UnshuffledDeals::UnshuffledDeals() {
  std::uint32_t construction = 0;
  for (int order = 0; order < kOrders; ++order) {
    auto p = pack(order);
    for (int cut = 0; cut < kCards; ++cut)
      for (int k : kPacketSizes) keys_.emplace_back(key_of(deal_pack(p, cut, k)), construction++);
  }
  std::sort(keys_.begin(), keys_.end());
  // Different constructions can give the same deal; keep the first of each.
  keys_.erase(std::unique(keys_.begin(), keys_.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
              keys_.end());
}

std::string UnshuffledDeals::describe(std::uint32_t c) const {
  int k = kPacketSizes[c % 5];
  int cut = static_cast<int>((c / 5) % kCards);
  int order = static_cast<int>(c / 5 / kCards);
  std::array<Suit, 4> suits = {Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs};
  for (int i = 0; i < order % 24; ++i) std::next_permutation(suits.begin(), suits.end());
  std::string out = order / 48 == 1 ? "by rank (" : "by suit (";
  for (std::size_t i = 0; i < 4; ++i) out += std::string(i ? "-" : "") + suit_letter(suits[i]);
  out += (order / 24) % 2 == 1 ? "), twos first" : "), aces first";
  if (cut) out += ", cut at card " + std::to_string(cut);
  out += k == 1 ? ", dealt one at a time" : ", dealt in packets of " + std::to_string(k);
  return out;
}

std::optional<std::string> UnshuffledDeals::match(const Deal& deal) const {
  if (!deal.valid()) return std::nullopt;
  Key k = key_of(deal);
  auto it = std::lower_bound(keys_.begin(), keys_.end(), k, [](const auto& e, const Key& key) { return e.first < key; });
  if (it == keys_.end() || it->first != k) return std::nullopt;
  return "a sorted pack " + describe(it->second);
}

const UnshuffledDeals& unshuffled_deals() {
  static const UnshuffledDeals instance;
  return instance;
}

}  // namespace cardtable::table
