// Which control endpoint replays which table's journal, for watch: learnt by asking --control `status`
// without ever waiting on the event stream. A table's daemon answers for its own table; a hub (protocol
// 1.5) names every table's control endpoint and CURVE key (its --table-control), so that the gaps of
// every table seen through it are filled from each table's own journal.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

namespace cardtable::tools {

// The table an event (or a status) comes from: "tournament/section/table".
std::string table_of(const nlohmann::json& e);

struct TableControl {
  std::string endpoint;    // the table's own control endpoint
  std::string server_key;  // its CURVE public key (Z85); the --control key when the answer named none
};

class TableControls {
 public:
  using Clock = std::chrono::steady_clock;
  // Sets CURVE on a socket for a server's public key (nothing without CURVE).
  using Secure = std::function<void(zmq::socket_t&, const std::string& server_key)>;
  // How long a question waits for its answer, and how long after a silence (or a failed replay) it is
  // asked again: a watch was frozen 1 s every 30 s by a control endpoint that did not answer.
  static constexpr auto kAnswerWithin = std::chrono::seconds(1), kAskAgainAfter = std::chrono::seconds(30);

  // `control`: --control's address (without connect:), `control_key` its CURVE key (empty without CURVE).
  TableControls(zmq::context_t& ctx, std::string control, std::string control_key, Secure secure);

  // Sends the `status` question when it is due (never asked, or unanswered for kAskAgainAfter). Never waits.
  void ask(Clock::time_point now);
  // The socket to poll for the answer while a question is out; nullptr when none is.
  zmq::socket_t* waiting() const { return question_.get(); }
  // Reads the answer (call when waiting() is readable): true once --control has answered.
  bool take_answer();
  // A question out for kAnswerWithin is given up: the reason, once per silence (the caller says it).
  std::optional<std::string> silence(Clock::time_point now);
  // The table's own control endpoint, when --control's answer named it and it has not just failed.
  std::optional<TableControl> of(const std::string& table, Clock::time_point now) const;
  // A replay from the table's endpoint failed: not used for kAskAgainAfter (each try waits for its reply).
  void failed(const std::string& table, Clock::time_point now) { resting_[table] = now + kAskAgainAfter; }
  bool answered() const { return answered_; }
  // Whether --control is a hub's (its status has no table of its own): its tables have other endpoints.
  bool is_hub() const { return hub_; }
  // Every table --control's answer named an endpoint for (a daemon: its own table).
  const std::map<std::string, TableControl>& tables() const { return tables_; }

 private:
  void learn(const nlohmann::json& reply);
  zmq::context_t& ctx_;
  std::string control_, control_key_;
  Secure secure_;
  std::unique_ptr<zmq::socket_t> question_;
  std::optional<Clock::time_point> asked_at_;
  bool answered_ = false, silence_said_ = false, hub_ = false;
  std::map<std::string, TableControl> tables_;
  std::map<std::string, Clock::time_point> resting_;
};

}  // namespace cardtable::tools
