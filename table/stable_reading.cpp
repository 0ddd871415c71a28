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
  prior_card_heard_ = card_heard_;
  if (!o.cards.empty() && o.confidence >= config.min_confidence) card_heard_ = o.time;
  if ((!o.cards.empty() || o.unknown > 0) && o.confidence >= config.min_confidence) tag_heard_ = o.time;
  missed_replies_ = false;
  heard_ = true;
  if (o.confidence < config.min_confidence) {  // noise: breaks a run, never starts one
    ++low_confidence_run_;
    break_run();
    return kNoNews;
  }
  low_confidence_run_ = 0;
  low_confidence_reported_ = false;
  // A card came when its area first heard it, and went once the area has read empty as long as a card
  // leaving the stable reading needs (noisy_absent_reads on a reader that drops replies): whether or not
  // the reading settled. Two empty reads stable_ms apart with polls dropped between settle an empty
  // reading by time, and three empty reads after a card read once settle it by count; on such a reader
  // either made the leader's card, lying there since before another seat's, a later one -- and its lead a
  // false lead out of turn (seeds 126 and 182 at 0.2 flicker and drops).
  if (o.cards.empty() && o.unknown == 0) {
    if (++empty_reads_ >= (noisy ? config.noisy_absent_reads : config.stable_reads)) card_came_ = -1;
  } else {
    empty_reads_ = 0;
    if (!o.cards.empty() && card_came_ < 0) {
      card_came_ = o.time;
      came_as_ = o.cards;
      heard_before_came_ = prior_card_heard_;
    }
  }

  // Flicker is about the raw reads: a zone whose reads keep changing is uncertain until one reading
  // repeats long enough. A read that hears less than the last (some of its tags, or none) is a reply
  // missed, as the candidate's run takes it below, not a change, and the reading heard again after it
  // is no change either: counting both, a reader missing 3 % of its replies -- working as readers do --
  // had its zones said to "keep changing; nothing is concluded" 28 times a session
  // (bench/reader_faults_sweep --flicker 0.03 --drop 0.03), while the table went on concluding, rightly,
  // from the same reads. A lesser read that lasts until it would settle is the reading (the card taken
  // away); a read hearing a tag the last did not is a change, as two cards taken for each other are.
  if (last_ && last_->same_reading(o)) {
    ++run_;
    dip_.reset();
  } else if (last_ && hears_less(o, *last_)) {
    if (dip_ && dip_->same_reading(o)) {
      ++dip_run_;
    } else {
      dip_ = reading_of(o);
      dip_run_ = 1;
      dip_since_ = o.time;
    }
    if (settles(dip_run_, dip_since_, o.time, config)) {
      last_ = std::move(dip_);
      dip_.reset();
      run_ = dip_run_;
      run_since_ = dip_since_;
    }
  } else {
    if (last_) changes_.push_back(o.time);
    last_ = reading_of(o);
    run_ = 1;
    run_since_ = o.time;
    dip_.reset();
  }
  if (settles(run_, run_since_, o.time, config)) {
    changes_.clear();
    flicker_reported_ = false;
  }

  bool settled = false;
  if (candidate_ && candidate_->same_reading(o)) {
    // The card read once before the empty reads (taken for a misread of the stable card) is no card heard
    // again after missed replies when the stable card left meanwhile: seed 816 of
    // bench/reader_faults_sweep at 0.2 flicker and drops read West's ♣A once as ♦10 just before the trick
    // was quitted, and ♦10 was West's next lead -- taken for a card replacing ♣A in the trick quitted.
    if (card_left_before(o, config)) return card_left(o);
    // The tags heard again after reads that missed them: the reader drops replies (one-poll dropouts).
    if (lesser_) {
      missed_replies_ = true;
      lesser_.reset();
      lesser_count_ = 0;
    }
    ++count_;
    // By time (two reads stable_ms apart) only for a slow reader: two reads in a row, nothing between,
    // of a reading that adds to or takes from the stable one. Two reads of a card with missed polls or
    // other cards between them, or a card *replacing* another, must be read stable_reads times: a
    // misread card read twice 300 ms apart with empty polls between (a card faced, or one replacing the
    // card there) is one session in a hundred at 10 % flicker and drops and 5 % misreads -- a false
    // card from another hand (Law 87A) or revoke (Law 61). A reader does not invent a tag where none is,
    // but it may name the tag that is there wrongly.
    bool by_count_only = interrupted_ || !one_offs_.empty() || (stable_ && !hears_less(*stable_, *candidate_) && !hears_less(*candidate_, *stable_));
    settled = by_count_only ? count_ >= config.stable_reads : settles(count_, candidate_since_, o.time, config);
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
    // Leaving: the stable reading, or a card read twice that is not stable yet (the candidate, or the run
    // set aside at a misread): the reads without it are missed replies as much as they would be once it
    // is stable. (A card faced for a second, read twice, then two empty polls running: on a noisy reader
    // that made it gone, and the card was never played -- its seat's next card a false revoke.)
    bool leaving = (stable_ && hears_less(*lesser_, *stable_)) || count_ >= 2 || (aside_ && hears_less(*lesser_, *aside_));
    bool gone = leaving && noisy ? lesser_count_ >= config.noisy_absent_reads : settles(lesser_count_, lesser_since_, o.time, config);
    // The candidate's run is no longer read after read: it settles by count only (below).
    interrupted_ = true;
    if (gone) {
      aside_.reset();
      one_offs_.clear();
      candidate_ = std::move(lesser_);
      count_ = lesser_count_;
      candidate_since_ = lesser_since_;
      interrupted_ = false;
      lesser_.reset();
      lesser_count_ = 0;
      settled = true;
    }
  } else if (aside_ && aside_->same_reading(o)) {
    // The candidate again after reads naming other cards, each once: they were misreads (one poll each),
    // and the candidate's run goes on.
    candidate_ = std::move(aside_);
    count_ = aside_count_ + 1;
    candidate_since_ = aside_since_;
    interrupted_ = true;
    aside_.reset();
    lesser_.reset();
    lesser_count_ = 0;
    settled = count_ >= config.stable_reads;  // by count only: two reads around a misread are no stretch of time
  } else if (card_left_before(o, config)) {
    // Another card, after empty reads in a row since the stable card left: the card had gone. On a reader
    // dropping replies an empty zone needs noisy_absent_reads to count as empty, and a trick quitted
    // for a second there may give fewer before the next trick's card comes (seeds 226 and 944 of
    // bench/reader_faults_sweep): taken for a card *replacing* the one of the trick, the next trick's lead
    // became a card changed in this one, and the seat's next card a false revoke (Law 61). A reader does
    // not hear the card that lies there as empty and then as another card: the departure is the news
    // now, and this card starts its own run. Were it a misread after missed replies, the card read again
    // is the same card back (the table takes it as such).
    return card_left(o);
  } else {
    // A tag the candidate does not have: a real change, or a misread. A misread names a card at random and
    // does not repeat: the run of the card read (the candidate, or the run already set aside when the
    // candidate is itself a read naming another card) is set aside until a later read says which. It
    // outlasts reads naming other cards, each once, as long as they are fewer than its own reads (the
    // card read more often than all others together): at 5 % misreads two in the few reads of a card that
    // lies a second are common, and a card never steady in the second it lies there was a false revoke
    // or lead out of turn (Laws 61, 54) once its seat's next card came. A card read twice in the run is no
    // misread: the zone names two cards (a real change, or flicker between two), and the run ends.
    const bool again = std::any_of(one_offs_.begin(), one_offs_.end(), [&](const Observation& x) { return x.same_reading(o); });
    const std::optional<Observation>& run = aside_ ? aside_ : candidate_;
    const int run_count = aside_ ? aside_count_ : count_;
    if (!again && run && !run->cards.empty() && static_cast<int>(one_offs_.size()) < run_count) {
      if (!aside_) {
        aside_ = std::move(candidate_);  // replaced by `o` below
        aside_count_ = count_;
        aside_since_ = candidate_since_;
      }
      one_offs_.push_back(reading_of(o));
    } else {
      aside_.reset();
      one_offs_.clear();
    }
    start_run(o);
    settled = settles(count_, candidate_since_, o.time, config);
  }
  // A read that heard a tag, other than the one just set aside, ends the chance that it was a misread.
  if (aside_ && candidate_ && !aside_->same_reading(*candidate_) && candidate_->same_reading(o) && count_ > 1) {
    aside_.reset();
    one_offs_.clear();
  }
  if (!settled) return kNoNews;
  if (stable_ && stable_->same_reading(*candidate_)) return kNoNews;
  stable_ = candidate_;
  stable_->time = o.time;
  return stable_;
}

bool StableReading::card_left_before(const Observation& o, const TableConfig& config) const {
  return lesser_ && lesser_->cards.empty() && lesser_->unknown == 0 && lesser_count_ >= config.stable_reads && stable_ &&
         !stable_->cards.empty() && !stable_->same_reading(o) && hears_less(*lesser_, *stable_) && !settles(1, o.time, o.time, config);
}

const std::optional<Observation>& StableReading::card_left(const Observation& o) {
  stable_ = std::move(lesser_);
  stable_->time = o.time;
  card_came_ = o.time;
  came_as_ = o.cards;
  heard_before_came_ = prior_card_heard_;
  aside_.reset();
  one_offs_.clear();
  start_run(o);
  return stable_;
}

void StableReading::start_run(const Observation& o) {
  candidate_ = o;
  count_ = 1;
  candidate_since_ = o.time;
  interrupted_ = false;
  lesser_.reset();
  lesser_count_ = 0;
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
