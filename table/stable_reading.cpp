#include "table/stable_reading.hpp"

#include <algorithm>

namespace cardtable::table {

namespace {
// The same reading read `count` times in a row since `since`: stable by count, or by time (a slow reader).
bool settles(int count, Millis since, Millis now, const TableConfig& config) {
  return count >= config.stable_reads || (count >= 2 && now - since >= config.stable_ms);
}
// `o` hears only tags that `than` has, and fewer of them: what a reader that missed replies reads (a
// second tag of a face among them: 13 of a pocket's 14, its other pack's ♠A not heard this time).
// At the scan slot (Observation::tags_are_cards) a tag `than` does not have is another card, never less.
bool hears_less(const Observation& o, const Observation& than) {
  const std::vector<bridge::Card> more = o.same_face(), of = than.same_face();
  auto heard_by_than = [&](const auto& tag) {
    auto [first, last] = than.card_ids.equal_range(tag.first);
    return std::any_of(first, last, [&](const auto& t) { return t.second == tag.second; });
  };
  return !o.same_reading(than) && (o.cards - than.cards).empty() && o.unknown <= than.unknown &&
         std::includes(of.begin(), of.end(), more.begin(), more.end()) &&
         (!o.tags_are_cards() || std::all_of(o.card_ids.begin(), o.card_ids.end(), heard_by_than));
}
// What Observation::same_reading compares of `o` and nothing more: the tags' ids only at the scan slot
// (tags_are_cards), not the source or the unknown tags' ids. `o` has its tags counted (feed), so the copy
// compares by `again` as `o` would.
Observation reading_of(const Observation& o) {
  Observation r{o.zone, o.cards, o.unknown, o.complete, o.confidence, {}, o.time, {}, {}, o.again};
  if (o.tags_are_cards()) r.card_ids = o.card_ids;
  return r;
}

const std::optional<Observation> kNoNews;
}  // namespace

const std::optional<Observation>& StableReading::feed(const Observation& o, const TableConfig& config, bool noisy) {
  if (!o.tags_counted()) {  // built without count_tags (a replayed input log, a test): counted here, once
    Observation counted = o;
    counted.count_tags();
    return feed(counted, config, noisy);
  }
  last_heard_ = o.time;
  missed_replies_ = false;
  heard_ = true;
  if (o.confidence < config.min_confidence) {  // noise: breaks a run, never starts one
    ++low_confidence_run_;
    candidate_.reset();
    lesser_.reset();
    aside_.reset();
    last_.reset();
    count_ = lesser_count_ = run_ = 0;
    return kNoNews;
  }
  low_confidence_run_ = 0;
  low_confidence_reported_ = false;

  // Flicker is about the raw reads: a zone whose reads keep changing, whatever the change, is uncertain
  // until one reading repeats long enough.
  if (last_ && last_->same_reading(o)) {
    ++run_;
  } else {
    if (last_) changes_.push_back(o.time);
    last_ = reading_of(o);
    run_ = 1;
    run_since_ = o.time;
  }
  if (settles(run_, run_since_, o.time, config)) {
    changes_.clear();
    flicker_reported_ = false;
  }

  bool settled = false;
  if (candidate_ && candidate_->same_reading(o)) {
    // The tags heard again after reads that missed them: the reader drops replies (one-poll dropouts).
    if (lesser_) {
      missed_replies_ = true;
      lesser_.reset();
      lesser_count_ = 0;
    }
    ++count_;
    ++since_misread_;
    settled = settles(count_, candidate_since_, o.time, config);
  } else if (candidate_ && hears_less(o, *candidate_)) {
    // Fewer tags than the candidate: missed replies, or tags that left. It does not break the candidate's
    // run; it replaces it once it has lasted. Tags leaving the stable reading (a card withdrawn, a trick
    // quitted, a pocket emptied) on a reader that has just been dropping replies need a run of
    // noisy_absent_reads: three empty reads in a row are no proof of anything from a reader missing one
    // poll in ten. A reader that reads steadily is believed as soon as any reading is.
    if (lesser_ && lesser_->same_reading(o)) {
      ++lesser_count_;
    } else {
      lesser_ = o;
      lesser_count_ = 1;
      lesser_since_ = o.time;
    }
    bool leaving = stable_ && hears_less(*lesser_, *stable_);
    bool gone = leaving && noisy ? lesser_count_ >= config.noisy_absent_reads : settles(lesser_count_, lesser_since_, o.time, config);
    bool adds = !stable_ || hears_less(*stable_, *candidate_);
    if (!gone && adds && count_ >= 2 && o.time - candidate_since_ >= config.stable_ms) {
      // Tags added to the stable reading (a card faced on an empty play area), read twice and nothing
      // but missed replies since, for stable_ms: they are there -- a reader does not invent a tag where
      // none is, and a card faced for a second on a reader missing half its polls is still a card played.
      // (A card *replacing* another must repeat in full: two equal misreads of the card there are rare,
      // not impossible.)
      settled = true;
    } else if (gone) {
      aside_.reset();
      candidate_ = std::move(lesser_);
      count_ = lesser_count_;
      candidate_since_ = lesser_since_;
      lesser_.reset();
      lesser_count_ = 0;
      settled = true;
    }
  } else if (aside_ && aside_->same_reading(o)) {
    // The candidate again after one read naming another card: that read was a misread (one poll), and the
    // candidate's run goes on. Not again until the candidate has been read stable_reads times since: a
    // zone that keeps naming two cards is flicker, not a misread.
    candidate_ = std::move(aside_);
    count_ = aside_count_ + 1;
    candidate_since_ = aside_since_;
    since_misread_ = 0;
    aside_.reset();
    lesser_.reset();
    lesser_count_ = 0;
    settled = count_ >= config.stable_reads;  // by count only: two reads around a misread are no stretch of time
  } else {
    // A tag the candidate does not have: a real change, or a misread (which does not repeat: the
    // candidate is set aside until the next read that hears a tag says which).
    if (candidate_ && since_misread_ >= config.stable_reads && !candidate_->cards.empty()) {
      aside_ = std::move(candidate_);  // replaced by `o` below
      aside_count_ = count_;
      aside_since_ = candidate_since_;
    } else {
      aside_.reset();
    }
    candidate_ = o;
    count_ = 1;
    candidate_since_ = o.time;
    since_misread_ = config.stable_reads;  // a new card may outlast one misread
    lesser_.reset();
    lesser_count_ = 0;
    settled = settles(count_, candidate_since_, o.time, config);
  }
  // A read that heard a tag, other than the one just set aside, ends the chance that it was a misread.
  if (aside_ && candidate_ && !aside_->same_reading(*candidate_) && candidate_->same_reading(o) && count_ > 1) aside_.reset();
  if (!settled) return kNoNews;
  if (stable_ && stable_->same_reading(*candidate_)) return kNoNews;
  stable_ = candidate_;
  stable_->time = o.time;
  return stable_;
}

bool StableReading::low_confidence_started(const TableConfig& config) {
  if (low_confidence_reported_ || low_confidence_run_ < config.flicker_changes) return false;
  low_confidence_reported_ = true;
  return true;
}

bool StableReading::flicker_started(Millis now, const TableConfig& config) {
  while (!changes_.empty() && now - changes_.front() > config.flicker_window_ms) changes_.pop_front();
  if (flicker_reported_ || static_cast<int>(changes_.size()) < config.flicker_changes) return false;
  flicker_reported_ = true;
  return true;
}

}  // namespace cardtable::table
