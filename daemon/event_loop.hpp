// cardtabled's one event loop: it owns the table, takes what devices read from their queue, answers the
// control endpoint, journals every event and then publishes it, and handles signals.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "bridge/master_record.hpp"
#include "daemon/device_queue.hpp"
#include "daemon/options.hpp"
#include "daemon/simulator_device.hpp"
#include "protocol/control.hpp"
#include "protocol/journal.hpp"
#include "table/table.hpp"

namespace cardtable::daemon {

// A problem found while starting: printed, and the daemon exits with status 2.
struct StartupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class EventLoop {
 public:
  explicit EventLoop(Options options);
  ~EventLoop();
  int run();  // until SIGTERM or SIGINT; 0 on a clean stop

 private:
  std::unique_ptr<bridge::MasterRecord> load_master(const std::vector<std::string>& paths, std::string& summary) const;
  void apply(const table::TableInput& in);
  std::vector<std::string> drain_table();  // publishes the table's events; returns their types
  void publish(protocol::WireEvent& e, bool journal);
  void handle_control();
  void handle_zap();
  void setup_curve();
  std::unique_ptr<protocol::Journal> open_journal(const std::string& name) const;
  static nlohmann::json replay_reply(const protocol::Journal& journal, std::uint64_t since);
  void finish_board(const protocol::WireEvent& returned);
  void release_embargoed();
  void write_broadcast(const std::vector<protocol::WireEvent>& events);
  void reap_analyses();
  nlohmann::json handle(const protocol::Request& r);
  void reload(const std::vector<std::string>& paths);
  nlohmann::json status() const;
  double wall() const;
  double mono() const;
  table::Millis table_now() const;

  Options options_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::unique_ptr<bridge::MasterRecord> master_;
  table::TableConfig table_config_;
  std::unique_ptr<table::Table> table_;
  std::unique_ptr<protocol::Journal> journal_;
  DeviceQueue queue_;
  std::unique_ptr<SimulatorDevice> simulator_;
  zmq::context_t context_;
  zmq::socket_t pub_;
  zmq::socket_t control_;
  zmq::socket_t live_;                                 // live.* for broadcasters
  zmq::socket_t zap_;                                  // the ZAP handler: who may connect, and in which role
  std::unique_ptr<protocol::Journal> live_journal_;    // live.* have their own sequence: never replayed to others
  std::vector<protocol::WireEvent> held_;              // the live.* events of the board in progress
  struct Embargoed {
    std::chrono::steady_clock::time_point release;
    std::vector<protocol::WireEvent> events;
  };
  std::deque<Embargoed> embargoed_;                    // finished boards waiting for their release
  std::vector<std::pair<pid_t, std::filesystem::path>> analyses_;  // double-dummy children and their files
  std::map<std::string, std::string> allowed_;          // client public key (Z85) -> role
  std::uint64_t refused_ = 0;
  int signal_fd_ = -1;
  table::Millis last_table_time_ = 0;
  std::uint64_t board_first_seq_ = 1;
  std::uint64_t published_ = 0;
  std::uint64_t control_requests_ = 0, control_errors_ = 0;
};

}  // namespace cardtable::daemon
