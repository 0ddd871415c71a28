#include "table/four_pockets.hpp"

namespace cardtable::table {
using namespace cardtable::bridge;

namespace {
std::size_t at(Seat s) { return static_cast<std::size_t>(index(s)); }
}  // namespace

void FourPockets::add(Seat seat, const Observation& reading) {
  hands[at(seat)] = reading.cards;
  ids[at(seat)] = reading.card_ids;
  unknown[at(seat)] = reading.unknown;
  unknown_ids[at(seat)] = reading.unknown_ids;
  readers[at(seat)] = reading.source;
}

void FourPockets::add(Seat seat, const PocketRead& read) {
  Hand cards;
  for (Card c : read.cards) cards.add(c);
  hands[at(seat)] = cards;
  ids[at(seat)] = read.card_ids;
  unknown[at(seat)] = read.unknown;
  unknown_ids[at(seat)] = read.unknown_ids;
  readers[at(seat)] = read.source;
}

std::vector<HeardTwice> FourPockets::merge_heard_twice(const std::optional<Deal>& deal) {
  return table::merge_heard_twice(hands, ids, unknown, deal);
}

}  // namespace cardtable::table
