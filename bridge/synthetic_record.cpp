#include "bridge/synthetic_record.hpp"

namespace cardtable::bridge {

void synthetic_records(int boards, int per_session, std::uint64_t seed, const std::string& event, const BoardSink& sink) {
  std::uint64_t state = seed;
  for (int i = 0; i < boards; ++i) {
    BoardRecord r;
    r.event = event;
    r.session = std::to_string(i / per_session + 1);
    r.board = i % per_session + 1;
    r.dealer = dealer_of_board(r.board);
    r.vulnerability = vulnerability_of_board(r.board);
    r.deal = random_deal(state);
    r.tags.push_back({"Round", r.session});
    sink(std::move(r));
  }
}

void add_synthetic_records(MasterRecord& master, int boards, int per_session, std::uint64_t seed, const std::string& event) {
  Diagnostics ignored;  // a synthetic record is complete and valid: nothing to say
  synthetic_records(boards, per_session, seed, event, [&](BoardRecord&& b) { master.add(b, ignored); });
}

}  // namespace cardtable::bridge
