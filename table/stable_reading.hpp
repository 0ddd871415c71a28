// Readings are noisy: a zone's reading counts only once it is stable, the same over several reads or
// over a stretch of time. A reading that keeps changing without settling is flicker: uncertain.
//
// RFID readers fail one way far more often than the other: a tag that is there goes unheard for a poll
// (its reply lost to a collision, a hand over the antenna, a detuned coil), while a tag that is not there
// is never heard. So a read that hears *less* than the reading being confirmed (a subset of its tags, an
// empty read) is weak evidence: it neither breaks the run of the tags it missed, nor -- on a reader that
// has just been losing tags -- makes them gone until it has gone on long enough that a run of missed
// replies is out of the question. A read that hears a tag the run does not have is a real change.
#pragma once

#include <deque>
#include <optional>
#include <vector>

#include "table/observation.hpp"
#include "table/table_config.hpp"

namespace cardtable::table {

class StableReading {
 public:
  // One raw reading in; the new stable reading out when it differs from the last stable one. `noisy`:
  // the zone's reader has lately missed replies of tags that were there (the table keeps that per
  // reader: its antennas share its radio, and an empty zone cannot show that its reader misses tags).
  // The reading out is stable() itself, not a copy (a pocket's reading carries 13 tags' ids): valid until
  // the next feed() or forget().
  const std::optional<Observation>& feed(const Observation& o, const TableConfig& config, bool noisy = false);
  // The last read heard again tags that the reads before it had missed: the reader drops replies.
  bool missed_replies() const { return missed_replies_; }
  // True once per episode when the zone has been changing without settling (flicker).
  bool flicker_started(Millis now, const TableConfig& config);
  // True once per episode when readings keep coming below the confidence floor.
  bool low_confidence_started(const TableConfig& config);
  const std::optional<Observation>& stable() const { return stable_; }
  Millis last_heard() const { return last_heard_; }
  // The last read that heard a card (stable or not, a misread or not): a card was there then.
  Millis card_heard() const { return card_heard_; }
  bool heard() const { return heard_; }
  // The last read that heard any tag (a card, or a tag it cannot name: a pocket read for presence); -1:
  // none. Four pockets that last heard a tag within a poll of one another went together: a board lifted.
  Millis tag_heard() const { return tag_heard_; }
  // When the card now heard came: the first read that heard a card (a misread or not) since the zone last
  // read empty as long as a card needs to leave (stable_reads, noisy_absent_reads on a noisy reader);
  // -1 while none has. Which of two areas had a card first, whatever settled first.
  Millis card_came() const { return card_came_; }
  // The cards the first read at card_came() named (a misread, perhaps), and the last read that heard a
  // card before it (-1: none): whether the area heard anything before the card now there.
  const bridge::Hand& came_as() const { return came_as_; }
  Millis heard_before_came() const { return heard_before_came_; }
  // Reads in a row, the last ones, that heard nothing while the stable reading holds a card: on a reader
  // that drops replies the card is gone only after noisy_absent_reads of them, but this many say that a
  // steady reader would have seen it go.
  int absent_reads() const {
    bool empty_run = lesser_ && lesser_->cards.empty() && lesser_->unknown == 0;
    return empty_run && stable_ && !stable_->cards.empty() ? lesser_count_ : 0;
  }
  // The reading the zone had when the last run's board ended (a restart between boards): stable from the
  // start and last heard at `heard`, so the same reading again is no news.
  void assume(const Observation& o, Millis heard) {
    forget();
    stable_ = o;
    if (!stable_->tags_counted()) stable_->count_tags();
    last_heard_ = heard;
    if (!o.cards.empty() || o.unknown > 0) tag_heard_ = heard;
    heard_ = true;
  }
  // The device went silent: forget the stable reading (the zone is unknown until heard again).
  void forget() {
    stable_.reset();
    break_run();
    card_came_ = heard_before_came_ = -1;
    empty_reads_ = 0;
  }

 private:
  // Drops the reads on their way to a stable reading (the candidate, the lesser and aside ones, the
  // one-offs and the dip): a read of noise breaks the run, and a device gone silent starts afresh.
  void break_run() {
    candidate_.reset();
    lesser_.reset();
    aside_.reset();
    one_offs_.clear();
    last_.reset();
    dip_.reset();
    count_ = lesser_count_ = run_ = 0;
  }
  // `o` starts the run of a new candidate: read once, read after read, nothing heard less since.
  void start_run(const Observation& o);
  // `o` names another card than the stable one after empty reads running since that card left, as many
  // as a steady reader needs to see a card go: the card had gone (a reader does not hear the card lying
  // there as empty and then as another card). card_left says so: the departure is the news, and `o`
  // starts its own run.
  bool card_left_before(const Observation& o, const TableConfig& config) const;
  const std::optional<Observation>& card_left(const Observation& o);

  std::optional<Observation> stable_;
  // The reading being confirmed, and how often it was read since it first came (reads hearing less do
  // not break it).
  std::optional<Observation> candidate_;
  int count_ = 0;
  Millis candidate_since_ = 0;
  bool interrupted_ = false;  // other reads came between the candidate's (missed replies, misreads)
  // The candidate before a read that named another card: its run resumes if that read was a misread.
  std::optional<Observation> aside_;
  int aside_count_ = 0;
  Millis aside_since_ = 0;
  // The readings taken for misreads in the candidate's run (reading_of: a card each, at a play area), each
  // read once: one read again is no misread. Fewer than the run's own reads, so a handful at most.
  std::vector<Observation> one_offs_;
  // Reads in a row that heard less than the candidate: missed replies, or the tags really gone.
  std::optional<Observation> lesser_;
  int lesser_count_ = 0;
  Millis lesser_since_ = 0;
  bool missed_replies_ = false;
  // Raw reads as they come, for flicker: the last one and how many times in a row. Only what
  // Observation::same_reading compares is kept (reading_of): it is replaced at every change of reading.
  std::optional<Observation> last_;
  int run_ = 0;
  Millis run_since_ = 0;
  // Reads in a row hearing less than last_ (replies missed, or tags gone): no change to flicker unless
  // they last until they would settle, and then they are the reading.
  std::optional<Observation> dip_;
  int dip_run_ = 0;
  Millis dip_since_ = 0;
  Millis last_heard_ = 0;
  Millis card_heard_ = -1;
  Millis tag_heard_ = -1;
  Millis card_came_ = -1;
  bridge::Hand came_as_;
  Millis heard_before_came_ = -1;
  Millis prior_card_heard_ = -1;  // card_heard_ before the read being fed
  int empty_reads_ = 0;  // confident reads running that heard nothing at all
  bool heard_ = false;
  std::deque<Millis> changes_;
  bool flicker_reported_ = false;
  int low_confidence_run_ = 0;
  bool low_confidence_reported_ = false;
};

}  // namespace cardtable::table
