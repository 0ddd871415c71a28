// Endpoints as cardtabled and cardtable-hub take them, and the one rule for plain text that both apply:
// unencrypted tcp only when asked for, and only when every host the endpoint names (ZeroMQ's
// "SOURCE;HOST:PORT" source address included) is a loopback address; names are resolved, and each
// address they resolve to must be loopback. ipc and inproc never leave the machine.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cardtable::protocol {

struct Endpoint {
  bool bind = true;     // "bind:" (the default) or "connect:" (to a venue hub)
  std::string address;  // "tcp://127.0.0.1:5551", "ipc:///run/cardtable/events"
  std::string str() const { return (bind ? "bind:" : "connect:") + address; }
};

// One host of a tcp endpoint: "127.0.0.1", "[::1]", "localhost", "*", "lo" (an interface, on bind).
struct TcpAddress {
  std::string host;
  std::string port;  // digits, or "*" (an ephemeral port, on bind); empty for a source without a port
};

// The parts of a tcp endpoint: tcp://[SOURCE;]HOST:PORT.
struct TcpParts {
  std::optional<TcpAddress> source;
  TcpAddress target;
};

// "[bind:|connect:]tcp://HOST:PORT", "tcp://SOURCE;HOST:PORT", "ipc://PATH" or "inproc://NAME"; nullopt
// with the reason in `error`.
std::optional<Endpoint> parse_endpoint(const std::string& text, std::string& error);
// The hosts of "tcp://..." (without the bind:/connect: prefix); nullopt with the reason.
std::optional<TcpParts> parse_tcp(const std::string& address, std::string& error);
// True when `host` is, or resolves only to, loopback addresses ("lo" counts: the loopback interface).
bool is_loopback_host(const std::string& host);
// Why this endpoint may not be used (nullopt: it may): plain text needs `plaintext` and loopback or ipc;
// with CURVE any endpoint may be used.
std::optional<std::string> check_endpoint_security(const Endpoint& e, bool plaintext, bool curve);
// Why two of one program's endpoints, given with their option names, may not be used together (nullopt:
// they may): no two may name the same address. With ipc the second bind silently takes the socket file
// from the first, so one of them would be dead with no error at all. A tcp port "*" (any free one) is
// a different port each time, so it never clashes.
std::optional<std::string> check_distinct_endpoints(const std::vector<std::pair<std::string, Endpoint>>& named);
// Why an ipc endpoint to bind may not be used (nullopt: it may): a program is listening on its socket
// file. ZeroMQ's bind unlinks the file and takes the path, so a second daemon or hub started with the
// same path cut the first off from every new connection, without a word on either side.
std::optional<std::string> check_ipc_free(const Endpoint& e);

}  // namespace cardtable::protocol
