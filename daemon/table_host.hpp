// The table in the daemon: the one place that changes it. It applies the inputs (the devices' readings,
// the clock's ticks, a director's commands) and publishes what the table says: the public events journalled
// and published, the cards played (live.*) held by the BoardBroadcast until the board is embargoed,
// tricks counted by the TrickTally, a lost device's zones said once by DeviceLoss. It keeps the board in
// progress across a restart (BoardResume), reloads the master record, answers `status` and beats the
// heartbeat. The EventLoop only wires sockets, timers and signals to it; TableRequests acts through it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bridge/master_record.hpp"
#include "daemon/board_broadcast.hpp"
#include "daemon/board_resume.hpp"
#include "daemon/device_loss.hpp"
#include "daemon/options.hpp"
#include "daemon/publisher.hpp"
#include "daemon/reply_health.hpp"
#include "daemon/table_clock.hpp"
#include "daemon/table_requests.hpp"
#include "daemon/trick_tally.hpp"
#include "devices/device.hpp"
#include "protocol/alert_book.hpp"
#include "protocol/board_span.hpp"
#include "table/table.hpp"

namespace cardtable::daemon {

class TableHost : public TableRequests::Table {
 public:
  // What the host reads of the parts around it, not of the table: whether a zone's device is lost now
  // (DeviceLoss), and the loop's own part of `status` (endpoints, devices, control counters, the queue).
  struct Surroundings {
    std::function<bool(const table::Zone&)> zone_lost;
    std::function<void(nlohmann::json&)> add_status;
    std::function<bool(const std::string&)> camera;  // whether a device is a camera (none: no device is)
  };
  // `options`: the table's identity and --master (a reload changes it); `clock`: wall and mono for events,
  // carried on after a resumed board.
  TableHost(std::unique_ptr<bridge::MasterRecord> master, const table::TableConfig& config, Options& options,
            TableClock& clock, Publisher& publisher, BoardBroadcast& broadcast, Surroundings surroundings);

  // At start: record.loaded (`summary`: the master loader's), table.capabilities, then the last run's board
  // in progress replayed from its input log (board_resume.hpp); the clock goes on after it (`scenario`: a
  // simulated table's inputs, whose times then go on after the replayed board's).
  void start(const std::string& summary, const devices::InputScript& scenario);
  // An input from a device or the clock: applied, its events published, kept in the input log.
  void apply(const table::TableInput& in);
  // device.added / device.lost / device.error on the wire; a lost device's zones unknown (device_loss.hpp).
  void on_device_event(const devices::DeviceEvent& d, const std::string& driver);
  void heartbeat();  // daemon.heartbeat: not journalled, it carries the last seq so that a gap shows
  std::string status_line() const;  // for `systemctl status` (STATUS=): the table, its phase, its last seq
  void poll() { board_resume_->poll(); }  // each loop pass: the input log's runs written, synced

  const bridge::MasterRecord& master() const { return *master_; }
  protocol::AlertBook& alerts() { return alerts_; }

  // TableRequests::Table.
  std::optional<std::string> command(table::Command cmd) override;
  void publish(protocol::WireEvent& e) override;  // journalled and published
  void reload(const std::vector<std::string>& paths) override;
  void refuse_reload(const std::string& why) override;  // publishes record.refused: the record in use stays
  int board_in_play() const override;
  std::size_t master_boards() const override { return master_->size(); }
  // Where the board in progress starts (its snapshot); after the last event while none has begun.
  std::uint64_t board_first_seq() const override {
    return board_.begun() ? board_first_seq_ : publisher_.journal().last_seq() + 1;
  }
  std::uint64_t last_identified_seq() const override { return last_identified_seq_; }
  nlohmann::json status() const override;

 private:
  struct Published {
    std::string type;
    std::string message;  // the public message as published (empty for the play, held until the embargo)
  };
  // `wall`: when the input was applied: now, or, replaying the last run's board, when that run applied it
  // (the cards played are held again and published after the embargo: with the time they were played).
  void apply(const table::TableInput& in, double wall);
  std::vector<Published> drain_table(double wall);  // publishes the table's events; returns what it published
  // After the table applied an input and its events went out: kept in the input log (a board that ended
  // starts a new one). Nothing while replaying.
  void logged(const table::TableInput& in, const std::vector<Published>& events);
  void resume(const devices::InputScript& scenario);
  // After a read: device.health when its reader's share of missed replies crossed the line (reply_health.hpp).
  void watch_replies(const table::Observation& read);
  bool replaying() const { return board_resume_ && board_resume_->replaying(); }  // the last run's inputs
  // The board in progress starts at its first event: its label identified or its cards arrived
  // (board_first_seq_); it ends at its return or verification. From the journal's events when resuming.
  void on_board_event(const std::string& type, std::uint64_t seq);
  double wall() const { return clock_.wall(); }
  double mono() const { return clock_.mono(); }

  std::unique_ptr<bridge::MasterRecord> master_;
  table::TableConfig config_;
  std::unique_ptr<table::Table> table_;
  Options& options_;
  TableClock& clock_;
  Publisher& publisher_;
  BoardBroadcast& broadcast_;
  Surroundings surroundings_;
  TrickTally tally_;
  protocol::AlertBook alerts_;
  DeviceLoss device_loss_;  // the zones a lost device made unknown
  ReplyHealth reply_health_;  // each reader's share of replies missed: device.health
  std::unique_ptr<BoardResume> board_resume_;  // the board in progress kept across a restart (from start())
  table::Millis last_table_time_ = 0;
  // Until a board begins, where the input log's next board starts looking for it (after the last board's
  // end, or after the journal as this run found it); then the board's first event.
  std::uint64_t board_first_seq_ = 1;
  protocol::BoardSpan board_;  // the rule the hub keeps each table's board by too
  std::uint64_t last_identified_seq_ = 0;  // TableRequests::Table::last_identified_seq
};

}  // namespace cardtable::daemon
