#include "table_controls.hpp"

#include <array>
#include <iostream>

#include "protocol/curve_keys.hpp"
#include "terminal_text.hpp"

namespace cardtable::tools {
using json = nlohmann::json;

std::string table_of(const json& e) {
  return e.value("tournament", "") + "/" + e.value("section", "") + "/" + e.value("table", "");
}

TableControls::TableControls(zmq::context_t& ctx, std::string control, std::string control_key, Secure secure)
    : ctx_(ctx), control_(std::move(control)), control_key_(std::move(control_key)), secure_(std::move(secure)) {}

void TableControls::ask(Clock::time_point now) {
  if (answered_ || question_ || (asked_at_ && now - *asked_at_ < kAskAgainAfter)) return;
  asked_at_ = now;
  try {
    // A REQ socket of its own per question: one given up on is closed (linger 0), its answer never read.
    auto s = std::make_unique<zmq::socket_t>(ctx_, zmq::socket_type::req);
    s->set(zmq::sockopt::linger, 0);
    secure_(*s, control_key_);
    s->connect(control_);
    if (!s->send(zmq::str_buffer(R"({"command":"status"})"), zmq::send_flags::dontwait)) return;
    question_ = std::move(s);
  } catch (const zmq::error_t& e) {
    std::cerr << "cardtablectl watch: --control " << printable(control_) << ": " << e.what() << '\n';
  }
}

bool TableControls::take_answer() {
  if (!question_) return answered_;
  zmq::message_t reply;
  if (!question_->recv(reply, zmq::recv_flags::dontwait)) return answered_;
  question_.reset();
  json r = json::parse(reply.to_string_view(), nullptr, false);
  answered_ = true;
  learn(r);
  return answered_;
}

void TableControls::learn(const json& r) {
  if (!r.is_object()) return;  // not cardtabled's nor a hub's: no table's gaps are filled from it
  if (auto s = r.find("status"); s != r.end() && s->is_object()) {
    tables_[table_of(*s)] = {control_, control_key_};  // a table's daemon: its own journal
    return;
  }
  // A hub (1.5): each table's own endpoint and key. A hub before 1.5 names none: gaps are named, as before.
  hub_ = r.contains("forwarded");
  auto controls = r.find("controls");
  if (controls == r.end() || !controls->is_object()) return;
  for (const auto& [table, c] : controls->items()) {
    if (!c.is_object() || !c.contains("endpoint") || !c["endpoint"].is_string()) continue;
    TableControl t{c["endpoint"].get<std::string>(), control_key_};
    if (c.contains("server_key")) {
      // A key zmq refuses would throw where the socket is made: said here, and that table's gaps named.
      const std::string key = c["server_key"].is_string() ? c["server_key"].get<std::string>() : std::string();
      if (std::string why = protocol::key_problem("table's", key); !why.empty()) {
        std::cerr << "cardtablectl watch: --control named " << printable(table) << "'s control endpoint with a key watch cannot use (" << why
                  << "): its gaps are named, not filled\n";
        continue;
      }
      t.server_key = key;
    }
    tables_[table] = std::move(t);
  }
}

std::optional<std::string> TableControls::silence(Clock::time_point now) {
  if (!question_ || !asked_at_ || now - *asked_at_ < kAnswerWithin) return std::nullopt;
  question_.reset();
  if (silence_said_) return std::nullopt;
  silence_said_ = true;
  return "no reply from " + control_ + " within " + std::to_string(std::chrono::milliseconds(kAnswerWithin).count()) + " ms";
}

std::optional<TableControl> TableControls::of(const std::string& table, Clock::time_point now) const {
  if (auto r = resting_.find(table); r != resting_.end() && now < r->second) return std::nullopt;
  auto t = tables_.find(table);
  if (t == tables_.end()) return std::nullopt;
  return t->second;
}

}  // namespace cardtable::tools
