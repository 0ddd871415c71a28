// One board as a record file holds it: where it belongs, its deal, and what was played.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bridge/board.hpp"
#include "bridge/deal.hpp"
#include "bridge/diagnostic.hpp"

namespace cardtable::bridge {

// Strains in the order of the auction: clubs .. spades, then notrump.
enum class Strain : std::uint8_t { Clubs = 0, Diamonds, Hearts, Spades, NoTrump };
inline constexpr int kStrains = 5;
char strain_letter(Strain s);            // 'C' .. 'S', 'N'
std::string_view strain_pbn(Strain s);   // "C" .. "S", "NT"

// A call: pass, a bid, double or redouble. Text forms: "Pass", "1NT", "7S", "X", "XX".
struct Call {
  enum class Kind : std::uint8_t { Pass, Bid, Double, Redouble } kind = Kind::Pass;
  int level = 0;                 // Bid: 1..7
  Strain strain = Strain::NoTrump;
  bool alerted = false;          // "!" in LIN, "!" suffix/annotation in PBN
  std::string note;              // the explanation, when the record has one
  std::string str() const;       // PBN form
  static std::optional<Call> parse(std::string_view text);  // "P", "Pass", "1N", "1NT", "x", "Dbl", "R", "XX"
  friend bool operator==(const Call& a, const Call& b) {
    return a.kind == b.kind && a.level == b.level && (a.kind != Kind::Bid || a.strain == b.strain);
  }
};

struct Auction {
  Seat dealer = Seat::North;   // who calls first
  std::vector<Call> calls;
  bool complete() const;       // three passes after a bid, or four passes
  // "AP" (all pass): the passes that end the auction, at most three (four when nobody bid). Bounded, so a
  // nonsensical auction cannot make it loop (found by fuzzing).
  void all_pass();
};

// The contract the auction reached; nullopt when passed out or incomplete.
struct Contract {
  int level = 0;
  Strain strain = Strain::NoTrump;
  int doubled = 0;   // 0, 1 (X), 2 (XX)
  Seat declarer = Seat::North;
  std::string str() const;  // "4HX"
};
std::optional<Contract> contract_of(const Auction& a);
// "4HX", "3NT", "Pass" (passed out): the PBN Contract tag.
std::optional<Contract> parse_contract(std::string_view text, Seat declarer);

// The play as tricks; each trick lists the card of each seat (nullopt when not played).
struct Play {
  Seat leader = Seat::North;          // opening leader
  std::vector<std::array<std::optional<Card>, kSeats>> tricks;  // indexed by seat
  // Cards in played order, given the trump (tricks won by the highest trump, or highest of the suit led).
  std::vector<Card> in_order(std::optional<Suit> trump) const;
  static Play from_order(Seat leader, const std::vector<Card>& cards, std::optional<Suit> trump);
  int card_count() const;
};
// The seat that wins a trick.
Seat trick_winner(const std::array<std::optional<Card>, kSeats>& trick, Seat leader, std::optional<Suit> trump);
std::optional<Suit> trump_of(Strain s);

// Double-dummy tricks: tricks[declarer][strain].
struct DdTable {
  std::array<std::array<int, kStrains>, kSeats> tricks{};
  int at(Seat declarer, Strain s) const {
    return tricks[static_cast<std::size_t>(index(declarer))][static_cast<std::size_t>(s)];
  }
  // PBN DoubleDummyTricks: 20 hex digits, declarers N S E W, strains NT S H D C.
  std::string pbn() const;
  static std::optional<DdTable> parse_pbn(std::string_view text);
  friend bool operator==(const DdTable&, const DdTable&) = default;
  // Some programs write only the making contracts: every count under 7 becomes one filler value — 1 for
  // Dealmaster Pro and some BridgeComposer set-ups, 6 for BridgeNZ's txt2pbn. True when every entry under
  // 7 has the same value and there is one.
  bool making_only_form() const;
  // Whether a table read from a file says the same as `computed`; in the making-only form the filler
  // agrees with any count under 7.
  bool agrees_with(const DdTable& computed) const;
};

struct Tag {
  std::string name;
  std::string value;
};

struct BoardRecord {
  SourcePlace place;             // the file and the line the record starts at
  std::string event;             // Event tag, or the file's name when the record has none
  std::string session;           // Round/Stage/Section; segment for LIN; empty when none
  int board = 0;                 // 0 when the record gives no number
  std::optional<Seat> dealer;
  std::optional<Vulnerability> vulnerability;
  std::optional<Deal> deal;      // the cards, absent when the record gives none
  std::optional<Auction> auction;
  std::optional<Play> play;
  std::optional<DdTable> dd;     // DoubleDummyTricks, or computed
  std::optional<int> optimum_score_ns;  // OptimumScore, from North-South's view
  std::string par_contract;     // ParContract
  std::vector<Tag> tags;         // every other tag, in file order (players, scoring, contract...)

  const std::string* tag(std::string_view name) const;
  void set_tag(std::string_view name, std::string value);
  // Dealer and vulnerability from the tags, or from the board number when the tags are absent.
  Seat effective_dealer() const { return dealer.value_or(dealer_of_board(board > 0 ? board : 1)); }
  Vulnerability effective_vulnerability() const {
    return vulnerability.value_or(vulnerability_of_board(board > 0 ? board : 1));
  }
};

// What a reader returns: every good record and every problem; a bad record never hides the good ones.
struct RecordSet {
  std::vector<BoardRecord> boards;
  Diagnostics diagnostics;
  bool has_errors() const;
};

}  // namespace cardtable::bridge
