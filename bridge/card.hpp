// The smallest words of the game: suit, rank, card, seat and side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cardtable::bridge {

// Suits in bidding order, lowest first, so that `<` compares them as the auction does.
enum class Suit : std::uint8_t { Clubs = 0, Diamonds = 1, Hearts = 2, Spades = 3 };
inline constexpr int kSuits = 4;

// Ranks from the two to the ace.
enum class Rank : std::uint8_t { Two = 0, Three, Four, Five, Six, Seven, Eight, Nine, Ten, Jack, Queen, King, Ace };
inline constexpr int kRanks = 13;

// Suits as a hand record lists them: spades first.
inline constexpr Suit kDisplaySuits[kSuits] = {Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs};

// A card is one byte, 0..51: suit * 13 + rank. The order is clubs 2 (0) .. spades ace (51).
class Card {
 public:
  constexpr Card() = default;
  constexpr Card(Suit s, Rank r) : id_(static_cast<std::uint8_t>(static_cast<int>(s) * kRanks + static_cast<int>(r))) {}
  static constexpr Card from_id(int id) { Card c; c.id_ = static_cast<std::uint8_t>(id); return c; }

  constexpr int id() const { return id_; }
  constexpr Suit suit() const { return static_cast<Suit>(id_ / kRanks); }
  constexpr Rank rank() const { return static_cast<Rank>(id_ % kRanks); }

  // "SA", "HT", "C2".
  std::string str() const;
  // "♠A", "♥10": for people.
  std::string display() const;
  // Accepts "SA", "sa", "S10", "♠A", "AS" (rank first, as some tools write), "10H".
  static std::optional<Card> parse(std::string_view text);

  friend constexpr auto operator<=>(Card, Card) = default;

 private:
  std::uint8_t id_ = 0;
};
static_assert(sizeof(Card) == 1, "a card is one byte");
inline constexpr int kCards = 52;

// Seats clockwise from North, so that seat + 1 is the left-hand opponent.
enum class Seat : std::uint8_t { North = 0, East = 1, South = 2, West = 3 };
inline constexpr int kSeats = 4;
inline constexpr Seat kAllSeats[kSeats] = {Seat::North, Seat::East, Seat::South, Seat::West};

constexpr Seat rotate(Seat s, int steps) { return static_cast<Seat>(((static_cast<int>(s) + steps) % 4 + 4) % 4); }
constexpr Seat left_hand_opponent(Seat s) { return rotate(s, 1); }
constexpr Seat partner(Seat s) { return rotate(s, 2); }
constexpr Seat right_hand_opponent(Seat s) { return rotate(s, 3); }
constexpr int index(Seat s) { return static_cast<int>(s); }
constexpr int index(Suit s) { return static_cast<int>(s); }
constexpr int index(Rank r) { return static_cast<int>(r); }

enum class Side : std::uint8_t { NorthSouth = 0, EastWest = 1 };
constexpr Side side_of(Seat s) { return static_cast<Side>(static_cast<int>(s) % 2); }

char seat_letter(Seat s);             // 'N'
std::string_view seat_name(Seat s);   // "North"
std::optional<Seat> parse_seat(std::string_view text);  // "N", "north", "n"
std::string_view side_name(Side s);   // "NS"

char suit_letter(Suit s);             // 'S'
std::string_view suit_symbol(Suit s); // "♠"
std::optional<Suit> parse_suit(std::string_view text);  // "S", "s", "♠"

char rank_char(Rank r);               // 'T' for ten
std::string_view rank_display(Rank r); // "10" for ten
std::optional<Rank> parse_rank_char(char c);  // 'A', 'k', 'T', 't'

}  // namespace cardtable::bridge
