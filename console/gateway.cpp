#include "gateway.hpp"

#include "protocol/json_fields.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cctype>

#include <fstream>
#include <iostream>
#include <sstream>

namespace cardtable::console {
using json = nlohmann::json;

namespace {

double wall_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string sse(const std::string& event, const json& data) {
  return "event: " + event + "\ndata: " + data.dump(-1, ' ', false, json::error_handler_t::replace) + "\n\n";
}

// A client may send its cookies in more than one Cookie header (RFC 6265 says one, HTTP/2 gateways split
// them): each is read, the first with the name wins.
std::string cookie(const Request& req, const std::string& name) {
  for (auto [it, end_of_headers] = req.equal_range(http::field::cookie); it != end_of_headers; ++it) {
    std::string c(it->value());
    std::size_t at = 0;
    while (at < c.size()) {
      while (at < c.size() && (c[at] == ' ' || c[at] == ';')) ++at;
      auto end = c.find(';', at);
      std::string part = c.substr(at, end == std::string::npos ? std::string::npos : end - at);
      if (part.starts_with(name + "=")) return part.substr(name.size() + 1);
      at = end == std::string::npos ? c.size() : end + 1;
    }
  }
  return {};
}

// "application/json; charset=utf-8" is JSON; "text/plain; x=application/json" is not (the media type is
// what comes before the first ';', compared without case, RFC 9110 8.3.1).
bool is_json_media_type(std::string_view value) {
  value = value.substr(0, value.find(';'));
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  constexpr std::string_view json_type = "application/json";
  if (value.size() != json_type.size()) return false;
  for (std::size_t i = 0; i < value.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(value[i])) != json_type[i]) return false;
  return true;
}

// "?table=default/A/1&seq=4" -> its values (percent-decoding the few characters a table name may hold).
std::map<std::string, std::string> query(std::string_view target) {
  std::map<std::string, std::string> out;
  auto q = target.find('?');
  if (q == std::string_view::npos) return out;
  std::string s(target.substr(q + 1));
  std::stringstream in(s);
  for (std::string kv; std::getline(in, kv, '&');) {
    auto eq = kv.find('=');
    std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1), d;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '%' && i + 2 < v.size() && std::isxdigit(static_cast<unsigned char>(v[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(v[i + 2]))) {
        d += static_cast<char>(std::stoi(v.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        d += v[i] == '+' ? ' ' : v[i];
      }
    }
    out[k] = d;
  }
  return out;
}

// A reply's error text; a table's reply is outside input, so a non-string error must not throw.
std::string error_of(const json& reply) {
  auto it = reply.find("error");
  return it != reply.end() && it->is_string() ? it->get<std::string>() : std::string("no reason given");
}

// The seqs of `gap` that a replay's answer names `unreadable`, ascending: in the table's journal, their
// lines damaged on its disk (a bad block), so the daemon leaves them out of `events`
// (daemon/journal_requests.cpp). An entry that is not a seq is skipped: a reply is outside input.
std::vector<std::uint64_t> unreadable_in(const json& reply, const GapReplays::Gap& gap) {
  std::vector<std::uint64_t> seqs;
  auto u = reply.find("unreadable");
  if (u == reply.end() || !u->is_array()) return seqs;
  for (const json& s : *u)
    if (const std::uint64_t seq = protocol::positive_number(s); seq >= gap.since && seq < gap.until) seqs.push_back(seq);
  std::sort(seqs.begin(), seqs.end());
  seqs.erase(std::unique(seqs.begin(), seqs.end()), seqs.end());
  return seqs;
}

std::string_view target_of(const Request& req) { return {req.target().data(), req.target().size()}; }

std::string path_of(std::string_view target) { return std::string(target.substr(0, target.find('?'))); }

}  // namespace

Gateway::Gateway(boost::asio::io_context& io, VenueState& venue, Logins logins, TableRequests& requests,
                 std::map<std::string, Peer> table_control, std::filesystem::path www, GatewayLimits limits,
                 std::map<std::string, Peer> live_replay)
    : io_(io), venue_(venue), logins_(std::move(logins)), requests_(requests), table_control_(std::move(table_control)),
      live_replay_(std::move(live_replay)), limits_(limits),
      gap_replays_(limits.replay_retries, limits.replay_retry_wait), live_replays_(limits.replay_retries, limits.replay_retry_wait) {
  // The page is a handful of small files, read once: a request never touches the disk.
  const std::map<std::string, std::string> types = {
      {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"}};
  std::error_code ec;
  if (!std::filesystem::is_directory(www, ec))
    throw std::runtime_error("--www " + www.string() + ": no such folder (the page's index.html, console.js, console.css)");
  for (const auto& f : std::filesystem::directory_iterator(www)) {
    auto t = types.find(f.path().extension().string());
    if (!f.is_regular_file() || t == types.end()) continue;
    std::ifstream in(f.path(), std::ios::binary);
    std::stringstream body;
    body << in.rdbuf();
    files_["/" + f.path().filename().string()] = {t->second, body.str()};
  }
  if (!files_.count("/index.html")) throw std::runtime_error(www.string() + ": no index.html (give --www)");
  files_["/"] = files_["/index.html"];
}

Gateway::~Gateway() {
  // Joined, not stopped: every request queued or in flight runs to its end, at once once TableRequests
  // has stopped, so an acknowledgement accepted from a page is logged as not confirmed, never dropped.
  control_pool_.join();
}

void Gateway::secure_headers(Response& r, bool tls) {
  // No inline script or style, nothing from elsewhere, no framing: the page is all it loads.
  r.set("Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
  r.set("X-Content-Type-Options", "nosniff");
  r.set("X-Frame-Options", "DENY");
  r.set("Referrer-Policy", "no-referrer");
  r.set("Cross-Origin-Opener-Policy", "same-origin");
  r.set("Cross-Origin-Resource-Policy", "same-origin");
  r.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (tls) r.set(http::field::strict_transport_security, "max-age=31536000");
  r.set(http::field::server, "cardtable-console");
}

Response Gateway::reply(const Request& req, http::status status, json body) const {
  Response r{status, req.version()};
  r.set(http::field::content_type, "application/json");
  r.set(http::field::cache_control, "no-store");
  r.body() = body.dump(-1, ' ', false, json::error_handler_t::replace);
  r.keep_alive(req.keep_alive());
  r.prepare_payload();
  head_only(req, r);
  return r;
}

// A HEAD is answered with the headers a GET would get and no body: a body there is read by a keep-alive
// client or proxy as the start of the next response.
void Gateway::head_only(const Request& req, Response& r) {
  if (req.method() != http::verb::head) return;
  const auto length = r.body().size();
  r.body().clear();
  r.content_length(length);
}

Response Gateway::static_file(const Request& req) const {
  auto it = files_.find(path_of(target_of(req)));
  if (it == files_.end()) return reply(req, http::status::not_found, {{"error", "no such page"}});
  Response r{http::status::ok, req.version()};
  r.set(http::field::content_type, it->second.first);
  r.set(http::field::cache_control, "no-cache");
  r.body() = it->second.second;
  r.keep_alive(req.keep_alive());
  r.prepare_payload();
  head_only(req, r);  // it said Content-Length: 0 for a page of 2 kB
  return r;
}

std::optional<Session> Gateway::session_of(const Request& req) {
  std::string token = cookie(req, "ct_session");
  if (token.empty()) return std::nullopt;
  return logins_.session(token, Logins::Clock::now());
}

void Gateway::route(Request req, const std::shared_ptr<Responder>& r) {
  const std::string path = path_of(target_of(req));
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  const bool post = req.method() == http::verb::post;
  auto answer = [&](http::status s, json body) { r->respond(reply(req, s, std::move(body))); };

  if (!path.starts_with("/api/")) {
    if (!get) return answer(http::status::method_not_allowed, {{"error", "GET only"}});
    return r->respond(static_file(req));
  }
  // The API is GET and POST: a HEAD of /api/live-stream opened a whole event stream.
  if (req.method() == http::verb::head) {
    Response refused = reply(req, http::status::method_not_allowed, {{"error", "GET or POST"}});
    refused.set(http::field::allow, "GET, POST");
    return r->respond(std::move(refused));
  }
  // Every state-changing request is a POST of JSON with our header: a form on another site can send
  // neither (and the cookie is SameSite=Strict besides).
  if (post && (!is_json_media_type(std::string(req[http::field::content_type])) || req["X-Cardtable"] != "1"))
    return answer(http::status::forbidden, {{"error", "a console request carries JSON and the X-Cardtable header"}});

  if (path == "/api/login" && post) {
    json body = json::parse(req.body(), nullptr, false);
    if (!body.is_object() || !body.contains("name") || !body.contains("password") || !body["name"].is_string() ||
        !body["password"].is_string())
      return answer(http::status::bad_request, {{"error", "expected {\"name\":...,\"password\":...}"}});
    if (body["name"].get_ref<const std::string&>().size() > Logins::kLongestName)
      return answer(http::status::bad_request, {{"error", "a login name is at most " + std::to_string(Logins::kLongestName) + " bytes"}});
    // The password is checked on a hashing thread (Logins::login_async): here it froze every page.
    auto request = std::make_shared<Request>(std::move(req));
    logins_.login_async(body["name"], body["password"], r->client_address(), Logins::Clock::now(), io_,
                        [this, r, request, name = body["name"].get<std::string>()](Logins::Result result) {
      if (result.outcome == Logins::Outcome::rate_limited || result.outcome == Logins::Outcome::busy) {
        const bool busy = result.outcome == Logins::Outcome::busy;
        Response res = reply(*request, busy ? http::status::service_unavailable : http::status::too_many_requests,
                             {{"error", busy ? "the console is checking other logins; try again in a moment" : "too many failed logins; wait"},
                              {"retry_after", result.retry_after_s}});
        res.set(http::field::retry_after, std::to_string(result.retry_after_s));
        return r->respond(std::move(res));
      }
      if (result.outcome == Logins::Outcome::refused)
        return r->respond(reply(*request, http::status::unauthorized, {{"error", "wrong name or password"}}));
      Response res = reply(*request, http::status::ok, {{"role", result.role}, {"name", name}});
      res.set(http::field::set_cookie, "ct_session=" + result.token + "; Path=/; HttpOnly; SameSite=Strict" +
                                            (r->secure() ? "; Secure" : "") + "; Max-Age=43200");
      r->respond(std::move(res));
    });
    return;
  }

  auto session = session_of(req);
  if (!session) return answer(http::status::unauthorized, {{"error", "log in first"}});
  const bool director = session->role == "director", broadcaster = session->role == "broadcaster";

  if (path == "/api/logout" && post) {
    logins_.logout(cookie(req, "ct_session"));
    end_streams_without_session();  // a page still open with it (another tab, a copied cookie) stops receiving
    Response res = reply(req, http::status::ok, {{"ok", true}});
    res.set(http::field::set_cookie, "ct_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    return r->respond(std::move(res));
  }
  if (path == "/api/me" && get) return answer(http::status::ok, {{"name", session->name}, {"role", session->role}});

  double now = wall_now();
  if (path == "/api/stream" && get) {
    if (!director) return answer(http::status::forbidden, {{"error", "the venue stream is for directors"}});
    if (open_streams("director") >= limits_.max_streams) return answer(http::status::service_unavailable, {{"error", "too many open pages"}});
    return start_stream(r, "director", cookie(req, "ct_session"), sse("snapshot", venue_.director_snapshot(now)));
  }
  if (path == "/api/live-stream" && get) {
    // Hands go only to broadcasters, and only what the tables released after their embargo.
    if (!broadcaster) return answer(http::status::forbidden, {{"error", "the live stream is for broadcasters"}});
    if (open_streams("broadcaster") >= limits_.max_streams)
      return answer(http::status::service_unavailable, {{"error", "too many open pages"}});
    return start_stream(r, "broadcaster", cookie(req, "ct_session"), sse("snapshot", venue_.broadcast_snapshot()));
  }
  if (!director) return answer(http::status::forbidden, {{"error", "for directors"}});

  if (path == "/api/table" && get) {
    json detail = venue_.table_detail(query(target_of(req))["table"], now);
    if (detail.is_null()) return answer(http::status::not_found, {{"error", "no such table"}});
    return answer(http::status::ok, detail);
  }
  if (path == "/api/dismiss" && post) return dismiss_replaced(req, *session, r);
  if ((path == "/api/ack" && post) || (path == "/api/evidence" && get)) {
    std::string table, journal;  // journal: the one the alert came from (protocol 1.4)
    std::uint64_t seq = 0;
    if (post) {
      json body = json::parse(req.body(), nullptr, false);
      seq = protocol::seq_field(body);
      if (!body.is_object() || !body.value("table", json()).is_string() || seq == 0)
        return answer(http::status::bad_request, {{"error", "expected {\"table\":\"tournament/section/table\",\"seq\":N} (N from 1)"}});
      table = body["table"];
      if (body.contains("journal") && !body["journal"].is_string())
        return answer(http::status::bad_request, {{"error", "\"journal\" is the alert's journal (a string), as the alert gives it"}});
      journal = body.value("journal", "");
    } else {
      auto q = query(target_of(req));
      table = q["table"];
      journal = q["journal"];
      // Digits only: stoull read seq=-1 as 2^64-1 and seq=1x as 1.
      const std::string& text = q["seq"];
      if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos || (seq = std::stoull(text)) == 0)
        return answer(http::status::bad_request, {{"error", "give table= and seq= (a number from 1)"}});
    }
    auto peer = table_control_.find(table);
    if (peer == table_control_.end())
      return answer(http::status::not_found, {{"error", "no control endpoint configured for table " + table}});
    // An alert of a replaced journal: its seq is another event at the table now. Refused here, and the
    // daemon refuses an ack naming another journal too (the console may not have heard the new one yet).
    const std::string current = venue_.journal_of(table);
    if (!journal.empty() && !current.empty() && journal != current)
      return answer(http::status::conflict, {{"error", "event " + std::to_string(seq) + " of table " + table + " belongs to its replaced journal " + journal +
                                                           " (the table's journal is now " + current +
                                                           "): the table can no longer acknowledge it or give its evidence"}});
    if (journal.empty() && post && venue_.journal_replaced(table))
      return answer(http::status::conflict, {{"error", "table " + table + "'s journal was replaced: say which journal the alert is of (\"journal\")"}});
    if (journal.empty()) journal = current;
    // The table's daemon answers (it checks our director key); the wait happens off the I/O thread.
    boost::asio::post(control_pool_, [this, r, table, peer = peer->second, seq, post, journal, by = session->name, version = req.version(),
                                      keep = req.keep_alive()] {
      json result = post ? requests_.ack(peer, seq, by, journal) : requests_.evidence(peer, seq);
      // The console is stopping: the page gets no answer, so the log says what became of the director's
      // click (an ack that left may have been journalled at the table: `cardtablectl alerts` tells).
      if (post && TableRequests::stopped(result))
        std::cerr << "cardtable-console: table " << table << ": the acknowledgement of event " << seq << " by " << by
                  << (result.value("sent", false) ? " was sent and not confirmed: the console stopped before the table answered"
                                                  : " was not sent (not confirmed): the console was stopping")
                  << "; `cardtablectl alerts` at the table says whether it is still open" << std::endl;
      // The evidence of a seq is of the table's journal now: not the one asked about when it was replaced.
      if (!post && !journal.empty() && ok_of(result) && result.contains("event") && result["event"].is_object() &&
          result["event"].value("journal", journal) != journal)
        result = {{"ok", false}, {"error", "event " + std::to_string(seq) + " of journal " + journal + " is no longer at the table (its journal is now " +
                                               result["event"].value("journal", "") + ")"}};
      boost::asio::post(io_, [r, result, version, keep] {
        // 502 only when the table did not answer; a refusal it gave (already acknowledged, no such event)
        // is the request's, not the gateway's: 409 with the table's reason.
        Response res{ok_of(result) ? http::status::ok : result.value("unreachable", false) ? http::status::bad_gateway : http::status::conflict, version};
        res.set(http::field::content_type, "application/json");
        res.set(http::field::cache_control, "no-store");
        json shown = result;
        if (shown.contains("event")) shown["event"] = VenueState::director_view(shown["event"]);
        res.body() = shown.dump(-1, ' ', false, json::error_handler_t::replace);
        res.keep_alive(keep);
        res.prepare_payload();
        r->respond(std::move(res));
      });
    });
    return;
  }
  return answer(http::status::not_found, {{"error", "no such request"}});
}

// {"table": T, "journal": J, "seq": N}: that alert of a replaced journal; {"table": T}: all of the table's
// (of journal J only, when given). The table is not asked: it cannot acknowledge them, which is why they
// stayed. Every director page drops them (an update with "dismissed"); the log and timeline say who.
void Gateway::dismiss_replaced(const Request& req, const Session& session, const std::shared_ptr<Responder>& r) {
  json body = json::parse(req.body(), nullptr, false);
  const char* expected = "expected {\"table\":\"tournament/section/table\"} (all its replaced alerts) or with \"journal\" and \"seq\" (one)";
  if (!body.is_object() || !body.value("table", json()).is_string() || (body.contains("journal") && !body["journal"].is_string()) ||
      (body.contains("seq") && (protocol::seq_field(body) == 0 || !body.contains("journal"))))
    return r->respond(reply(req, http::status::bad_request, {{"error", expected}}));
  const std::string table = body["table"];
  const double now = wall_now();
  json dismissed = venue_.dismiss_replaced(table, body.value("journal", ""), protocol::seq_field(body), session.name, now);
  if (dismissed.empty())
    return r->respond(reply(req, http::status::not_found, {{"error", "table " + table + " shows no such alert of a replaced journal"}}));
  std::cerr << "cardtable-console: table " << table << ": " << session.name << " dismissed " << dismissed.size()
            << " alert(s) of its replaced journal" << std::endl;
  broadcast("director", "update", {{"tile", venue_.tile(table, now)}, {"dismissed", dismissed}});
  r->respond(reply(req, http::status::ok, {{"ok", true}, {"dismissed", dismissed}}));
}

std::size_t Gateway::open_streams(const std::string& role) {
  std::erase_if(streams_, [](const auto& s) { return s.second.responder.expired(); });
  return static_cast<std::size_t>(std::count_if(streams_.begin(), streams_.end(), [&](const auto& s) { return s.second.role == role; }));
}

void Gateway::start_stream(const std::shared_ptr<Responder>& r, const std::string& role, const std::string& token, std::string first) {
  r->start_stream(role, std::move(first));  // calls stream_opened
  if (auto it = streams_.find(r.get()); it != streams_.end()) it->second.token = token;
}

void Gateway::stream_opened(const std::shared_ptr<Responder>& r, const std::string& role) { streams_[r.get()] = {r, role, {}}; }

void Gateway::end_streams_without_session() {
  const auto now = Logins::Clock::now();
  // Collected first: ending a stream takes it out of streams_.
  std::vector<std::shared_ptr<Responder>> ended;
  for (const auto& [p, s] : streams_)
    if (auto sp = s.responder.lock(); sp && !logins_.session(s.token, now)) ended.push_back(std::move(sp));
  for (const auto& s : ended) s->end_stream();
}
void Gateway::stream_closed(Responder* r) { streams_.erase(r); }

void Gateway::broadcast(const std::string& role, const std::string& event, const json& data) {
  auto message = std::make_shared<const std::string>(sse(event, data));
  // Collected first: a push may drop a stalled stream, which leaves streams_ while we would iterate it.
  std::vector<std::shared_ptr<Responder>> targets;
  for (auto it = streams_.begin(); it != streams_.end();) {
    auto s = it->second.responder.lock();
    if (!s) {
      it = streams_.erase(it);
      continue;
    }
    if (it->second.role == role) targets.push_back(std::move(s));
    ++it;
  }
  for (const auto& s : targets) s->push(message);
}

void Gateway::on_event(const json& event, bool live) {
  // A publisher's JSON is outside input: whatever it holds costs that event, never the console.
  try {
    apply(event, live);
  } catch (const std::exception& e) {
    if (rejected_++ % 1000 == 0) std::cerr << "cardtable-console: an event ignored (" << e.what() << ")" << std::endl;
  }
}

void Gateway::apply(const json& event, bool live) {
  double now = wall_now();
  if (live) {
    // A gap in a table's live seq (boards released while the live subscription reconnected, a table
    // restarted past its embargo): the missing hands come from the table's live journal.
    const std::string table = VenueState::table_id(event), before = venue_.live_journal_of(table);
    const std::uint64_t since = venue_.live_gap_before(event);
    const bool applied = venue_.apply_live(event);
    // Queued once the event is applied: a gap of a new live journal is that journal's, which the table
    // serves now. Up to the event: what follows comes live.
    if (since) queue_replay(Stream::live, table, {venue_.live_journal_of(table), since, protocol::seq_field(event)});
    if (const std::string after = venue_.live_journal_of(table); !before.empty() && after != before)
      std::cerr << "cardtable-console: table " << table << ": its live journal was replaced (" << before << " by " << after
                << "): its live seqs start again at 1; the boards already shown stay" << std::endl;
    if (!applied) return;
    json board = venue_.live_board(VenueState::table_id(event), VenueState::live_key(event));
    if (!board.is_null()) broadcast("broadcaster", "board", board);
    return;
  }
  std::string id = VenueState::table_id(event);
  // A table whose journal started again (protocol 1.4: every event names its journal): its seqs are new
  // events from 1, replayed below as a gap from 1; its open alerts are the replaced journal's now. Every
  // director page gets the venue again, so that no page keeps an old alert under a seq of the new journal.
  if (auto change = venue_.note_journal(event)) {
    std::cerr << "cardtable-console: table " << id << ": its journal was replaced (" << change->from << " by " << change->to
              << "): its seqs start again at 1 and are replayed from there; " << change->alerts_replaced
              << " open alert(s) of the old journal can no longer be acknowledged at the table and are shown as replaced" << std::endl;
    broadcast("director", "snapshot", venue_.director_snapshot(now));
  }
  if (venue_.from_replaced_journal(event)) {
    // Another daemon still publishing for this table under the old journal (the old computer left running?)
    if (stale_++ % 100 == 0)
      std::cerr << "cardtable-console: table " << id << ": an event of its replaced journal " << event.value("journal", "")
                << " ignored (is the old daemon still running? " << stale_ << " so far)" << std::endl;
    return;
  }
  // A gap in a table's seq (the PUB dropped, the hub restarted): ask the table for what is missing.
  // A table first heard with a history (its seq, or a heartbeat's last_seq, past 1: it started before the
  // hub link was up, or while the hub was down) may hold open alerts the console never saw: ask for them.
  if (venue_.shows_unseen_history(event) && alerts_asked_.insert(id).second) fetch_open_alerts(id);
  if (std::uint64_t since = venue_.gap_before(event)) {
    if (table_control_.count(id)) {
      // Up to what the table had published before this message (a heartbeat's last_seq included): the
      // live stream brings what follows, and a replay of it too showed those events twice.
      replay_gap(id, since, VenueState::published_before(event) + 1);
    } else {
      // Nothing to replay them from: said (once each) and counted on the tile, never dropped silently.
      for (const auto& [first, last] : venue_.mark_missed(id, since, VenueState::published_before(event)))
        std::cerr << "cardtable-console: table " << id << ": events " << first << " to " << last
                  << " missed (the hub restarted, or dropped them) and no --table " << id
                  << " control=... to replay them from: an alert among them is not shown" << std::endl;
    }
  }
  if (!venue_.apply_event(event, now)) return;
  json update = {{"tile", venue_.tile(id, now)}};
  if (event.value("type", "") != "daemon.heartbeat") update["event"] = VenueState::director_view(event);
  broadcast("director", "update", update);
  // The table gives a trick's evidence by its seq in the journal: seq 0 names none, nothing to ask.
  if (const std::uint64_t seq = protocol::seq_field(event); seq && event.value("type", "") == "board.trick") fetch_trick_count(id, seq);
}

void Gateway::fetch_open_alerts(const std::string& table) {
  auto peer = table_control_.find(table);
  if (peer == table_control_.end()) return;
  boost::asio::post(control_pool_, [this, table, peer = peer->second] {
    auto alerts = requests_.open_alerts(peer);
    boost::asio::post(io_, [this, table, alerts] {
      if (!alerts) {
        alerts_asked_.erase(table);  // a table that did not answer is asked again when next heard
        return;
      }
      double now = wall_now();
      for (const auto& e : *alerts) {
        if (!venue_.of_current_journal(e)) continue;  // the table's journal was replaced since: its replay from 1 brings them
        venue_.apply_replayed(e);
        show_replayed(table, e, now);
      }
    });
  });
}

void Gateway::show_replayed(const std::string& table, const json& e, double now) {
  json v = VenueState::director_view(e);
  if (v.is_null()) return;
  json update = {{"tile", venue_.tile(table, now)}, {"event", v}};
  // An alert whose ack came first (the ack was the event that showed the gap): the timeline's, not the
  // list's; the page put it in the list for good, its Acknowledge refused by the table.
  if (const std::uint64_t seq = protocol::seq_field(v); VenueState::is_alert(v) && seq && !venue_.alert_open(table, seq))
    update["closed"] = true;
  broadcast("director", "update", update);
}

// Who won the tricks is director-only detail (a broadcaster must not learn a board's result before the
// embargo): the table gives it to our director key through `evidence`, and only director pages get it.
void Gateway::fetch_trick_count(const std::string& table, std::uint64_t seq) {
  auto peer = table_control_.find(table);
  if (peer == table_control_.end()) return;
  boost::asio::post(control_pool_, [this, table, seq, peer = peer->second] {
    json r = requests_.evidence(peer, seq);
    boost::asio::post(io_, [this, table, seq, r] {
      if (!ok_of(r) || !r.contains("card_evidence") || !r["card_evidence"].is_object()) {
        if (trick_errors_++ % 100 == 0)
          std::cerr << "cardtable-console: table " << table << ": tricks of event " << seq << ": " << error_of(r) << std::endl;
        return;
      }
      if (venue_.apply_trick_count(table, seq, r["card_evidence"])) broadcast("director", "update", {{"tile", venue_.tile(table, wall_now())}});
    });
  });
}

GapReplays& Gateway::replays(Stream stream) { return stream == Stream::events ? gap_replays_ : live_replays_; }
const std::map<std::string, Peer>& Gateway::peers(Stream stream) const { return stream == Stream::events ? table_control_ : live_replay_; }

std::string Gateway::journal_now(Stream stream, const std::string& table) const {
  return stream == Stream::events ? venue_.journal_of(table) : venue_.live_journal_of(table);
}

void Gateway::replay_gap(const std::string& table, std::uint64_t since, std::uint64_t until) {
  queue_replay(Stream::events, table, {venue_.journal_of(table), since, until});
}

void Gateway::queue_replay(Stream stream, const std::string& table, const GapReplays::Gap& gap) {
  if (!peers(stream).count(table)) return;
  // Remembered with the journal it belongs to: a gap seen while a replay runs waits for it to end (it was
  // skipped, and never replayed once the stream had moved past it).
  if (replays(stream).add(table, gap)) start_next_replay(stream, table);
}

void Gateway::start_next_replay(Stream stream, const std::string& table) {
  std::vector<GapReplays::Gap> replaced;
  auto gap = replays(stream).next(table, journal_now(stream, table), replaced);
  for (const auto& g : replaced)
    std::cerr << "cardtable-console: table " << table << ": " << seqs_of(stream, g) << " of its replaced " << (stream == Stream::live ? "live " : "")
              << "journal " << g.journal << " were missed and can no longer be replayed (the table serves journal " << journal_now(stream, table)
              << " now)" << (stream == Stream::events ? ": an alert among them is not shown" : "") << std::endl;
  if (gap) send_replay(stream, table, *gap);
}

void Gateway::send_replay(Stream stream, const std::string& table, const GapReplays::Gap& gap) {
  const Peer& peer = peers(stream).at(table);
  boost::asio::post(control_pool_, [this, stream, table, gap, peer] {
    json r = stream == Stream::events ? requests_.request(peer, {{"command", "replay"}, {"since", gap.since}}) : requests_.replay_live(peer, gap.since);
    boost::asio::post(io_, [this, stream, table, gap, r] {
      if (!ok_of(r)) return replay_failed(stream, table, gap, error_of(r));
      replays(stream).finish(table);
      // Asked of a journal the table has replaced since: these seqs are not the ones missed now (the new
      // journal's gap from seq 1 waits its turn, and is asked next).
      if (const std::string now_of = journal_now(stream, table); !gap.journal.empty() && gap.journal != now_of)
        std::cerr << "cardtable-console: table " << table << ": the replay of " << seqs_of(stream, gap) << " of journal " << gap.journal
                  << " answered after the table's journal was replaced by " << now_of << ": dropped, and those events can no longer be replayed"
                  << std::endl;
      else if (stream == Stream::events)
        apply_replay(table, gap, r);
      else
        apply_live_replay(table, gap, r);
      start_next_replay(stream, table);  // the gaps seen meanwhile (of a new journal, or past this one's end)
    });
  });
}

// A gap shown by an event is never shown again (the event moved the table's last seq past it): a failed
// replay dropped was lost for good. Asked again after a growing wait, keeping its place; given up, the
// seqs are said and counted on the tile.
void Gateway::replay_failed(Stream stream, const std::string& table, const GapReplays::Gap& gap, const std::string& why) {
  const char* command = stream == Stream::events ? "replay" : "replay-live";
  const GapReplays::Failure failure = replays(stream).failed(table);
  if (failure.kind == GapReplays::Failure::ask_again) {
    std::cerr << "cardtable-console: table " << table << ": " << command << " of " << seqs_of(stream, gap) << ": " << why << "; asked again in "
              << std::chrono::duration<double>(failure.wait).count() << " s" << std::endl;
    auto& timer = retry_timers_.try_emplace(std::string(command) + " " + table, io_).first->second;
    timer.expires_after(failure.wait);
    timer.async_wait([this, stream, table, gap](const boost::system::error_code& ec) {
      if (!ec) send_replay(stream, table, gap);  // cancelled: the gateway is going
    });
    return;
  }
  retry_given_up_later(stream, table);
  if (failure.kind == GapReplays::Failure::still_missing) return start_next_replay(stream, table);  // said and counted when given up
  const std::string given_up = std::string(command) + " failed " + std::to_string(replays(stream).tries()) + " times (last: " + why + ")";
  if (gap.until == GapReplays::kOpenEnded)  // the poll's or the start's: no seq shows how many, and the next poll asks again
    std::cerr << "cardtable-console: table " << table << ": " << given_up << ": " << seqs_of(stream, gap) << " asked again at the next poll" << std::endl;
  else
    say_missed(stream, table, gap.since, gap.until - 1, given_up);
  start_next_replay(stream, table);
}

// One timer per table and stream, armed for the oldest gap given up there: when it fires, the gaps given up
// a full wait ago are asked again and it is armed again for the rest, each its own wait after it was given
// up (a gap given up 59 s into the wait of another went with it, asked again a second later). A table
// that never answers costs a request a wait per gap given up.
void Gateway::retry_given_up_later(Stream stream, const std::string& table) {
  auto& timer = given_up_timers_.try_emplace(std::string(stream == Stream::events ? "replay " : "replay-live ") + table, io_).first->second;
  if (timer.expiry() > boost::asio::steady_timer::clock_type::now()) return;  // already waiting: it arms itself again for those given up since
  const auto oldest = replays(stream).oldest_given_up(table);
  if (!oldest) return;
  timer.expires_at(*oldest + limits_.replay_given_up_wait);
  timer.async_wait([this, stream, table](const boost::system::error_code& ec) {
    if (ec) return;  // cancelled: the gateway is going
    const bool due = replays(stream).retry_given_up(table, GapReplays::Clock::now() - limits_.replay_given_up_wait);
    retry_given_up_later(stream, table);  // the gaps given up since it was armed
    if (due) start_next_replay(stream, table);
  });
}

std::vector<SeqRanges::Range> Gateway::mark_missed(Stream stream, const std::string& table, std::uint64_t first, std::uint64_t last) {
  return stream == Stream::events ? venue_.mark_missed(table, first, last) : venue_.mark_live_missed(table, first, last);
}

void Gateway::say_missed(Stream stream, const std::string& table, std::uint64_t first, std::uint64_t last, const std::string& why) {
  const auto pieces = mark_missed(stream, table, first, last);
  if (pieces.empty()) return;  // counted and said before (each heartbeat shows a gap again)
  for (const auto& [from, to] : pieces)
    std::cerr << "cardtable-console: table " << table << ": " << seqs_of(stream, {{}, from, to + 1}) << " missed: " << why
              << (stream == Stream::events ? ": an alert among them is not shown" : ": those hands are not shown") << std::endl;
  broadcast("director", "update", {{"tile", venue_.tile(table, wall_now())}});
}

void Gateway::say_recovered(Stream stream, const std::string& table, const std::vector<std::uint64_t>& seqs) {
  std::uint64_t recovered = 0, first = 0, last = 0;  // first..last: the runs that held some (they are said as a span)
  for (const auto& [from, to] : SeqRanges::runs_of(seqs))
    if (const std::uint64_t n = stream == Stream::events ? venue_.mark_recovered(table, from, to) : venue_.mark_live_recovered(table, from, to)) {
      recovered += n;
      first = first ? first : from;
      last = to;
    }
  if (!recovered) return;
  std::cerr << "cardtable-console: table " << table << ": " << recovered << " of " << seqs_of(stream, {{}, first, last + 1})
            << ", counted as missed, replayed after all: no longer counted" << std::endl;
  broadcast("director", "update", {{"tile", venue_.tile(table, wall_now())}});
}

void Gateway::say_damaged(Stream stream, const std::string& table, const std::string& journal, const std::vector<std::uint64_t>& seqs) {
  constexpr std::uint64_t kListed = 20;  // a bad block can spoil thousands of lines: the log names the first
  std::uint64_t counted = 0;
  std::string list;
  for (const auto& [run_first, run_last] : SeqRanges::runs_of(seqs))
    for (const auto& [from, to] : mark_missed(stream, table, run_first, run_last)) {
      for (std::uint64_t seq = from; seq <= to && counted + (seq - from) < kListed; ++seq) list += (list.empty() ? "#" : ", #") + std::to_string(seq);
      counted += to - from + 1;
    }
  if (!counted) return;  // counted and said before (the live poll reads them again each minute)
  if (counted > kListed) list += " and " + std::to_string(counted - kListed) + " more";
  std::cerr << "cardtable-console: table " << table << ": " << (stream == Stream::events ? "events " : "live events ") << list << " of journal "
            << (journal.empty() ? std::string("(unnamed)") : journal) << " missed: damaged in the table's journal (their lines on its disk cannot be read)"
            << (stream == Stream::events ? ": an alert among them is not shown" : ": those hands are not shown") << std::endl;
  broadcast("director", "update", {{"tile", venue_.tile(table, wall_now())}});
}

std::string Gateway::seqs_of(Stream stream, const GapReplays::Gap& gap) {
  const std::string kind = stream == Stream::events ? "events " : "live events ";
  if (gap.until == GapReplays::kOpenEnded) return kind + "from " + std::to_string(gap.since) + " on";
  return kind + std::to_string(gap.since) + " to " + std::to_string(gap.until - 1);
}

// The seqs of `gap` a replay's answer leaves out for good, said and counted: those before its first
// event (rotated out of the table's journal, which begins at first_available), and when it has no `more`
// those after its last (it was dropped without a word, the seqs lost). An open-ended gap (the poll's) has
// no end to fall short of, and what came before it is not known to be missing.
void Gateway::say_left_out(Stream stream, const std::string& table, const GapReplays::Gap& gap, const json& r, std::uint64_t first, std::uint64_t last) {
  // A damaged line is a seq the answer covers, not one rotated away or cut short: said as damaged, after
  // the seqs before it (missed counts are kept in seq order).
  const std::vector<std::uint64_t> damaged = unreadable_in(r, gap);
  if (!damaged.empty()) {
    first = first ? std::min(first, damaged.front()) : damaged.front();
    last = std::max(last, damaged.back());
  }
  auto journal = r.find("journal");
  const std::string journal_id = journal != r.end() && journal->is_string() ? journal->get<std::string>() : gap.journal;
  if (gap.until == GapReplays::kOpenEnded) return say_damaged(stream, table, journal_id, damaged);
  const std::uint64_t starts_at = protocol::seq_field(r, "first_available");
  // Where the answer begins: its first event in the gap, or where the journal now starts when none is.
  const std::uint64_t begins = first ? first : starts_at > gap.since ? std::min(starts_at, gap.until) : gap.since;
  if (begins > gap.since)
    say_missed(stream, table, gap.since, begins - 1,
               "no longer in the table's " + std::string(stream == Stream::live ? "live " : "") + "journal (rotated away" +
                   (starts_at ? ": it starts at #" + std::to_string(starts_at) : std::string()) + ")");
  say_damaged(stream, table, journal_id, damaged);
  auto more = r.find("more");
  if (more != r.end() && more->is_boolean() && more->get<bool>() && last)
    return replays(stream).resume(table, {gap.journal, last + 1, gap.until});  // at most 5,000 events an answer
  if (const std::uint64_t ended = last ? last : begins - 1; ended + 1 < gap.until)
    say_missed(stream, table, ended + 1, gap.until - 1,
               last ? "the table's replay ended at #" + std::to_string(last) + " without them" : std::string("the table's replay held none of them"));
}

void Gateway::apply_replay(const std::string& table, const GapReplays::Gap& gap, const json& r) {
  double now = wall_now();
  const json events = r.contains("events") && r["events"].is_array() ? r["events"] : json::array();
  std::uint64_t first = 0, last = 0;
  std::vector<std::uint64_t> replayed;
  for (const auto& e : events) {
    // A replay gives journalled events: seq 0 (or none) is not one of them (VenueState::apply_replayed).
    const std::uint64_t seq = protocol::seq_field(e);
    if (seq == 0) continue;
    // Asked of one journal, answered by another (the table's was replaced meanwhile): these seqs are
    // not the ones missed. The new journal's next event starts its own replay from seq 1.
    if (!venue_.of_current_journal(e)) {
      std::cerr << "cardtable-console: table " << table << ": a replay answered from journal " << e.value("journal", "")
                << ", not the one the console follows: dropped" << std::endl;
      return;
    }
    if (seq >= gap.until) break;  // from here on the live stream had them
    first = first ? std::min(first, seq) : seq;
    last = std::max(last, seq);
    venue_.apply_replayed(e);
    show_replayed(table, e, now);
    replayed.push_back(seq);
  }
  say_recovered(Stream::events, table, replayed);
  say_left_out(Stream::events, table, gap, r, first, last);
}

void Gateway::replay_live_from(const std::string& table, std::uint64_t since) {
  queue_replay(Stream::live, table, {venue_.live_journal_of(table), since, GapReplays::kOpenEnded});
}

void Gateway::apply_live_replay(const std::string& table, const GapReplays::Gap& gap, const json& r) {
  const json events = r.contains("events") && r["events"].is_array() ? r["events"] : json::array();
  std::uint64_t first = 0, last = 0;
  std::vector<std::uint64_t> replayed;
  for (const auto& e : events) {
    if (!e.is_object() || VenueState::table_id(e) != table) continue;  // a table answers for itself only
    // Every event is applied (once each by its seq, apply_live): the gap's end bounds only what it counts.
    if (const std::uint64_t seq = protocol::seq_field(e); seq >= gap.since && seq < gap.until) {
      first = first ? std::min(first, seq) : seq;
      last = std::max(last, seq);
      replayed.push_back(seq);
    }
    if (!venue_.apply_live(e)) continue;
    json board = venue_.live_board(table, VenueState::live_key(e));
    if (!board.is_null()) broadcast("broadcaster", "board", board);
  }
  say_recovered(Stream::live, table, replayed);
  say_left_out(Stream::live, table, gap, r, first, last);
}

void Gateway::catch_up_live() {
  for (const auto& [table, peer] : live_replay_) replay_live_from(table, 1);
}

void Gateway::tick() {
  double now = wall_now();
  // A board released while the live stream was down, with no later live event to show the gap (the
  // session's last boards): asked for at the tables heard lately, so a dead table costs no waiting.
  if (ticks_ % kLivePollTicks == kLivePollTicks - 1)
    for (const auto& [table, peer] : live_replay_)
      if (venue_.heard_within(table, now, kLivePollTicks)) replay_live_from(table, venue_.live_last_seq(table) + 1);
  for (const auto& id : venue_.newly_silent(now)) broadcast("director", "update", {{"tile", venue_.tile(id, now)}});
  if (++ticks_ % 15 == 0) {
    end_streams_without_session();  // sessions expire (12 h): their pages stop receiving
    auto keepalive = std::make_shared<const std::string>(": keep-alive\n\n");
    std::vector<std::shared_ptr<Responder>> targets;
    for (auto& [p, s] : streams_)
      if (auto sp = s.responder.lock()) targets.push_back(std::move(sp));
    for (const auto& s : targets) s->push(keepalive);
  }
}

}  // namespace cardtable::console
