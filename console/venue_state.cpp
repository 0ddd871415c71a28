#include "venue_state.hpp"

#include <algorithm>

#include "protocol/heartbeat.hpp"
#include "protocol/json_fields.hpp"

namespace cardtable::console {
using json = nlohmann::json;
using protocol::seq_field;

namespace {

// Event classes whose evidence a director reads: the irregularity's expected-against-observed, a timing,
// a device's health, an acknowledgement. Board and auction evidence says nothing a director needs and,
// on a wire older than 1.1, could name cards.
bool evidence_for_director(const std::string& cls) {
  return cls == "irregularity" || cls == "timing" || cls == "director" || cls == "device" || cls == "reading" ||
         cls == "record" || cls == "daemon";
}
// Evidence keys that would carry a hand or the play, whatever the event: never forwarded to a director.
bool hand_content_key(const std::string& k) {
  return k == "deal" || k == "hands" || k == "hand" || k == "play" || k == "cards" || k == "pbn" || k == "lin";
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number()) return it->dump();
  return {};
}
std::string evidence(const json& e, const char* key) {
  auto it = e.find("evidence");
  return it != e.end() && it->is_object() ? str(*it, key) : std::string{};
}
double number(const json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}
double seconds_in(const std::string& text) {  // "37.0 s" -> 37
  try {
    return text.empty() ? 0 : std::stod(text);
  } catch (...) {
    return 0;
  }
}

}  // namespace

std::string VenueState::table_id(const json& e) {
  return str(e, "tournament") + "/" + str(e, "section") + "/" + str(e, "table");
}

std::string VenueState::live_key(const json& e) { return str(e, "session") + "/" + str(e, "board"); }

json VenueState::director_view(const json& e) {
  if (!e.is_object()) return nullptr;
  std::string type = str(e, "type"), cls = str(e, "class");
  if (cls.empty()) cls = type.substr(0, type.find('.'));
  if (cls == "live" || cls == "play" || type.starts_with("live.") || type.starts_with("play.")) return nullptr;
  json v = json::object();
  for (const char* k : {"seq", "journal", "type", "class", "severity", "time", "mono", "message", "tournament", "section", "table", "event",
                        "session", "board", "laws", "seats"})
    if (e.contains(k)) v[k] = e[k];
  v["class"] = cls;
  if (evidence_for_director(cls) && e.contains("evidence") && e["evidence"].is_object()) {
    json ev = json::object();
    for (const auto& [k, val] : e["evidence"].items())
      if (!hand_content_key(k)) ev[k] = val;
    if (!ev.empty()) v["evidence"] = ev;
  }
  return v;
}

TableView& VenueState::table(const std::string& id) {
  auto [it, fresh] = tables_.try_emplace(id);
  if (fresh) it->second.id = id;
  return it->second;
}

void VenueState::declare_table(const std::string& id, double now) {
  TableView& t = table(id);
  if (t.last_heard == 0 && t.awaited_since == 0) t.awaited_since = now;
}

// Silent: nothing heard for lost_after_s (or three of the table's heartbeats, when they say they come
// further apart), or, for a table named in the config and never heard, nothing since the console began
// to wait for it (a dead daemon is not an idle table).
bool VenueState::silent(const TableView& t, double now) const {
  const double since = t.last_heard > 0 ? t.last_heard : t.awaited_since;
  return since > 0 && now - since > std::max(lost_after_s_, 3 * t.heartbeat_every);
}

bool VenueState::apply_event(const json& e, double now) {
  json v = director_view(e);
  if (v.is_null() || !e.contains("table") || from_replaced_journal(e)) return false;
  note_journal(e);  // the gateway has done it (and logged it) already; a no-op then
  TableView& t = table(table_id(e));
  t.last_heard = now;
  silent_[t.id] = false;
  std::string type = str(v, "type"), cls = str(v, "class"), sev = str(v, "severity");
  // Seq 0 names no event of the journal: shown, never taken for the new journal's first seq (which
  // hid that journal's gap from seq 1, gap_before).
  if (const std::uint64_t seq = seq_field(e)) {
    t.last_seq = std::max(t.last_seq, seq);
    t.seqs_restarted = false;
  }
  if (type == "daemon.heartbeat") {
    // The heartbeat says the table is alive and in which phase; events say more, so it only fills gaps.
    std::string phase = evidence(e, "phase");
    if (phase == "auction" || phase == "play") t.phase = phase;
    if (const auto every = protocol::heartbeat_every(e)) t.heartbeat_every = *every;
    if (std::string tr = evidence(e, "tricks"); !tr.empty()) t.tricks = static_cast<int>(seconds_in(tr));
    return true;
  }
  double at = number(e, "time", now);
  if (int b = static_cast<int>(number(e, "board", 0)); b > 0 && t.phase != "done") t.board = b;
  if (type == "board.arrived" || type == "board.identified") {
    int b = static_cast<int>(number(e, "board", 0));
    if (type == "board.arrived" || t.phase == "idle" || t.phase == "done" || b != t.board) {
      if (t.phase == "idle" || t.phase == "done" || type == "board.arrived") {
        t.phase = "ready";
        t.board_since = at;
        t.board_ended = 0;
        t.tricks = 0;
        t.tricks_ns = t.tricks_ew = -1;
      }
    }
    if (b) t.board = b;
    if (std::string n = evidence(e, "board"); !n.empty()) t.board_name = n;
  } else if (type == "auction.period_started") {
    t.phase = "auction";
    if (t.board_since <= 0) t.board_since = at;
  } else if (type == "auction.period_ended") {
    t.phase = "play";
  } else if (type == "board.trick") {
    // How many tricks are played is public; who won them comes from the table on request (gateway).
    if (std::string tr = evidence(e, "tricks"); !tr.empty()) t.tricks = static_cast<int>(seconds_in(tr));
    if (t.phase != "done") t.phase = "play";
  } else if (type == "board.returned") {
    t.phase = "done";
    t.board_ended = at;
    if (std::string tr = evidence(e, "tricks"); !tr.empty()) t.tricks = static_cast<int>(seconds_in(tr));
    double secs = seconds_in(evidence(e, "duration"));
    if (secs <= 0 && t.board_since > 0) secs = at - t.board_since;
    t.history.push_front({{"board", t.board}, {"seconds", secs}, {"slow", secs > allowance_s_}, {"ended", at}});
    if (t.history.size() > kHistoryLength) t.history.pop_back();
  } else if (type == "timing.slow_board" && !t.history.empty() && number(t.history.front(), "board") == t.board) {
    t.history.front()["slow"] = true;
  } else if (type == "director.ack") {
    close_acknowledged(t, e);
  } else if (cls == "device") {
    std::string dev = evidence(e, "device");
    if (dev.empty()) dev = type;
    // A reader missing many replies still reads (1.9): named on the tile until it is said good again,
    // not taken for a device gone.
    if (type == "device.health") t.devices[dev] = evidence(e, "state") == "missing replies" ? "missing replies" : "ok";
    else t.devices[dev] = type.ends_with("lost") ? "lost" : type.ends_with("error") ? "error" : "ok";
  } else if (type == "reading.resumed" || (type == "reading.uncertain" && zone_goes_unread(evidence(e, "cause")))) {
    std::string zone = evidence(e, "zone");
    if (zone.empty()) zone = "reading";
    t.devices[zone] = type == "reading.uncertain" ? "uncertain" : "ok";
  }
  // An alert stays open until a director acknowledges it (the daemon publishes director.ack).
  open_unless_acknowledged(t, v);
  t.timeline.push_front(v);
  if (t.timeline.size() > kTimelineLength) t.timeline.pop_back();
  return true;
}

std::uint64_t VenueState::published_before(const json& e) {
  if (const std::uint64_t seq = seq_field(e)) return seq - 1;
  if (str(e, "type") == "daemon.heartbeat") {
    try {
      return std::stoull(evidence(e, "last_seq"));
    } catch (...) {
    }
  }
  return 0;
}

std::uint64_t VenueState::gap_before(const json& e) const {
  auto it = tables_.find(table_id(e));
  // A table first heard now: nothing to compare. One whose journal was just replaced: everything of the
  // new journal before this event is missing (from seq 1).
  if (it == tables_.end() || (it->second.last_seq == 0 && !it->second.seqs_restarted)) return 0;
  const std::uint64_t seen = it->second.last_seq, now_at = published_before(e);
  return now_at > seen ? seen + 1 : 0;
}

std::vector<SeqRanges::Range> VenueState::mark_missed(const std::string& id, std::uint64_t first, std::uint64_t last) {
  return table(id).missed.add(first, last);
}

std::uint64_t VenueState::mark_recovered(const std::string& id, std::uint64_t first, std::uint64_t last) {
  return table(id).missed.remove(first, last);
}

std::vector<SeqRanges::Range> VenueState::mark_live_missed(const std::string& id, std::uint64_t first, std::uint64_t last) {
  return table(id).live_missed.add(first, last);
}

std::uint64_t VenueState::mark_live_recovered(const std::string& id, std::uint64_t first, std::uint64_t last) {
  return table(id).live_missed.remove(first, last);
}

bool VenueState::shows_unseen_history(const json& e) const {
  if (!e.is_object() || !e.contains("table")) return false;
  auto it = tables_.find(table_id(e));
  // A journal replaced is replayed from seq 1 (gap_before): its open alerts come with it.
  if (it != tables_.end() && (it->second.last_seq != 0 || it->second.seqs_restarted)) return false;
  if (const std::uint64_t seq = seq_field(e)) return seq > 1;
  if (str(e, "type") != "daemon.heartbeat") return false;
  try {
    return std::stoull(evidence(e, "last_seq")) > 0;
  } catch (...) {
    return false;
  }
}

void VenueState::apply_replayed(const json& e) {
  json v = director_view(e);
  // A replay gives journalled events: seq 0 is none of them.
  const std::uint64_t seq = seq_field(v);
  if (v.is_null() || seq == 0 || !e.contains("table") || !of_current_journal(e)) return;
  TableView& t = table(table_id(e));
  t.last_seq = std::max(t.last_seq, seq);
  t.seqs_restarted = false;
  if (str(v, "type") == "director.ack")
    close_acknowledged(t, e);
  else
    open_unless_acknowledged(t, v);
  // In seq order among the events shown (newest first): a replay answers after the later event that
  // showed the gap, and the timeline read #16 #17 #13 #14 #15 after a table's restart.
  auto at = std::find_if(t.timeline.begin(), t.timeline.end(), [seq](const json& shown) {
    auto s = shown.find("seq");
    return s != shown.end() && s->is_number_unsigned() && s->get<std::uint64_t>() < seq;
  });
  t.timeline.insert(at, std::move(v));
  if (t.timeline.size() > kTimelineLength) t.timeline.pop_back();
}

// A zone silent, or its device lost, reads nothing until a reading.resumed says so. Flicker and low
// confidence are said when they begin and never when they end (the zone settles without a word), and a
// stray zone's reading has no end at all: marked, each left its zone "uncertain" for the rest of the
// session.
bool VenueState::zone_goes_unread(const std::string& cause) { return cause == "silent" || cause == "device lost"; }

bool VenueState::is_alert(const json& v) {
  const std::string sev = str(v, "severity"), cls = str(v, "class");
  return sev == "alert" || (sev == "warning" && (cls == "irregularity" || cls == "timing"));
}

bool VenueState::alert_open(const std::string& table, std::uint64_t seq) const {
  auto it = tables_.find(table);
  return it != tables_.end() && it->second.open_alerts.count(seq);
}

void VenueState::close_acknowledged(TableView& t, const json& ack) {
  try {
    const std::uint64_t seq = std::stoull(evidence(ack, "seq"));
    t.open_alerts.erase(seq);
    t.acked.insert(seq);
    while (t.acked.size() > kAcksKept) t.acked.erase(t.acked.begin());
  } catch (...) {  // an ack naming no seq closes nothing
  }
}

void VenueState::open_unless_acknowledged(TableView& t, const json& v) {
  // Seq 0 could never be acknowledged (an ack names a seq from 1): held open, it kept its tile an alert for good.
  const std::uint64_t seq = seq_field(v);
  if (seq == 0 || !is_alert(v)) return;
  if (!t.acked.count(seq)) t.open_alerts[seq] = v;
}

std::optional<JournalChange> VenueState::note_journal(const json& e) {
  if (!e.is_object() || !e.contains("table")) return std::nullopt;
  const std::string j = str(e, "journal");
  if (j.empty()) return std::nullopt;  // a daemon older than protocol 1.4: seqs alone, as before
  TableView& t = table(table_id(e));
  if (t.journal == j || t.replaced_journals.count(j)) return std::nullopt;
  if (t.journal.empty()) {  // first heard (or a daemon upgraded to 1.4): its journal goes on
    t.journal = j;
    return std::nullopt;
  }
  JournalChange change{t.id, t.journal, j, t.open_alerts.size()};
  // The old journal's open alerts cannot be acknowledged at the table any more (an ack of their seq would
  // reach another event): kept, marked, shown; never merged with the new journal's alerts of the same seq.
  for (auto& [seq, alert] : t.open_alerts) {
    json a = alert;
    a["replaced"] = true;
    if (!a.contains("journal")) a["journal"] = t.journal;
    t.replaced_alerts.push_back(std::move(a));
  }
  while (t.replaced_alerts.size() > kReplacedAlertsKept) t.replaced_alerts.pop_front();
  t.open_alerts.clear();
  t.acked.clear();  // the new journal's seqs are other events
  t.replaced_journals.insert(t.journal);
  t.journal = j;
  t.last_seq = 0;
  t.missed.clear();
  t.trick_seq = 0;
  t.seqs_restarted = true;
  json note = {{"type", "console.journal_replaced"}, {"class", "console"}, {"severity", "warning"}, {"time", number(e, "time")},
               {"tournament", str(e, "tournament")}, {"section", str(e, "section")}, {"table", str(e, "table")}, {"journal", j},
               {"message", "The table's journal was replaced (" + change.from + " by " + j + "): its seqs start again at 1; " +
                               std::to_string(change.alerts_replaced) +
                               " open alert(s) of the old journal can no longer be acknowledged at the table and are shown as replaced"}};
  t.timeline.push_front(std::move(note));
  if (t.timeline.size() > kTimelineLength) t.timeline.pop_back();
  return change;
}

json VenueState::dismiss_replaced(const std::string& table, const std::string& journal, std::uint64_t seq, const std::string& by, double now) {
  json dismissed = json::array();
  auto it = tables_.find(table);
  if (it == tables_.end()) return dismissed;
  TableView& t = it->second;
  std::erase_if(t.replaced_alerts, [&](const json& a) {
    const bool chosen = (journal.empty() || str(a, "journal") == journal) &&
                        (seq == 0 || seq_field(a) == seq);
    if (chosen) dismissed.push_back({{"table", table}, {"journal", str(a, "journal")}, {"seq", a.value("seq", json())}});
    return chosen;
  });
  if (dismissed.empty()) return dismissed;
  const auto first = table.find('/'), last = table.rfind('/');  // a key of tables_: "TOURNAMENT/SECTION/TABLE"
  json note = {{"type", "console.replaced_dismissed"}, {"class", "console"}, {"severity", "info"}, {"time", now},
               {"tournament", table.substr(0, first)}, {"section", table.substr(first + 1, last - first - 1)}, {"table", table.substr(last + 1)},
               {"by", by},
               {"message", by + " dismissed " + std::to_string(dismissed.size()) + " alert(s) of the replaced journal" +
                               (dismissed.size() == 1 ? " " + str(dismissed[0], "journal") + " (seq " + dismissed[0]["seq"].dump() + ")" : std::string()) +
                               ": handled by hand, the table could not acknowledge them"}};
  t.timeline.push_front(std::move(note));
  if (t.timeline.size() > kTimelineLength) t.timeline.pop_back();
  return dismissed;
}

bool VenueState::from_replaced_journal(const json& e) const {
  if (!e.is_object()) return false;
  auto it = tables_.find(table_id(e));
  const std::string j = str(e, "journal");
  return it != tables_.end() && !j.empty() && it->second.replaced_journals.count(j) != 0;
}

bool VenueState::of_current_journal(const json& e) const {
  if (!e.is_object()) return false;
  auto it = tables_.find(table_id(e));
  const std::string j = str(e, "journal");
  return it == tables_.end() || j.empty() || it->second.journal.empty() || it->second.journal == j;
}

std::string VenueState::journal_of(const std::string& table) const {
  auto it = tables_.find(table);
  return it == tables_.end() ? std::string() : it->second.journal;
}

bool VenueState::journal_replaced(const std::string& table) const {
  auto it = tables_.find(table);
  return it != tables_.end() && !it->second.replaced_journals.empty();
}

std::string VenueState::live_journal_of(const std::string& table) const {
  auto it = tables_.find(table);
  return it == tables_.end() ? std::string() : it->second.live_journal;
}

bool VenueState::apply_trick_count(const std::string& id, std::uint64_t seq, const json& detail) {
  auto it = tables_.find(id);
  if (it == tables_.end() || !detail.is_object() || seq < it->second.trick_seq) return false;
  double ns = seconds_in(str(detail, "ns")), ew = seconds_in(str(detail, "ew"));
  if (!detail.contains("ns") || !detail.contains("ew") || ns < 0 || ew < 0 || ns + ew > 13) return false;
  TableView& t = it->second;
  t.trick_seq = seq;
  t.tricks_ns = static_cast<int>(ns);
  t.tricks_ew = static_cast<int>(ew);
  return true;
}

namespace {
// A replay that fills a gap brings cards after later ones came: each goes where its seq puts it.
void insert_in_play_order(json& list, json x) {
  const std::uint64_t seq = seq_field(x);
  auto at = list.end();
  while (seq && at != list.begin() && seq_field(*std::prev(at)) > seq) --at;
  list.insert(at, std::move(x));
}
}  // namespace

std::uint64_t VenueState::live_last_seq(const std::string& table) const {
  auto it = tables_.find(table);
  return it == tables_.end() ? 0 : it->second.live_last_seq;
}

bool VenueState::heard_within(const std::string& table, double now, double seconds) const {
  auto it = tables_.find(table);
  return it != tables_.end() && it->second.last_heard > 0 && now - it->second.last_heard <= seconds;
}

std::uint64_t VenueState::live_gap_before(const json& e) const {
  if (!e.is_object() || !e.contains("table")) return 0;
  const std::uint64_t seq = seq_field(e), last = live_last_seq(table_id(e));
  auto it = tables_.find(table_id(e));
  if (const std::string j = str(e, "journal"); it != tables_.end() && !j.empty() && !it->second.live_journal.empty() && j != it->second.live_journal)
    return (it->second.replaced_live_journals.count(j) != 0 || seq <= 1) ? 0 : 1;  // a new live journal: from its seq 1
  return last && seq > last + 1 ? last + 1 : 0;
}

bool VenueState::apply_live(const json& e) {
  if (!e.is_object() || !e.contains("table")) return false;
  std::string type = str(e, "type");
  if (type != "live.deal" && type != "live.card" && type != "live.trick" && type != "live.double_dummy") return false;
  TableView& t = table(table_id(e));
  // A live journal started again (its state folder wiped): its seqs are new releases, not ones applied.
  const std::string journal = str(e, "journal");
  if (!journal.empty()) {
    if (t.replaced_live_journals.count(journal)) return false;
    if (!t.live_journal.empty() && t.live_journal != journal) {
      t.replaced_live_journals.insert(t.live_journal);
      t.live_seen.clear();
      t.live_last_seq = 0;
      t.live_missed.clear();  // as the events' journal (note_journal): counted per journal
      t.live_deal_seq.clear();
    }
    t.live_journal = journal;
  }
  // Once each: the stream, the start's catch-up and a gap's replay overlap (a board's cards were
  // counted twice, 104 to a board).
  const std::uint64_t seq = seq_field(e);
  if (seq) {
    if (!t.live_seen.insert(seq).second) return false;
    if (t.live_seen.size() > kLiveSeqsKept) t.live_seen.erase(t.live_seen.begin());
    t.live_last_seq = std::max(t.live_last_seq, seq);
  }
  std::string key = live_key(e);
  std::uint64_t& deal_seq = t.live_deal_seq[key];
  if (seq && seq < deal_seq) return false;  // an older play of a board played again: the newest is shown
  json& b = t.live_boards[key];
  // A board of the replaced live journal played again under the new one: the newest play is shown.
  if (b.is_object() && !journal.empty() && b.contains("journal") && b["journal"] != journal) b = nullptr;
  if (b.is_null()) b = {{"table", t.id}, {"session", str(e, "session")}, {"board", static_cast<int>(number(e, "board"))},
                        {"event", str(e, "event")}, {"tricks", json::array()}, {"cards", json::array()}};
  if (!journal.empty()) b["journal"] = journal;
  json ev = e.contains("evidence") && e["evidence"].is_object() ? e["evidence"] : json::object();
  if (type == "live.deal") {
    if (seq && deal_seq) {
      // The board played again (a newer play): the older play's cards and tricks go; any of the newer
      // play already applied (a replay fills the gap before them after they came) stay.
      for (const char* list : {"cards", "tricks"}) {
        json kept = json::array();
        for (const auto& x : b[list])
          if (seq_field(x) > seq) kept.push_back(x);
        b[list] = std::move(kept);
      }
      b.erase("double_dummy");
    }
    if (seq) deal_seq = seq;
    for (const auto& [k, val] : ev.items()) b[k] = val;  // deal, dealer, vulnerable, and a double-dummy table when given
  } else if (type == "live.card") {
    json card = {{"seat", e.contains("seats") && e["seats"].is_array() && !e["seats"].empty() ? e["seats"][0] : json("")},
                 {"card", str(ev, "card")}, {"trick", str(ev, "trick")}};
    if (seq) card["seq"] = seq;
    insert_in_play_order(b["cards"], std::move(card));
  } else if (type == "live.trick") {
    if (seq) ev["seq"] = seq;
    insert_in_play_order(b["tricks"], std::move(ev));
  } else if (type == "live.double_dummy") {
    b["double_dummy"] = ev;  // N/S/E/W rows of tricks by strain (NT S H D C), optimum_score, par
  } else {
    return false;
  }
  return true;
}

std::string VenueState::state_of(const TableView& t, double now) const {
  // A silent table first: it hid behind an unacknowledged alert, and a dead table is what a director
  // must see at once (the tile still counts its alerts, and the alert list still holds them).
  if (silent(t, now)) return "lost";
  if (!t.open_alerts.empty()) return "alert";
  for (const auto& [d, h] : t.devices)
    if (h == "lost") return "lost";
  return t.phase;
}

json VenueState::tile(const std::string& id, double now) const {
  auto it = tables_.find(id);
  if (it == tables_.end()) return nullptr;
  const TableView& t = it->second;
  json devices = json::object();
  for (const auto& [d, h] : t.devices) devices[d] = h;
  return {{"id", t.id},
          {"table", t.id.substr(t.id.rfind('/') + 1)},
          {"state", state_of(t, now)},
          {"phase", t.phase},
          {"board", t.board},
          {"board_since", t.board_since},
          {"board_ended", t.board_ended},
          {"allowance", allowance_s_},
          {"tricks", t.tricks},
          {"tricks_ns", t.tricks_ns},
          {"tricks_ew", t.tricks_ew},
          {"alerts", t.open_alerts.size()},
          {"devices", devices},
          {"last_heard", t.last_heard},
          {"heard", t.last_heard > 0},
          {"silent", silent(t, now)},  // lost for its silence, not (only) for a device: the page says which
          {"missed", t.missed.count()},
          {"live_missed", t.live_missed.count()},
          {"last_seq", t.last_seq},
          {"journal", t.journal},
          {"replaced_alerts", t.replaced_alerts.size()}};
}

json VenueState::director_snapshot(double now) const {
  json tiles = json::array(), alerts = json::array();
  std::vector<json> all;
  for (const auto& [id, t] : tables_) {
    tiles.push_back(tile(id, now));
    for (const auto& [seq, a] : t.open_alerts) all.push_back(a);
    for (const json& a : t.replaced_alerts) all.push_back(a);  // marked "replaced": shown, not acknowledgeable
  }
  std::sort(all.begin(), all.end(), [](const json& a, const json& b) { return number(a, "time") > number(b, "time"); });
  for (auto& a : all) alerts.push_back(std::move(a));
  return {{"tables", tiles}, {"alerts", alerts}, {"now", now}};
}

json VenueState::table_detail(const std::string& id, double now) const {
  auto it = tables_.find(id);
  if (it == tables_.end()) return nullptr;
  json timeline = json::array(), history = json::array();
  for (const auto& e : it->second.timeline) timeline.push_back(e);
  for (const auto& h : it->second.history) history.push_back(h);
  return {{"tile", tile(id, now)}, {"timeline", timeline}, {"history", history}};
}

json VenueState::broadcast_snapshot() const {
  json boards = json::array();
  for (const auto& [id, t] : tables_)
    for (const auto& [k, b] : t.live_boards) boards.push_back(b);
  return {{"boards", boards}};
}

json VenueState::live_board(const std::string& table, const std::string& key) const {
  auto it = tables_.find(table);
  if (it == tables_.end()) return nullptr;
  auto b = it->second.live_boards.find(key);
  return b == it->second.live_boards.end() ? json(nullptr) : b->second;
}

std::vector<std::string> VenueState::newly_silent(double now) {
  std::vector<std::string> out;
  for (const auto& [id, t] : tables_) {
    const bool now_silent = silent(t, now);
    bool& was = silent_[id];
    if (now_silent != was) out.push_back(id);
    was = now_silent;
  }
  return out;
}

}  // namespace cardtable::console
