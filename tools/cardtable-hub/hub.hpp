// The hub's loop: XSUB from the tables, XPUB to subscribers, a ROUTER for late joiners, and the ZAP
// handler. A table key speaks for one table only: its place under clients/table/ names it
// (table/TOURNAMENT/SECTION/TABLE.pub), and a message whose topic names another table is dropped and
// logged.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "protocol/alert_book.hpp"
#include "protocol/zap_authenticator.hpp"

namespace cardtable::hub {

struct HubStartupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct HubOptions {
  std::string upstream = "tcp://127.0.0.1:5560", downstream = "tcp://127.0.0.1:5561", control = "tcp://127.0.0.1:5562";
  std::string curve_secret, clients;
  bool plaintext = false;
};

// The table keys: clients/table/T/S/N.pub speaks for table "T/S/N"; throws naming the bad file.
std::map<std::string, protocol::ClientKey> read_table_keys(const std::string& clients);

class Hub {
 public:
  explicit Hub(const HubOptions& o);  // throws HubStartupError
  int run();
  // One control request answered (the reply's JSON text); never throws.
  std::string answer(std::string_view frame) noexcept;
  // Whether a message with this topic from a client with this User-Id may pass upstream -> downstream.
  static bool may_publish(const std::string& user_id, const std::string& topic, bool curve);

 private:
  void forward_upstream();
  nlohmann::json dispatch(const std::string& command);
  struct TableState {
    std::deque<std::pair<std::string, std::string>> events;  // topic, body of the board in progress
    nlohmann::json last_heartbeat;
    protocol::AlertBook alerts;  // from the events forwarded since the hub started
  };
  nlohmann::json alerts() const;
  zmq::context_t ctx_;
  std::unique_ptr<protocol::ZapAuthenticator> zap_;
  zmq::socket_t xsub_, xpub_, ctl_;
  int signal_fd_ = -1;
  std::map<std::string, TableState> tables_;  // "tournament/section/table" -> state
  std::uint64_t forwarded_ = 0, dropped_ = 0;
  bool curve_ = false;
};

}  // namespace cardtable::hub
