// The event journal: every event is appended here, with the next sequence number, before it is
// published. Files of JSON lines in the state directory, rotated by size, the oldest removed beyond a
// limit; the sequence continues across restarts (it is read back from the newest file). Each journal has
// an identity, a random id kept beside its files: a journal that starts again at seq 1 (a state dir wiped,
// a spare computer at the table) has another id, so subscribers know its seqs are not the old ones.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "protocol/wire_event.hpp"

namespace cardtable::protocol {

class Journal {
 public:
  struct Limits {
    std::uintmax_t file_bytes = 16u << 20;  // rotate after this many bytes
    int files = 16;                          // keep this many files
    // fdatasync after every event, before append() returns and so before the event is published: what a
    // subscriber has seen survives a power cut. Off only to measure its cost (bench/journal_bench).
    bool sync_each = true;
  };
  // Opens (creating the folder) and finds the last sequence number written; appends to the newest file
  // while it is under the size limit (a restart that opened a file of its own used up one of `files`
  // each time: sixteen restarts took the whole history, open alerts and all). Holds the folder locked
  // (flock) while it lives: a second daemon on the same --state-dir would give the same seqs twice.
  // Throws std::runtime_error with the path and the reason when the folder cannot be used.
  // The identity is read from DIR/identity, or made (a new journal, or one written before identities
  // existed) and written there durably before any event is appended.
  Journal(std::filesystem::path dir, Limits limits);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // Gives the event the next sequence number, writes it, and returns the JSON line. A write that fails
  // (a full disk, the file deleted, an I/O error) does not throw: the daemon must go on publishing, so
  // the line is returned unjournalled, failing() says why, and the next append reopens the file and
  // tries again (a full disk once stopped the daemon, and systemd restarted it into the same wall).
  std::string append(WireEvent& e);
  // Why the last write failed; empty while writes succeed.
  const std::string& failing() const { return failing_; }
  // Events given a seq but not written, in all, and the seqs of the first and last of them.
  std::uint64_t unjournalled() const { return unjournalled_; }
  std::uint64_t first_unjournalled() const { return first_unjournalled_; }
  std::uint64_t last_unjournalled() const { return last_unjournalled_; }
  // Every journalled event with since <= seq <= upto, oldest first, until `visit` returns false.
  // replay() and first_seq() only read the files: another thread may call them while append() goes on
  // (the daemon's replay worker), given an `upto` the appending thread had already written (last_seq()
  // read there) -- a line being written, or one of a file opened after the call, is never read.
  // A file rotated away before it is opened is skipped: first_seq() read afterwards says so.
  void replay(std::uint64_t since, const std::function<bool(const std::string& json_line, std::uint64_t seq)>& visit,
              std::uint64_t upto = UINT64_MAX) const;
  std::uint64_t last_seq() const { return last_seq_; }  // the appending thread's only
  std::uint64_t first_seq() const;  // the oldest still journalled (0 when empty)
  void flush();                     // to the disk (fdatasync): after every event (sync_each), on shutdown and rotation
  // Bytes of a torn last line (a crash or power cut mid-write) cut off when the journal was opened.
  std::uintmax_t torn_bytes() const { return torn_bytes_; }
  // Files in the folder that look like the journal's but are not named journal-<20 digits>.jsonl (a
  // copy an operator left there): never read, never removed, said by the owner's log.
  const std::vector<std::string>& ignored_files() const { return ignored_; }
  // The journal's identity: 16 hex digits from the kernel's CSPRNG (getrandom), the same for as long as
  // the journal goes on, another one whenever it starts again at seq 1 (docs/protocol.md "Journal identity").
  const std::string& id() const { return id_; }
  // Why the identity was made at this start (empty when it was read back): the owner's log says it once.
  const std::string& id_made_because() const { return id_made_because_; }
  static constexpr const char* kIdentityFile = "identity";

 private:
  struct Descriptor {  // closed when the Journal goes, or when its constructor throws
    int fd = -1;
    ~Descriptor();
  };
  Descriptor lock_;  // the folder, flock'ed
  void open_new_file();
  void open_file(const std::filesystem::path& file);
  bool write_out(const std::string& line);  // false when not written (failing_ says why)
  void cut_torn_line(const std::filesystem::path& file);
  void load_identity(bool has_files);
  std::filesystem::path dir_;
  std::filesystem::path file_;  // the file appended to, for errors
  Limits limits_;
  std::uint64_t last_seq_ = 0;
  int fd_ = -1;
  std::uintmax_t size_ = 0;
  std::uintmax_t torn_bytes_ = 0;
  std::vector<std::string> ignored_;
  std::string id_, id_made_because_;
  std::string failing_;
  bool reopen_ = false;   // a write failed: the file is opened again before the next one
  bool partial_ = false;  // the file ends inside a line (a write cut short): the next line starts on its own
  std::uint64_t unjournalled_ = 0, first_unjournalled_ = 0, last_unjournalled_ = 0;
};

}  // namespace cardtable::protocol
