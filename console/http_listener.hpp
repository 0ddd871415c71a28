// Accepts browser connections (plain HTTP on loopback, HTTPS with the configured certificate) and runs
// each as a Boost.Beast session: bounded request heads and bodies, read and write timeouts, a cap on
// connections, and an event stream that drops a page which stops reading.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <optional>

#include "connection_count.hpp"
#include "gateway.hpp"
#include "log_throttle.hpp"
#include "request_host.hpp"
#include "request_origin.hpp"
#include "waiting_connections.hpp"

namespace cardtable::console {

class HttpListener : public std::enable_shared_from_this<HttpListener> {
 public:
  // tls: a context holding the certificate and key, or nullptr for plain HTTP. hosts: the names a request
  // may be addressed to; origins: which sites may send a state-changing request (both checked before the
  // gateway sees it). Throws on a bind failure.
  HttpListener(boost::asio::io_context& io, boost::asio::ip::tcp::endpoint at, Gateway& gateway, boost::asio::ssl::context* tls,
               HostCheck& hosts, OriginCheck& origins);
  void start();
  // The count of connections refused and not logged one by one, once their 10 s are over (at once when
  // closing).
  void say_held_refusals(bool closing) {
    refusals_log_.say_overdue(closing);
    room_log_.say_overdue(closing);
  }
  boost::asio::ip::tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
  // The connections open now (what --max-connections is checked against), and from one client address.
  std::size_t open_connections() const { return connections_.total(); }
  std::size_t open_connections_from(const std::string& address) const { return connections_.from(address); }

 private:
  void accept();
  // All --max-connections open: closes the connection that has waited longest for its request (503 if it
  // had sent part of one), for a newcomer; false when none waits (every one is a page or being answered).
  bool make_room();
  // A newcomer over a cap: told why (plain HTTP) and closed; the log says so, at most once in 10 s.
  void refuse(boost::asio::ip::tcp::socket& socket, const std::string& why);
  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  Gateway& gateway_;
  boost::asio::ssl::context* tls_;
  HostCheck& hosts_;
  OriginCheck& origins_;
  ConnectionCount connections_;
  WaitingConnections waiting_;
  LogThrottle refusals_log_{"connections refused"};
  LogThrottle room_log_{"connections closed to make room"};
};

}  // namespace cardtable::console
