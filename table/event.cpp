#include "table/event.hpp"

#include <cstdio>

namespace cardtable::table {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Alert: return "alert";
  }
  return "?";
}

const std::string* Event::find(std::string_view key) const {
  for (const auto& [k, v] : evidence)
    if (k == key) return &v;
  return nullptr;
}

const std::string* Event::find_card(std::string_view key) const {
  for (const auto& [k, v] : card_evidence)
    if (k == key) return &v;
  return nullptr;
}

std::string Event::str() const {
  char t[32];
  std::snprintf(t, sizeof t, "%lld.%03lld", static_cast<long long>(time / 1000), static_cast<long long>(time % 1000));
  std::string out = std::string(t) + " " + std::string(severity_name(severity)) + " " + type;
  if (!laws.empty()) {
    out += " [";
    for (std::size_t i = 0; i < laws.size(); ++i) out += (i ? "," : "") + laws[i];
    out += "]";
  }
  if (board > 0) out += " board " + std::to_string(board);
  if (!seats.empty()) {
    out += " ";
    for (std::size_t i = 0; i < seats.size(); ++i) out += std::string(i ? "," : "") + bridge::seat_letter(seats[i]);
  }
  if (!evidence.empty()) {
    out += " {";
    for (std::size_t i = 0; i < evidence.size(); ++i) out += (i ? "; " : "") + evidence[i].first + "=" + evidence[i].second;
    out += "}";
  }
  out += " " + message;
  // The director-only detail, so that a golden file shows what each audience gets.
  if (!card_evidence.empty() || !card_message.empty()) {
    out += " | card:";
    if (!card_evidence.empty()) {
      out += " {";
      for (std::size_t i = 0; i < card_evidence.size(); ++i)
        out += (i ? "; " : "") + card_evidence[i].first + "=" + card_evidence[i].second;
      out += "}";
    }
    if (!card_message.empty()) out += " " + card_message;
  }
  return out;
}

}  // namespace cardtable::table
