// libFuzzer: an event from a hostile or broken publisher, through everything the console does with one
// (the director's view, the tile and its trick count, the broadcaster's board and double dummy, gap detection). Nothing may throw or crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "console/venue_state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static cardtable::console::VenueState venue(450, 15);
  auto j = nlohmann::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (!j.is_object()) return 0;
  if (venue.table_count() > 64) venue = cardtable::console::VenueState(450, 15);
  (void)cardtable::console::VenueState::director_view(j);
  (void)venue.gap_before(j);
  venue.apply_event(j, 1000.0);
  venue.apply_replayed(j);
  venue.apply_live(j);
  std::string id = cardtable::console::VenueState::table_id(j);
  // A table's `evidence` reply about a board.trick: its card_evidence holds each side's tricks.
  if (auto ce = j.find("card_evidence"); ce != j.end())
    venue.apply_trick_count(id, j.contains("seq") && j["seq"].is_number_unsigned() ? j["seq"].get<std::uint64_t>() : 0, *ce);
  (void)venue.tile(id, 1001.0);
  (void)venue.table_detail(id, 1001.0);
  (void)venue.live_board(id, cardtable::console::VenueState::live_key(j));
  (void)venue.director_snapshot(1001.0).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  (void)venue.broadcast_snapshot().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  (void)venue.newly_silent(2000.0);
  return 0;
}
