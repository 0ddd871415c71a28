// cardtabled's one event loop: it owns the table and ties the parts together. Devices hand their
// readings in through the DeviceQueue (the input seam: a device manager pushes table::TableInput there);
// the loop applies them to the table and gives the table's events to the Publisher (journal, PUB,
// embargo); the ControlServer answers requests through dispatch(); the ZapAuthenticator admits CURVE
// clients; the SignalSet stops or reloads; finished boards go to the BroadcastWriter and the
// DoubleDummyHelper.
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <memory>
#include <stdexcept>
#include <zmq.hpp>

#include "bridge/master_record.hpp"
#include "protocol/alert_book.hpp"
#include "daemon/board_recorder.hpp"
#include "daemon/control_server.hpp"
#include "daemon/device_queue.hpp"
#include "daemon/double_dummy_helper.hpp"
#include "daemon/latency_window.hpp"
#include "daemon/journal_reader.hpp"
#include "daemon/options.hpp"
#include "daemon/publisher.hpp"
#include "daemon/signal_set.hpp"
#include "daemon/device_manager.hpp"
#include "protocol/broadcast_writer.hpp"
#include "protocol/requests.hpp"
#include "protocol/zap_authenticator.hpp"
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

  DeviceQueue& inputs() { return queue_; }       // the input seam
  ControlServer& control() { return *control_; }  // answer() drives the real dispatch (fuzz, tests)

 private:
  std::unique_ptr<bridge::MasterRecord> load_master(const std::vector<std::string>& paths, std::string& summary) const;
  void setup_curve();
  void apply(const table::TableInput& in);
  std::vector<std::string> drain_table();  // publishes the table's events; returns their types
  void publish(protocol::WireEvent& e);    // journalled and published
  void finish_board(const protocol::WireEvent& returned);
  void release_embargoed();
  protocol::WireEvent live_deal(const bridge::MasterBoard& b, const protocol::WireEvent& returned) const;
  void reload(const std::vector<std::string>& paths);
  void heartbeat();
  void on_device_event(const devices::DeviceEvent& e);
  void load_decks();
  table::Millis clock_ms() const;  // the one clock: ms since start, monotonic
  nlohmann::json status() const;
  void publish_trick_count(const protocol::WireEvent& trick);
  void publish_double_dummy(const std::filesystem::path& pbn);
  double wall() const;
  double mono() const;

  std::optional<nlohmann::json> route(const protocol::TypedRequest& r, const ControlServer::Caller& caller);
  // A journal read (replay, replay-live, snapshot, evidence) as a function the reader thread may run:
  // it reads only the journal files, up to the seq written when it was made. Empty for other requests.
  std::function<nlohmann::json()> journal_read(const protocol::TypedRequest& r) const;
  void send_journal_replies();
  nlohmann::json dispatch(const protocol::TypedRequest& r, const std::string& role);
  nlohmann::json on(const protocol::VersionRequest&, const std::string& role);
  nlohmann::json on(const protocol::StatusRequest&, const std::string& role);
  nlohmann::json on(const protocol::AlertsRequest&, const std::string& role);
  nlohmann::json on(const protocol::BoardRequest&, const std::string& role);
  nlohmann::json on(const protocol::ContractRequest&, const std::string& role);
  nlohmann::json on(const protocol::AckRequest&, const std::string& role);
  nlohmann::json on(const protocol::LoadRecordRequest&, const std::string& role);
  nlohmann::json table_command(table::Command cmd, const std::string& what);

  Options options_;
  SignalSet signals_;  // first: the signal mask is set before any thread (ZeroMQ's included) starts
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::unique_ptr<bridge::MasterRecord> master_;
  table::TableConfig table_config_;
  std::unique_ptr<table::Table> table_;
  DeviceQueue queue_;
  DeviceManager devices_{queue_};
  std::vector<table::TableInput> scenario_inputs_;  // what the device "sim" plays (--simulate)
  bool real_clock_ = true;  // the daemon's timer ticks the table (false: a sped-up scenario's own clock)
  int timer_fd_ = -1;
  zmq::context_t context_;
  std::unique_ptr<protocol::ZapAuthenticator> zap_;  // with CURVE only
  std::unique_ptr<Publisher> publisher_;
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<JournalReader> reader_;  // after publisher_: stopped before the journals close
  DoubleDummyHelper double_dummy_;
  BoardRecorder recorder_;
  protocol::AlertBook alerts_;
  LatencyWindow input_latency_;  // a reading queued by its reader -> the table (status: input_latency)
  std::set<std::string> unknown_by_loss_;  // zones said unknown because their device was lost (until it is back)
  std::set<std::string> silent_by_loss_;   // zones the table found silent while their device was lost
  std::map<std::string, std::string> bound_;  // endpoint name -> the address bound or connected (ports read back)
  std::vector<protocol::WireEvent> held_;  // the live.* events of the board in progress
  // The side that won each trick of the board in progress (1-based trick -> 'N' for North-South, 'E' for
  // East-West): board.trick's director-only count. A trick re-decided (taken back) overwrites its entry.
  std::map<int, char> trick_sides_;  // this board's tricks: number -> the side that won it
  int trick_board_ = 0;              // the board those tricks belong to
  // Released broadcast PBN files whose double-dummy table is being computed -> their live.deal (identity).
  std::map<std::string, protocol::WireEvent> dd_pending_;
  table::Millis last_table_time_ = 0;
  std::uint64_t board_first_seq_ = 1;
  std::chrono::steady_clock::time_point last_heartbeat_ = std::chrono::steady_clock::now();
};

}  // namespace cardtable::daemon
