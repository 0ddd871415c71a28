// Cross-site request forgery: a director logged in to the console in one tab visits a hostile page in
// another, and that page sends the console a request with the director's cookie. The cookie is
// SameSite=Strict and a state-changing request must carry JSON and X-Cardtable (which no form can send
// and a cross-site fetch cannot send without a CORS preflight the console never grants); the origin check
// is the third wall, and the one that does not depend on what a browser does with cookies: a request
// that changes state (any method but GET and HEAD), and any request of the API that names an origin, is
// refused (403, logged) unless that origin is the console's own (the scheme it serves, and the host and
// port of the request's Host header) or one given with --allowed-origin (a reverse proxy's public name).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gateway.hpp"
#include "log_throttle.hpp"

namespace cardtable::console {

// "HTTPS://Console.Venue.LAN:443/" -> "https://console.venue.lan": scheme and host without case, the
// scheme's default port dropped. nullopt (and why in error) for anything that is not scheme://host[:port].
std::optional<std::string> normalize_origin(std::string_view text, std::string& error);
// What a log line or a refusal shows of a header a client chose: printable, and not too long.
std::string shown_header(std::string_view value);
// "cardtable-console: refused POST /api/login from 10.0.0.9 (STATUS_AND_GUESS): WHY", at most once in 10 s
// through `log`, which counts the rest.
void log_refused_request(LogThrottle& log, const Request& req, const std::string& client,
                         const std::string& status_and_guess, const std::string& why);

class OriginCheck {
 public:
  // allowed: origins as an operator writes them (--allowed-origin); throws std::invalid_argument naming a bad one.
  explicit OriginCheck(const std::vector<std::string>& allowed = {});
  // Why the request is refused, or nullopt when it may go on. tls: the scheme this listener serves.
  std::optional<std::string> refusal(const Request& req, bool tls) const;
  // Logs a refusal (at most one line in 10 s, then how many were not logged): a hostile page sending
  // requests in a loop must not fill the log.
  void log_refusal(const Request& req, const std::string& client, const std::string& why);
  // The count of refusals not logged one by one, once their 10 s are over (at once when closing).
  void say_held_refusals(bool closing) { log_.say_overdue(closing); }
  const std::vector<std::string>& allowed() const { return allowed_; }

 private:
  std::vector<std::string> allowed_;
  LogThrottle log_{"refused for their origin"};
};

}  // namespace cardtable::console
