#include "bridge/board_record.hpp"

#include <algorithm>
#include <cctype>

namespace cardtable::bridge {

char strain_letter(Strain s) { return "CDHSN"[static_cast<int>(s)]; }

std::string_view strain_pbn(Strain s) {
  constexpr std::array<std::string_view, kStrains> names = {"C", "D", "H", "S", "NT"};
  return names[static_cast<std::size_t>(s)];
}

std::optional<Suit> trump_of(Strain s) {
  if (s == Strain::NoTrump) return std::nullopt;
  return static_cast<Suit>(static_cast<int>(s));
}

std::string Call::str() const {
  switch (kind) {
    case Kind::Pass: return "Pass";
    case Kind::Double: return "X";
    case Kind::Redouble: return "XX";
    case Kind::Bid: return std::to_string(level) + std::string(strain_pbn(strain));
  }
  return {};
}

std::optional<Call> Call::parse(std::string_view text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Call call;
  if (!t.empty() && t.back() == '!') {
    call.alerted = true;
    t.pop_back();
  }
  if (t == "P" || t == "PASS" || t == "AP") return call;  // AP (all pass) is expanded by the readers
  if (t == "X" || t == "D" || t == "DBL") { call.kind = Kind::Double; return call; }
  if (t == "XX" || t == "R" || t == "RDBL" || t == "REDBL") { call.kind = Kind::Redouble; return call; }
  if (t.size() >= 2 && t[0] >= '1' && t[0] <= '7') {
    call.kind = Kind::Bid;
    call.level = t[0] - '0';
    std::string_view s = std::string_view(t).substr(1);
    if (s == "C") call.strain = Strain::Clubs;
    else if (s == "D") call.strain = Strain::Diamonds;
    else if (s == "H") call.strain = Strain::Hearts;
    else if (s == "S") call.strain = Strain::Spades;
    else if (s == "N" || s == "NT") call.strain = Strain::NoTrump;
    else return std::nullopt;
    return call;
  }
  return std::nullopt;
}

bool Auction::complete() const {
  if (calls.size() == 4 && std::all_of(calls.begin(), calls.end(), [](const Call& c) { return c.kind == Call::Kind::Pass; }))
    return true;
  if (calls.size() < 4) return false;
  bool bid = std::any_of(calls.begin(), calls.end(), [](const Call& c) { return c.kind == Call::Kind::Bid; });
  return bid && std::all_of(calls.end() - 3, calls.end(), [](const Call& c) { return c.kind == Call::Kind::Pass; });
}

void Auction::all_pass() {
  for (int added = 0; added < 4 && !complete(); ++added) {
    bool bid = std::any_of(calls.begin(), calls.end(), [](const Call& c) { return c.kind == Call::Kind::Bid; });
    if (!bid && calls.size() >= 4) break;  // passed out already, with more calls than a legal auction has
    calls.push_back(Call{});
  }
}

std::optional<Contract> contract_of(const Auction& a) {
  std::optional<std::size_t> last_bid;
  int doubled = 0;
  for (std::size_t i = 0; i < a.calls.size(); ++i) {
    const Call& c = a.calls[i];
    if (c.kind == Call::Kind::Bid) { last_bid = i; doubled = 0; }
    else if (c.kind == Call::Kind::Double) doubled = 1;
    else if (c.kind == Call::Kind::Redouble) doubled = 2;
  }
  if (!last_bid) return std::nullopt;
  const Call& bid = a.calls[*last_bid];
  Seat bidder = rotate(a.dealer, static_cast<int>(*last_bid % 4));
  // Declarer: the first of the bidding side to name the final strain.
  Seat declarer = bidder;
  for (std::size_t i = 0; i <= *last_bid; ++i) {
    Seat s = rotate(a.dealer, static_cast<int>(i % 4));
    const Call& c = a.calls[i];
    if (c.kind == Call::Kind::Bid && c.strain == bid.strain && side_of(s) == side_of(bidder)) { declarer = s; break; }
  }
  return Contract{bid.level, bid.strain, doubled, declarer};
}

std::string Contract::str() const {
  return std::to_string(level) + std::string(strain_pbn(strain)) + std::string(static_cast<std::size_t>(doubled), 'X');
}

std::optional<Contract> parse_contract(std::string_view text, Seat declarer) {
  if (text.size() < 2 || text[0] < '1' || text[0] > '7') return std::nullopt;
  Contract c;
  c.level = text[0] - '0';
  c.declarer = declarer;
  std::size_t pos = 2;
  switch (std::toupper(static_cast<unsigned char>(text[1]))) {
    case 'C': c.strain = Strain::Clubs; break;
    case 'D': c.strain = Strain::Diamonds; break;
    case 'H': c.strain = Strain::Hearts; break;
    case 'S': c.strain = Strain::Spades; break;
    case 'N':
      c.strain = Strain::NoTrump;
      if (pos < text.size() && std::toupper(static_cast<unsigned char>(text[pos])) == 'T') ++pos;
      break;
    default: return std::nullopt;
  }
  std::string_view rest = text.substr(pos);
  if (rest.empty()) c.doubled = 0;
  else if (rest == "X" || rest == "x") c.doubled = 1;
  else if (rest == "XX" || rest == "xx") c.doubled = 2;
  else return std::nullopt;
  return c;
}

Seat trick_winner(const std::array<std::optional<Card>, kSeats>& trick, Seat leader, std::optional<Suit> trump) {
  const auto& led = trick[static_cast<std::size_t>(index(leader))];
  if (!led) return leader;
  Seat best = leader;
  Card best_card = *led;
  for (int i = 1; i < kSeats; ++i) {
    Seat s = rotate(leader, i);
    const auto& c = trick[static_cast<std::size_t>(index(s))];
    if (!c) continue;
    bool beats = false;
    if (c->suit() == best_card.suit()) beats = c->rank() > best_card.rank();
    else if (trump && c->suit() == *trump) beats = true;
    if (beats) { best = s; best_card = *c; }
  }
  return best;
}

std::vector<Card> Play::in_order(std::optional<Suit> trump) const {
  std::vector<Card> out;
  Seat lead = leader;
  for (const auto& trick : tricks) {
    for (int i = 0; i < kSeats; ++i)
      if (const auto& c = trick[static_cast<std::size_t>(index(rotate(lead, i)))]) out.push_back(*c);
    lead = trick_winner(trick, lead, trump);
  }
  return out;
}

Play Play::from_order(Seat leader, const std::vector<Card>& cards, std::optional<Suit> trump) {
  Play p;
  p.leader = leader;
  Seat lead = leader;
  for (std::size_t i = 0; i < cards.size(); i += 4) {
    std::array<std::optional<Card>, kSeats> trick{};
    for (std::size_t j = 0; j < 4 && i + j < cards.size(); ++j)
      trick[static_cast<std::size_t>(index(rotate(lead, static_cast<int>(j))))] = cards[i + j];
    p.tricks.push_back(trick);
    lead = trick_winner(trick, lead, trump);
  }
  return p;
}

int Play::card_count() const {
  int n = 0;
  for (const auto& t : tricks)
    for (const auto& c : t) n += c ? 1 : 0;
  return n;
}

namespace {
// PBN DoubleDummyTricks order: declarers N, S, E, W; strains NT, S, H, D, C.
constexpr Seat kDdSeats[4] = {Seat::North, Seat::South, Seat::East, Seat::West};
constexpr Strain kDdStrains[5] = {Strain::NoTrump, Strain::Spades, Strain::Hearts, Strain::Diamonds, Strain::Clubs};
}  // namespace

std::string DdTable::pbn() const {
  std::string out;
  for (Seat s : kDdSeats)
    for (Strain st : kDdStrains) out += "0123456789abcdef"[at(s, st)];
  return out;
}

std::optional<DdTable> DdTable::parse_pbn(std::string_view text) {
  if (text.size() != 20) return std::nullopt;
  DdTable t;
  std::size_t i = 0;
  for (Seat s : kDdSeats)
    for (Strain st : kDdStrains) {
      char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
      int v = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'd') ? c - 'a' + 10 : -1;
      if (v < 0) return std::nullopt;
      t.tricks[static_cast<std::size_t>(index(s))][static_cast<std::size_t>(st)] = v;
    }
  return t;
}

namespace {
// The filler value of a making-only table: the one value every count under 7 has; 0 when there is none.
int filler_of(const DdTable& t) {
  int filler = 0;
  for (const auto& row : t.tricks)
    for (int n : row) {
      if (n >= 7) continue;
      if (filler != 0 && n != filler) return 0;
      filler = n;
    }
  return filler;
}
}  // namespace

bool DdTable::making_only_form() const { return filler_of(*this) != 0; }

bool DdTable::agrees_with(const DdTable& computed) const {
  if (*this == computed) return true;
  int filler = filler_of(*this);
  if (filler == 0) return false;
  for (std::size_t s = 0; s < kSeats; ++s)
    for (std::size_t st = 0; st < kStrains; ++st) {
      int mine = tricks[s][st], theirs = computed.tricks[s][st];
      if (mine == filler ? theirs >= 7 : mine != theirs) return false;
    }
  return true;
}

const std::string* BoardRecord::tag(std::string_view name) const {
  for (const Tag& t : tags)
    if (t.name == name) return &t.value;
  return nullptr;
}

void BoardRecord::set_tag(std::string_view name, std::string value) {
  for (Tag& t : tags)
    if (t.name == name) { t.value = std::move(value); return; }
  tags.push_back({std::string(name), std::move(value)});
}

bool RecordSet::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.is_error(); });
}

}  // namespace cardtable::bridge
