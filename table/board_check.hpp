// The board-checking station's verdict on one board: the four pockets as read against the master
// record. Laws 6, 7, 13, 14 and 87A; 6D2 for deals from another session or from a sorted pack.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bridge/master_record.hpp"
#include "table/event.hpp"
#include "table/unshuffled.hpp"

namespace cardtable::table {

struct PocketRead {
  std::vector<bridge::Card> cards;  // in the order read; a card read twice appears twice
  int unknown = 0;                  // stable readings of tags that are no card of the deck
  std::vector<std::string> unknown_ids;  // what identifies them, where the device said (Observation::unknown_ids)
  // The tags of the cards, where the device gives them (Observation::card_ids): the same tag again is the
  // same card (passed over the slot twice), another tag of a face a second card of it (Law 13C).
  std::multimap<bridge::Card, std::string> card_ids;
  std::string source;  // the device that read the pocket (Observation::source), for the technician
  bool read = false;
};

struct BoardCheck {
  std::vector<Event> events;                 // board context (event, session, board) left for the caller
  std::optional<std::uint32_t> board;        // the master board the verdict is about, if any
};

// `expected`: the board the operator said this is (a label), if any. `session`: the session being
// checked, to tell a wrong board of the same session (87A) from one of another session (6D2).
// `previous`: the board last played at this table, if the table saw it played (Law 6D2: a deal dealt
// from its quitted cards without a shuffle).
BoardCheck check_board(const std::array<PocketRead, 4>& pockets, const bridge::MasterRecord& master,
                       std::optional<std::uint32_t> expected, std::optional<std::uint32_t> session, Millis time,
                       const PreviousBoard* previous = nullptr);

// Whether the pockets read so far are `deal`'s: each pocket's cards from one of its hands (any seat: a board
// turned is still this board, for check_board to report), allowing one card in four from elsewhere (a
// fouled board is still this board). Another deal's pockets fit one of its hands by chance only while a
// pocket holds a card or two. A label read in the middle of a scan that began unnamed names the board
// being scanned when this holds (Table::label_read_late).
bool pockets_fit_deal(const std::array<PocketRead, 4>& pockets, const bridge::Deal& deal);

}  // namespace cardtable::table
