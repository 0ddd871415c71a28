// libFuzzer target: deck files (devices/deck.hpp) must report problems with their line, never crash; what
// parses must survive a write-format-read round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "devices/deck.hpp"

using namespace cardtable::devices;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<DeckProblem> problems;
  Deck deck = parse_deck(text, "fuzz.deck", problems);
  for (const DeckProblem& p : problems) (void)p.str();
  std::vector<DeckProblem> again;
  Deck back = parse_deck(format_deck(deck), "fuzz.deck", again);
  if (back.cards != deck.cards || back.label != deck.label) std::abort();
  DeckLibrary lib;
  lib.add(std::move(deck), problems);
  return 0;
}
