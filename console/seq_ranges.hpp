// Seqs of one journal held as ranges (first -> last): the seqs a table's tile counts as missed. A gap
// shown again (each heartbeat shows it until filled) is counted once, and seqs replayed later after all
// (a replay given up, asked again once the table answered) leave the count: a high-water mark could not
// give them back, and the tile stayed dashed for events the timeline showed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace cardtable::console {

class SeqRanges {
 public:
  using Range = std::pair<std::uint64_t, std::uint64_t>;  // first, last

  // Holds first..last; returns the pieces not held before, ascending (empty: all were).
  std::vector<Range> add(std::uint64_t first, std::uint64_t last) {
    std::vector<Range> added;
    if (first == 0 || last < first) return added;
    auto it = ranges_.upper_bound(first);
    if (it != ranges_.begin() && std::prev(it)->second + 1 >= first) --it;  // one that ends at or next to `first`
    std::uint64_t lo = first, hi = last, at = first;  // at: the first seq of first..last not yet looked at
    for (; it != ranges_.end() && it->first <= last + 1; it = ranges_.erase(it)) {
      if (it->first > at) added.emplace_back(at, it->first - 1);
      at = std::max(at, it->second + 1);
      lo = std::min(lo, it->first);
      hi = std::max(hi, it->second);
    }
    if (at <= last) added.emplace_back(at, last);
    ranges_[lo] = hi;  // merged with every range it touched
    for (const auto& [a, b] : added) count_ += b - a + 1;
    return added;
  }

  // Lets go of first..last; returns how many of them were held.
  std::uint64_t remove(std::uint64_t first, std::uint64_t last) {
    std::uint64_t removed = 0;
    if (last < first) return removed;
    auto it = ranges_.upper_bound(first);
    if (it != ranges_.begin() && std::prev(it)->second >= first) --it;
    while (it != ranges_.end() && it->first <= last) {
      const auto [a, b] = *it;
      it = ranges_.erase(it);
      removed += std::min(b, last) - std::max(a, first) + 1;
      if (a < first) ranges_[a] = first - 1;
      if (b > last) ranges_[last + 1] = b;  // past `last`: the loop ends
    }
    count_ -= removed;
    return removed;
  }

  // Seqs as the runs they make (7, 8, 9, 12 -> 7..9, 12..12), ascending, once each: a replay's 5,000
  // seqs are added or let go as a few ranges, not one by one.
  static std::vector<Range> runs_of(std::vector<std::uint64_t> seqs) {
    std::sort(seqs.begin(), seqs.end());
    std::vector<Range> runs;
    for (const std::uint64_t seq : seqs) {
      if (!runs.empty() && seq <= runs.back().second + 1) runs.back().second = std::max(runs.back().second, seq);
      else runs.emplace_back(seq, seq);
    }
    return runs;
  }

  std::uint64_t count() const { return count_; }
  void clear() {
    ranges_.clear();
    count_ = 0;
  }

 private:
  std::map<std::uint64_t, std::uint64_t> ranges_;
  std::uint64_t count_ = 0;
};

}  // namespace cardtable::console
