#include "table/board_check.hpp"

#include <algorithm>
#include <array>

#include "table/hand_moves.hpp"
#include "table/unshuffled.hpp"

namespace cardtable::table {
using namespace cardtable::bridge;

namespace {

std::string seat_word(Seat s) { return std::string(seat_name(s)); }

std::string card_list(const std::vector<Card>& cards) {
  std::string out;
  for (const Card& c : cards) out.append(out.empty() ? "" : " ").append(c.str());  // appends: see Table::emit_capabilities
  return out;
}

Event make(std::string type, Severity sev, std::vector<std::string> laws, Millis time, std::string message) {
  Event e;
  e.type = std::move(type);
  e.severity = sev;
  e.laws = std::move(laws);
  e.time = time;
  e.message = std::move(message);
  return e;
}

// Cards of the read pockets that sit elsewhere in the master deal: "SA N->E" (expected N, found E).
// Cards read twice are surplus cards (13C), reported as such, not as misplaced.
std::vector<std::pair<Card, std::pair<Seat, Seat>>> misplaced(const std::array<PocketRead, 4>& pockets, const Deal& master) {
  std::vector<std::pair<Card, std::pair<Seat, Seat>>> out;
  std::array<int, kCards> times{};
  for (const PocketRead& p : pockets)
    for (const Card& c : p.cards) ++times[static_cast<std::size_t>(c.id())];
  for (Seat s : kAllSeats)
    for (const Card& c : pockets[static_cast<std::size_t>(index(s))].cards)
      if (auto owner = master.holder(c); owner && *owner != s && times[static_cast<std::size_t>(c.id())] == 1)
        out.push_back({c, {*owner, s}});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  return out;
}

// The pockets `c` was read in, in seat order, a pocket again for each time it read it.
std::vector<Seat> where_read(const std::array<PocketRead, 4>& pockets, Card c) {
  std::vector<Seat> out;
  for (Seat s : kAllSeats)
    for (const Card& read : pockets[static_cast<std::size_t>(index(s))].cards)
      if (read == c) out.push_back(s);
  return out;
}

}  // namespace

BoardCheck check_board(const std::array<PocketRead, 4>& pockets, const MasterRecord& master,
                       std::optional<std::uint32_t> expected, std::optional<std::uint32_t> session, Millis time,
                       const PreviousBoard* previous) {
  BoardCheck out;
  out.board = expected;
  std::string where = "Board";
  auto board_text = [&](std::optional<std::uint32_t> b) {
    return b ? "Board " + std::to_string(master.board(*b).board) : std::string("The board");
  };

  // What was read: each pocket's cards, and how often each card was read (a count, not the pockets: a
  // clean board reads every card once, and only a card read twice needs its pockets -- where_read).
  Deal read;
  std::array<int, kCards> reads{};  // by card id
  int unknown_total = 0;
  for (Seat s : kAllSeats) {
    const PocketRead& p = pockets[static_cast<std::size_t>(index(s))];
    for (const Card& c : p.cards) {
      read.hand(s).add(c);
      ++reads[static_cast<std::size_t>(c.id())];
    }
    unknown_total += p.unknown;
  }

  // Law 13: a pocket with other than 13 cards (unknown tags are cards too: something is there).
  std::vector<std::pair<Seat, int>> wrong;
  for (Seat s : kAllSeats) {
    const PocketRead& p = pockets[static_cast<std::size_t>(index(s))];
    int n = static_cast<int>(p.cards.size()) + p.unknown;
    if (n != 13) wrong.emplace_back(s, n);
  }
  if (!wrong.empty()) {
    std::sort(wrong.begin(), wrong.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string counts, list;
    Event e = make("irregularity.wrong_count", Severity::Alert, {"13A"}, time, "");
    for (const auto& [s, n] : wrong) {
      counts += (counts.empty() ? "" : ", ") + seat_word(s) + (list.empty() ? " holds " : " ") + std::to_string(n) +
                (list.empty() ? (n == 1 ? " card" : " cards") : "");
      list += (list.empty() ? "" : " ") + std::string(1, seat_letter(s)) + "=" + std::to_string(n);
      e.seats.push_back(s);
    }
    e.evidence = {{"expected", "13 each"}, {"observed", list}};
    e.message = board_text(expected) + ": " + counts + " \u2014 no call made yet (Law 13A)";
    out.events.push_back(std::move(e));
  }

  // Law 13C: a card read twice (the same card in two pockets, or twice in one).
  for (int id = 0; id < kCards; ++id) {
    if (reads[static_cast<std::size_t>(id)] < 2) continue;
    Card c = Card::from_id(id);
    const std::vector<Seat> where_seen = where_read(pockets, c);
    Event e = make("irregularity.surplus_card", Severity::Alert, {"13C"}, time, "");
    std::string places;
    for (Seat s : where_seen)
      if (std::find(e.seats.begin(), e.seats.end(), s) == e.seats.end()) {
        e.seats.push_back(s);
        places += (places.empty() ? "" : " and ") + seat_word(s);
      }
    std::string times = where_seen.size() == 2 ? "twice" : std::to_string(where_seen.size()) + " times";
    e.evidence = {{"observed", std::to_string(where_seen.size()) + " times"}, {"pockets", places}};
    e.message = board_text(expected) + ": a card was read " + times +
                (e.seats.size() == 1 ? " in " + places + "'s pocket" : " (" + places + ")") + " \u2014 a card that is no part of the deal (Law 13C)";
    e.card_evidence = {{"card", c.str()}};
    // The tags read for it, where the device gives them: two tags are two cards, one of another pack, and
    // the director finds the one to take out by its UID.
    std::string uids;
    for (Seat s : e.seats)
      for (auto [tag, end] = pockets[static_cast<std::size_t>(index(s))].card_ids.equal_range(c); tag != end; ++tag)
        uids += (uids.empty() ? "" : ",") + tag->second;
    if (!uids.empty()) e.card_evidence.emplace_back("uids", uids);
    e.card_message = board_text(expected) + ": " + c.display() + " was read " + times;
    out.events.push_back(std::move(e));
  }

  // A tag or image that is no card of the enrolled deck.
  for (Seat s : kAllSeats) {
    int n = pockets[static_cast<std::size_t>(index(s))].unknown;
    if (n == 0) continue;
    Event e = make("irregularity.unknown_card", Severity::Warning, {}, time,
                   board_text(expected) + ": " + (n == 1 ? std::string("a tag") : std::to_string(n) + " tags") + " in " +
                       seat_word(s) + "'s pocket " + (n == 1 ? "is" : "are") + " no card of the enrolled deck");
    e.seats = {s};
    e.evidence = {{"unknown", std::to_string(n)}};
    // The tags' UIDs, for a director looking for the stray tag (director-only detail, like the cards).
    std::string ids;
    for (const std::string& id : pockets[static_cast<std::size_t>(index(s))].unknown_ids) ids += (ids.empty() ? "" : ",") + id;
    if (!ids.empty()) e.card_evidence = {{"uids", ids}};
    out.events.push_back(std::move(e));
  }

  // Law 14: a card of the deck that is nowhere.
  std::vector<Card> missing;
  for (int id = kCards - 1; id >= 0; --id)
    if (reads[static_cast<std::size_t>(id)] == 0) missing.push_back(Card::from_id(id));
  if (!missing.empty()) {
    Event e = make("irregularity.missing_card", Severity::Alert, {"14"}, time, "");
    e.evidence = {{"missing", std::to_string(missing.size())}};
    e.card_evidence = {{"missing", card_list(missing)}};
    std::string shown;
    for (std::size_t i = 0; i < missing.size() && i < 6; ++i) shown += (i ? ", " : "") + missing[i].display();
    if (missing.size() > 6) shown += " and " + std::to_string(missing.size() - 6) + " more";
    e.message = board_text(expected) + ": " + (missing.size() == 1 ? "a card is missing" : std::to_string(missing.size()) + " cards are missing") +
                (unknown_total ? " (unknown tags were read: perhaps damaged cards)" : "") + " (Law 14)";
    e.card_message = board_text(expected) + ": missing " + shown;
    if (expected)
      for (const Card& c : missing)
        if (auto owner = master.board(*expected).deal.holder(c);
            owner && std::find(e.seats.begin(), e.seats.end(), *owner) == e.seats.end())
          e.seats.push_back(*owner);
    out.events.push_back(std::move(e));
  }

  std::array<Hand, 4> pocket_hands{};
  for (Seat s : kAllSeats) pocket_hands[static_cast<std::size_t>(index(s))] = read.hand(s);

  // The few cards out of place against a reference deal (the master's, or as turned): "3 cards are in
  // the wrong pockets", the list for directors only.
  auto misplaced_event = [&](std::uint32_t reference, const SeatMap& map, const std::string& why) {
    Deal deal = master.board(reference).deal.permuted(map);
    std::vector<Misplaced> list;
    for (const auto& [c, seats] : misplaced(pockets, deal)) list.push_back({c, seats.first, seats.second});
    if (list.empty()) return;
    Event e = make("irregularity.deal_mismatch", Severity::Alert, {"6", "87A"}, time, "");
    e.seats = misplaced_seats(list);
    e.evidence = {{"expected", master.describe(reference)}, {"misplaced", std::to_string(list.size())}};
    if (map != kIdentitySeats) e.evidence.emplace_back("against", describe(map));
    e.card_evidence = {{"misplaced", misplaced_list(list)}};
    std::string n = list.size() == 1 ? "1 card is in the wrong pocket" : std::to_string(list.size()) + " cards are in the wrong pockets";
    e.message = board_text(reference) + ": " + n + (map == kIdentitySeats ? "" : " of the deal " + map_as(map)) + why + " (Laws 6, 87A)";
    e.card_message = board_text(reference) + ": " + misplaced_display(list);
    out.events.push_back(std::move(e));
  };

  // The nearest master board under every turn and permutation of the pockets: the board named, or a
  // board of the session, with most cards in place (40 or more), the board named winning ties.
  struct Nearest {
    std::uint32_t entry = 0;
    NearestMap at;
  };
  auto nearest = [&]() -> std::optional<Nearest> {
    std::optional<Nearest> best;
    auto consider = [&](std::uint32_t i) {
      NearestMap m = nearest_map(pocket_hands, master.board(i).deal);
      if (m.in_place >= 40 && (!best || m.in_place > best->at.in_place)) best = Nearest{i, m};
    };
    if (expected) consider(*expected);
    for (std::uint32_t i = 0; i < master.size(); ++i)
      if ((!expected || i != *expected) && ((session && master.board(i).session == *session) || (!session && master.size() <= 4096))) consider(i);
    return best;
  };

  // Against the nearest board: the board named, turned or with hands in the wrong pockets, or another
  // board -- named as such -- and the few cards astray against it.
  auto report_nearest = [&](const Nearest& n) {
    out.board = n.entry;
    bool other = expected && n.entry != *expected;
    if (other) {
      bool same_session = session && master.board(n.entry).session == *session;
      Event e = make(same_session ? "irregularity.wrong_board" : "irregularity.foreign_session", Severity::Alert,
                     same_session ? std::vector<std::string>{"87A"} : std::vector<std::string>{"6D2"}, time, "");
      DealMatch m{n.entry, n.at.map};
      e.evidence = {{"expected", master.describe(*expected)}, {"found", master.describe(n.entry)}, {"how", m.describe()},
                    {"in_place", std::to_string(n.at.in_place)}};
      e.message = board_text(expected) + " holds the deal of " + master.describe(n.entry) + (m.exact() ? "" : " (" + map_words(n.at.map) + ")") +
                  ", with cards astray" + (same_session ? " \u2014 a wrong board of this session (Law 87A)" : " \u2014 a deal from another session (Law 6D2)");
      out.events.push_back(std::move(e));
    } else if (n.at.map != kIdentitySeats) {
      Event e = make("irregularity.board_rotated", Severity::Alert, {"87A"}, time, "");
      DealMatch m{n.entry, n.at.map};
      e.evidence = {{"board", master.describe(n.entry)}, {"how", m.describe()}, {"pockets", describe(n.at.map)},
                    {"in_place", std::to_string(n.at.in_place)}};
      e.message = board_text(n.entry) + ": " + map_words(n.at.map) + ", and some cards are astray (Law 87A)";
      for (Seat s : kAllSeats)
        if (n.at.map[static_cast<std::size_t>(index(s))] != s) e.seats.push_back(s);
      out.events.push_back(std::move(e));
    }
    misplaced_event(n.entry, n.at.map, expected || other || n.at.map != kIdentitySeats ? "" : " (the nearest board)");
  };

  // Only a clean reading — 13 cards a pocket, each card once, none unknown, none missing — is a deal.
  bool clean = wrong.empty() && missing.empty() && unknown_total == 0 &&
               std::all_of(reads.begin(), reads.end(), [](int n) { return n <= 1; });
  if (!clean || !read.valid()) {
    // Not a deal: say where the cards that are there should be, against the nearest board under every
    // turn and permutation (the board named when nothing is nearer).
    if (auto n = nearest()) report_nearest(*n);
    else if (expected) misplaced_event(*expected, kIdentitySeats, "");
    return out;
  }

  // A deal: where is it in the master record?
  std::vector<DealMatch> matches = master.lookup(read);
  auto in_session = [&](const DealMatch& m) { return session && master.board(m.entry).session == *session; };
  std::stable_sort(matches.begin(), matches.end(), [&](const DealMatch& a, const DealMatch& b) {
    if (expected && (a.entry == *expected) != (b.entry == *expected)) return a.entry == *expected;
    return in_session(a) && !in_session(b);
  });
  if (matches.size() > 1) {
    Event e = make("irregularity.duplicate_deal", Severity::Warning, {"6"}, time, "");
    std::string list;
    for (const DealMatch& m : matches) list += (list.empty() ? "" : "; ") + master.describe(m.entry);
    e.evidence = {{"boards", list}};
    e.message = "The same deal is in " + std::to_string(matches.size()) + " boards of the master record: " + list + " (Law 6)";
    out.events.push_back(std::move(e));
  }

  if (!matches.empty()) {
    const DealMatch& m = matches.front();
    bool same_board = !expected || m.entry == *expected;
    if (same_board) {
      out.board = m.entry;
      if (!expected) {
        Event e = make("board.identified", Severity::Info, {}, time,
                       "Identified as " + master.describe(m.entry) + " from all 52 cards");
        e.evidence = {{"board", master.describe(m.entry)}, {"how", "all 52 cards read"}, {"certainty", "certain"}};
        out.events.push_back(std::move(e));
      }
      if (m.exact()) {
        Event e = make("board.verified", Severity::Info, {"6", "7"}, time,
                       board_text(m.entry) + ": four hands of 13, as in the master record");
        e.evidence = {{"board", master.describe(m.entry)}};
        out.events.push_back(std::move(e));
      } else {
        Event e = make("irregularity.board_rotated", Severity::Alert, {"87A"}, time, "");
        e.evidence = {{"board", master.describe(m.entry)}, {"how", m.describe()}, {"pockets", describe(m.map)}};
        e.message = m.rotation() ? board_text(m.entry) + ": the board was turned " + std::to_string(*m.rotation()) +
                                       (*m.rotation() == 1 ? " seat" : " seats") + " clockwise: each hand is in the wrong pocket (Law 87A)"
                                 : board_text(m.entry) + ": hands are in the wrong pockets (" + describe(m.map) +
                                       ", each pocket and whose hand it holds) (Law 87A)";
        for (Seat s : kAllSeats)
          if (m.map[static_cast<std::size_t>(index(s))] != s) e.seats.push_back(s);
        out.events.push_back(std::move(e));
      }
      return out;
    }
    // Another board of the record.
    bool same_session = session && master.board(m.entry).session == *session;
    Event e = make(same_session ? "irregularity.wrong_board" : "irregularity.foreign_session", Severity::Alert,
                   same_session ? std::vector<std::string>{"87A"} : std::vector<std::string>{"6D2"}, time, "");
    e.evidence = {{"expected", master.describe(*expected)}, {"found", master.describe(m.entry)}, {"how", m.describe()}};
    e.message = board_text(expected) + " holds the deal of " + master.describe(m.entry) +
                (m.exact() ? "" : " (" + m.describe() + ")") +
                (same_session ? " \u2014 a wrong board of this session (Law 87A)" : " \u2014 a deal from another session (Law 6D2)");
    out.events.push_back(std::move(e));
    return out;
  }

  if (auto how = unshuffled_deals().match(read)) {
    // The pack's order says where every card lies: that description is card-level detail, for
    // directors only; anyone else reads that the pack was sorted.
    Event e = make("irregularity.unshuffled_deal", Severity::Alert, {"6D2"}, time,
                   board_text(expected) + ": the deal could only come from a sorted pack \u2014 the cards were not shuffled (Law 6D2)");
    e.evidence = {{"pack", "sorted"}};
    e.card_evidence = {{"how", *how}};
    e.card_message = board_text(expected) + ": the deal could only come from " + *how + " \u2014 the cards were not shuffled (Law 6D2)";
    out.events.push_back(std::move(e));
    return out;
  }
  // Dealt from the previous board's cards as they were quitted, without a shuffle.
  if (previous)
    if (auto how = UnshuffledDeals::match_previous(read, *previous)) {
      Event e = make("irregularity.unshuffled_deal", Severity::Alert, {"6D2"}, time,
                     board_text(expected) + ": the deal could only come from the cards of " + previous->name +
                         " as they were quitted \u2014 not shuffled after that board (Law 6D2)");
      e.evidence = {{"pack", "the previous board's"}, {"previous", previous->name}};
      e.card_evidence = {{"how", *how}};
      e.card_message = board_text(expected) + ": the deal could only come from " + *how + " \u2014 not shuffled after that board (Law 6D2)";
      out.events.push_back(std::move(e));
      return out;
    }

  if (auto n = nearest()) {
    report_nearest(*n);
    return out;
  }
  if (expected) {
    misplaced_event(*expected, kIdentitySeats, "");
    return out;
  }
  Event e = make("irregularity.deal_mismatch", Severity::Alert, {"6", "87A"}, time,
                 "The deal read is in no board of the master record (Laws 6, 87A)");
  e.evidence = {{"observed", "52 cards, 13 each"}};
  e.card_evidence = {{"observed", read.pbn()}};
  out.events.push_back(std::move(e));
  return out;
}

bool pockets_fit_deal(const std::array<PocketRead, 4>& pockets, const Deal& deal) {
  std::size_t read = 0, fitting = 0;
  for (const PocketRead& p : pockets) {
    std::size_t best = 0;
    for (Seat s : kAllSeats) {
      const Hand& h = deal.hand(s);
      best = std::max(best, static_cast<std::size_t>(std::count_if(p.cards.begin(), p.cards.end(), [&](Card c) { return h.contains(c); })));
    }
    read += p.cards.size();
    fitting += best;
  }
  return read > 0 && fitting * 4 >= read * 3;
}

}  // namespace cardtable::table
