// Requests that read a journal (replay, replay-live, snapshot, evidence) are answered by this thread, not
// by the event loop: a flood of them (10,000 `replay since 1`, issue 8) no longer holds up the devices, the
// table or the publisher. The loop hands in a job -- the client's envelope and a function that reads the
// journal up to a seq the loop had already written -- and takes the finished replies back when fd() is
// readable, sending them itself (the control socket is the loop's alone). Outstanding reads are bounded:
// per client (its routing id) and in all; the excess is refused at once with an error naming the bound.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace cardtable::daemon {

class JournalReader {
 public:
  static constexpr std::size_t kPerClient = 4;  // journal reads one client may have outstanding
  static constexpr std::size_t kInAll = 64;     // and all clients together (a client may open many connections)

  struct Job {
    std::vector<std::string> envelope;     // the frames the reply goes back under (routing id first)
    std::function<nlohmann::json()> read;  // runs on the reader thread; reads only the journal files
  };
  struct Done {
    std::vector<std::string> envelope;
    std::string body;   // the reply's JSON text
    bool ok = false;
    std::string error;  // when !ok, for the log
  };

  JournalReader();
  ~JournalReader();  // finishes the job in hand, drops the rest, joins
  JournalReader(const JournalReader&) = delete;
  JournalReader& operator=(const JournalReader&) = delete;

  // Why a read for this client cannot be taken now (naming the bound), or nullopt.
  std::optional<std::string> refuse(const std::string& client) const;
  void submit(Job job);                // call refuse() first
  std::vector<Done> take();            // finished replies, oldest first; their clients' counts go down
  int fd() const { return fd_; }       // readable when a reply is finished
  std::size_t outstanding() const;     // jobs queued or being read
  std::uint64_t served() const;

 private:
  void work();
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  std::vector<Done> done_;
  std::map<std::string, std::size_t> per_client_;  // routing id -> outstanding (loop thread only)
  std::size_t outstanding_ = 0;                    // loop thread only
  std::uint64_t served_ = 0;
  bool stopping_ = false;
  int fd_ = -1;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace cardtable::daemon
