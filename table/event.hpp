// What the table publishes: every event carries its class and type, severity, the laws, where it
// happened, the seats concerned, the evidence (expected against observed) and a message for people.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bridge/card.hpp"
#include "table/observation.hpp"

namespace cardtable::table {

enum class Severity : std::uint8_t { Info, Warning, Alert };
std::string_view severity_name(Severity s);

struct Event {
  std::string type;                // "irregularity.wrong_count": the class is the part before the dot
  Severity severity = Severity::Info;
  std::vector<std::string> laws;   // "13A", "87A"
  std::string event_name;          // the tournament's event, as the master record names it
  std::string session;
  int board = 0;                   // 0 while the board is unknown
  std::vector<Seat> seats;
  // What anyone on the events endpoint may read: which seats, how many cards, which law -- never the
  // identity of a card of a hand still in play (docs/protocol.md, "Sealed until the embargo").
  std::vector<std::pair<std::string, std::string>> evidence;  // ordered: "expected", "observed", ...
  std::string message;             // for a director, at a glance, in a director's words
  // The card-level detail, for directors only (the wire routes it to the director role): the same
  // evidence with the cards named, and the message with the cards named. Empty when the event names no
  // card; card_message empty means `message` says it all.
  std::vector<std::pair<std::string, std::string>> card_evidence;
  std::string card_message;
  Millis time = 0;

  std::string event_class() const { return type.substr(0, type.find('.')); }
  const std::string* find(std::string_view key) const;
  const std::string* find_card(std::string_view key) const;  // in card_evidence
  // One line, stable for golden files: "12.500 alert irregularity.wrong_count [13A] board 7 W,N {...} message",
  // then " | card: {card evidence} card message" when the event has director-only detail.
  std::string str() const;
};

}  // namespace cardtable::table
