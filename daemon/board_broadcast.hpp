// What a broadcaster gets of a board, and when: the live.* events of the board in progress (the cards
// played: hand contents) are held here while it is played; when it goes back they go under the
// Publisher's embargo with the deal (live.deal, from the master record), and its broadcast PBN/LIN files
// are written into the private embargo folder. When the embargo ends the files move to broadcast/ and
// each PBN gets its double-dummy table from a short-lived helper, then a live.double_dummy event.
// A restart during the embargo loses nothing: the Publisher keeps the events, the embargo folder the files.
// Files that cannot be moved out when the embargo ends (broadcast/ unwritable, the disk full) stay in the
// embargo folder and are tried again every few seconds, and after a restart; a double-dummy helper's
// output cut short by a kill is thrown away at start and its board analysed again.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bridge/master_record.hpp"
#include "daemon/board_recorder.hpp"
#include "daemon/double_dummy_helper.hpp"
#include "daemon/options.hpp"
#include "daemon/publisher.hpp"
#include "protocol/wire_event.hpp"
#include "table/command.hpp"
#include "table/event.hpp"

namespace cardtable::daemon {

class BoardBroadcast {
 public:
  // `self`: the daemon's own executable (where the double-dummy helper is looked for beside it).
  BoardBroadcast(Publisher& publisher, const Options& options, const std::filesystem::path& self);

  void on_event(const table::Event& e) { recorder_.on_event(e); }  // the tricks, for the broadcast files
  void on_contract(const table::ContractCommand& c) { recorder_.on_contract(c); }
  void hold(protocol::WireEvent live) { held_.push_back(std::move(live)); }  // a live.* event of the board in play
  std::size_t held() const { return held_.size(); }
  // A replay that went past a board's return (the last run died after publishing board.returned, before
  // its input log started again): that run embargoed the board already, so its play held again by the
  // replay is dropped and never rides with the next board.
  void forget_board() {
    held_.clear();
    recorder_.reset();
  }

  // The board went back (`returned`: its board.returned): its held events and its deal go under embargo,
  // its files are written. A board not in the master record has no deal and no files, only its play.
  void finish(const protocol::WireEvent& returned, const bridge::MasterRecord& master);
  // Called on every pass of the loop: releases the boards whose embargo has ended (files to broadcast/,
  // helpers started), reaps the helpers that finished and publishes their live.double_dummy.
  void poll();

  const std::optional<std::filesystem::path>& analyzer() const { return double_dummy_.program(); }
  std::filesystem::path broadcast_dir() const { return std::filesystem::path(options_.state_dir) / "broadcast"; }

 private:
  // A released board's files still in embargo/ID/: the folder, its live.deal (the identity of its
  // live.double_dummy; none after a restart), and when it may go out (its embargo's end).
  struct Stranded {
    std::optional<protocol::WireEvent> deal;
    double not_before = 0;  // wall clock, seconds
    bool said = false;      // its failure is logged once, not every retry
  };
  static constexpr std::chrono::seconds kRetry{5};

  protocol::WireEvent live_deal(const bridge::MasterBoard& b, const protocol::WireEvent& returned) const;
  void release_due();
  void recover();  // at start: what the last run left (released boards' files, helpers' partial output)
  bool move_out(const std::filesystem::path& held, Stranded& board);  // true once the folder is empty and gone
  void retry_stranded();
  void publish_double_dummy(const std::filesystem::path& pbn);

  Publisher& publisher_;
  const Options& options_;
  DoubleDummyHelper double_dummy_;
  BoardRecorder recorder_;
  std::vector<protocol::WireEvent> held_;  // the live.* events of the board in progress
  // Released broadcast PBN files whose double-dummy table is being computed -> their live.deal (identity).
  std::map<std::string, protocol::WireEvent> dd_pending_;
  std::map<std::filesystem::path, Stranded> stranded_;
  std::chrono::steady_clock::time_point next_retry_{};
};

}  // namespace cardtable::daemon
