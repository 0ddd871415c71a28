// A reader that misses replies (a tag in its field not answering one poll) is absorbed by the table: a
// read that hears less than the last is no change, the card is kept (table/stable_reading.hpp), and
// nothing is said of each reply missed (protocol 1.8). Readers miss about 3 % of their replies; a reader
// that misses many more -- an antenna detuned by a metal table frame, a cable working loose, a worn tag,
// a phone lying on the pocket -- is one a director wants to hear of while the table still reads right:
// missing about 12 % the table begins to conclude wrongly (docs/hardware.md: the sweep at flicker 0.15,
// 1 session of 200). This watches each reader's share of missed replies over windows of its reads that
// heard a card and says when it crosses the alert share (device.health, state "missing replies") and
// when it is back under half of it (state "good"): hysteresis, so a reader hovering at the share is not
// said again at every window.
//
// What was said outlives a restart: the daemon gives back each reader's last device.health from its
// journal (recall), so a reader still missing replies is not said again, and one mended while the daemon
// was down is said good -- the console keeps a reader named until it is.
//
// Only tag readers are judged (and the sim, which stands in for one): a missed reply is a tag not
// answering. A camera's card hidden by a hand for a moment and seen again is the same sign in its reads,
// and no fault of the camera.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "table/observation.hpp"
#include "table/table.hpp"

namespace cardtable::daemon {

class ReplyHealth {
 public:
  // Reads that heard a card (table::Table::ReaderReads::heard) per window: long enough that a reader
  // missing replies as readers do is never said (bench/reader_faults_sweep, 200 sessions each: never at
  // flicker 0.1, 8.2 % counted; the share swings with what the reads hear -- thirteen tags a pocket miss
  // more often than one card a play area -- so a window is not a binomial draw), short enough to be said
  // within the first boards (the sweep's reader hears cards in 1,600 to 2,200 reads a board).
  static constexpr std::uint64_t kWindow = 400;
  // `alert_share`: 0..1, the share of missed replies that is said; 0 says nothing. `camera`: whether a
  // device (a read's source) is a camera, not judged; none: every device is judged.
  explicit ReplyHealth(double alert_share, std::function<bool(const std::string&)> camera = {})
      : alert_share_(alert_share), camera_(std::move(camera)) {}

  struct Change {
    std::string device;
    std::string zones;          // the zones it was heard reading, comma-separated
    bool missing = false;       // true: now missing replies; false: back to good
    std::uint64_t heard = 0;    // the window's reads that heard a card
    std::uint64_t missed = 0;   // and the replies missed among them
  };
  // After the table applied `read`: `counts`, its reader's counts so far (table::Table::reader_reads).
  // A change when a window of the reader's closes with its share across the line.
  std::optional<Change> on_read(const table::Observation& read, const table::Table::ReaderReads& counts);
  // A read that is not judged: the last run's, replayed after a restart (what its windows crossed was said
  // by that run, if at all). The reader's window starts after it.
  void pass(const table::Observation& read, const table::Table::ReaderReads& counts);
  // What the last run said of `device` (its journal's last device.health): missing replies or good.
  void recall(const std::string& device, bool missing);
  // For status: "missing replies" or "good"; none for a device not judged (a camera, or the alert off).
  std::optional<std::string> state(const std::string& device) const;

 private:
  struct Reader {
    table::Table::ReaderReads start;  // the counts when its window began
    bool judged = true;               // not a camera
    bool missing = false;             // said missing replies, not said back since
    std::bitset<table::kZoneCount> zones;  // by Zone::index: a reader serves a few of the table's zones
    std::array<table::Zone, table::kZoneCount> zone{};  // each one set, for the text
  };
  Reader& reader(const std::string& device);
  Reader& reader(const table::Observation& read);
  double alert_share_;
  std::function<bool(const std::string&)> camera_;
  std::map<std::string, Reader> readers_;
};

}  // namespace cardtable::daemon
