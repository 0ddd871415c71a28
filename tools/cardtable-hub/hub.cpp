#include "hub.hpp"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <zmq_addon.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "daemon/system_log.hpp"
#include "protocol/control.hpp"
#include "protocol/curve_keys.hpp"
#include "protocol/endpoint.hpp"
#include "protocol/heartbeat.hpp"
#include "protocol/json_fields.hpp"
#include "protocol/requests.hpp"

namespace cardtable::hub {
namespace fs = std::filesystem;
using json = nlohmann::json;
using protocol::is_true;
using protocol::seq_field;
using protocol::string_field;

namespace {

// Messages taken from one socket before the others are looked at again.
constexpr int kForwardBatch = 1000;

using daemon::Priority;

// The daemon's system log (daemon/system_log.hpp): journald with fields under systemd, "<N>" lines on
// stderr elsewhere, so that `journalctl -u cardtable-hub -p warning` lists what the hub refused.
void log(Priority p, const std::string& s) {
  static daemon::Logger logger("cardtable-hub");
  logger.log(p, s);
}

// "<class>/<tournament>/<section>/<table>/<type>" -> "tournament/section/table"; empty when malformed.
std::string table_of(const std::string& topic) {
  auto a = topic.find('/');
  auto b = topic.rfind('/');
  if (a == std::string::npos || b <= a) return {};
  std::string t = topic.substr(a + 1, b - a - 1);
  if (std::count(t.begin(), t.end(), '/') != 2) return {};
  return t;
}

}  // namespace

std::map<std::string, protocol::ClientKey> read_table_keys(const std::string& clients) {
  std::map<std::string, protocol::ClientKey> out;
  fs::path root = fs::path(clients) / "table";
  if (!fs::is_directory(root)) return out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->path().extension() != ".pub") continue;
    fs::path rel = fs::relative(it->path(), root);
    rel.replace_extension();
    std::string name = rel.generic_string();
    if (std::count(name.begin(), name.end(), '/') != 2)
      throw HubStartupError(it->path().string() + ": a table key goes in table/TOURNAMENT/SECTION/TABLE.pub (the table it speaks for)");
    std::string error;
    auto k = protocol::read_key_file(it->path(), error);
    if (!k) throw HubStartupError(error);
    out[k->public_key] = protocol::ClientKey{"table", name};
  }
  if (ec) throw HubStartupError(root.string() + ": " + ec.message());
  return out;
}

bool Hub::may_publish(const std::string& user_id, const std::string& topic, bool curve) {
  if (!curve) return true;  // plain text: ipc or loopback, the machine's own tables
  return user_id.starts_with("table:") && !table_of(topic).empty() && table_of(topic) == user_id.substr(6);
}

Hub::Hub(const HubOptions& o)
    : xsub_(ctx_, zmq::socket_type::xsub), xpub_(ctx_, zmq::socket_type::xpub), ctl_(ctx_, zmq::socket_type::router) {
  curve_ = !o.curve_secret.empty();
  silent_after_ = o.silent_after;
  if (curve_ != !o.clients.empty()) throw HubStartupError("--curve-secret and --clients go together");
  std::vector<std::pair<std::string, protocol::Endpoint>> own;
  for (const auto& [name, text] : {std::pair{"--upstream", o.upstream}, {"--downstream", o.downstream}, {"--control", o.control}}) {
    std::string error;
    auto e = protocol::parse_endpoint(text, error);
    if (!e) throw HubStartupError(std::string(name) + ": " + error);
    if (!e->bind) throw HubStartupError(std::string(name) + ": the hub binds its endpoints (no connect:)");
    if (auto why = protocol::check_endpoint_security(*e, o.plaintext, curve_)) throw HubStartupError(std::string(name) + ": " + *why);
    if (auto why = protocol::check_ipc_free(*e)) throw HubStartupError(std::string(name) + ": " + *why);
    own.emplace_back(name, *e);
  }
  if (auto why = protocol::check_distinct_endpoints(own)) throw HubStartupError(*why);
  for (const auto& [table, text] : o.table_control) {
    // The hub connects to a table's control endpoint: the same rules as its own (plain text on ipc and
    // loopback only), and with CURVE it needs that table's key (table/T/S/N.pub: the daemon's keypair).
    std::string error;
    auto e = protocol::parse_endpoint("connect:" + text, error);
    if (std::count(table.begin(), table.end(), '/') != 2 || table.front() == '/' || table.back() == '/' || table.find("//") != std::string::npos)
      throw HubStartupError("--table-control " + table + "=" + text + ": the table is TOURNAMENT/SECTION/TABLE, e.g. default/A/7");
    if (!e) throw HubStartupError("--table-control " + table + ": " + error);
    if (auto why = protocol::check_endpoint_security(*e, o.plaintext, curve_)) throw HubStartupError("--table-control " + table + ": " + *why);
    table_control_[table] = e->address;
  }
  try {
    if (curve_) {
      std::string error;
      // One open of the file: its mode checked and its keys read from the same file (no gap to swap it in).
      auto keys = protocol::read_secret_key_file(o.curve_secret, error, protocol::SecretKeyReader::service);
      if (!keys) throw HubStartupError("--curve-secret: " + error);
      public_key_ = keys->public_key;
      secret_key_ = keys->secret_key;
      auto clients = protocol::read_client_keys(o.clients, {"director", "broadcaster", "hub"});
      for (auto& [k, who] : read_table_keys(o.clients)) {
        table_keys_[who.name] = k;
        clients[k] = who;
      }
      zap_ = std::make_unique<protocol::ZapAuthenticator>(
          ctx_, std::move(clients), [](std::string_view domain, const protocol::ClientKey& k) -> std::optional<std::string> {
            // Tables publish upstream and nowhere else; every other role reads downstream.
            if ((domain == "upstream") != (k.role == "table")) return std::nullopt;
            return k.role == "table" ? "table:" + k.name : k.role;
          });
      for (auto* s : {&xsub_, &xpub_, &ctl_}) {
        s->set(zmq::sockopt::curve_server, 1);
        s->set(zmq::sockopt::curve_secretkey, keys->secret_key);
        s->set(zmq::sockopt::zap_domain, s == &xsub_ ? "upstream" : "downstream");
      }
    }
    xpub_.set(zmq::sockopt::sndhwm, 200000);
    xsub_.set(zmq::sockopt::rcvhwm, 200000);
    // A larger frame disconnects its sender: no event is near 1 MiB (the console reads events under the
    // same bound), and a table key must not make the hub keep 50 MB messages for its snapshot.
    ctl_.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(1 << 20));
    xsub_.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(1 << 20));
    for (auto* s : {&xsub_, &xpub_, &ctl_}) s->set(zmq::sockopt::linger, 0);
    // Each bind's failure names its option and address: "No such file or directory" alone named neither.
    auto bind = [](zmq::socket_t& s, const char* option, const std::string& address) {
      try {
        s.bind(address);
      } catch (const zmq::error_t& e) {
        throw HubStartupError(std::string(option) + ": " + address + ": " + e.what());
      }
    };
    bind(xsub_, "--upstream", o.upstream);
    // The hub keeps each table's board and open alerts whoever is subscribed downstream (the snapshot and
    // alerts requests), so it takes every topic from the tables itself.
    static constexpr char kSubscribeAll = 1;
    xsub_.send(zmq::buffer(&kSubscribeAll, 1), zmq::send_flags::dontwait);
    bind(xpub_, "--downstream", o.downstream);
    bind(ctl_, "--control", o.control);
  } catch (const HubStartupError&) {
    throw;
  } catch (const std::exception& e) {
    throw HubStartupError(e.what());
  }
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  pthread_sigmask(SIG_BLOCK, &mask, nullptr);
  signal_fd_ = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  for (const auto& [table, address] : table_control_)
    if (curve_ && !table_keys_.count(table))
      throw HubStartupError("--table-control " + table + ": no key for that table in " + o.clients + "/table/" + table + ".pub (the hub needs it to ask the table)");
  // The addresses bound, read back: tcp://...:* binds an ephemeral port, which the log and status give
  // (as cardtabled's ready line does); it said "tcp://127.0.0.1:*".
  for (auto [name, socket] : {std::pair{"upstream", &xsub_}, {"downstream", &xpub_}, {"control", &ctl_}})
    bound_[name] = socket->get(zmq::sockopt::last_endpoint);
  log(Priority::Notice, "upstream " + bound_["upstream"] + ", downstream " + bound_["downstream"] + ", control " + bound_["control"] +
                            (curve_ ? " (CURVE)" : " (plain text)"));
}

void Hub::drop(const std::string& why) {
  ++dropped_;
  if (const std::uint64_t held = drop_log_.roll())
    log(Priority::Warning, std::to_string(held) + " more messages dropped from upstream in the last second, not logged one by one");
  if (drop_log_.take()) log(Priority::Warning, why);
}

namespace {

// A number a heartbeat's evidence carries as text ("3"); -1 when it has none.
long heartbeat_number(const json& hb, const char* key) {
  if (!hb.is_object() || !hb.contains("evidence") || !hb["evidence"].is_object()) return -1;
  const json& ev = hb["evidence"];
  if (!ev.contains(key) || !ev[key].is_string()) return -1;
  try {
    return std::stol(ev[key].get<std::string>());
  } catch (...) {
    return -1;
  }
}

}  // namespace

void Hub::forward_upstream() {
  // Tables -> subscribers, remembering each table's board in progress. At most a batch at a time, so
  // that a flood from the tables does not keep the control endpoint waiting (nor it the tables).
  for (int n = 0; n < kForwardBatch; ++n) {
    std::vector<zmq::message_t> f;
    if (!zmq::recv_multipart(xsub_, std::back_inserter(f), zmq::recv_flags::dontwait)) return;
    if (f.size() != 2) {
      drop("dropped a message of " + std::to_string(f.size()) + " frames from upstream (an event is topic + body)");
      continue;
    }
    std::string topic = f[0].to_string();
    // The topic as a log line may show it (escaped, cut): made only for a message that is dropped.
    auto shown = [&topic] { return json(topic.substr(0, 200)).dump(-1, ' ', true, json::error_handler_t::replace); };
    std::string user;
    if (curve_) {
      try {
        user = f[1].gets("User-Id");
      } catch (const zmq::error_t&) {
      }
    }
    if (!may_publish(user, topic, curve_)) {
      drop("dropped " + shown() + " from " + (user.empty() ? std::string("an unknown key") : user) + ": a table key speaks only for its own table");
      continue;
    }
    std::string table = table_of(topic);
    if (table.empty()) {
      drop("dropped " + shown() + ": not an event's topic (CLASS/TOURNAMENT/SECTION/TABLE/TYPE)");
      continue;
    }
    // Hand contents are for the broadcast path alone (protocol.md): a table whose --live was pointed
    // at the hub by mistake must not hand the deal to every director.
    if (topic.starts_with("live/")) {
      drop("dropped " + shown() + ": hand contents (live.*) never pass through the hub; point the table's --live elsewhere");
      continue;
    }
    // Kept for late joiners and given to them as JSON: a body that is not a JSON object once made every
    // snapshot reply unreadable (a heartbeat kept as a parse failure).
    json body = json::parse(f[1].to_string_view(), nullptr, false);
    if (!body.is_object()) {
      drop("dropped " + shown() + ": its body is not a JSON object");
      continue;
    }
    auto [entry, first_heard] = tables_.try_emplace(table);
    TableState& t = entry->second;
    if (first_heard) t.claims = ClaimJudge(table_control_.contains(table));
    if (first_heard && !table_control_.contains(table)) t.seed = TableState::Seed::Done;  // nothing to ask it
    t.last_heard = std::chrono::steady_clock::now();
    if (std::exchange(t.silent, false)) log(Priority::Notice, table + ": heard again");
    // Seqs are per journal (protocol 1.4): a table whose journal started again at 1 must not have its new
    // alerts taken for acknowledged ones of the old journal (the book remembers acks by seq).
    bool stale = false;
    if (auto j = body.find("journal"); j != body.end() && j->is_string() && !j->get_ref<const std::string&>().empty()) {
      const std::string id = j->get<std::string>();
      if (t.replaced_journals.count(id)) stale = true;  // an old daemon still publishing: forwarded, never counted
      else if (t.journal.empty()) t.journal = id;
      else if (id != t.journal) replace_journal(table, t, id);
    }
    if (stale) {
      if (stale_++ % 100 == 0)
        log(Priority::Warning, table + ": an event of its replaced journal " + string_field(body, "journal") + " (is the old daemon still running?): forwarded, " +
                                   "not counted in its alerts (" + std::to_string(stale_) + " so far)");
    } else if (topic.ends_with("/daemon.heartbeat")) {
      if (const long last = heartbeat_number(body, "last_seq"); last >= 0) heard_seq(table, t, static_cast<std::uint64_t>(last), true);
      // A table whose heartbeats come further apart than --silent-after allows is called silent between
      // two of them, and heard again at the next, all session long: said once (again if its period changes).
      if (const auto every = protocol::heartbeat_every(body); every && *every != t.heartbeat_every) {
        t.heartbeat_every = *every;
        if (silent_after_ < 2 * *every)
          log(Priority::Warning, table + ": its heartbeat comes every " + protocol::heartbeat_every_text(*every) + " s (its --heartbeat), and --silent-after " +
                                     protocol::heartbeat_every_text(silent_after_) + " s is less than two of them: it will be called silent between " +
                                     "heartbeats; give the hub --silent-after " + protocol::heartbeat_every_text(3 * *every) + " (three heartbeats) or more");
      }
      t.last_heartbeat = std::move(body);
      maybe_ask_alerts(table, t);
    } else {
      // The board in progress as the table's own snapshot has it (protocol/board_span.hpp, the daemon's
      // rule): from its first event, nothing after its return or after the daemon's start until a board
      // begins, so that a late joiner through the hub sees the events a late joiner of the table sees.
      const std::uint64_t seq = seq_field(body);
      heard_seq(table, t, seq, false);
      t.board.on_event(seq, std::string_view(topic).substr(topic.rfind('/') + 1), f[1].to_string());
      t.alerts.on_published(body);
      if (t.asking) t.since_asked.push_back(std::move(body));
    }
    // Asked at once when due (first heard, a replaced journal, a gap); overdue answers are the timer's.
    if (!stale && t.seed == TableState::Seed::Unasked) maybe_ask_snapshot(table, t);
    zmq::send_multipart(xpub_, f, zmq::send_flags::dontwait);
    ++forwarded_;
  }
}

namespace {

// A heartbeat's open_alerts ("3"); -1 when it has none.
long heartbeat_open_alerts(const json& hb) { return heartbeat_number(hb, "open_alerts"); }

// Whether a table's heartbeat counts other open alerts than the hub's book held at that heartbeat's
// last_seq. Set against the book as it is now, a heartbeat sent before an alert (or an ack) that the hub
// holds already named the table incomplete until the next heartbeat -- and `alerts` exited 1: the
// heartbeat is behind there, the hub has missed nothing. A heartbeat without last_seq (an older daemon):
// the book as it is.
bool heartbeat_differs(const json& hb, const protocol::AlertBook& book) {
  const long at_table = heartbeat_open_alerts(hb), last_seq = heartbeat_number(hb, "last_seq");
  if (at_table < 0) return false;
  const std::size_t held = last_seq >= 0 ? book.open_count_at(static_cast<std::uint64_t>(last_seq)) : book.open_count();
  return static_cast<std::size_t>(at_table) != held;
}

constexpr auto kAskAgainAfter = std::chrono::seconds(2), kAnswerWithin = std::chrono::seconds(10);

// What a table answered, shown in a log line (cut).
std::string shown_reply(const json& r) { return r.dump(-1, ' ', true, json::error_handler_t::replace).substr(0, 300); }

}  // namespace

// A table the hub knows the control endpoint of is asked for its open alerts when its first heartbeat
// comes (the hub started, or the table connected, after alerts were made) and again whenever a heartbeat's
// count differs from the hub's list at that heartbeat (events lost while the table was away, or an ack
// before the hub started): at most one question at a time, not more often than every 2 s.
void Hub::maybe_ask_alerts(const std::string& name, TableState& t) {
  auto endpoint = table_control_.find(name);
  if (endpoint == table_control_.end()) return;
  auto now = std::chrono::steady_clock::now();
  if (t.asking) {
    if (now - t.asked_at < kAnswerWithin) return;
    log(Priority::Warning, name + ": no answer from its control endpoint " + endpoint->second + " to alerts within 10 s; asking again");
    t.control.reset();  // a DEALER keeps the lost question: a fresh socket
    t.asking = false;
  }
  if (t.asked_ever && (!heartbeat_differs(t.last_heartbeat, t.alerts) || now - t.asked_at < kAskAgainAfter)) return;
  try {
    if (!t.control) t.control = open_control(name, endpoint->second);
    std::array<zmq::const_buffer, 2> question = {zmq::const_buffer(), zmq::str_buffer(R"({"command":"alerts"})")};
    if (!zmq::send_multipart(*t.control, question, zmq::send_flags::dontwait)) return;  // not connected yet: the next heartbeat
  } catch (const zmq::error_t& e) {
    log(Priority::Warning, name + ": cannot ask " + endpoint->second + " for its alerts: " + e.what());
    t.control.reset();
    return;
  }
  t.asking = t.asked_ever = true;
  t.asked_at = now;
  t.since_asked.clear();
}

std::unique_ptr<zmq::socket_t> Hub::open_control(const std::string& name, const std::string& endpoint) {
  auto s = std::make_unique<zmq::socket_t>(ctx_, zmq::socket_type::dealer);
  s->set(zmq::sockopt::linger, 0);
  s->set(zmq::sockopt::sndhwm, 4);
  s->set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(64 << 20));
  if (curve_) {
    s->set(zmq::sockopt::curve_serverkey, table_keys_.at(name));
    s->set(zmq::sockopt::curve_publickey, public_key_);
    s->set(zmq::sockopt::curve_secretkey, secret_key_);
  }
  s->connect(endpoint);
  return s;
}

// A table the hub knows the control endpoint of is asked for its own snapshot when the hub starts
// following its journal: a hub started or restarted mid-board held nothing of that board until the
// next. Its answer seeds the kept board; what was forwarded meanwhile is laid over it by seq. Never
// waited for: the question goes out without blocking and its answer is read when the poll says so. A
// table that does not answer within 10 s is logged once and asked again, kSnapshotTries times at most;
// its board is kept from what the hub hears meanwhile (and after: from its next board, as without
// --table-control).
void Hub::maybe_ask_snapshot(const std::string& name, TableState& t) {
  auto endpoint = table_control_.find(name);
  if (endpoint == table_control_.end() || t.seed == TableState::Seed::Done) return;
  const auto now = std::chrono::steady_clock::now();
  if (t.seed == TableState::Seed::Asking) {
    if (now - t.seed_asked_at >= kAnswerWithin) snapshot_failed(name, t, "no answer from its control endpoint " + endpoint->second + " to snapshot within 10 s");
    if (t.seed != TableState::Seed::Unasked) return;
  }
  // Not more often than every 2 s: a table whose answers are refused, or a link that keeps losing
  // events, must not have the hub read its journal without pause.
  if (t.seed_asked_ever && now - t.seed_asked_at < kAskAgainAfter) return;
  try {
    if (!t.snapshot_control) t.snapshot_control = open_control(name, endpoint->second);
    std::array<zmq::const_buffer, 2> question = {zmq::const_buffer(), zmq::str_buffer(R"({"command":"snapshot"})")};
    if (!zmq::send_multipart(*t.snapshot_control, question, zmq::send_flags::dontwait)) return;  // not connected yet: its next message
  } catch (const zmq::error_t& e) {
    snapshot_failed(name, t, "cannot ask " + endpoint->second + " for its snapshot: " + e.what());
    return;
  }
  t.seed = TableState::Seed::Asking;
  t.seed_asked_at = now;
  t.seed_asked_ever = true;
  t.missing_until = 0;
  t.board.asked();
}

void Hub::follow_snapshots() {
  for (auto& [name, t] : tables_)
    if (t.seed != TableState::Seed::Done) maybe_ask_snapshot(name, t);
}

// Seqs of one journal come one by one on the table's single PUB socket (a heartbeat, not journalled, names
// the last seq journalled before it), so a seq skipped is an event lost on the way to the hub -- or a claim
// no journal backs: the table's ClaimJudge tells which (claim_judge.hpp).
void Hub::heard_seq(const std::string& name, TableState& t, std::uint64_t seq, bool through_heartbeat) {
  const ClaimJudge::Heard h = t.claims.heard(seq, through_heartbeat);
  if (h.ask_again_to) ask_snapshot_again(t, *h.ask_again_to);
  if (!h.said.empty()) log(Priority::Warning, name + ": " + h.said);
  if (h.missed) events_missed(name, t, h.missed->first, h.missed->second);
}

void Hub::disown_claim(const std::string& name, TableState& t, std::uint64_t answered) {
  const ClaimJudge::Disowned d = t.claims.answered(answered);
  if (d.said.empty()) return;
  missed_ -= std::min(missed_, d.taken_back);
  log(Priority::Warning, name + ": " + d.said);
}

void Hub::ask_snapshot_again(TableState& t, std::uint64_t to) {
  if (t.seed == TableState::Seed::Asking) {
    t.missing_until = std::max(t.missing_until, to);  // the answer on its way may have been made before them
    return;
  }
  t.seed = TableState::Seed::Unasked;
  t.seed_tries = 0;
}

void Hub::events_missed(const std::string& name, TableState& t, std::uint64_t from, std::uint64_t to) {
  missed_ += to - from + 1;
  const bool asks = table_control_.contains(name);
  if (const std::uint64_t held = gap_log_.roll())
    log(Priority::Warning, std::to_string(held) + " more gaps in the tables' seqs in the last second, not logged one by one");
  if (gap_log_.take())
    log(Priority::Warning, name + ": " + (from == to ? "event #" + std::to_string(from) : "events #" + std::to_string(from) + " to #" + std::to_string(to)) +
                               " of its journal never reached the hub (a network cut, or a queue full on the way): " +
                               (asks ? "asking the table for its snapshot again, so that its board in progress is whole"
                                     : "its board in progress as the hub keeps it may lack them until its next board (--table-control lets the hub ask the table)"));
  if (asks) ask_snapshot_again(t, to);
}

void Hub::snapshot_failed(const std::string& name, TableState& t, const std::string& why) {
  t.snapshot_control.reset();  // a DEALER keeps a lost question: a fresh socket
  t.board.given_up();
  if (++t.seed_tries >= kSnapshotTries) {
    t.seed = TableState::Seed::Done;
    t.claims.snapshots_given_up();  // until an answer comes (a gap asks again)
    log(Priority::Warning, name + ": " + why + "; gave up after " + std::to_string(kSnapshotTries) +
                               " questions: its board in progress is kept from what the hub hears, its next board whole");
    return;
  }
  t.seed = TableState::Seed::Unasked;
  if (t.seed_tries == 1)
    log(Priority::Warning, name + ": " + why + "; asking again (" + std::to_string(kSnapshotTries) +
                               " questions at most), forwarding meanwhile: its board in progress is kept from what the hub hears until it answers");
}

void Hub::take_snapshot_reply(const std::string& name, TableState& t) {
  std::vector<zmq::message_t> f;
  while (t.snapshot_control && zmq::recv_multipart(*t.snapshot_control, std::back_inserter(f), zmq::recv_flags::dontwait)) {
    json r = f.empty() ? json() : json::parse(f.back().to_string_view(), nullptr, false);
    f.clear();
    if (t.seed != TableState::Seed::Asking) continue;  // an answer to a question given up on
    const auto last_seq = r.is_object() ? r.find("last_seq") : r.end();
    if (!r.is_object() || !is_true(r, "ok") || !r.contains("events") || !r["events"].is_array() || last_seq == r.end() ||
        !last_seq->is_number_unsigned()) {
      snapshot_failed(name, t, "its control endpoint answered snapshot with " + shown_reply(r));
      continue;
    }
    if (auto j = r.find("journal"); j != r.end() && j->is_string() && !t.journal.empty() && j->get<std::string>() != t.journal) {
      snapshot_failed(name, t, "its snapshot answered from journal " + j->get<std::string>() + ", not " + t.journal + " that the hub follows");
      continue;
    }
    const std::uint64_t answered = last_seq->get<std::uint64_t>();
    // More than one reply holds (5,000 events): the newest are not in it, and the hub keeps the newest.
    // Its last_seq is still the journal's: it judges a claim as a whole answer's does.
    if (is_true(r, "more")) {
      t.seed = TableState::Seed::Done;
      t.board.given_up();
      t.claims.snapshots_answered();
      log(Priority::Warning, name + ": its board in progress holds more events than one snapshot reply: kept from what the hub hears");
      if (std::exchange(t.missing_until, 0) <= answered) disown_claim(name, t, answered);
      continue;
    }
    if (t.board.overflowed()) {
      snapshot_failed(name, t, std::to_string(kHeardWhileAskingPerTable) + " events forwarded while its snapshot was asked for: more than can be joined to the answer");
      continue;
    }
    t.board.seed(r["events"], answered);
    t.claims.snapshots_answered();  // it answers: its answers check claims again
    t.snapshot_control.reset();  // asked again only for a replaced journal or a gap
    log(Priority::Info, name + ": " + std::to_string(t.board.events().size()) + " events of its board in progress, from its control endpoint's snapshot");
    // Events found missing while the question was out, newer than the answer: not in it; ask again (a
    // claim made meanwhile is checked by that answer).
    t.seed = t.missing_until > answered ? TableState::Seed::Unasked : TableState::Seed::Done;
    t.missing_until = 0;
    if (t.seed == TableState::Seed::Done) disown_claim(name, t, answered);
  }
}

void Hub::take_alerts_reply(const std::string& name, TableState& t) {
  std::vector<zmq::message_t> f;
  while (zmq::recv_multipart(*t.control, std::back_inserter(f), zmq::recv_flags::dontwait)) {
    json r = f.empty() ? json() : json::parse(f.back().to_string_view(), nullptr, false);
    f.clear();
    if (!t.asking) continue;  // an answer to a question given up on
    t.asking = false;
    if (!r.is_object() || !is_true(r, "ok") || !r.contains("alerts")) {
      log(Priority::Warning, name + ": its control endpoint answered alerts with " + shown_reply(r));
      continue;
    }
    if (auto j = r.find("journal"); j != r.end() && j->is_string() && !t.journal.empty() && j->get<std::string>() != t.journal) {
      log(Priority::Warning, name + ": its alerts answered from journal " + j->get<std::string>() + ", not " + t.journal + " that the hub follows: asking again");
      t.asked_ever = false;
      continue;
    }
    // The table's list as it was when it answered, then what the hub forwarded since it asked (those
    // events may already be in the list: giving them again changes nothing).
    t.alerts.replace_open(r["alerts"]);
    for (const json& e : t.since_asked) t.alerts.on_published(e);
    t.since_asked.clear();
    log(Priority::Info, name + ": " + std::to_string(t.alerts.open_count()) + " open alerts, from its control endpoint");
  }
}

void Hub::replace_journal(const std::string& name, TableState& t, const std::string& journal) {
  json open = t.alerts.open();
  std::string said;
  std::size_t n = 0;
  for (json& a : open) {
    if (n++ < 20)
      said += "; seq " + a.value("seq", json(0)).dump() + " " + json(string_field(a, "type")).dump() + " " + json(string_field(a, "message").substr(0, 120)).dump();
    a["replaced"] = true;
    if (!a.contains("journal")) a["journal"] = t.journal;
    t.replaced.push_back(std::move(a));
  }
  while (t.replaced.size() > kReplacedKeptPerTable) t.replaced.pop_front();
  if (n > 20) said += "; and " + std::to_string(n - 20) + " more";
  log(Priority::Notice, name + ": its journal was replaced (" + t.journal + " by " + journal + "): its seqs start again at 1; " +
                            std::to_string(n) + " open alert(s) of the old journal closed here, the table can no longer acknowledge them" + said);
  t.replaced_journals.insert(t.journal);
  t.journal = journal;
  t.alerts = protocol::AlertBook{kAcksKeptPerTable};
  // The old journal's heartbeat counts its open alerts at its last seq: set against the new book it named
  // the table incomplete, gave the old count as the table's and a late joiner the old last_seq, until the
  // new journal's first heartbeat. The new journal has said nothing of its own yet.
  t.last_heartbeat = json();
  t.board.clear();  // the new journal's board begins at its own first event
  t.since_asked.clear();
  if (t.asking) t.control.reset();  // its answer would be the old journal's, or come too late to tell
  t.asking = t.asked_ever = false;  // the new journal's own list is asked for at its next heartbeat
  // and its snapshot now: the hub may have missed the new journal's first events (a restart's reconnection).
  t.snapshot_control.reset();
  t.seed = TableState::Seed::Unasked;
  t.seed_tries = 0;
  t.missing_until = 0;
  t.claims.new_journal();  // its seqs start again at 1; the old journal's claims judge nothing of the new one's
}

// Every table's open alerts, oldest first (by the time each was made; seqs are per table). The hub knows
// the events it forwarded since it started, and the lists of the tables it was told how to ask
// (--table-control): a table whose own count (its last heartbeat's open_alerts) differs from the hub's list
// as it stood at that heartbeat's last_seq is named under "incomplete", so a director asks that table's
// daemon for the full list.
bool Hub::is_silent(const TableState& t, std::chrono::steady_clock::time_point now) const {
  return std::chrono::duration<double>(now - t.last_heard).count() > silent_after_;
}

// A table whose daemon was killed, or whose machine or network went, stayed listed as if alive, its
// alerts with it: a director had no sign that no new alert could come from it.
void Hub::check_silent() {
  const auto now = std::chrono::steady_clock::now();
  for (auto& [name, t] : tables_)
    if (!t.silent && is_silent(t, now)) {
      t.silent = true;
      log(Priority::Warning, name + ": silent for " + std::to_string(static_cast<int>(silent_after_)) +
                                 " s (no heartbeat, no event): its daemon stopped, or its machine or network is down; its " +
                                 std::to_string(t.alerts.open().size()) + " open alerts stay listed");
    }
}

json Hub::alerts() const {
  std::vector<json> all;
  json tables = json::object(), incomplete = json::array(), silent = json::array();
  const auto now = std::chrono::steady_clock::now();
  for (const auto& [name, t] : tables_) {
    json open = t.alerts.open();
    json entry = {{"open", open.size()}};
    // Seconds since the table was last heard (to a tenth), and whether that is past --silent-after.
    entry["heard_ago"] = std::round(std::chrono::duration<double>(now - t.last_heard).count() * 10) / 10;
    if (is_silent(t, now)) {
      entry["silent"] = true;
      silent.push_back(name);
    }
    if (!t.journal.empty()) entry["journal"] = t.journal;
    if (!t.replaced.empty()) entry["replaced"] = json(t.replaced);  // shown, never counted as open: the table cannot acknowledge them
    if (heartbeat_open_alerts(t.last_heartbeat) >= 0) entry["at_table"] = t.last_heartbeat["evidence"]["open_alerts"];
    if (heartbeat_differs(t.last_heartbeat, t.alerts)) incomplete.push_back(name);
    tables[name] = entry;
    for (auto& a : open) all.push_back(std::move(a));
  }
  std::stable_sort(all.begin(), all.end(), [](const json& a, const json& b) {
    double ta = a.contains("time") && a["time"].is_number() ? a["time"].get<double>() : 0;
    double tb = b.contains("time") && b["time"].is_number() ? b["time"].get<double>() : 0;
    return ta < tb;
  });
  return protocol::ok_reply({{"count", all.size()}, {"alerts", all}, {"tables", tables}, {"incomplete", incomplete}, {"silent", silent}});
}

// Each table's own control endpoint, as --table-control gives it, and with CURVE its public key (the
// one the hub asks it with): a director's watch through the hub fills every such table's gaps from its
// own journal, where it could learn one table's endpoint and key from its command line (protocol 1.5).
json Hub::controls() const {
  json out = json::object();
  for (const auto& [table, address] : table_control_) {
    json c = {{"endpoint", address}};
    if (auto key = table_keys_.find(table); curve_ && key != table_keys_.end()) c["server_key"] = key->second;
    out[table] = std::move(c);
  }
  return out;
}

json Hub::dispatch(const std::string& command) {
  if (command == "alerts") return alerts();
  if (command == "status") {
    json silent = json::array();
    const auto now = std::chrono::steady_clock::now();
    for (const auto& [name, t] : tables_)
      if (is_silent(t, now)) silent.push_back(name);
    return protocol::ok_reply({{"tables", tables_.size()}, {"silent", silent}, {"forwarded", forwarded_}, {"dropped", dropped_}, {"missed", missed_}, {"endpoints", bound_},
                               {"controls", controls()}});
  }
  if (command == "version") return protocol::ok_reply({{"hub", CARDTABLE_VERSION}});
  return protocol::error_reply("the hub answers snapshot, alerts, status and version; '" + command.substr(0, 40) +
                               "' is a request for a table's own control endpoint");
}

// Written as text from the bodies kept, each checked as a JSON object when it came: parsing them all
// again made one snapshot of a 200-table venue take seconds, while nothing was forwarded.
std::string Hub::snapshot() const {
  std::string out = R"({"ok":true,"forwarded":)" + std::to_string(forwarded_) + R"(,"tables":{)";
  bool first_table = true;
  for (const auto& [name, t] : tables_) {
    out += (first_table ? "" : ",") + json(name).dump(-1, ' ', false, json::error_handler_t::replace) + R"(:{"events":[)";
    first_table = false;
    bool first = true;
    for (const std::string& body : t.board.events()) {
      if (!first) out += ',';
      out += body;
      first = false;
    }
    out += R"(],"heartbeat":)" + t.last_heartbeat.dump(-1, ' ', false, json::error_handler_t::replace) + "}";
  }
  return out + "}}";
}

std::string Hub::answer(std::string_view frame) noexcept {
  json reply;
  try {
    std::string error;
    auto req = protocol::parse_request(frame, error);
    if (!req) {
      reply = protocol::error_reply(error);
    } else if (req->args.size() > 1 && protocol::answered_by_hub(req->command)) {
      // Only the hub's own requests are refused for their fields: any other (ack SEQ, evidence SEQ, replay
      // --since N...) is a table's, and dispatch says so, whatever its fields.
      reply = protocol::error_reply(req->command.substr(0, 40) + ": the hub's requests have no fields");
    } else if (req->command == "snapshot") {
      return snapshot();
    } else {
      reply = dispatch(req->command);
    }
  } catch (const std::exception& e) {
    reply = protocol::error_reply(std::string("failed: ") + e.what());
  } catch (...) {
    reply = protocol::error_reply("failed");
  }
  try {
    return reply.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (...) {
    return R"({"ok":false,"error":"the reply could not be written"})";
  }
}

int Hub::run() {
  while (true) {
    std::vector<zmq::pollitem_t> items = {{xsub_.handle(), 0, ZMQ_POLLIN, 0}, {xpub_.handle(), 0, ZMQ_POLLIN, 0}, {ctl_.handle(), 0, ZMQ_POLLIN, 0},
                                          {nullptr, signal_fd_, ZMQ_POLLIN, 0}, {zap_ ? zap_->socket().handle() : nullptr, 0, ZMQ_POLLIN, 0}};
    if (!zap_) items.pop_back();
    // The tables' control endpoints, after the hub's own: each socket with what reads its answers.
    using Take = void (Hub::*)(const std::string&, TableState&);
    struct Asking {
      const std::string* name;
      TableState* table;
      Take take;
    };
    std::vector<Asking> asking;
    for (auto& [name, t] : tables_)
      for (auto [socket, take] : {std::pair{t.control.get(), Take{&Hub::take_alerts_reply}}, {t.snapshot_control.get(), Take{&Hub::take_snapshot_reply}}})
        if (socket) {
          items.push_back({socket->handle(), 0, ZMQ_POLLIN, 0});
          asking.push_back({&name, &t, take});
        }
    zmq::poll(items, std::chrono::milliseconds(500));
    for (std::size_t i = 0; i < asking.size(); ++i)
      if (items[items.size() - asking.size() + i].revents & ZMQ_POLLIN) (this->*asking[i].take)(*asking[i].name, *asking[i].table);
    if (items[3].revents & ZMQ_POLLIN) {
      log(Priority::Notice, "stopping");
      return 0;
    }
    if (zap_ && (items[4].revents & ZMQ_POLLIN)) {
      zap_->handle();
      for (const auto& why : zap_->take_refusals()) log(Priority::Warning, why);
    }
    if (items[0].revents & ZMQ_POLLIN) forward_upstream();
    // Subscribers' (un)subscriptions are read and go no further: the hub takes every topic from the
    // tables itself, and passing them on let any subscriber grow each table's filter without bound.
    for (int n = 0; n < kForwardBatch && (items[1].revents & ZMQ_POLLIN); ++n) {
      zmq::message_t m;
      if (!xpub_.recv(m, zmq::recv_flags::dontwait)) break;
    }
    // One request a round: a client queuing snapshots must not stop the forwarding between them.
    if (items[2].revents & ZMQ_POLLIN) {
      std::vector<zmq::message_t> f;
      if (zmq::recv_multipart(ctl_, std::back_inserter(f), zmq::recv_flags::dontwait) && f.size() >= 2) {
        std::string body = answer(f.back().to_string_view());
        std::vector<zmq::const_buffer> out;
        for (std::size_t i = 0; i + 1 < f.size(); ++i) out.emplace_back(f[i].data(), f[i].size());
        out.push_back(zmq::buffer(body));
        zmq::send_multipart(ctl_, out, zmq::send_flags::dontwait);
      }
    }
    check_silent();
    follow_snapshots();
    if (const std::uint64_t held = drop_log_.roll())
      log(Priority::Warning, std::to_string(held) + " more messages dropped from upstream in the last second, not logged one by one");
  }
}

}  // namespace cardtable::hub
