// Enrolling a pack: which tag is which card, learnt at the scan reader one card at a time. The logic only
// (no reader, no terminal), so it is tested on its own; `cardtablectl enroll` feeds it a reader's tags.
//
// Named order (the sorted-pack shortcut): sort the pack, spades ace down to clubs two, and pass it over the
// reader; each new tag is the card named. Any order: pass cards as they come and type each one's name.
// A tag counts once it is heard in two polls running; the same card left over the reader is not counted
// again; a tag already enrolled in this pack (a repeated card) or in another pack (a foreign card) is
// refused with the reason; two tags at once are refused (one card at a time).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "devices/deck.hpp"

namespace cardtable::devices {

class Enrolment {
 public:
  enum class Order : std::uint8_t { Named, Any };
  Enrolment(std::string label, Order order, std::shared_ptr<const DeckLibrary> other_packs);

  std::string prompt() const;  // what the person is to do now
  // One poll of the scan antenna; returns what to tell the person (confirmations, refusals).
  std::vector<std::string> feed(const std::vector<Uid>& tags);
  // Any order: the person names the card of the tag just passed.
  std::vector<std::string> name_card(bridge::Card card);
  bool waiting_for_name() const { return pending_.has_value(); }
  bool complete() const { return deck_.cards.size() == 52; }
  std::vector<bridge::Card> missing() const;
  const Deck& deck() const { return deck_; }

 private:
  std::vector<std::string> accept(const Uid& uid);
  std::optional<bridge::Card> next_named() const;

  Order order_;
  std::shared_ptr<const DeckLibrary> others_;
  Deck deck_;
  std::optional<Uid> candidate_;  // heard once, waiting for a second poll
  std::optional<Uid> last_;       // the last tag taken: ignored while it stays over the reader
  std::optional<Uid> pending_;    // any order: taken, waiting for its name
  bool crowd_reported_ = false;
};

}  // namespace cardtable::devices
