// The CURVE side of cardtabled and cardtable-hub: the allowed client keys, read from a clients folder
// (one sub-folder per role, a .pub file per key), and the ZAP handler (RFC 27) that admits or refuses
// each handshake. Who may enter which ZAP domain is the owner's policy; the User-Id the policy returns is
// what the owner later reads from each message ("director", "table:5").
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <zmq.hpp>

namespace cardtable::protocol {

struct ClientKey {
  std::string role;  // the folder the key sits in: director, broadcaster, hub, table
  std::string name;  // the file's stem: table keys are named after the table they speak for
};

// Every key of DIR/ROLE/*.pub for each role given; throws std::runtime_error naming the file and the
// reason (an unreadable or malformed key is an error, not a key quietly left out).
std::map<std::string, ClientKey> read_client_keys(const std::filesystem::path& dir, const std::vector<std::string>& roles);

class ZapAuthenticator {
 public:
  // nullopt: refused; otherwise the User-Id that the messages of this client carry.
  using Policy = std::function<std::optional<std::string>(std::string_view domain, const ClientKey& key)>;
  // Binds inproc://zeromq.zap.01 in `context`: call before the first CURVE socket binds or connects.
  ZapAuthenticator(zmq::context_t& context, std::map<std::string, ClientKey> keys, Policy policy);

  zmq::socket_t& socket() { return socket_; }  // poll it; call handle() when readable
  void handle();                               // answers every pending request
  std::uint64_t refused() const { return refused_; }
  std::size_t size() const { return keys_.size(); }
  // Why the latest refusals happened, for the owner's log (cleared when read).
  std::vector<std::string> take_refusals();

 private:
  zmq::socket_t socket_;
  std::map<std::string, ClientKey> keys_;  // Z85 public key -> who
  Policy policy_;
  std::uint64_t refused_ = 0;
  std::vector<std::string> refusals_;
};

}  // namespace cardtable::protocol
