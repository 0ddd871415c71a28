#include "table/unshuffled.hpp"

#include <algorithm>

namespace cardtable::table {
using namespace cardtable::bridge;

namespace {

constexpr int kPacketSizes[] = {1, 2, 3, 4, 13};

// One pack order. Suit by suit: the four suits in `suits` order, suit i ascending when bit i of
// `ascending` is set, the ace low (before the two, ascending) or high. Rank by rank: the four cards of a
// rank in `suits` order, ranks ascending or descending (bit 0), the ace low or high.
struct Order {
  bool by_rank = false;
  std::array<Suit, 4> suits{};
  unsigned ascending = 0;
  bool ace_low = false;
};

// The 13 ranks in the order a suit runs: ascending from the two (ace high) or the ace (ace low).
std::array<Rank, kRanks> ranks(bool ascending, bool ace_low) {
  std::array<Rank, kRanks> r{};
  for (int i = 0; i < kRanks; ++i) r[static_cast<std::size_t>(i)] = static_cast<Rank>(ace_low ? (i + kRanks - 1) % kRanks : i);
  if (!ascending) std::reverse(r.begin(), r.end());
  return r;
}

std::array<Card, kCards> pack(const Order& o) {
  std::array<Card, kCards> out{};
  std::size_t n = 0;
  if (o.by_rank) {
    for (Rank r : ranks(o.ascending & 1U, o.ace_low))
      for (Suit s : o.suits) out[n++] = Card(s, r);
  } else {
    for (std::size_t i = 0; i < 4; ++i)
      for (Rank r : ranks((o.ascending >> i) & 1U, o.ace_low)) out[n++] = Card(o.suits[i], r);
  }
  return out;
}

// Deals the pack, cut at `cut`, in packets of k round the table until every hand has 13.
template <typename Pack>
Deal deal_pack(const Pack& p, int cut, int k) {
  Deal d;
  std::size_t next = 0;
  int seat = 0;
  while (next < kCards) {
    Hand& h = d.hand(static_cast<Seat>(seat));
    for (int i = 0; i < k && h.size() < 13 && next < kCards; ++i) h.add(p[(next++ + static_cast<std::size_t>(cut)) % kCards]);
    seat = (seat + 1) % 4;
  }
  return d;
}

std::string suit_run(Suit s, bool ascending, bool ace_low) {
  auto r = ranks(ascending, ace_low);
  return std::string(suit_symbol(s)) + std::string(rank_display(r.front())) + "-" + std::string(rank_display(r.back()));
}

std::string dealt(int cut, int k) {
  std::string out;
  if (cut) out += ", cut at card " + std::to_string(cut);
  out += k == 1 ? ", dealt one at a time" : ", dealt in packets of " + std::to_string(k);
  return out;
}

// Published new-deck orders, as a pack lies face down (the top card first). Bicycle and the other
// packs of the United States Playing Card Company: ♥A-K ♣A-K ♦K-A ♠K-A from the top (from the face:
// the jokers, ♠A-K, ♦A-K, ♣K-A, ♥K-A). Dealt from either end, the same pack.
std::optional<std::string> maker(const Order& o) {
  if (o.by_rank || !o.ace_low) return std::nullopt;
  struct Named {
    const char* name;
    std::array<Suit, 4> suits;
    unsigned ascending;
  };
  static const Named named[] = {
      {"Bicycle/USPCC new-deck order", {Suit::Hearts, Suit::Clubs, Suit::Diamonds, Suit::Spades}, 0b0011},
      {"Bicycle/USPCC new-deck order (dealt from the face)", {Suit::Spades, Suit::Diamonds, Suit::Clubs, Suit::Hearts}, 0b0011},
  };
  for (const Named& n : named)
    if (o.suits == n.suits && o.ascending == n.ascending) return std::string(n.name);
  return std::nullopt;
}

std::vector<Order> all_orders() {
  std::vector<Order> out;
  std::array<Suit, 4> suits = {Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades};
  do {
    for (int ace_low = 0; ace_low < 2; ++ace_low) {
      for (unsigned dirs = 0; dirs < 16; ++dirs) out.push_back({false, suits, dirs, ace_low == 1});
      for (unsigned dir = 0; dir < 2; ++dir) out.push_back({true, suits, dir, ace_low == 1});
    }
  } while (std::next_permutation(suits.begin(), suits.end()));
  // Named orders first: among constructions that give the same hands, the first is the one described.
  std::stable_partition(out.begin(), out.end(), [](const Order& o) { return maker(o).has_value(); });
  return out;
}

const std::vector<Order>& orders_table() {
  static const std::vector<Order> orders = all_orders();
  return orders;
}

}  // namespace

std::size_t UnshuffledDeals::orders() { return orders_table().size(); }

UnshuffledDeals::Key UnshuffledDeals::key_of(const Deal& d) {
  Key k = {d.hands()[0].bits(), d.hands()[1].bits(), d.hands()[2].bits(), d.hands()[3].bits()};
  std::sort(k.begin(), k.end());
  return k;
}

UnshuffledDeals::UnshuffledDeals() {
  const auto& orders = orders_table();
  keys_.reserve(orders.size() * kCards * 5);
  std::uint32_t construction = 0;
  for (const Order& o : orders) {
    auto p = pack(o);
    for (int cut = 0; cut < kCards; ++cut)
      for (int k : kPacketSizes) keys_.emplace_back(key_of(deal_pack(p, cut, k)), construction++);
  }
  std::sort(keys_.begin(), keys_.end());
  // Different constructions can give the same deal; keep the first of each.
  keys_.erase(std::unique(keys_.begin(), keys_.end(), [](const auto& a, const auto& b) { return a.first == b.first; }), keys_.end());
  keys_.shrink_to_fit();
}

std::string UnshuffledDeals::describe(std::uint32_t c) const {
  int k = kPacketSizes[c % 5];
  int cut = static_cast<int>((c / 5) % kCards);
  const Order& o = orders_table()[c / 5 / kCards];
  std::string out;
  if (auto name = maker(o)) {
    out = "a pack in " + *name;
  } else if (o.by_rank) {
    auto r = ranks(o.ascending & 1U, o.ace_low);
    out = "a pack sorted rank by rank (" + std::string(rank_display(r.front())) + "s first, suits ";
    for (std::size_t i = 0; i < 4; ++i) out += suit_symbol(o.suits[i]);
    out += ")";
  } else {
    out = "a pack sorted suit by suit (";
    // Appended: gcc 12 -O3 warns a false -Wrestrict on "" + std::string (const char* + string&&).
    for (std::size_t i = 0; i < 4; ++i) out.append(i ? " " : "").append(suit_run(o.suits[i], (o.ascending >> i) & 1U, o.ace_low));
    out += ")";
  }
  return out + dealt(cut, k);
}

std::optional<std::string> UnshuffledDeals::match(const Deal& deal) const {
  if (!deal.valid()) return std::nullopt;
  Key k = key_of(deal);
  auto it = std::lower_bound(keys_.begin(), keys_.end(), k, [](const auto& e, const Key& key) { return e.first < key; });
  if (it == keys_.end() || it->first != k) return std::nullopt;
  return describe(it->second);
}

std::optional<std::string> UnshuffledDeals::match_previous(const Deal& deal, const PreviousBoard& prev) {
  if (!deal.valid() || prev.tricks.size() != kCards) return std::nullopt;
  for (const auto& q : prev.quitted)
    if (q.size() != kRanks) return std::nullopt;
  const Key want = key_of(deal);
  auto try_pack = [&](const std::vector<Card>& p) -> std::optional<std::string> {
    for (int cut = 0; cut < kCards; ++cut)
      for (int k : kPacketSizes)
        if (key_of(deal_pack(p, cut, k)) == want) return dealt(cut, k);
    return std::nullopt;
  };
  // The tricks gathered in order (as in rubber bridge), from either end.
  std::vector<Card> p = prev.tricks;
  for (int flip = 0; flip < 2; ++flip) {
    if (auto how = try_pack(p)) return "the tricks of " + prev.name + " gathered in order" + *how;
    std::reverse(p.begin(), p.end());
  }
  // Each player's quitted cards gathered seat by seat: any order of the seats, each pile either way up.
  std::array<int, 4> seats = {0, 1, 2, 3};
  do {
    for (unsigned flips = 0; flips < 16; ++flips) {
      p.clear();
      for (std::size_t i = 0; i < 4; ++i) {
        const auto& pile = prev.quitted[static_cast<std::size_t>(seats[i])];
        if ((flips >> i) & 1U) p.insert(p.end(), pile.rbegin(), pile.rend());
        else p.insert(p.end(), pile.begin(), pile.end());
      }
      if (auto how = try_pack(p)) {
        std::string order;
        for (int s : seats) order += seat_letter(static_cast<Seat>(s));
        return "the quitted cards of " + prev.name + " gathered seat by seat (" + order + ")" + *how;
      }
    }
  } while (std::next_permutation(seats.begin(), seats.end()));
  return std::nullopt;
}

const UnshuffledDeals& unshuffled_deals() {
  static const UnshuffledDeals instance;
  return instance;
}

}  // namespace cardtable::table
