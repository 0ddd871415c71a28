// The browser connections the console holds, in all and by client address: what --max-connections and
// --max-connections-per-address are checked against. A connection counts from its admission until its
// socket is closed, not until its session object goes: that waits for the closed socket's cancelled
// handlers to run, and a connection closed to make room for a newcomer stayed counted beside it, so a
// burst of newcomers (each closing one and adding one before any handler ran) took the count past
// --max-connections, and its address's count past its own cap. One I/O thread: no locking.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>

namespace cardtable::console {

class ConnectionCount {
  struct Counts {
    std::size_t total = 0;
    std::map<std::string, std::size_t> by_address;
  };

 public:
  // One connection's place in the count: given back by release() (its socket closed) or, at the latest,
  // when it is destroyed. It keeps the counts alive: a session may outlive the listener when the process
  // stops (its pending handler goes with the io_context).
  class Admission {
   public:
    Admission() = default;
    Admission(Admission&& other) noexcept : counts_(std::move(other.counts_)), address_(std::move(other.address_)) {}
    Admission& operator=(Admission&& other) noexcept {
      if (this != &other) {
        release();
        counts_ = std::move(other.counts_);
        address_ = std::move(other.address_);
      }
      return *this;
    }
    Admission(const Admission&) = delete;
    Admission& operator=(const Admission&) = delete;
    ~Admission() { release(); }

    // Once: a second call, or the destructor after it, gives back nothing more.
    void release() {
      if (!counts_) return;
      --counts_->total;
      if (auto it = counts_->by_address.find(address_); it != counts_->by_address.end() && --it->second == 0) counts_->by_address.erase(it);
      counts_.reset();
    }

   private:
    friend class ConnectionCount;
    Admission(std::shared_ptr<Counts> counts, std::string address) : counts_(std::move(counts)), address_(std::move(address)) {
      ++counts_->total;
      ++counts_->by_address[address_];
    }
    std::shared_ptr<Counts> counts_;  // null once released
    std::string address_;
  };

  [[nodiscard]] Admission admit(const std::string& address) { return Admission(counts_, address); }
  std::size_t total() const { return counts_->total; }
  std::size_t from(const std::string& address) const {
    auto it = counts_->by_address.find(address);
    return it == counts_->by_address.end() ? 0 : it->second;
  }

 private:
  std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
};

}  // namespace cardtable::console
