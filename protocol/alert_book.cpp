#include "protocol/alert_book.hpp"

#include <iterator>

#include "protocol/json_fields.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::protocol {
using nlohmann::json;

void AlertBook::load(const Journal& journal, const std::function<void(const json&)>& also) {
  journal.replay(1, [&](const std::string& line, std::uint64_t) {
    json j = json::parse(line, nullptr, false);
    strip_card_detail(j);
    if (!j.is_object()) return true;
    on_published(j);
    if (also) also(j);
    return true;
  });
}

void AlertBook::on_published(const json& e) {
  if (!e.is_object()) return;
  const auto seq_it = e.find("seq");
  if (seq_it == e.end() || !seq_it->is_number_integer() || (!seq_it->is_number_unsigned() && seq_it->get<std::int64_t>() <= 0)) return;
  const std::uint64_t seq = seq_it->get<std::uint64_t>();
  if (seq == 0) return;
  if (string_field(e, "type", "") == "director.ack" && e.contains("evidence") && e["evidence"].is_object()) {
    const json& ev = e["evidence"];
    std::string target = string_field(ev, "seq", "");
    std::uint64_t acked = 0;
    try {
      acked = std::stoull(target);
    } catch (...) {
      return;
    }
    const bool was_open = open_.erase(acked) > 0;
    if (acked_.emplace(acked, Ack{string_field(ev, "by", "director"), seq, was_open}).second) ack_order_.push_back(acked);
    while (max_acks_ != 0 && ack_order_.size() > max_acks_) {
      acked_.erase(ack_order_.front());
      ack_order_.pop_front();
    }
    return;
  }
  if (string_field(e, "severity", "") == "alert" && !acked_.count(seq)) open_[seq] = e;
}

std::optional<std::string> AlertBook::refuse_ack(std::uint64_t seq) const {
  auto it = acked_.find(seq);
  if (it == acked_.end()) return std::nullopt;
  return "event " + std::to_string(seq) + " was already acknowledged by " + it->second.by + " (event " + std::to_string(it->second.ack_seq) + ")";
}

void AlertBook::replace_open(const json& alerts) {
  open_.clear();
  if (!alerts.is_array()) return;
  for (const json& e : alerts)
    if (e.is_object() && e.contains("seq") && e["seq"].is_number_unsigned() && string_field(e, "severity") == "alert")
      open_[e["seq"].get<std::uint64_t>()] = e;
}

std::size_t AlertBook::open_count_at(std::uint64_t seq) const {
  auto n = static_cast<std::size_t>(std::distance(open_.begin(), open_.upper_bound(seq)));
  for (auto it = acked_.begin(); it != acked_.upper_bound(seq); ++it)
    if (it->second.was_open && it->second.ack_seq > seq) ++n;
  return n;
}

json AlertBook::open() const {
  json out = json::array();
  for (const auto& [seq, e] : open_) out.push_back(e);
  return out;
}

}  // namespace cardtable::protocol
