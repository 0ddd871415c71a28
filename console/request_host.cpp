#include "request_host.hpp"

#include <algorithm>

#include "request_origin.hpp"

namespace cardtable::console {

namespace {

// "Console.Venue.LAN:8443" -> "console.venue.lan", "[::1]:80" -> "[::1]"; nullopt for what is no host[:port].
std::optional<std::string> host_of(std::string_view authority) {
  std::string error;
  auto origin = normalize_origin("http://" + std::string(authority), error);  // the same parsing as an Origin's
  if (!origin) return std::nullopt;
  std::string host = origin->substr(std::string_view("http://").size());
  const auto colon = host.rfind(':');
  if (colon != std::string::npos && host.find(']', colon) == std::string::npos) host.resize(colon);
  return host;
}

std::optional<boost::asio::ip::address> address_of(std::string host) {
  if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
  boost::system::error_code ec;
  auto a = boost::asio::ip::make_address(host, ec);
  if (ec) return std::nullopt;
  return a;
}

}  // namespace

HostCheck::HostCheck(boost::asio::ip::address listening, const std::vector<std::string>& allowed_origins) : listening_(listening) {
  for (const auto& o : allowed_origins) {
    const auto sep = o.find("://");
    if (auto h = host_of(sep == std::string::npos ? o : o.substr(sep + 3)); h && std::ranges::find(allowed_hosts_, *h) == allowed_hosts_.end())
      allowed_hosts_.push_back(*h);
  }
}

bool HostCheck::names_us(const std::string& host) const {
  if (std::ranges::find(allowed_hosts_, host) != allowed_hosts_.end()) return true;
  if (auto a = address_of(host)) {
    if (listening_.is_unspecified()) return true;  // every address of the machine: none is a resolved name
    return *a == listening_ || (listening_.is_loopback() && a->is_loopback());
  }
  // The browser resolves localhost to loopback itself (RFC 6761): no DNS answer can stand behind it.
  return host == "localhost" && (listening_.is_loopback() || listening_.is_unspecified());
}

std::optional<std::string> HostCheck::refusal(const Request& req) const {
  if (req.count(http::field::host) != 1)
    return req.count(http::field::host) ? "more than one Host header" : "no Host header (the console answers to " + accepted() + ")";
  const std::string value(req[http::field::host]);
  if (auto h = host_of(value); h && names_us(*h)) return std::nullopt;
  return "Host " + shown_header(value) + " does not name this console (it answers to " + accepted() +
         "; --allowed-origin adds a name the browsers use)";
}

std::string HostCheck::accepted() const {
  std::string out = listening_.is_unspecified() ? std::string("any address of this machine")
                                                : listening_.is_v6() ? "[" + listening_.to_string() + "]" : listening_.to_string();
  if (listening_.is_loopback() || listening_.is_unspecified()) out += ", localhost";
  if (listening_.is_loopback()) out += " and the other loopback addresses";
  for (const auto& h : allowed_hosts_) out += ", " + h;
  return out;
}

void HostCheck::log_refusal(const Request& req, const std::string& client, const std::string& why) {
  log_refused_request(log_, req, client, "421, a page of another site resolved to this address: DNS rebinding?", why);
}

}  // namespace cardtable::console
