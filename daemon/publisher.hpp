// What cardtabled says, and to whom: every event is journalled, then published on the events endpoint;
// the live.* events of a board (hand contents) wait under embargo and are then journalled in the live
// journal and published on the live endpoint, for broadcasters. The journals are the source of replays.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <vector>

#include <zmq.hpp>

#include "protocol/journal.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {

class Publisher {
 public:
  struct Config {
    std::filesystem::path state_dir;        // journal/ and live/ go here
    protocol::Journal::Limits limits;
    std::chrono::duration<double> embargo{0};  // after a board is finished at this table
  };
  // Opens both journals (throws std::runtime_error naming the folder) and creates both PUB sockets; the
  // owner sets CURVE on them and binds or connects them.
  Publisher(zmq::context_t& context, Config config);

  zmq::socket_t& events_socket() { return pub_; }
  zmq::socket_t& live_socket() { return live_; }

  // Journals `e` (giving it its seq) when `journal`, then publishes it. A heartbeat is not journalled.
  void publish(protocol::WireEvent& e, bool journal);
  // The live.* events of a finished board, under `id` (unique, a file name): journalled at once in
  // <state-dir>/embargo/ID.events (a kill -9 or a restart loses none), published when the embargo ends.
  // Boards found there at start are queued again with their release time.
  void embargo(std::vector<protocol::WireEvent> board, const std::string& id);
  struct Released {
    std::string id;
    std::vector<protocol::WireEvent> events;
  };
  // Publishes (and live-journals) every board whose embargo has ended; returns them, oldest first.
  std::vector<Released> release_due();
  // A live.* event about a board already released (its double-dummy table, computed after the release):
  // live-journalled, then published on the live endpoint. Never for a board still under embargo.
  void publish_live(protocol::WireEvent& e);
  std::filesystem::path embargo_dir() const { return config_.state_dir / "embargo"; }

  const protocol::Journal& journal() const { return *journal_; }
  const protocol::Journal& live_journal() const { return *live_journal_; }
  std::size_t boards_under_embargo() const { return embargoed_.size(); }
  std::uint64_t published() const { return published_; }
  void flush() { journal_->flush(); live_journal_->flush(); }

 private:
  void journalled(const protocol::Journal& j, const char* name, bool& was_failing);
  bool journal_failing_ = false, live_failing_ = false;
  void send(zmq::socket_t& s, const std::string& topic, const std::string& body);
  Config config_;
  std::unique_ptr<protocol::Journal> journal_;
  std::unique_ptr<protocol::Journal> live_journal_;  // live.* have a sequence of their own, never replayed to others
  zmq::socket_t pub_;
  zmq::socket_t live_;
  void load_embargoed();
  struct Embargoed {
    double release_wall = 0;  // seconds since 1970: survives a restart, unlike steady_clock
    std::string id;
    std::vector<protocol::WireEvent> events;
  };
  std::deque<Embargoed> embargoed_;
  std::uint64_t published_ = 0;
};

}  // namespace cardtable::daemon
