// cardtabled's one event loop: it holds the table and the wiring; every other job is a class of its own.
// Devices hand their readings in through the DeviceQueue (the input seam: the DeviceManager's drivers
// push table::TableInput there) and the TableClock ticks the table with the one monotonic clock; the loop
// applies them to the table and gives the table's events to the Publisher (journal, PUB, embargo). The
// cards played go to the BoardBroadcast (held, then embargoed with the deal, broadcast files, double-dummy
// tables), tricks to the TrickTally (board.trick); DeviceLoss says a lost device's zones unknown and
// leaves out the table's own silence for them. The ControlServer decodes requests and TableRequests
// answers them: those that act on the table through the loop (TableRequests::Table: the loop is the one
// place that changes it), journal reads on the JournalReader's thread (journal_requests.hpp). CURVE is set
// up by secure_endpoints() (curve_setup.hpp), the master record read by load_master(), the simulated table
// by prepare_simulation(); the SignalSet stops or reloads. BoardResume replays the board in progress of
// the last run at start (its InputLog). Still here besides the wiring and run(): applying inputs and
// publishing the table's events, status, the master record's reload, the heartbeat.
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <memory>
#include <stdexcept>
#include <zmq.hpp>

#include "bridge/master_record.hpp"
#include "protocol/alert_book.hpp"
#include "daemon/board_broadcast.hpp"
#include "daemon/board_resume.hpp"
#include "daemon/control_server.hpp"
#include "daemon/curve_setup.hpp"
#include "daemon/device_loss.hpp"
#include "daemon/device_queue.hpp"
#include "daemon/latency_window.hpp"
#include "daemon/journal_reader.hpp"
#include "daemon/journal_requests.hpp"
#include "daemon/master_loader.hpp"
#include "daemon/options.hpp"
#include "daemon/publisher.hpp"
#include "daemon/signal_set.hpp"
#include "daemon/simulation.hpp"
#include "daemon/startup_error.hpp"
#include "daemon/table_clock.hpp"
#include "daemon/table_requests.hpp"
#include "daemon/trick_tally.hpp"
#include "daemon/device_manager.hpp"
#include "protocol/requests.hpp"
#include "protocol/zap_authenticator.hpp"
#include "table/table.hpp"

namespace cardtable::daemon {

class EventLoop : private TableRequests::Table {
 public:
  explicit EventLoop(Options options);
  ~EventLoop();
  int run();  // until SIGTERM or SIGINT; 0 on a clean stop

  DeviceQueue& inputs() { return queue_; }       // the input seam
  ControlServer& control() { return *control_; }  // answer() drives the real dispatch (fuzz, tests)

 private:
  void apply(const table::TableInput& in);
  struct Published {
    std::string type;
    std::string message;  // the public message as published (empty for the play, held until the embargo)
  };
  // After the table applied an input and its events went out: kept in the input log (a board that ended
  // starts a new one). Nothing while replaying.
  void logged(const table::TableInput& in, const std::vector<Published>& events);
  void resume();  // at start: the board in progress of the last run, replayed from the input log
  bool replaying() const { return board_resume_ && board_resume_->replaying(); }  // the last run's inputs
  std::vector<Published> drain_table();  // publishes the table's events; returns what it published
  void heartbeat();
  void on_device_event(const devices::DeviceEvent& e);
  void load_decks();
  double wall() const { return clock_.wall(); }
  double mono() const { return clock_.mono(); }

  // TableRequests::Table: the requests that change the table act through the loop, the one place that changes it.
  std::optional<std::string> command(table::Command cmd) override;
  void publish(protocol::WireEvent& e) override;  // journalled and published
  void reload(const std::vector<std::string>& paths) override;
  void refuse_reload(const std::string& why) override;  // publishes record.refused: the record in use stays
  int board_in_play() const override;
  std::size_t master_boards() const override { return master_->size(); }
  std::uint64_t board_first_seq() const override { return board_first_seq_; }
  nlohmann::json status() const override;
  void send_journal_replies();

  Options options_;
  SignalSet signals_;  // first: the signal mask is set before any thread (ZeroMQ's included) starts
  TableClock clock_;  // the table's one clock and its timer
  std::unique_ptr<bridge::MasterRecord> master_;
  table::TableConfig table_config_;
  std::unique_ptr<table::Table> table_;
  DeviceQueue queue_;
  DeviceManager devices_{queue_};
  std::vector<table::TableInput> scenario_inputs_;  // what the device "sim" plays (--simulate)
  zmq::context_t context_;
  std::unique_ptr<protocol::ZapAuthenticator> zap_;  // with CURVE only
  std::unique_ptr<Publisher> publisher_;
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<JournalReader> reader_;  // after publisher_: stopped before the journals close
  std::unique_ptr<BoardBroadcast> broadcast_;  // after publisher_: it embargoes through it
  std::unique_ptr<TableRequests> requests_;    // the control requests' handlers
  TrickTally tally_;
  protocol::AlertBook alerts_;
  LatencyWindow input_latency_;  // a reading queued by its reader -> the table (status: input_latency)
  DeviceLoss device_loss_;  // the zones a lost device made unknown
  std::map<std::string, std::string> bound_;  // endpoint name -> the address bound or connected (ports read back)
  table::Millis last_table_time_ = 0;
  std::unique_ptr<BoardResume> board_resume_;  // the board in progress kept across a restart (after resume())
  std::uint64_t board_first_seq_ = 1;
  std::chrono::steady_clock::time_point last_heartbeat_ = std::chrono::steady_clock::now();
};

}  // namespace cardtable::daemon
