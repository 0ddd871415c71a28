// One tag heard by two readers at once (cross-talk between readers a few centimetres apart: one reader a
// pocket, ACR122Us with no signal strength to choose by) is one card, never two. Only the tag's identity
// tells it from a second card of the same face (Law 13C: another pack's card, another tag): the same id
// in two zones is one card; another id, or none (a camera), stays two readings of the card.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bridge/deal.hpp"
#include "bridge/hand.hpp"

namespace cardtable::table {

struct HeardTwice {
  bridge::Card card;
  std::string id;                   // the tag's identity, the same in every zone that read it
  std::vector<bridge::Seat> seats;  // the zones (by seat) that read it, in seat order
  bridge::Seat kept;                // the one zone it is counted in
};

// Takes out of `hands` (one zone a seat: the pockets) and `ids` (each zone's tags, Observation::card_ids)
// each tag that several of them read, keeping it in one: the seat the deal gives its card to, when that is
// one of them; otherwise the one with fewest cards (`extra`: what else each zone counts, its unknown tags),
// so the counts come out right -- a North card heard by East's reader too leaves North 13 and East 13, not
// East 14 and a surplus card. A zone keeps the face while another tag of it is left there (a second card).
// The faces read in more than one of `hands`: the only cards merge_heard_twice can merge.
bridge::Hand read_in_two(const std::array<bridge::Hand, 4>& hands);

std::vector<HeardTwice> merge_heard_twice(std::array<bridge::Hand, 4>& hands, std::array<std::multimap<bridge::Card, std::string>, 4>& ids,
                                          const std::array<int, 4>& extra, const std::optional<bridge::Deal>& deal);

}  // namespace cardtable::table
