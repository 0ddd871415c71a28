#include "daemon/board_recorder.hpp"

#include <sstream>

namespace cardtable::daemon {

void BoardRecorder::on_event(const table::Event& e) {
  if (e.type != "play.trick") return;
  // The table reports a trick as "N:SA E:S2 S:S5 W:SK" (card_evidence when the table seals it).
  const auto& fields = e.card_evidence.empty() ? e.evidence : e.card_evidence;
  std::array<std::optional<bridge::Card>, bridge::kSeats> trick{};
  for (const auto& [k, v] : fields) {
    if (k == "leader" && !have_leader_)
      if (auto s = bridge::parse_seat(v)) {
        play_.leader = *s;
        have_leader_ = true;
      }
    if (k != "cards") continue;
    std::istringstream words(v);
    for (std::string w; words >> w;)
      if (w.size() >= 4 && w[1] == ':')
        if (auto s = bridge::parse_seat(w.substr(0, 1)))
          if (auto c = bridge::Card::parse(w.substr(2))) trick[static_cast<std::size_t>(bridge::index(*s))] = c;
  }
  play_.tricks.push_back(trick);
}

void BoardRecorder::on_contract(const table::ContractCommand& c) { contract_ = c; }

bridge::BoardRecord BoardRecorder::finish(const bridge::MasterBoard& b, const std::string& event, const std::string& session,
                                          const std::string& site) {
  bridge::BoardRecord r;
  r.event = event;
  r.session = session;
  r.board = b.board;
  r.deal = b.deal;
  r.dealer = b.dealer;
  r.vulnerability = b.vulnerability;
  if (!play_.tricks.empty()) r.play = play_;
  r.tags.push_back({"Site", site});
  if (contract_) {
    if (contract_->passed_out) {
      r.set_tag("Contract", "Pass");
    } else {
      const bridge::Contract& c = contract_->contract;
      r.set_tag("Contract", c.str());
      r.set_tag("Declarer", std::string(1, bridge::seat_letter(c.declarer)));
      // Result: the tricks declarer's side took, when all thirteen were seen.
      if (r.play && r.play->tricks.size() == 13) {
        int won = 0;
        auto trump = bridge::trump_of(c.strain);
        bridge::Seat leader = r.play->leader;
        bool complete = true;
        for (const auto& t : r.play->tricks) {
          for (const auto& card : t) complete = complete && card.has_value();
          if (!complete) break;
          bridge::Seat w = bridge::trick_winner(t, leader, trump);
          if (w == c.declarer || w == bridge::partner(c.declarer)) ++won;
          leader = w;
        }
        if (complete) r.set_tag("Result", std::to_string(won));
      }
    }
  }
  reset();
  return r;
}

void BoardRecorder::reset() {
  play_ = {};
  have_leader_ = false;
  contract_.reset();
}

}  // namespace cardtable::daemon
