#include "kept_board.hpp"

#include "protocol/json_fields.hpp"

namespace cardtable::hub {

void KeptBoard::keep(std::string_view type, std::string body) {
  using Step = protocol::BoardSpan::Step;
  const Step step = board_.on_event(type);
  if (step != Step::Within) events_.clear();
  if (step != Step::Begins && step != Step::Within) return;
  events_.push_back(std::move(body));
  if (events_.size() > limit_) events_.pop_front();
}

void KeptBoard::on_event(std::uint64_t seq, std::string_view type, std::string body) {
  if (asking_) {
    if (since_asked_.size() < heard_limit_) since_asked_.push_back({seq, std::string(type), body});
    else overflowed_ = true;
  }
  keep(type, std::move(body));
}

void KeptBoard::asked() {
  given_up();
  asking_ = true;
}

void KeptBoard::given_up() {
  asking_ = overflowed_ = false;
  since_asked_.clear();
}

void KeptBoard::seed(const nlohmann::json& events, std::uint64_t last_seq) {
  events_.clear();
  board_ = {};
  for (const nlohmann::json& e : events)
    if (e.is_object()) keep(protocol::string_field(e, "type"), e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  // Forwarded while the question was out: those up to last_seq are in the answer already.
  for (Heard& h : since_asked_)
    if (h.seq > last_seq) keep(h.type, std::move(h.body));
  given_up();
}

void KeptBoard::clear() {
  events_.clear();
  board_ = {};
  given_up();
}

}  // namespace cardtable::hub
