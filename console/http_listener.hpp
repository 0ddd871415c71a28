// Accepts browser connections (plain HTTP on loopback, HTTPS with the configured certificate) and runs
// each as a Boost.Beast session: bounded request heads and bodies, read and write timeouts, a cap on
// connections, and an event stream that drops a page which stops reading.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <optional>

#include "gateway.hpp"

namespace cardtable::console {

class HttpListener : public std::enable_shared_from_this<HttpListener> {
 public:
  // tls: a context holding the certificate and key, or nullptr for plain HTTP. Throws on a bind failure.
  HttpListener(boost::asio::io_context& io, boost::asio::ip::tcp::endpoint at, Gateway& gateway, boost::asio::ssl::context* tls);
  void start();
  boost::asio::ip::tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }

 private:
  void accept();
  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  Gateway& gateway_;
  boost::asio::ssl::context* tls_;
};

}  // namespace cardtable::console
