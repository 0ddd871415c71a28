// A deployment's description of the table: which zones exist, and the thresholds that make a reading
// stable. Defaults suit RFID readers polled every 100 ms.
#pragma once

#include <vector>

#include "table/observation.hpp"

namespace cardtable::table {

struct TableConfig {
  std::vector<Zone> zones;             // the zones this table has; checks needing others are reported as unavailable
  int stable_reads = 3;                // the same reading this many times in a row is stable ...
  Millis stable_ms = 300;              // ... or the same reading for this long (at least two reads)
  // RFID readers miss a tag's reply for a poll far more often than they hear a tag that is not there. A
  // reader (observation source) that missed tags and heard them again within noise_memory_ms is noisy:
  // on its zones, tags leaving the stable reading count as gone only after this many reads in a row
  // without them (0.7 s at 100 ms polls; eight missed replies running are one in a hundred million at
  // 10 % flicker). A reader that has not missed a reply lately is believed as soon as any reading is.
  int noisy_absent_reads = 8;
  Millis noise_memory_ms = 60000;
  // A reader counts as noisy, too, until it has heard tags in this many reads (1 s of four full pockets
  // at 100 ms polls): before that it has not shown that it reads steadily, and at 10 % flicker three
  // missed replies running come about once a session in the first second (a pocket seen emptied).
  int steady_after_reads = 40;
  double min_confidence = 0.5;         // readings below count as noise
  Millis flicker_window_ms = 1000;     // this many changes within the window, never stable: uncertain (a reply
                                       // missed and heard again is no change: stable_reading.cpp)
  int flicker_changes = 4;
  Millis silence_ms = 5000;            // a zone not heard from for this long is unknown (device silent)
  Millis pocket_gap_ms = 2000;         // station: a pause this long between cards starts the next pocket
  // Law 7C: the pockets read in full when the board goes back are judged (counts, Laws 13 and 14) as soon
  // as every pocket holds 13 or more, or once no pocket's reading has changed for this long: a hand is
  // often pushed into its pocket a few cards at a time, and each stop reads steady (see Table::on_pocket).
  Millis return_settle_ms = 3000;
  // Laws 53-56: a trick led by another seat than the one on lead while the leader's play area was already
  // hearing a card (misread, never steady yet) waits this long at most for that card before the lead out
  // of turn is alerted: the card there first leads (Table::card_played).
  Millis lead_wait_ms = 2000;
  // Between boards, the board is lifted off the pocket antennas (moved on to the next table, or away when
  // the round ends): its four pockets last hear their tags within a poll or two of one another. Four
  // players taking their hands out at the start of an auction (Law 17A) are seconds apart. Four pockets
  // whose last tags were heard within this long went together (Table::judge_pockets_out). On a reader
  // missing replies a pocket's last tag may come a few polls before the board left: there the window is
  // wider than such a reader needs to see a tag go (noisy_absent_reads, 0.8 s at 100 ms polls), but only for the
  // board just returned: a board laid after a lift is there to be played, its lift is board_lift_ms. At
  // 0.3 flicker and drops (bench/reader_faults_sweep, 1000 sessions) lifts taken for a period: 62 sessions
  // at 0.8 s, 17 at 1.0 s, 4 at 1.2 s, 1 at 1.5 s; players take their hands out seconds apart.
  Millis board_lift_ms = 500;
  Millis board_lift_noisy_ms = 1200;
  // A lift taken for a period (its pockets' last tags further apart than the window) is mended when the
  // next board is laid: four pockets whose first tags since each was read empty came within board_lift_ms
  // of one another, or this where a pocket's reader misses replies, are that board laid, not four hands put
  // back after a pass-out (Table::next_board_laid). Narrower than board_lift_noisy_ms and board_laid_noisy_ms:
  // a period begun between boards is expected to end in hands put back, a lift in a board laid.
  Millis board_relaid_noisy_ms = 800;
  // After a lift, the four pockets back: a board laid there lands them together, four players putting
  // their hands back after four passes do it one after another (Table::on_pocket, laid_window). Pockets whose
  // first tags were heard within board_lift_ms of one another are a board laid. On a reader missing
  // replies a pocket's first tag may come many polls after the board was laid: in bench/reader_faults_sweep
  // the first tags of a board laid came up to 0.5 s apart at 0.1 flicker and drops, 0.9 s at 0.2, 1.4 s at
  // 0.3 (1000 sessions each).
  Millis board_laid_noisy_ms = 2000;
  Millis board_allowance_ms = 7 * 60 * 1000 + 30 * 1000;  // 7.5 minutes a board
  std::size_t infer_limit = 4096;      // infer a board from the cards played among at most this many boards

  bool has(const Zone& z) const;
  bool has_all(ZoneKind kind) const;   // all four seats of a seated kind
  // The usual deployments.
  static TableConfig station_scan();   // a scan slot
  static TableConfig station_hands();  // four hand: zones (a camera over the fanned pockets)
  static TableConfig playing_table();  // pockets, play areas, dummy
};

}  // namespace cardtable::table
