#include "request_origin.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <stdexcept>

namespace cardtable::console {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// scheme://host[:port], followed by a path only where path_allowed (a Referer is a whole URL).
std::optional<std::string> parse(std::string_view text, bool path_allowed, std::string& error) {
  const auto sep = text.find("://");
  if (sep == std::string_view::npos) {
    error = "expected SCHEME://HOST[:PORT]";
    return std::nullopt;
  }
  const std::string scheme = lower(text.substr(0, sep));
  if (scheme != "http" && scheme != "https") {
    error = "the scheme is http or https";
    return std::nullopt;
  }
  std::string_view rest = text.substr(sep + 3);
  const auto end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  if (end != std::string_view::npos && !path_allowed && rest.substr(end) != "/") {
    error = "an origin has no path";
    return std::nullopt;
  }
  if (authority.find('@') != std::string_view::npos) {
    error = "an origin has no user name";
    return std::nullopt;
  }
  std::string_view host = authority, port;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) {
      error = "an IPv6 address without its ']'";
      return std::nullopt;
    }
    host = authority.substr(0, close + 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') {
        error = "expected ':' and the port after ']'";
        return std::nullopt;
      }
      port = after.substr(1);
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty() || host == "[]" || host.find_first_of(host.starts_with('[') ? " \t" : " \t:") != std::string_view::npos) {
    error = "no host";
    return std::nullopt;
  }
  if (!port.empty() && (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
                        std::stoul(std::string(port)) > 65535)) {
    error = "the port is a number to 65535";
    return std::nullopt;
  }
  std::string out = scheme + "://" + lower(host);
  // The scheme's own port is the same origin whether or not the browser writes it.
  const std::string p = port.empty() ? "" : std::to_string(std::stoul(std::string(port)));
  if (!p.empty() && !(scheme == "http" && p == "80") && !(scheme == "https" && p == "443")) out += ":" + p;
  return out;
}

}  // namespace

std::string shown_header(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 200)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  if (s.size() > 200) out += "...";
  return out;
}

std::optional<std::string> normalize_origin(std::string_view text, std::string& error) { return parse(text, false, error); }

OriginCheck::OriginCheck(const std::vector<std::string>& allowed) {
  for (const auto& a : allowed) {
    std::string error;
    auto o = normalize_origin(a, error);
    if (!o) throw std::invalid_argument("--allowed-origin " + a + ": " + error + " (e.g. https://console.venue.lan:8443)");
    allowed_.push_back(*o);
  }
}

std::optional<std::string> OriginCheck::refusal(const Request& req, bool tls) const {
  const bool changes_state = req.method() != http::verb::get && req.method() != http::verb::head;
  const bool api = std::string_view(req.target().data(), req.target().size()).starts_with("/api/");
  const bool has_origin = req.count(http::field::origin) > 0;
  // The page and its scripts are public; what it reads and does is behind /api/. A browser names the
  // origin of a cross-site fetch or EventSource even for a GET; a same-origin GET names none.
  if (!changes_state && !(api && has_origin)) return std::nullopt;
  std::string own, error;
  if (req.count(http::field::host) == 1)
    own = parse(std::string(tls ? "https://" : "http://") + std::string(req[http::field::host]), false, error).value_or("");
  auto ours = [&](const std::string& o) { return (!own.empty() && o == own) || std::ranges::find(allowed_, o) != allowed_.end(); };
  const std::string expected = " is not this console's (" + (own.empty() ? std::string("no Host header") : own) +
                               (allowed_.empty() ? std::string("; --allowed-origin adds others)") : " or an --allowed-origin)");
  if (has_origin) {
    if (req.count(http::field::origin) > 1) return "more than one Origin header";
    const std::string value(req[http::field::origin]);
    // "null" (a sandboxed frame, a data: or file: page) is what a hostile page can make itself into.
    auto o = parse(value, false, error);
    if (o && ours(*o)) return std::nullopt;
    return "Origin " + shown_header(value) + expected;
  }
  // Without Origin (an older browser, or a client that is not a browser): the Referer, when there is one.
  if (req.count(http::field::referer) > 0) {
    const std::string value(req[http::field::referer]);
    auto o = parse(value, true, error);
    if (o && ours(*o)) return std::nullopt;
    return "Referer " + shown_header(value) + expected;
  }
  // Neither: not a browser (curl, a script on the director's machine). Every browser that sends a
  // cross-site POST names its origin, and such a client has no director's cookie unless given one.
  return std::nullopt;
}

void log_refused_request(LogThrottle& log, const Request& req, const std::string& client, const std::string& status_and_guess,
                         const std::string& why) {
  auto tail = log.due();
  if (!tail) return;
  std::cerr << "cardtable-console: refused " << req.method_string() << " " << shown_header(std::string_view(req.target().data(), req.target().size()))
            << " from " << client << " (" << status_and_guess << "): " << why << *tail << std::endl;
}

void OriginCheck::log_refusal(const Request& req, const std::string& client, const std::string& why) {
  log_refused_request(log_, req, client, "403, a request from another site?", why);
}

}  // namespace cardtable::console
