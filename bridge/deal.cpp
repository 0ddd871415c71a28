#include "bridge/deal.hpp"

#include <algorithm>

namespace cardtable::bridge {

std::string DealProblem::message() const {
  switch (kind) {
    case Kind::WrongCount:
      return std::string(seat_name(seat)) + " holds " + std::to_string(count) + (count == 1 ? " card" : " cards");
    case Kind::CardInTwoHands:
      return card.str() + " is held by " + std::string(seat_name(seat)) + " and " + std::string(seat_name(other_seat));
    case Kind::MissingCard:
      return card.str() + " is in no hand";
  }
  return {};
}

SeatMap rotation_map(int steps) {
  // Turning the board by `steps` seats: the cards dealt to seat s arrive at seat s + steps,
  // so seat t now holds the hand of seat t - steps.
  SeatMap m{};
  for (Seat t : kAllSeats) m[static_cast<std::size_t>(index(t))] = rotate(t, -steps);
  return m;
}

std::optional<int> rotation_of(const SeatMap& map) {
  for (int steps = 1; steps < 4; ++steps)
    if (map == rotation_map(steps)) return steps;
  return std::nullopt;
}

std::string describe(const SeatMap& map) {
  std::string out;
  for (Seat s : kAllSeats) {
    if (!out.empty()) out += ' ';
    out += seat_letter(s);
    out += "<-";
    out += seat_letter(map[static_cast<std::size_t>(index(s))]);
  }
  return out;
}

std::optional<Seat> Deal::holder(Card c) const {
  for (Seat s : kAllSeats)
    if (hand(s).contains(c)) return s;
  return std::nullopt;
}

bool Deal::valid() const {
  Hand all;
  for (const Hand& h : hands_) {
    if (h.size() != 13 || !(all & h).empty()) return false;
    all |= h;
  }
  return true;  // 4 disjoint hands of 13 hold all 52
}

bool Deal::empty() const {
  return std::all_of(hands_.begin(), hands_.end(), [](const Hand& h) { return h.empty(); });
}

bool Deal::partial_valid() const {
  Hand all;
  for (const Hand& h : hands_) {
    if ((h.size() != 13 && !h.empty()) || !(all & h).empty()) return false;
    all |= h;
  }
  return true;
}

bool Deal::consistent() const {
  Hand all;
  int size = -1;
  for (const Hand& h : hands_) {
    if (!(all & h).empty()) return false;
    all |= h;
    if (h.empty()) continue;
    if (h.size() > 13 || (size >= 0 && h.size() != size)) return false;
    size = h.size();
  }
  return true;
}

std::vector<DealProblem> Deal::problems() const {
  std::vector<DealProblem> out;
  for (Seat s : kAllSeats)
    if (int n = hand(s).size(); n != 13)
      out.push_back({DealProblem::Kind::WrongCount, s, s, Card{}, n});
  for (int id = kCards - 1; id >= 0; --id) {
    Card c = Card::from_id(id);
    std::optional<Seat> first;
    bool reported = false;
    for (Seat s : kAllSeats) {
      if (!hand(s).contains(c)) continue;
      if (first && !reported) {
        out.push_back({DealProblem::Kind::CardInTwoHands, *first, s, c, 0});
        reported = true;
      }
      if (!first) first = s;
    }
    if (!first) out.push_back({DealProblem::Kind::MissingCard, Seat::North, Seat::North, c, 0});
  }
  return out;
}

Deal Deal::permuted(const SeatMap& map) const {
  Deal d;
  for (Seat s : kAllSeats) d.hand(s) = hand(map[static_cast<std::size_t>(index(s))]);
  return d;
}

std::string Deal::pbn(Seat first) const {
  std::string out;
  out.reserve(70);
  out += seat_letter(first);
  out += ':';
  for (int i = 0; i < kSeats; ++i) {
    if (i) out += ' ';
    const Hand& h = hand(rotate(first, i));
    out += h.empty() ? std::string("-") : h.pbn();
  }
  return out;
}

std::optional<Deal> Deal::parse_pbn(std::string_view text, ParseError* error) {
  auto fail = [&](std::size_t col, std::string msg) -> std::optional<Deal> {
    if (error) *error = {col, std::move(msg)};
    return std::nullopt;
  };
  if (text.size() < 2 || text[1] != ':') return fail(0, "expected a first seat and ':' as in \"N:\"");
  auto first = parse_seat(text.substr(0, 1));
  if (!first) return fail(0, "expected N, E, S or W before ':'");
  Deal d;
  std::size_t pos = 2;
  for (int i = 0; i < kSeats; ++i) {
    Seat seat = rotate(*first, i);
    if (i > 0) {
      if (pos >= text.size() || text[pos] != ' ')
        return fail(pos, "expected one space before the hand of " + std::string(seat_name(seat)));
      ++pos;
      if (pos < text.size() && text[pos] == ' ')
        return fail(pos, "expected one space, not two, before the hand of " + std::string(seat_name(seat)));
    }
    if (pos < text.size() && text[pos] == '-') {  // an unknown hand
      ++pos;
      continue;
    }
    Hand& h = d.hand(seat);
    for (int si = 0; si < kSuits; ++si) {
      if (si > 0) {
        if (pos >= text.size() || text[pos] != '.')
          return fail(pos, "expected '.' between suits in the hand of " + std::string(seat_name(seat)));
        ++pos;
      }
      Suit suit = kDisplaySuits[si];
      while (pos < text.size() && text[pos] != '.' && text[pos] != ' ') {
        Rank r{};
        if (text.substr(pos).starts_with("10")) {
          r = Rank::Ten;
          pos += 2;
        } else if (auto pr = parse_rank_char(text[pos])) {
          r = *pr;
          ++pos;
        } else {
          return fail(pos, std::string("'") + text[pos] + "' is not a rank (expected AKQJT98765432)");
        }
        Card c(suit, r);
        if (h.contains(c))
          return fail(pos - 1, c.str() + " appears twice in the hand of " + std::string(seat_name(seat)));
        h.add(c);
      }
    }
  }
  if (pos != text.size()) return fail(pos, "unexpected text after the fourth hand");
  return d;
}

Deal random_deal(std::uint64_t& state) {
  auto next = [&state]() {
    // splitmix64: small, fast and good enough for synthetic deals.
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  std::array<std::uint8_t, kCards> pack{};
  for (int i = 0; i < kCards; ++i) pack[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  for (int i = kCards - 1; i > 0; --i) {
    auto j = static_cast<std::size_t>(next() % static_cast<std::uint64_t>(i + 1));
    std::swap(pack[static_cast<std::size_t>(i)], pack[j]);
  }
  Deal d;
  for (int i = 0; i < kCards; ++i) d.hand(static_cast<Seat>(i / 13)).add(Card::from_id(pack[static_cast<std::size_t>(i)]));
  return d;
}

}  // namespace cardtable::bridge
