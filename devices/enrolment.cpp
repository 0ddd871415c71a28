#include "devices/enrolment.hpp"

#include "bridge/hand.hpp"

namespace cardtable::devices {

Enrolment::Enrolment(std::string label, Order order, std::shared_ptr<const DeckLibrary> other_packs)
    : order_(order), others_(std::move(other_packs)) {
  deck_.label = std::move(label);
}

std::optional<bridge::Card> Enrolment::next_named() const {
  std::optional<bridge::Card> next;
  bridge::Hand::full_deck().for_each_descending([&](bridge::Card c) {
    if (!next && !deck_.uid_of(c)) next = c;
  });
  return next;
}

std::vector<bridge::Card> Enrolment::missing() const {
  std::vector<bridge::Card> out;
  bridge::Hand::full_deck().for_each_descending([&](bridge::Card c) {
    if (!deck_.uid_of(c)) out.push_back(c);
  });
  return out;
}

std::string Enrolment::prompt() const {
  if (complete()) return "All 52 cards are enrolled.";
  if (pending_) return "Which card was that? Type its name (SA, HT, C2).";
  if (order_ == Order::Named) return "Pass the " + next_named()->display() + " over the reader.";
  return "Pass the next card over the reader (" + std::to_string(deck_.cards.size()) + " of 52 so far).";
}

std::vector<std::string> Enrolment::feed(const std::vector<Uid>& tags) {
  if (tags.empty()) {
    candidate_.reset();
    last_.reset();
    crowd_reported_ = false;
    return {};
  }
  if (tags.size() > 1) {
    candidate_.reset();
    if (crowd_reported_) return {};
    crowd_reported_ = true;
    return {std::to_string(tags.size()) + " tags over the reader at once: pass one card at a time."};
  }
  const Uid& uid = tags[0];
  if (last_ && *last_ == uid) return {};  // the same card, still over the reader
  if (!candidate_ || *candidate_ != uid) {
    candidate_ = uid;
    return {};
  }
  candidate_.reset();
  last_ = uid;
  return accept(uid);
}

std::vector<std::string> Enrolment::accept(const Uid& uid) {
  if (complete()) return {"The pack is complete; that tag (" + uid.str() + ") is a 53rd card: set it aside."};
  if (pending_) return {"First name the card passed before (" + pending_->str() + ")."};
  if (auto it = deck_.cards.find(uid); it != deck_.cards.end())
    return {"That tag is the " + it->second.display() + ", enrolled already: a repeated card. " + prompt()};
  if (others_) {
    if (auto m = others_->find(uid))
      return {"That tag is the " + m->card.display() + " of pack " + m->deck->label + ": a foreign card, set it aside. " + prompt()};
  }
  if (order_ == Order::Any) {
    pending_ = uid;
    return {prompt()};
  }
  bridge::Card card = *next_named();
  deck_.cards[uid] = card;
  return {card.display() + " = " + uid.str() + " (" + std::to_string(deck_.cards.size()) + "/52). " + prompt()};
}

std::vector<std::string> Enrolment::name_card(bridge::Card card) {
  if (!pending_) return {"No card is waiting for a name. " + prompt()};
  if (auto uid = deck_.uid_of(card)) return {"The " + card.display() + " is enrolled already (tag " + uid->str() + "); which card was it?"};
  deck_.cards[*pending_] = card;
  std::string uid = pending_->str();
  pending_.reset();
  return {card.display() + " = " + uid + " (" + std::to_string(deck_.cards.size()) + "/52). " + prompt()};
}

}  // namespace cardtable::devices
