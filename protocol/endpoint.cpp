#include "protocol/endpoint.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace cardtable::protocol {

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// "HOST:PORT" or "[V6]:PORT"; the port may be absent only when `port_optional` (a source address).
std::optional<TcpAddress> parse_host_port(const std::string& text, bool port_optional, std::string& error) {
  TcpAddress a;
  std::string rest;
  if (text.starts_with("[")) {
    auto close = text.find(']');
    if (close == std::string::npos) {
      error = "'" + text + "': an IPv6 address in brackets lacks its ']'";
      return std::nullopt;
    }
    a.host = text.substr(1, close - 1);
    rest = text.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(":")) {
      error = "'" + text + "': expected ':PORT' after the ']'";
      return std::nullopt;
    }
    if (!rest.empty()) a.port = rest.substr(1);
  } else {
    auto colon = text.rfind(':');
    if (colon == std::string::npos) {
      a.host = text;
    } else {
      a.host = text.substr(0, colon);
      a.port = text.substr(colon + 1);
      if (a.host.find(':') != std::string::npos) {
        error = "'" + text + "': an IPv6 address goes in brackets: [::1]:PORT";
        return std::nullopt;
      }
    }
  }
  if (a.host.empty()) {
    error = "'" + text + "': no host";
    return std::nullopt;
  }
  for (char ch : a.host) {
    auto c = static_cast<unsigned char>(ch);
    if (!std::isalnum(c) && c != '.' && c != '-' && c != '_' && c != ':' && c != '*' && c != '%') {
      error = "'" + text + "': the host has a character that no host name or address has";
      return std::nullopt;
    }
  }
  if (a.port.empty() && !port_optional) {
    error = "'" + text + "': no port (HOST:PORT, or HOST:* for an ephemeral port)";
    return std::nullopt;
  }
  if (!a.port.empty() && a.port != "*" && (!all_digits(a.port) || a.port.size() > 5 || std::stoul(a.port) > 65535)) {
    error = "'" + text + "': the port is a number from 0 to 65535 (or *)";
    return std::nullopt;
  }
  return a;
}

bool loopback(const sockaddr* sa) {
  if (sa->sa_family == AF_INET) {
    auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (sa->sa_family == AF_INET6) {
    auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) return true;
    if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) return in6->sin6_addr.s6_addr[12] == 127;
  }
  return false;
}

}  // namespace

std::optional<TcpParts> parse_tcp(const std::string& address, std::string& error) {
  if (!address.starts_with("tcp://")) {
    error = "'" + address + "': not a tcp endpoint";
    return std::nullopt;
  }
  std::string rest = address.substr(6);
  TcpParts parts;
  if (auto semi = rest.find(';'); semi != std::string::npos) {
    // ZeroMQ's source-address syntax: connect from SOURCE to HOST:PORT.
    auto source = parse_host_port(rest.substr(0, semi), true, error);
    if (!source) return std::nullopt;
    parts.source = *source;
    rest = rest.substr(semi + 1);
    if (rest.find(';') != std::string::npos) {
      error = "'" + address + "': at most one source address (SOURCE;HOST:PORT)";
      return std::nullopt;
    }
  }
  auto target = parse_host_port(rest, false, error);
  if (!target) return std::nullopt;
  parts.target = *target;
  return parts;
}

std::optional<Endpoint> parse_endpoint(const std::string& text, std::string& error) {
  Endpoint e;
  std::string rest = text;
  if (rest.starts_with("bind:")) {
    rest.erase(0, 5);
  } else if (rest.starts_with("connect:")) {
    e.bind = false;
    rest.erase(0, 8);
  }
  e.address = rest;
  if (rest.starts_with("tcp://")) {
    if (!parse_tcp(rest, error)) return std::nullopt;
    return e;
  }
  if ((rest.starts_with("ipc://") && rest.size() > 6) || (rest.starts_with("inproc://") && rest.size() > 9)) return e;
  error = "'" + text + "': expected [bind:|connect:]tcp://HOST:PORT, tcp://SOURCE;HOST:PORT or ipc://PATH";
  return std::nullopt;
}

bool is_loopback_host(const std::string& host) {
  if (host == "lo") return true;  // the loopback interface, by name (bind)
  if (host.empty() || host == "*") return false;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  // A name counts only if it resolves, and only to loopback addresses: "127.example.org" is a name.
  if (::getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) return false;
  bool all = true;
  for (addrinfo* a = found; a; a = a->ai_next) all = all && loopback(a->ai_addr);
  ::freeaddrinfo(found);
  return all;
}

std::optional<std::string> check_endpoint_security(const Endpoint& e, bool plaintext, bool curve) {
  if (curve || e.address.starts_with("ipc://") || e.address.starts_with("inproc://")) return std::nullopt;
  std::string error;
  auto parts = parse_tcp(e.address, error);
  if (!parts) return e.str() + ": " + error;
  bool local = is_loopback_host(parts->target.host) && (!parts->source || is_loopback_host(parts->source->host));
  if (!local) return e.str() + ": an address off this machine needs CURVE encryption (--curve-secret and --clients)";
  if (!plaintext) return e.str() + ": plain-text tcp needs --plaintext (allowed on loopback only)";
  return std::nullopt;
}

std::optional<std::string> check_distinct_endpoints(const std::vector<std::pair<std::string, Endpoint>>& named) {
  for (std::size_t i = 0; i < named.size(); ++i)
    for (std::size_t j = i + 1; j < named.size(); ++j) {
      const std::string& a = named[i].second.address;
      if (a != named[j].second.address || (a.starts_with("tcp://") && a.ends_with(":*"))) continue;
      return named[j].first + ": " + a + " is " + named[i].first + "'s endpoint too; each endpoint needs its own address";
    }
  return std::nullopt;
}

std::optional<std::string> check_ipc_free(const Endpoint& e) {
  if (!e.bind || !e.address.starts_with("ipc://")) return std::nullopt;
  const std::string path = e.address.substr(6);
  sockaddr_un a{};
  if (path.empty() || path.front() == '@' || path.size() >= sizeof a.sun_path) return std::nullopt;  // abstract, or too long for ZeroMQ too
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.data(), path.size());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  // A stale file (its program gone) refuses the connection: ZeroMQ may take it over.
  const bool listening = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  if (!listening) return std::nullopt;
  return e.address + ": a running program listens on it (another cardtabled or cardtable-hub?); binding would cut it off";
}

}  // namespace cardtable::protocol
