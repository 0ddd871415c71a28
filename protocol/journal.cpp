#include "protocol/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "protocol/durable_file.hpp"

namespace cardtable::protocol {
namespace fs = std::filesystem;

namespace {

// journal-<first seq, 20 digits>.jsonl: names sort in sequence order.
std::string file_name(std::uint64_t first) {
  std::string n = std::to_string(first);
  return "journal-" + std::string(20 - n.size(), '0') + n + ".jsonl";
}

// Exactly the names file_name() gives: a copy beside them ("journal-backup.jsonl") once sorted last,
// gave the sequence its last seq and had events appended, so seqs were given twice.
bool is_journal_name(const std::string& name) {
  return name.size() == 34 && name.starts_with("journal-") && name.ends_with(".jsonl") &&
         name.find_first_not_of("0123456789", 8) == 28;
}

std::vector<fs::path> journal_files(const fs::path& dir, std::vector<std::string>* ignored = nullptr) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    auto name = e.path().filename().string();
    // Regular files only: one read at start that is a pipe or a device would never end.
    if (is_journal_name(name) && e.is_regular_file(ec)) out.push_back(e.path());
    else if (ignored && name.ends_with(".jsonl")) ignored->push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t seq_of_line(const std::string& line) {
  // Lines are written by us: {"seq":N,...} begins every line and "}" ends it. A line cut short by a crash
  // mid-write does not count: its number is given again, so that subscribers see no gap.
  if (!line.starts_with("{\"seq\":") || !line.ends_with("}")) return 0;
  return std::strtoull(line.c_str() + 7, nullptr, 10);
}

// 16 hex digits from the kernel's CSPRNG: two journals of a venue (or one table's before and after a
// wipe) must never share an id, whatever clocks and host names they have.
std::string random_id() {
  unsigned char bytes[8];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("getrandom: cannot make the journal's identity: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 15];
  }
  return id;
}

bool is_identity(const std::string& s) {
  return s.size() == 16 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

void Journal::load_identity(bool has_files) {
  const fs::path file = dir_ / kIdentityFile;
  std::error_code ec;
  if (fs::exists(file, ec)) {
    std::ifstream in(file);
    std::string text;
    std::getline(in, text);
    if (!in.bad() && is_identity(text) && has_files) {
      id_ = text;
      return;
    }
    // An identity without a journal file: the files were removed and the seqs start again at 1, so
    // they are another journal's (a new file is always made at once, so a journal never used has one).
    id_made_because_ = !has_files ? file.string() + " was there without a journal file (the journal's files were removed): the journal starts "
                                                    "again at seq 1 under a new identity"
                                  : file.string() + ": not an identity (16 hex digits): '" + text.substr(0, 40) +
                                        "'; replaced by a new one (subscribers start this table's seqs again)";
  } else {
    id_made_because_ = has_files ? file.string() + ": a journal written before identities existed; given one (its seqs go on)"
                                 : file.string() + ": a new journal, starting at seq 1";
  }
  id_ = random_id();
  // On the disk before any event of the journal is published under it: a power cut right after would
  // otherwise give the same journal a second identity at the next start.
  write_file_durably(file, id_ + "\n");
}

void Journal::cut_torn_line(const fs::path& file) {
  // A crash or a power cut mid-write leaves the newest file ending in part of a line: every line we
  // write ends with its newline, so whatever follows the last newline is torn. It is cut off the file
  // (it may even end with "}", inside the evidence, and pass for an event), so that its number is given
  // again and the next line starts on a line of its own.
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return;
  std::streamoff size = in.tellg();
  std::streamoff keep = size;
  char ch = 0;
  while (keep > 0 && in.seekg(keep - 1) && in.get(ch) && ch != '\n') --keep;
  in.close();
  if (keep == size) return;
  std::error_code ec;
  fs::resize_file(file, static_cast<std::uintmax_t>(keep), ec);
  if (ec) throw std::runtime_error(file.string() + ": cannot cut the torn last line: " + ec.message());
  torn_bytes_ = static_cast<std::uintmax_t>(size - keep);
}

Journal::Descriptor::~Descriptor() {
  if (fd >= 0) ::close(fd);
}

Journal::Journal(fs::path dir, Limits limits) : dir_(std::move(dir)), limits_(limits) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_.string() + ": cannot create the journal folder: " + ec.message());
  lock_.fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_.fd < 0) throw std::runtime_error(dir_.string() + ": cannot open the journal folder: " + std::strerror(errno));
  if (::flock(lock_.fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;  // before any string is made
    throw std::runtime_error(dir_.string() + (error == EWOULDBLOCK ? std::string(": in use by another process (another cardtabled on this "
                                                                                   "--state-dir? each daemon needs its own)")
                                                                     : ": cannot lock the journal folder: " + std::string(std::strerror(error))));
  }
  auto files = journal_files(dir_, &ignored_);
  load_identity(!files.empty());
  if (!files.empty()) {
    cut_torn_line(files.back());
    std::ifstream in(files.back());
    for (std::string line; std::getline(in, line);)
      if (auto s = seq_of_line(line)) last_seq_ = std::max(last_seq_, s);
    if (last_seq_ == 0) {  // an empty newest file: its name says where the sequence stands
      std::string n = files.back().filename().string().substr(8, 20);
      last_seq_ = std::strtoull(n.c_str(), nullptr, 10);
      if (last_seq_ > 0) --last_seq_;
    }
    if (const auto size = fs::file_size(files.back(), ec); !ec && size < limits_.file_bytes) {
      open_file(files.back());  // the newest file goes on: a restart costs no file of the history
      return;
    }
  }
  open_new_file();
}

Journal::~Journal() {
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
  }
}

void Journal::open_file(const fs::path& p) {
  file_ = p;  // also when the open fails: the next write tries this file again
  std::error_code ec;
  bool created = !fs::exists(p, ec);
  fd_ = ::open(p.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
  if (fd_ < 0) throw std::runtime_error(p.string() + ": cannot open the journal: " + std::strerror(errno));
  // A new file's name is in the folder, not in the file: without syncing the folder a power cut could
  // take the whole newest file with every event fdatasync'd into it.
  if (created) sync_directory(dir_);
  size_ = fs::file_size(p, ec);
  if (ec) size_ = 0;
}

void Journal::open_new_file() {
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
    fd_ = -1;
  }
  open_file(dir_ / file_name(last_seq_ + 1));
  // Keep at most `files` files: the oldest go.
  std::error_code ec;
  auto files = journal_files(dir_);
  for (std::size_t i = 0; files.size() > static_cast<std::size_t>(limits_.files) && i < files.size() - static_cast<std::size_t>(limits_.files); ++i)
    fs::remove(files[i], ec);
}

std::string Journal::append(WireEvent& e) {
  // "seq" first, so that a line's number can be read without parsing the line.
  e.journal = id_;  // journalled with it: a replay's events name their journal as the live ones do
  WireEvent body = e;
  body.seq = 0;
  std::string rest = to_json(body, true).dump();  // the journal is private: the card detail is kept
  e.seq = ++last_seq_;
  std::string line = "{\"seq\":" + std::to_string(e.seq) + "," + rest.substr(1);
  if (write_out(line + "\n")) {
    if (!reopen_) failing_.clear();  // written and synced: the journal is whole again from here
  } else {
    if (!unjournalled_ || last_unjournalled_ + 1 != e.seq) first_unjournalled_ = e.seq;  // a spell of its own
    last_unjournalled_ = e.seq;
    ++unjournalled_;
  }
  return line;
}

bool Journal::write_out(const std::string& line) {
  // write() puts the line in the kernel before the event is published: a daemon killed at any moment
  // loses nothing it has published; fdatasync (sync_each) puts it on the disk, so a power cut does not
  // either. One fdatasync per event: a table publishes tens a second, the disk syncs hundreds
  // (docs/benchmarks.md, journal_bench).
  try {
    if (reopen_) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = -1;
      open_file(file_);  // the same name: a file deleted meanwhile is made again
      reopen_ = false;
    }
  } catch (const std::runtime_error& e) {
    failing_ = e.what();
    return false;
  }
  const std::string out = partial_ ? "\n" + line : line;
  std::size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::write(fd_, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      failing_ = file_.string() + ": write: " + std::strerror(errno);
      if (done > 0) partial_ = out[done - 1] != '\n';
      reopen_ = true;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  partial_ = false;
  size_ += out.size();
  if (limits_.sync_each && ::fdatasync(fd_) != 0) {
    failing_ = file_.string() + ": fdatasync: " + std::strerror(errno);  // written, not known to be on the disk
    reopen_ = true;
    return true;
  }
  if (size_ >= limits_.file_bytes) {
    try {
      open_new_file();
    } catch (const std::runtime_error& e) {
      failing_ = e.what();
      reopen_ = true;  // file_ names the new file: the next write tries to make it
    }
  }
  return true;
}

void Journal::flush() {
  if (fd_ >= 0) ::fdatasync(fd_);
}

std::uint64_t Journal::first_seq() const {
  for (const auto& f : journal_files(dir_)) {
    std::ifstream in(f);
    for (std::string line; std::getline(in, line);)
      if (auto s = seq_of_line(line)) return s;
  }
  return 0;
}

void Journal::replay(std::uint64_t since, const std::function<bool(const std::string&, std::uint64_t)>& visit, std::uint64_t upto) const {
  auto files = journal_files(dir_);
  // Skip files that end before `since`: the next file's name is its first seq.
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i + 1 < files.size()) {
      std::uint64_t next_first = std::strtoull(files[i + 1].filename().string().substr(8, 20).c_str(), nullptr, 10);
      if (next_first <= since) continue;
    }
    std::ifstream in(files[i]);  // fails when rotated away since the listing: those events are gone
    for (std::string line; std::getline(in, line);) {
      if (in.eof()) break;  // no newline yet: a line still being written by append()
      std::uint64_t s = seq_of_line(line);
      if (s == 0 || s < since) continue;
      if (s > upto || !visit(line, s)) return;
    }
  }
}

}  // namespace cardtable::protocol
