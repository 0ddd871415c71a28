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
// forwarded all the same):
// - the first heard of a journal cannot be judged (nothing came before it) and is taken, nothing counted
//   for what came before it (the first snapshot question covers that); but while no seq past it has come,
//   a seq more than kBelievedGap below it shows it a claim no journal backs (a journal counts up one by
//   one): the hub follows the lower one, says so, and counts nothing;
// - one past the last seq skipping seqs counts the skipped ones in `missed` -- unless it is not believed
//   (see unbelieved): then it is said once, not counted, and the last seq stays;
// - a --table-control table's answer to the snapshot question that a gap asks judges the claim after
//   (answered).
ClaimJudge::Heard ClaimJudge::heard(std::uint64_t seq, bool through_heartbeat) {
  Heard out;
  if (seq == 0 && !through_heartbeat) return out;  // an event without a seq: not journalled
  if (!last_seq_) {
    last_seq_ = counted_above_ = seq;
    claimed_by_event_ = !through_heartbeat;
    first_unjudged_ = true;
    return out;
  }
  const std::uint64_t last = *last_seq_;
  if (seq <= last) {
    if (first_unjudged_ && last - seq > kBelievedGap) {
      out.said = std::string("its first message, ") + (claimed_by_event_ ? "an event" : "a heartbeat") + ", named seq #" + std::to_string(last) + ", then " +
                 (through_heartbeat ? "a heartbeat" : "an event") + " named #" + std::to_string(seq) + ", " + std::to_string(last - seq) +
                 " below it: the first is not believed (a bug at the table, or a corrupted message), its last seq is #" + std::to_string(seq) +
                 ", nothing counted in missed";
      last_seq_ = counted_above_ = seq;
      claimed_by_event_ = !through_heartbeat;
      heard_under_claim_ = 0;
    }
    if (through_heartbeat) return out;
    // Heard in order below the claim held: the claim counted it in missed (a table's single PUB socket
    // keeps its order, so it came after the claim), and it came after all.
    if (seq > event_seq_ && seq > counted_above_) ++heard_under_claim_;
    event_seq_ = std::max(event_seq_, seq);  // journalled in order, or heard before
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
  } else if (!through_heartbeat) {
    event_seq_ = seq;  // the next one: it backs the last seq
    heard_under_claim_ = 0;
  }
  last_seq_ = seq;
  claimed_by_event_ = !through_heartbeat;
  first_unjudged_ = false;
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

// The table's journal had `answered` when it answered, and a message names a seq already journalled: a
// held last seq past both the answer and every event heard in order since came from a claim no journal
// backs. Left, it hid every later gap of the table (no seq ever came past it) and `missed` kept the claim.
ClaimJudge::Disowned ClaimJudge::answered(std::uint64_t answered) {
  Disowned out;
  if (disowned_ && answered >= *disowned_) disowned_.reset();  // the journal did get there
  const std::uint64_t real = std::max(answered, event_seq_), heard_under = std::exchange(heard_under_claim_, 0);
  if (!last_seq_ || *last_seq_ <= real) return out;
  const std::uint64_t claimed = *last_seq_, counted = claimed - std::max(real, counted_above_);
  // An event's own seq was heard, not missed: what it claimed stops below it. The events heard after the
  // claim, below the real seq, were counted by it too (claim after #2, #3 lost, #4 heard, answer #4:
  // the claim counted #3 to the claim, only #3 was missed).
  out.taken_back = (counted > 0 && claimed_by_event_ ? counted - 1 : counted) + heard_under;
  out.said = claim_of(claimed, !claimed_by_event_) + ", its snapshot answered #" + std::to_string(answered) +
             ": the claim is not believed (a bug at the table, or a corrupted message), its last seq is #" + std::to_string(real) + " again and " +
             std::to_string(out.taken_back) + " events are taken back from missed";
  disowned_ = std::min(disowned_.value_or(claimed), claimed);
  last_seq_ = counted_above_ = real;
  claimed_by_event_ = first_unjudged_ = false;
  return out;
}

}  // namespace cardtable::hub
