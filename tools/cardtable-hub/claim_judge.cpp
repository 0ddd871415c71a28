#include "claim_judge.hpp"

#include <algorithm>
#include <utility>

namespace cardtable::hub {
namespace {

// How a message's seq claim is named in the log: a heartbeat names the last seq journalled before it.
std::string claim_of(std::uint64_t seq, bool through_heartbeat) {
  return (through_heartbeat ? "a heartbeat named seq #" : "an event named seq #") + std::to_string(seq) + (through_heartbeat ? " as its last" : "");
}

}  // namespace

// A seq is a claim, whether a heartbeat's or an event's own, and one rule judges both (the event itself is
// forwarded all the same). What backs a claim is evidence of the table's journal: its snapshot answer, or
// an event heard in order past a seq already vouched for. An event that merely continues a claim (exactly
// the claimed seq + 1) is no evidence: a bug that numbered one message 2^62 numbers the next 2^62 + 1.
// - the first heard of a journal cannot be judged (nothing came before it) and is taken, nothing counted
//   for what came before it (the first snapshot question covers that); but until evidence judges it, a seq
//   more than kBelievedGap below it shows it a claim no journal backs (a journal counts up one by one): the
//   hub follows the lower one, says so, and counts nothing;
// - one past the last seq skipping seqs counts the skipped ones in `missed` -- unless it is not believed
//   (see unbelieved): then it is said once, not counted, and the last seq stays;
// - a --table-control table's answer to the snapshot question that a gap asks backs the claim or
//   disowns it (answered).
ClaimJudge::Heard ClaimJudge::heard(std::uint64_t seq, bool through_heartbeat) {
  Heard out;
  if (seq == 0 && !through_heartbeat) return out;  // an event without a seq: not journalled
  if (!last_seq_) {
    last_seq_ = counted_above_ = seq;
    first_ = {seq, !through_heartbeat, seq};
    claims_ = {first_};
    first_unjudged_ = true;
    return out;
  }
  const std::uint64_t last = *last_seq_;
  if (seq <= last) {
    if (first_unjudged_ && first_.seq > seq && first_.seq - seq > kBelievedGap) {
      out.said = std::string("its first message, ") + (first_.by_event ? "an event" : "a heartbeat") + ", named seq #" + std::to_string(first_.seq) +
                 (last > first_.seq ? ", events to #" + std::to_string(last) + " continued it" : "") + ", then " +
                 (through_heartbeat ? "a heartbeat" : "an event") + " named #" + std::to_string(seq) + ", " + std::to_string(first_.seq - seq) +
                 " below it: the first is not believed (a bug at the table, or a corrupted message), its last seq is #" + std::to_string(seq) +
                 ", nothing counted in missed";
      // The lower one is judged as a first seq in turn (the events continuing the other were never counted);
      // an event's own seq, heard below a claim, is vouched for (below).
      last_seq_ = counted_above_ = seq;
      first_ = {seq, !through_heartbeat, seq};
      claims_.clear();
      if (through_heartbeat) claims_.push_back(first_);
      heard_under_claim_ = 0;
    }
    if (through_heartbeat) return out;
    // Heard in order below the claim held: the claim counted it in missed (a table's single PUB socket
    // keeps its order, so it came after the claim), and it came after all.
    if (seq > vouched_ && seq > counted_above_) ++heard_under_claim_;
    vouched_ = std::max(vouched_, seq);  // journalled in order, or heard before
    return out;
  }
  const std::uint64_t due_until = through_heartbeat ? seq : seq - 1;
  if (due_until > last) {
    if (const std::string why = unbelieved(seq, out.ask_again_to); !why.empty()) {
      if (!std::exchange(said_unbelieved_, true))
        out.said = claim_of(seq, through_heartbeat) + why + " (a bug at the table, or a corrupted message), not counted in missed" +
                   (through_heartbeat ? "" : "; the event itself is forwarded") + " (said once)";
      return out;
    }
    out.missed = {last + 1, due_until};
    claims_.push_back({seq, !through_heartbeat, seq});
    if (claims_.size() > kClaimsKept) claims_.erase(claims_.begin());
    first_unjudged_ = false;
  } else if (!through_heartbeat && claims_.empty()) {
    vouched_ = seq;  // the next one past a seq vouched for: it is evidence in turn
    heard_under_claim_ = 0;
    first_unjudged_ = false;
  } else if (!through_heartbeat) {
    claims_.back().top = seq;  // the next one past a claim continues it: heard, not counted, and no evidence
  }
  last_seq_ = seq;
  return out;
}

std::string ClaimJudge::unbelieved(std::uint64_t seq, std::optional<std::uint64_t>& ask_again_to) const {
  // A claim its snapshot disowned, made again: counted again and taken back at each answer, `missed`
  // jumped and fell every 2 s. The table is asked again, for a journal that did get there.
  if (disowned_ && seq >= *disowned_) {
    ask_again_to = seq;
    return " again, at or past #" + std::to_string(*disowned_) + " that its snapshot disowned: not believed until its snapshot names it";
  }
  // No snapshot to check it against: a table without --table-control, or one whose snapshot questions
  // were given up (its control endpoint unreachable: no answer would ever take the claim back, and `missed`
  // kept ~2^62). A table whose snapshot answers has its claim checked by the answer instead (answered).
  const bool checked = asks_table_ && !given_up_;
  if (const std::uint64_t last = *last_seq_; !checked && seq - last > kBelievedGap)
    return ", " + std::to_string(seq - last) + " past #" + std::to_string(last) + " heard: not believed" +
           (given_up_ ? " (its snapshot questions were given up: no answer can check it)" : "");
  return {};
}

// The table's journal had `answered` when it answered, and a message names a seq already journalled. The
// claims held are backed when the answer reaches the newest (the events heard after it continue it in
// order). Otherwise the last seq past both the answer and what was vouched for came from claims no journal
// backs: left, it hid every later gap of the table (no seq ever came past it) and `missed` kept the claim.
ClaimJudge::Disowned ClaimJudge::answered(std::uint64_t answered) {
  Disowned out;
  if (disowned_ && answered >= *disowned_) disowned_.reset();  // the journal did get there
  const std::uint64_t real = std::max(answered, vouched_), heard_under = std::exchange(heard_under_claim_, 0);
  if (!last_seq_) return out;
  if (claims_.empty() || answered >= claims_.back().seq || *last_seq_ <= real) {
    vouched_ = std::max({vouched_, answered, claims_.empty() ? vouched_ : *last_seq_});
    claims_.clear();
    first_unjudged_ = false;
    return out;
  }
  // What the claims counted past the real seq: every seq up to the last, but those heard as events (a
  // claim's own when an event made it, the events that continued it); and the events heard after a claim
  // below the real seq, that it counted too (claim after #2, #3 lost, #4 heard, answer #4: only #3 was missed).
  const std::uint64_t claimed = *last_seq_, floor = std::max(real, counted_above_);
  std::uint64_t heard = 0;
  for (const Claim& c : claims_)
    if (const std::uint64_t from = std::max(c.by_event ? c.seq : c.seq + 1, floor + 1); c.top >= from) heard += c.top - from + 1;
  out.taken_back = claimed - floor - std::min(heard, claimed - floor) + heard_under;
  // The claim disowned: the first held past the answer (one below it is backed by it).
  const Claim c = *std::find_if(claims_.begin(), claims_.end(), [answered](const Claim& k) { return k.seq > answered; });
  out.said = claim_of(c.seq, !c.by_event) + (claimed > c.seq ? ", then seqs to #" + std::to_string(claimed) : "") + ", its snapshot answered #" +
             std::to_string(answered) + ": the claim is not believed (a bug at the table, or a corrupted message), its last seq is #" + std::to_string(real) +
             " again and " + std::to_string(out.taken_back) + " events are taken back from missed";
  disowned_ = std::min(disowned_.value_or(c.seq), c.seq);
  last_seq_ = counted_above_ = vouched_ = real;
  claims_.clear();
  first_unjudged_ = false;
  return out;
}

}  // namespace cardtable::hub
