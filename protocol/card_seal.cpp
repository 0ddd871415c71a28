#include "protocol/card_seal.hpp"

#include <regex>
#include <string>

namespace cardtable::protocol {

namespace {

// A card as Card::str() writes it ("SA", "HT", also "H10"), as Card::display() does ("♠A", "♥10"), or a
// PBN hand of four dot-separated suits. Word boundaries keep "SAT" or "D20" from counting.
const std::regex& card_pattern() {
  static const std::regex r(
      R"((?:^|[^A-Za-z0-9])([SHDC](?:10|[2-9TJQKA]))(?=$|[^A-Za-z0-9]))"
      R"(|(\xE2\x99[\xA0\xA3\xA5\xA6](?:10|[2-9TJQKA])))"
      R"(|((?:^|[^A-Za-z0-9.])[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*(?=$|[^A-Za-z0-9.])))");
  return r;
}

std::size_t hand_cards(const std::string& hand) {
  std::size_t n = 0;
  for (char c : hand) n += (c != '.' && c != ' ' && c != ':' && c != ',' && c != '-') ? 1 : 0;
  return n;
}

}  // namespace

std::size_t cards_named(std::string_view text) {
  std::string s(text);
  std::size_t n = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), card_pattern()); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    if (m[1].matched || m[2].matched) ++n;
    else if (m[3].matched) {
      std::size_t c = hand_cards(m[3].str());
      n += c > 0 ? c : 0;  // "..." names no card
    }
  }
  return n;
}

bool seal_card_detail(WireEvent& e) {
  bool moved = false;
  for (auto& [key, value] : e.evidence) {
    std::size_t n = cards_named(value);
    if (n == 0) continue;
    bool already = false;
    for (const auto& [k, v] : e.card_evidence) already = already || k == key;
    if (!already) e.card_evidence.emplace_back(key, value);
    value = std::to_string(n) + (n == 1 ? " card" : " cards") + " (named for directors: request evidence)";
    moved = true;
  }
  if (cards_named(e.message) > 0) {
    if (e.card_message.empty()) e.card_message = e.message;
    std::string what = e.type;
    if (e.board > 0) what += " on board " + std::to_string(e.board);
    if (!e.seats.empty()) {
      what += " (";
      for (std::size_t i = 0; i < e.seats.size(); ++i) what += (i ? "," : "") + e.seats[i];
      what += ")";
    }
    e.message = what + ": the cards are named for directors only (request evidence)";
    moved = true;
  }
  return moved;
}

}  // namespace cardtable::protocol
