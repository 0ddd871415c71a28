#include "daemon/journal_reader.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "protocol/control.hpp"

namespace cardtable::daemon {
using nlohmann::json;

JournalReader::JournalReader() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (fd_ < 0) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  thread_ = std::thread([this] { work(); });
}

JournalReader::~JournalReader() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  ::close(fd_);
}

std::optional<std::string> JournalReader::refuse(const std::string& client) const {
  auto it = per_client_.find(client);
  if (it != per_client_.end() && it->second >= kPerClient)
    return "this client already has " + std::to_string(kPerClient) +
           " journal reads (replay, replay-live, snapshot, evidence) waiting for their replies, the most one client may have; "
           "ask again when one has come";
  if (outstanding_ >= kInAll)
    return "the daemon is already serving " + std::to_string(kInAll) + " journal reads, the most it takes at once; ask again shortly";
  return std::nullopt;
}

void JournalReader::submit(Job job) {
  ++per_client_[job.envelope.empty() ? std::string() : job.envelope.front()];
  ++outstanding_;
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

std::vector<JournalReader::Done> JournalReader::take() {
  std::uint64_t n;
  (void)!::read(fd_, &n, sizeof n);
  std::vector<Done> out;
  {
    std::lock_guard lock(mutex_);
    out.swap(done_);
  }
  for (const Done& d : out) {
    auto it = per_client_.find(d.envelope.empty() ? std::string() : d.envelope.front());
    if (it != per_client_.end() && --it->second == 0) per_client_.erase(it);
    --outstanding_;
  }
  return out;
}

std::size_t JournalReader::outstanding() const { return outstanding_; }

std::uint64_t JournalReader::served() const {
  std::lock_guard lock(mutex_);
  return served_;
}

void JournalReader::work() {
  while (true) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    Done d;
    d.envelope = std::move(job.envelope);
    json reply;
    try {
      reply = job.read();
    } catch (const std::exception& e) {
      reply = protocol::error_reply(std::string("reading the journal failed: ") + e.what());
    } catch (...) {
      reply = protocol::error_reply("reading the journal failed");
    }
    try {
      d.ok = reply.value("ok", false);
      if (!d.ok) d.error = reply.value("error", std::string());
      d.body = reply.dump(-1, ' ', false, json::error_handler_t::replace);
    } catch (...) {
      d.ok = false;
      d.body = R"({"ok":false,"error":"the reply could not be written"})";
    }
    {
      std::lock_guard lock(mutex_);
      done_.push_back(std::move(d));
      ++served_;
    }
    std::uint64_t one = 1;
    (void)!::write(fd_, &one, sizeof one);
  }
}

}  // namespace cardtable::daemon
