#include "bridge/master_record.hpp"

#include <algorithm>
#include <array>

#include "bridge/record_file.hpp"

namespace cardtable::bridge {

std::string SessionId::str() const { return session.empty() ? event : event + " / " + session; }

std::string DealMatch::describe() const {
  if (exact()) return "as dealt";
  if (auto r = rotation()) return "turned " + std::to_string(*r) + (*r == 1 ? " seat" : " seats") + " clockwise";
  return "hands permuted (" + bridge::describe(map) + ")";
}

namespace {
constexpr std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
}  // namespace

void MasterRecord::FlatIndex::reserve(std::size_t n) {
  std::size_t cap = 16;
  while (cap < n * 2) cap <<= 1;
  if (cap > slots_.size()) grow(cap);
}

void MasterRecord::FlatIndex::grow(std::size_t capacity) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(capacity, Slot{});
  used_ = 0;
  for (const Slot& s : old)
    if (s.key) insert(s.key, s.value);
}

void MasterRecord::FlatIndex::insert(std::uint64_t key, std::uint32_t value) {
  if ((used_ + 1) * 2 > slots_.size()) grow(slots_.empty() ? 16 : slots_.size() * 2);
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
    if (slots_[i].key == 0) {
      slots_[i] = {key, value};
      ++used_;
      return;
    }
  }
}

template <typename F>
void MasterRecord::FlatIndex::for_each(std::uint64_t key, F&& f) const {
  if (slots_.empty()) return;
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = mix(key) & mask; slots_[i].key != 0; i = (i + 1) & mask)
    if (slots_[i].key == key && !f(slots_[i].value)) return;
}

std::uint64_t MasterRecord::deal_key(const Deal& d) {
  // The four hands as a set: the same key whatever pocket each hand sits in.
  std::array<std::uint64_t, 4> h = {d.hands()[0].bits(), d.hands()[1].bits(), d.hands()[2].bits(), d.hands()[3].bits()};
  // A sorting network for four.
  auto cswap = [&](int a, int b) {
    if (h[static_cast<std::size_t>(a)] > h[static_cast<std::size_t>(b)]) std::swap(h[static_cast<std::size_t>(a)], h[static_cast<std::size_t>(b)]);
  };
  cswap(0, 1); cswap(2, 3); cswap(0, 2); cswap(1, 3); cswap(1, 2);
  std::uint64_t k = mix(h[0]);
  k = mix(k ^ h[1]);
  k = mix(k ^ h[2]);
  k = mix(k ^ h[3]);
  return k ? k : 1;
}

std::optional<SeatMap> MasterRecord::match(const Deal& observed, const Deal& master) {
  SeatMap map{};
  for (Seat s : kAllSeats) {
    bool found = false;
    for (Seat t : kAllSeats)
      if (observed.hand(s) == master.hand(t)) {
        map[static_cast<std::size_t>(index(s))] = t;
        found = true;
        break;
      }
    if (!found) return std::nullopt;
  }
  return map;
}

std::uint32_t MasterRecord::session_id(const std::string& event, const std::string& session) {
  if (last_session_) {
    const SessionId& s = sessions_[*last_session_];
    if (s.event == event && s.session == session) return *last_session_;
  }
  std::string key = event + '\x1f' + session;
  auto [it, inserted] = session_lookup_.try_emplace(std::move(key), static_cast<std::uint32_t>(sessions_.size()));
  if (inserted) sessions_.push_back({event, session});
  last_session_ = it->second;
  return it->second;
}

void MasterRecord::reserve(std::size_t n) {
  boards_.reserve(n);
  by_deal_.reserve(n);
  by_board_.reserve(n);
}

void MasterRecord::add(const BoardRecord& r, Diagnostics& diagnostics) {
  if (!r.deal || !r.deal->valid()) return;  // the reader reported it; only complete deals can be matched
  if (r.board <= 0 || r.board > 0xFFFF) {
    diagnostics.push_back({Diagnostic::Severity::Warning, r.place, "a deal without a usable board number is not added to the master record"});
    return;
  }
  std::uint32_t sid = session_id(r.event, r.session);
  std::uint64_t board_key = (std::uint64_t{sid} << 16 | static_cast<std::uint64_t>(r.board)) + 1;
  std::optional<std::uint32_t> same_board;
  by_board_.for_each(board_key, [&](std::uint32_t i) { same_board = i; return false; });
  if (same_board) {
    if (boards_[*same_board].deal != *r.deal)
      diagnostics.push_back({Diagnostic::Severity::Error, r.place,
                             "board " + std::to_string(r.board) + " of " + sessions_[sid].str() +
                                 " appears again with a different deal; the first one is kept"});
    return;  // the same board again: one record per table in a results file
  }
  auto id = static_cast<std::uint32_t>(boards_.size());
  std::uint64_t key = deal_key(*r.deal);
  by_deal_.for_each(key, [&](std::uint32_t i) {
    if (auto m = match(*r.deal, boards_[i].deal)) duplicates_.push_back({i, id, *m});
    return true;
  });
  boards_.push_back({*r.deal, sid, static_cast<std::uint16_t>(r.board), r.effective_dealer(), r.effective_vulnerability()});
  by_deal_.insert(key, id);
  by_board_.insert(board_key, id);
}

Diagnostics MasterRecord::load(const std::vector<std::filesystem::path>& paths) {
  Diagnostics diagnostics;
  for (const auto& p : paths)
    for (const auto& f : record_files(p, diagnostics))
      read_record_file(f, [&](BoardRecord&& r) { add(r, diagnostics); }, diagnostics);
  return diagnostics;
}

std::string MasterRecord::describe(std::uint32_t i) const {
  return sessions_[boards_[i].session].str() + ", board " + std::to_string(boards_[i].board);
}

std::vector<DealMatch> MasterRecord::lookup(const Deal& deal) const {
  std::vector<DealMatch> out;
  if (!deal.valid()) return out;
  by_deal_.for_each(deal_key(deal), [&](std::uint32_t i) {
    if (auto m = match(deal, boards_[i].deal)) out.push_back({i, *m});
    return true;
  });
  std::stable_sort(out.begin(), out.end(), [](const DealMatch& a, const DealMatch& b) { return a.exact() && !b.exact(); });
  return out;
}

std::optional<DealMatch> MasterRecord::lookup_first(const Deal& deal) const {
  std::optional<DealMatch> out;
  if (!deal.valid()) return out;
  by_deal_.for_each(deal_key(deal), [&](std::uint32_t i) {
    if (auto m = match(deal, boards_[i].deal)) {
      if (!out || (m == kIdentitySeats && !out->exact())) out = DealMatch{i, *m};
      return !out->exact();
    }
    return true;
  });
  return out;
}

std::optional<std::uint32_t> MasterRecord::find(std::string_view event, std::string_view session, int board) const {
  auto it = session_lookup_.find(std::string(event) + '\x1f' + std::string(session));
  if (it == session_lookup_.end() || board <= 0) return std::nullopt;
  std::optional<std::uint32_t> out;
  by_board_.for_each((std::uint64_t{it->second} << 16 | static_cast<std::uint64_t>(board)) + 1, [&](std::uint32_t i) {
    out = i;
    return false;
  });
  return out;
}

std::size_t MasterRecord::memory_bytes() const {
  std::size_t n = boards_.capacity() * sizeof(MasterBoard) + by_deal_.bytes() + by_board_.bytes() +
                  duplicates_.capacity() * sizeof(DuplicateDeal);
  for (const auto& s : sessions_) n += sizeof(SessionId) + s.event.capacity() + s.session.capacity();
  for (const auto& s : session_lookup_) n += sizeof(s) + s.first.capacity() + 2 * sizeof(void*);
  return n;
}

}  // namespace cardtable::bridge
