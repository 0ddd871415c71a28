// DNS rebinding: a hostile site points its own name at the console's address (127.0.0.1, or the venue
// PC's), and its page, loaded from that name, then talks to the console as its own origin: the Origin
// and the Host agree (both the hostile name), so the origin check passes, and the page can read the
// console's public page and burn the logins' failed-attempt limits. The browser always sends the name it
// resolved as Host: the console answers only a Host that names it (421 Misdirected Request otherwise,
// and a log line naming the Host): the address it listens on (any address literal on 0.0.0.0 or ::),
// localhost and the loopback addresses on a loopback listener, and the host of each --allowed-origin.
// An address literal cannot be rebound (no name is resolved); the Host's port is not compared (a port
// forward or a reverse proxy may change it, and rebinding is about the name).
#pragma once

#include <boost/asio/ip/address.hpp>

#include <optional>
#include <string>
#include <vector>

#include "gateway.hpp"
#include "log_throttle.hpp"

namespace cardtable::console {

class HostCheck {
 public:
  // listening: the address of --listen; allowed_origins: --allowed-origin, normalized (OriginCheck::allowed()).
  HostCheck(boost::asio::ip::address listening, const std::vector<std::string>& allowed_origins);
  // Why the request is refused (its Host names another site, or none), or nullopt when it may go on.
  std::optional<std::string> refusal(const Request& req) const;
  // At most one line in 10 s, then how many were not logged: a rebinding page may send in a loop.
  void log_refusal(const Request& req, const std::string& client, const std::string& why);
  // The count of refusals not logged one by one, once their 10 s are over (at once when closing).
  void say_held_refusals(bool closing) { log_.say_overdue(closing); }
  // What the console answers to, for --help's reader and the refusal: "127.0.0.1, localhost, ...".
  std::string accepted() const;

 private:
  bool names_us(const std::string& host) const;
  boost::asio::ip::address listening_;
  std::vector<std::string> allowed_hosts_;  // lower case, an IPv6 address in []
  LogThrottle log_{"refused for their Host"};
};

}  // namespace cardtable::console
