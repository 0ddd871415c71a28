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
  std::vector<std::pair<std::string, std::string>> evidence;  // ordered: "expected", "observed", ...
  std::string message;             // for a director, at a glance
  Millis time = 0;

  std::string event_class() const { return type.substr(0, type.find('.')); }
  const std::string* find(std::string_view key) const;
  // One line, stable for golden files: "12.500 alert irregularity.wrong_count [13A] board 7 W,N {...} message".
  std::string str() const;
};

}  // namespace cardtable::table
