// The master record: every deal of the tournament keyed by (event, session, board), with an index that
// finds a deal in well under a microsecond, also when it is turned or its hands sit in the wrong pockets.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bridge/board_record.hpp"

namespace cardtable::bridge {

struct SessionId {
  std::string event;
  std::string session;
  std::string str() const;  // "Camrose 2024 / Round 3", or the event alone
};

// One board as the master record keeps it: 40 bytes, so a million boards fit in 40 MB.
struct MasterBoard {
  Deal deal;
  std::uint32_t session = 0;  // index into MasterRecord::session()
  std::uint16_t board = 0;
  Seat dealer = Seat::North;
  Vulnerability vulnerability = Vulnerability::None;
};

// Where a deal was found: map[s] is the master seat whose cards seat s holds.
struct DealMatch {
  std::uint32_t entry = 0;
  SeatMap map = kIdentitySeats;
  bool exact() const { return map == kIdentitySeats; }
  std::optional<int> rotation() const { return rotation_of(map); }  // 1..3 seats, or nullopt
  std::string describe() const;  // "as dealt", "turned 1 seat clockwise", "hands permuted N<-E ..."
};

// Two boards of the record that hold the same deal (perhaps with hands permuted).
struct DuplicateDeal {
  std::uint32_t first = 0;
  std::uint32_t second = 0;
  SeatMap map = kIdentitySeats;  // second's seat s holds first's map[s]
};

class MasterRecord {
 public:
  MasterRecord() = default;

  // Reads every record file under each path and adds its boards; returns every problem found.
  Diagnostics load(const std::vector<std::filesystem::path>& paths);
  // Adds one board. A board repeated with the same deal (one record per table in a results file) is
  // kept once; a board repeated with a different deal is reported and the first kept.
  void add(const BoardRecord& record, Diagnostics& diagnostics);

  std::size_t size() const { return boards_.size(); }
  const MasterBoard& board(std::uint32_t i) const { return boards_[i]; }
  const SessionId& session(std::uint32_t id) const { return sessions_[id]; }
  std::size_t session_count() const { return sessions_.size(); }
  std::string describe(std::uint32_t i) const;  // "Camrose 2024 / Round 3, board 7"

  // Every board holding this deal, exact matches first. Empty when the deal is not a valid deal.
  std::vector<DealMatch> lookup(const Deal& deal) const;
  // The first match only, without allocating: the daemon's hot path.
  std::optional<DealMatch> lookup_first(const Deal& deal) const;
  std::optional<std::uint32_t> find(std::string_view event, std::string_view session, int board) const;
  const std::vector<DuplicateDeal>& duplicates() const { return duplicates_; }

  // Bytes held by the record and its indexes.
  std::size_t memory_bytes() const;
  void reserve(std::size_t boards);

 private:
  struct Slot {
    std::uint64_t key = 0;  // 0 = empty
    std::uint32_t value = 0;
  };
  class FlatIndex {  // open addressing, linear probing, several values per key allowed
   public:
    void insert(std::uint64_t key, std::uint32_t value);
    template <typename F>
    void for_each(std::uint64_t key, F&& f) const;
    std::size_t bytes() const { return slots_.capacity() * sizeof(Slot); }
    void reserve(std::size_t n);

   private:
    void grow(std::size_t capacity);
    std::vector<Slot> slots_;
    std::size_t used_ = 0;
  };

  static std::uint64_t deal_key(const Deal& d);
  std::uint32_t session_id(const std::string& event, const std::string& session);
  static std::optional<SeatMap> match(const Deal& observed, const Deal& master);

  std::vector<MasterBoard> boards_;
  std::vector<SessionId> sessions_;
  std::unordered_map<std::string, std::uint32_t> session_lookup_;  // "event\x1fsession" -> id
  std::optional<std::uint32_t> last_session_;  // records come in runs of one session
  FlatIndex by_deal_;
  FlatIndex by_board_;
  std::vector<DuplicateDeal> duplicates_;
};

}  // namespace cardtable::bridge
