// Decks: which tag is which card. Each pack of RFID cards has its own tags, so each pack has a deck file
// (docs/hardware.md, "Deck files"): one line per card, `<UID in hex> <card>`, `#` comments, an optional
// `deck <label>` line. A folder of deck files is loaded at start and again on SIGHUP; `cardtablectl enroll`
// writes them. A problem in one line never loses the rest: it is reported with the file and line.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bridge/card.hpp"
#include "devices/uid.hpp"

namespace cardtable::devices {

struct DeckProblem {
  std::string file;  // path, or the name given to parse_deck
  int line = 0;      // 0: the file as a whole
  std::string message;
  std::string str() const;  // "decks/board1.deck:12: UID 04.. is listed twice (first at line 3)"
};

struct Deck {
  std::string label;                    // "pack-07", or the file name without .deck
  std::map<Uid, bridge::Card> cards;    // one tag per card
  std::optional<Uid> uid_of(bridge::Card card) const;
  bool complete() const { return cards.size() == 52; }
};

// Parses one deck file's text. Lines with problems are skipped and reported; a deck with fewer than 52
// cards is reported too but kept (a pack may be enrolled in parts).
Deck parse_deck(std::string_view text, const std::string& name, std::vector<DeckProblem>& problems);
// The file as enroll writes it: header comment, `deck` line, cards in display order (spades ace first).
std::string format_deck(const Deck& deck);
// Writes atomically: a temporary file in the same folder, fsync, rename over the target, fsync the folder.
// A crash leaves the old file or the new one, never half of one. False with `error` on failure.
[[nodiscard]] bool write_deck(const std::filesystem::path& path, const Deck& deck, std::string& error);

struct DeckMatch {
  bridge::Card card;
  const Deck* deck = nullptr;
};

// Every deck of a folder; immutable once loaded (a reload builds a new one and swaps the pointer).
class DeckLibrary {
 public:
  // Loads every `*.deck` file of `folder` (sorted by name). A UID enrolled in two decks keeps the first
  // deck's card and is reported: the same tag cannot be two cards.
  static DeckLibrary load_folder(const std::filesystem::path& folder, std::vector<DeckProblem>& problems);
  void add(Deck deck, std::vector<DeckProblem>& problems);
  std::optional<DeckMatch> find(const Uid& uid) const;
  const std::vector<Deck>& decks() const { return decks_; }

 private:
  std::vector<Deck> decks_;
  std::map<Uid, std::size_t> index_;  // UID → deck
};

}  // namespace cardtable::devices
