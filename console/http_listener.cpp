#include "http_listener.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/ssl.hpp>

#include <deque>
#include <iostream>

namespace cardtable::console {
namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

bool is_parse_error(const beast::error_code& ec) {
  return &ec.category() == &http::make_error_code(http::error::bad_target).category();
}

// One browser connection. Stream is beast::tcp_stream or beast::ssl_stream<beast::tcp_stream>.
template <class Stream>
class HttpSession : public Responder, public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(Stream stream, Gateway& gateway, HostCheck& hosts, OriginCheck& origins, WaitingConnections& waiting, std::string client,
              ConnectionCount::Admission admission)
      : stream_(std::move(stream)), gateway_(gateway), hosts_(hosts), origins_(origins), waiting_(waiting), admission_(std::move(admission)),
        client_(std::move(client)), request_deadline_(stream_.get_executor()) {}
  // Touches nothing of the gateway: the stream list holds weak pointers and forgets expired ones; the
  // admission, if not given back on close, goes with the session.
  ~HttpSession() override = default;

  void run() {
    wait_for_request();  // a handshake not finished holds a connection as a request not sent does
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(gateway_.limits().read_timeout);
      // A director who typed http:// got the connection closed without a word ("empty response"): a
      // request in plain text is told to use https://; the TLS handshake goes on from the bytes read.
      beast::async_detect_ssl(beast::get_lowest_layer(stream_), buffer_, [self = this->shared_from_this()](beast::error_code ec, bool tls) {
        if (ec) return self->close();
        if (!tls) return self->refuse_plain_http();
        self->stream_.async_handshake(net::ssl::stream_base::server, self->buffer_.data(),
                                      [self](beast::error_code handshake, std::size_t used) {
                                        if (handshake) return self->close();
                                        self->buffer_.consume(used);
                                        self->read_request();
                                      });
      });
    } else {
      read_request();
    }
  }

  void respond(Response response) override {
    Gateway::secure_headers(response, kTls);
    auto res = std::make_shared<Response>(std::move(response));
    beast::get_lowest_layer(stream_).expires_after(gateway_.limits().write_timeout);
    http::async_write(stream_, *res, [self = this->shared_from_this(), res](beast::error_code ec, std::size_t) {
      if (ec || !res->keep_alive()) return self->close();
      self->read_request();
    });
  }

  void start_stream(const std::string& role, std::string first) override {
    // Server-Sent Events: a response without a length that lasts as long as the page is open.
    Response head{http::status::ok, 11};
    Gateway::secure_headers(head, kTls);
    std::string text = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\n"
                       "X-Accel-Buffering: no\r\nConnection: close\r\n";
    for (const auto& f : head) text += std::string(f.name_string()) + ": " + std::string(f.value()) + "\r\n";
    text += "\r\n" + first;
    streaming_ = true;
    beast::get_lowest_layer(stream_).expires_never();
    gateway_.stream_opened(this->shared_from_this(), role);
    push(std::make_shared<const std::string>(std::move(text)));
    watch_for_close();
  }

  void push(const std::shared_ptr<const std::string>& message) override {
    if (closed_) return;
    auto now = std::chrono::steady_clock::now();
    // A page that stops reading (a sleeping tablet, a stalled network) is dropped rather than buffered
    // without end; EventSource reconnects and gets a fresh snapshot.
    if (backlog_ + message->size() > gateway_.limits().max_stream_backlog ||
        (writing_ && now - write_started_ > gateway_.limits().write_timeout))
      return close();
    out_.push_back(message);
    backlog_ += message->size();
    if (!writing_) write_next();
  }

  void end_stream() override { close(); }
  const std::string& client_address() const override { return client_; }
  bool secure() const override { return kTls; }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  void read_request() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(gateway_.limits().max_header_bytes));
    parser_->body_limit(gateway_.limits().max_body_bytes);
    wait_for_request();
    // The deadline is the session's own timer, not the stream's: the stream's expiry closes the socket
    // before anything can be said, and a client on a bad link is owed a 408 saying why (RFC 9110 15.5.9).
    // The connection is closed at the same deadline as before (slowloris).
    beast::get_lowest_layer(stream_).expires_never();
    request_deadline_.expires_after(gateway_.limits().read_timeout);
    // A deadline that had passed as the request arrived is not this request's.
    request_deadline_.async_wait([self = this->shared_from_this(), read = ++reads_](beast::error_code ec) {
      if (ec || !self->waiting_ticket_ || read != self->reads_) return;
      self->give_up_on_request(http::status::request_timeout,
                               "the request did not arrive whole within " + std::to_string(self->gateway_.limits().read_timeout.count()) + " s");
    });
    http::async_read(stream_, buffer_, *parser_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      self->on_request(ec);
    });
  }

  // In the listener's list of connections a newcomer may close when every connection is taken.
  void wait_for_request() {
    if (waiting_ticket_) return;
    waiting_ticket_ = waiting_.add([weak = this->weak_from_this()] {
      auto self = weak.lock();
      if (!self || self->closed_) return false;
      self->give_up_on_request(http::status::service_unavailable,
                               "the console is full (--max-connections " + std::to_string(self->gateway_.limits().max_connections) +
                                   "): this connection had waited longest for its request and was closed to make room");
      return true;
    });
  }
  void stop_waiting() {
    if (waiting_ticket_) waiting_.remove(*waiting_ticket_);
    waiting_ticket_.reset();
    request_deadline_.cancel();
  }

  // The request is not read to its end (its deadline passed, or the connection makes room): a client that
  // sent part of one is told why, at once and without waiting on it (a fresh response on a socket with
  // nothing else unsent goes out whole, and a client that does not read loses it), then the connection
  // closes. One that sent nothing of it (an idle keep-alive, a handshake) is closed without a word, as
  // HTTP servers do: a response there could be taken for the answer to a request crossing it.
  void give_up_on_request(http::status status, const std::string& why) {
    if (closed_) return;
    if (parser_ && (parser_->got_some() || buffer_.size() > 0)) {
      Response r = refusal(status, why);
      Gateway::secure_headers(r, kTls);
      beast::error_code ignored;
      beast::get_lowest_layer(stream_).socket().non_blocking(true, ignored);
      http::write(stream_, r, ignored);
    }
    close();
  }

  void on_request(beast::error_code ec) {
    if (closed_) return;  // its deadline, or room for a newcomer, closed it
    stop_waiting();
    if (ec == http::error::header_limit) return refuse(http::status::request_header_fields_too_large, "the request head is too large");
    if (ec == http::error::body_limit) return refuse(http::status::payload_too_large, "the request body is too large");
    if (ec && is_parse_error(ec) && ec != http::error::end_of_stream && ec != http::error::partial_message)
      return refuse(http::status::bad_request, "malformed request: " + ec.message());
    if (ec) return close();  // closed, timed out, reset
    Request req = parser_->release();
    // First: a Host that is not the console's is a page of another site whose name resolves here (DNS
    // rebinding); its Origin would be that name too, and pass the check below.
    if (auto why = hosts_.refusal(req)) {
      hosts_.log_refusal(req, client_, *why);
      return refuse(http::status::misdirected_request, *why);
    }
    // Before the gateway: a request another site's page sent with the director's cookie changes nothing.
    if (auto why = origins_.refusal(req, kTls)) {
      origins_.log_refusal(req, client_, *why);
      return refuse(http::status::forbidden, *why);
    }
    gateway_.route(std::move(req), this->shared_from_this());
  }

  void refuse(http::status status, const std::string& why) { respond(refusal(status, why)); }

  static Response refusal(http::status status, const std::string& why) {
    Response r{status, 11};
    r.set(http::field::content_type, "application/json");
    r.body() = nlohmann::json({{"error", why}}).dump();
    r.keep_alive(false);
    r.prepare_payload();
    return r;
  }

  // Written on the TCP stream below TLS; it never reads the request, whose Host is not checked yet.
  void refuse_plain_http() {
    const std::string body = nlohmann::json({{"error", "this console speaks HTTPS only: open the same address with https://"}}).dump();
    auto text = std::make_shared<const std::string>("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                                    "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    beast::get_lowest_layer(stream_).expires_after(gateway_.limits().write_timeout);
    net::async_write(beast::get_lowest_layer(stream_), net::buffer(*text), [self = this->shared_from_this(), text](beast::error_code, std::size_t) {
      self->close();
    });
  }

  void write_next() {
    writing_ = true;
    write_started_ = std::chrono::steady_clock::now();
    // Everything queued goes in one write: a busy venue costs one syscall per batch, not per event.
    std::vector<net::const_buffer> buffers;
    auto batch = std::make_shared<std::vector<std::shared_ptr<const std::string>>>(out_.begin(), out_.end());
    out_.clear();
    for (const auto& m : *batch) buffers.emplace_back(m->data(), m->size());
    net::async_write(stream_, buffers, [self = this->shared_from_this(), batch](beast::error_code ec, std::size_t n) {
      self->backlog_ -= n;
      self->writing_ = false;
      if (ec) return self->close();
      if (!self->out_.empty()) self->write_next();
    });
  }

  void watch_for_close() {
    // The page sends nothing on a stream; a read that completes means it went away.
    stream_.async_read_some(net::buffer(sink_), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->close();
      self->watch_for_close();
    });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    // Off the count with its socket, not when the session goes (after its cancelled handlers have run): a
    // newcomer it made room for is counted at once, and a burst of them kept the closed ones counted too.
    admission_.release();
    stop_waiting();
    if (streaming_) gateway_.stream_closed(this);
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(stream_).close();
  }

  Stream stream_;
  Gateway& gateway_;
  HostCheck& hosts_;
  OriginCheck& origins_;
  WaitingConnections& waiting_;  // touched by handlers only: the listener outlives them, not the destructor
  ConnectionCount::Admission admission_;
  std::string client_;
  net::steady_timer request_deadline_;
  std::optional<WaitingConnections::Ticket> waiting_ticket_;  // while it waits for a request
  std::uint64_t reads_ = 0;  // requests read so far, and the one being read
  beast::flat_buffer buffer_{8192};
  std::optional<http::request_parser<http::string_body>> parser_;
  bool streaming_ = false, writing_ = false, closed_ = false;
  std::deque<std::shared_ptr<const std::string>> out_;
  std::size_t backlog_ = 0;
  std::chrono::steady_clock::time_point write_started_;
  std::array<char, 512> sink_{};
};

}  // namespace

HttpListener::HttpListener(net::io_context& io, tcp::endpoint at, Gateway& gateway, net::ssl::context* tls, HostCheck& hosts,
                           OriginCheck& origins)
    : io_(io), acceptor_(io), gateway_(gateway), tls_(tls), hosts_(hosts), origins_(origins) {
  acceptor_.open(at.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(at);
  acceptor_.listen(net::socket_base::max_listen_connections);
}

void HttpListener::start() { accept(); }

void HttpListener::accept() {
  acceptor_.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
    if (ec) {
      // EMFILE under a flood: wait a moment rather than spin; the listener itself never stops.
      auto timer = std::make_shared<net::steady_timer>(self->io_, std::chrono::milliseconds(50));
      timer->async_wait([self, timer](beast::error_code) { self->accept(); });
      return;
    }
    beast::error_code ignored;
    std::string client = socket.remote_endpoint(ignored).address().to_string();
    const auto& limits = self->gateway_.limits();
    if (self->connections_.from(client) >= limits.max_connections_per_address) {
      self->refuse(socket, "too many connections from " + client + " (--max-connections-per-address " +
                               std::to_string(limits.max_connections_per_address) + ")");
    } else if (self->connections_.total() >= limits.max_connections && !self->make_room()) {
      // Every connection is an open page or a request being answered: the newcomer goes, they stay.
      self->refuse(socket, "too many connections (--max-connections " + std::to_string(limits.max_connections) + ")");
    } else {
      socket.set_option(tcp::no_delay(true), ignored);
      if (self->tls_) {
        std::make_shared<HttpSession<beast::ssl_stream<beast::tcp_stream>>>(
            beast::ssl_stream<beast::tcp_stream>(beast::tcp_stream(std::move(socket)), *self->tls_), self->gateway_, self->hosts_, self->origins_,
            self->waiting_, client, self->connections_.admit(client))
            ->run();
      } else {
        std::make_shared<HttpSession<beast::tcp_stream>>(beast::tcp_stream(std::move(socket)), self->gateway_, self->hosts_, self->origins_,
                                                         self->waiting_, client, self->connections_.admit(client))
            ->run();
      }
    }
    self->accept();
  });
}

bool HttpListener::make_room() {
  if (!waiting_.close_longest_waiting()) return false;
  if (auto tail = room_log_.due())
    std::cerr << "cardtable-console: all " << gateway_.limits().max_connections << " connections (--max-connections) are open: the one "
              << "waiting longest for its request was closed to make room for a newcomer" << *tail << std::endl;
  return true;
}

void HttpListener::refuse(tcp::socket& socket, const std::string& why) {
  beast::error_code ignored;
  if (!tls_) {
    // A fresh socket's send buffer is empty: a short answer goes out without waiting, and never blocks.
    const std::string body = nlohmann::json({{"error", why}}).dump();
    const std::string text = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\n"
                             "Connection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    socket.non_blocking(true, ignored);
    socket.write_some(net::buffer(text), ignored);
    socket.shutdown(tcp::socket::shutdown_send, ignored);
  }
  socket.close(ignored);
  if (auto tail = refusals_log_.due()) std::cerr << "cardtable-console: refused a connection: " << why << *tail << std::endl;
}

}  // namespace cardtable::console
