// What a seq heard from one table means for the hub (docs/protocol.md, the hub's `missed`). Seqs of one
// journal come one by one on the table's single PUB socket, so a seq past the next one is events lost on
// the way -- or a claim no journal backs (a bug at the table, a corrupted message may put 2^62 in a
// heartbeat's last_seq or an event's own seq). A claim is believed only as far as the evidence goes: the
// table's snapshot answer (its journal's last seq) backs or disowns it. No sockets, no log: the hub says
// and counts what the judge decides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cardtable::hub {

// The most one message (a heartbeat's last_seq, an event's seq) of a table no snapshot can check (no
// --table-control, or its snapshot questions given up) may say was missed: a table journals a few thousand
// events a session, so a claim this far past the last seq heard is a bug or a corrupted message (it would
// add ~2^62 to `missed` and hide every later gap of the table). The same distance below a first claim,
// that nothing could judge, gives that claim up.
constexpr std::uint64_t kBelievedGap = 1'000'000;

class ClaimJudge {
 public:
  // `asks_table`: the hub asks the table's control endpoint for its snapshot (--table-control), whose
  // answer can check a claim.
  explicit ClaimJudge(bool asks_table = false) : asks_table_(asks_table) {}

  // What one seq heard means. `said`: a warning for the log, without the table's name ("" when none).
  struct Heard {
    // Seqs first..last found missing: counted in `missed`, the table's snapshot asked for again.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> missed;
    // A claim already disowned, made again: the table's snapshot asked for again, up to this seq.
    std::optional<std::uint64_t> ask_again_to;
    std::string said;
  };
  // Seq `seq` heard: an event's own (through_heartbeat false) or a heartbeat's last_seq.
  Heard heard(std::uint64_t seq, bool through_heartbeat);

  // What the table's snapshot answer (its journal's last seq) disowned. `taken_back`: seqs to take back
  // from `missed`; `said` "" when it disowned nothing.
  struct Disowned {
    std::uint64_t taken_back = 0;
    std::string said;
  };
  Disowned answered(std::uint64_t journal_last_seq);

  // The table's snapshot questions were given up (kSnapshotTries without an answer): no answer can disown
  // a claim, so claims are judged as at a table without --table-control until it answers again.
  void snapshots_given_up() { given_up_ = true; }
  // The table answered its snapshot: its answers check claims again.
  void snapshots_answered() { given_up_ = false; }
  // The table's journal replaced: its seqs start again at 1, the old journal's claims judge nothing of the
  // new one's. Whether its snapshots are given up stays: the endpoint is the same.
  void new_journal() { *this = ClaimJudge(asks_table_, given_up_); }

  // The newest seq of its journal the hub believes (none yet: nothing to check against).
  std::optional<std::uint64_t> last_seq() const { return last_seq_; }

 private:
  ClaimJudge(bool asks_table, bool given_up) : asks_table_(asks_table), given_up_(given_up) {}
  // Why a seq past the last heard, skipping seqs, is not believed ("" when it is); `ask_again_to` set when
  // a claim at or past one disowned makes the table's snapshot worth asking again.
  std::string unbelieved(std::uint64_t seq, std::optional<std::uint64_t>& ask_again_to) const;

  bool asks_table_ = false;
  bool given_up_ = false;  // see snapshots_given_up
  std::optional<std::uint64_t> last_seq_;
  // The newest seq evidence vouches for: an event heard in order past a seq vouched for, an event heard
  // below a claim, a snapshot answer. A seq past it is a claim, believed only for counting `missed`.
  std::uint64_t vouched_ = 0;
  // The seqs gaps are counted above: the first heard of its journal, or a snapshot answer that disowned a
  // claim, so that a claim disowned takes back from `missed` just what it added.
  std::uint64_t counted_above_ = 0;
  // The claims last_seq rests on, none backed yet, oldest first: the first seq heard, each seq that skipped
  // seqs past it. An event at exactly last_seq + 1 continues the newest (its `top`): a table's bug repeats
  // its own numbering (heartbeat 2^62, then events 2^62 + 1...), so the next seq backs nothing -- only an
  // answer of the table's journal does. Heard as events, so never counted in `missed`: the claim's own seq
  // when an event made it, and (seq, top].
  struct Claim {
    std::uint64_t seq = 0;
    bool by_event = false;
    std::uint64_t top = 0;
  };
  std::vector<Claim> claims_;
  // The most kept: a table whose answers never come (no --table-control) makes one at each gap, and only
  // an answer reads them. Past it the oldest is forgotten: an answer below it is not to be expected.
  static constexpr std::size_t kClaimsKept = 16;
  Claim first_;  // the first seq heard (or the one that gave it up), while first_unjudged
  // Events heard in order below a claim held (past every event heard before, past counted_above): the
  // claim counted them in `missed`, yet they came, so a claim disowned takes them back too.
  std::uint64_t heard_under_claim_ = 0;
  // last_seq rests on the first seq heard of its journal (or the one that gave it up), and no evidence has
  // judged it: no seq skipped past it, no answer, no event in order past a seq vouched for.
  bool first_unjudged_ = false;
  // The lowest claim a snapshot answer disowned: a seq at or past it that skips seqs is not believed
  // again until an answer of the table names it (a table repeating a bug's claim every heartbeat).
  std::optional<std::uint64_t> disowned_;
  bool said_unbelieved_ = false;  // a claim not believed, said once
};

}  // namespace cardtable::hub
