// watch --since over a venue: the tables' journals merged into one afternoon by the events' own time,
// page by page, never more than one page of a table held at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "time_ordered_replay.hpp"

using cardtable::tools::TimeOrderedReplay;
using json = nlohmann::json;

namespace {
// Stand-in journals, `page` events a reply: each table's events (seq 1, 2, ...) at the times given.
struct Journals {
  explicit Journals(std::map<std::string, std::vector<double>> t) : times(std::move(t)) {}
  std::map<std::string, std::vector<double>> times;
  std::size_t page = 2;
  std::map<std::string, std::uint64_t> fail_from;      // a table whose page from this seq on fails
  std::vector<std::pair<std::string, std::uint64_t>> shown;  // (table, seq) in the order shown
  std::map<std::string, std::size_t> held_at_ask;      // per table, the most of its events handed and not yet shown when it asked again
  std::size_t stop_at_ask = 0;   // the stop comes while this page (1: the first) is awaited: it fails
  std::size_t stop_at_show = 0;  // the stop comes once this many events are shown
  bool stopped = false;
  std::size_t asks = 0;

  TimeOrderedReplay::Outcome replay(const std::map<std::string, std::uint64_t>& since) {
    std::map<std::string, std::size_t> handed;  // how many events of each table the pages held
    TimeOrderedReplay merged(
        [&](const std::string& table, std::uint64_t from) -> std::optional<json> {
          if (++asks == stop_at_ask) stopped = true;
          if (stopped) return std::nullopt;
          const auto shown_of_table = static_cast<std::size_t>(std::count_if(shown.begin(), shown.end(), [&](const auto& s) { return s.first == table; }));
          held_at_ask[table] = std::max<std::size_t>(held_at_ask[table], handed[table] - shown_of_table);
          if (auto f = fail_from.find(table); f != fail_from.end() && from >= f->second) return std::nullopt;
          const auto& t = times.at(table);
          json events = json::array();
          std::uint64_t seq = from;
          for (; seq <= t.size() && events.size() < page; ++seq)
            events.push_back({{"table", table}, {"seq", seq}, {"time", t[seq - 1]}});
          handed[table] += events.size();
          return json{{"ok", true}, {"events", events}, {"more", seq <= t.size()}};
        },
        [&](const json& e) {
          shown.emplace_back(e["table"].get<std::string>(), e["seq"].get<std::uint64_t>());
          stopped = stopped || shown.size() == stop_at_show;
        },
        [&] { return stopped; });
    for (const auto& [table, from] : since) merged.add(table, from);
    return merged.run();
  }
};
using Shown = std::vector<std::pair<std::string, std::uint64_t>>;
}  // namespace

TEST(TimeOrderedReplay, TheVenuesEventsComeInTimeOrderNotTableAfterTable) {
  // Table 1 plays early and late, table 2 in between, table 3's alert ten minutes ago.
  Journals j{{{"default/A/1", {100, 110, 400, 410, 420}}, {"default/A/2", {200, 210, 220, 300}}, {"default/A/3", {415}}}};
  const auto out = j.replay({{"default/A/1", 1}, {"default/A/2", 1}, {"default/A/3", 1}});
  EXPECT_TRUE(out.failed.empty());
  EXPECT_TRUE(out.stopped.empty());
  EXPECT_EQ(j.shown, (Shown{{"default/A/1", 1}, {"default/A/1", 2}, {"default/A/2", 1}, {"default/A/2", 2}, {"default/A/2", 3}, {"default/A/2", 4},
                            {"default/A/1", 3}, {"default/A/1", 4}, {"default/A/3", 1}, {"default/A/1", 5}}));
}

TEST(TimeOrderedReplay, EventsAtTheSameTimeComeByTableThenSeq) {
  Journals j{{{"default/A/2", {50, 50}}, {"default/A/1", {50, 60}}}};
  j.replay({{"default/A/2", 1}, {"default/A/1", 1}});
  EXPECT_EQ(j.shown, (Shown{{"default/A/1", 1}, {"default/A/2", 1}, {"default/A/2", 2}, {"default/A/1", 2}}));
}

TEST(TimeOrderedReplay, EachTableFromItsOwnSeq) {
  Journals j{{{"default/A/1", {1, 2, 3, 4}}, {"default/A/2", {1.5, 2.5, 3.5}}}};
  j.replay({{"default/A/1", 3}, {"default/A/2", 2}});
  EXPECT_EQ(j.shown, (Shown{{"default/A/2", 2}, {"default/A/1", 3}, {"default/A/2", 3}, {"default/A/1", 4}}));
}

// A venue's afternoon is tens of thousands of events: a table's next page is asked for only once its
// last one is shown.
TEST(TimeOrderedReplay, NoMoreThanOnePageOfATableIsHeldAtOnce) {
  Journals j{{{"default/A/1", {}}, {"default/A/2", {}}}};
  for (int i = 0; i < 50; ++i) {
    j.times["default/A/1"].push_back(i);
    j.times["default/A/2"].push_back(i + 0.5);
  }
  j.page = 7;
  j.replay({{"default/A/1", 1}, {"default/A/2", 1}});
  EXPECT_EQ(j.shown.size(), 100u);
  EXPECT_EQ(j.held_at_ask["default/A/1"], 0u) << "a page asked for before the one before it was shown";
  EXPECT_EQ(j.held_at_ask["default/A/2"], 0u);
}

// A table's wall clock stepped back (NTP after a power cut): its events keep their seq order, so that
// none is taken for one already shown and dropped.
TEST(TimeOrderedReplay, ATableWhoseClockSteppedBackKeepsItsSeqOrder) {
  Journals j{{{"default/A/1", {100, 300, 150, 310}}, {"default/A/2", {200}}}};
  j.replay({{"default/A/1", 1}, {"default/A/2", 1}});
  EXPECT_EQ(j.shown, (Shown{{"default/A/1", 1}, {"default/A/2", 1}, {"default/A/1", 2}, {"default/A/1", 3}, {"default/A/1", 4}}));
}

TEST(TimeOrderedReplay, ATableWhosePageFailsIsNamedWithTheFirstSeqNotShownAndTheOthersGoOn) {
  Journals j{{{"default/A/1", {1, 2, 3, 4, 5}}, {"default/A/2", {1.5, 2.5, 3.5, 4.5}}}};
  j.fail_from["default/A/1"] = 3;
  const auto failed = j.replay({{"default/A/1", 1}, {"default/A/2", 1}}).failed;
  EXPECT_EQ(failed, (std::map<std::string, std::uint64_t>{{"default/A/1", 3}}));
  EXPECT_EQ(j.shown, (Shown{{"default/A/1", 1}, {"default/A/2", 1}, {"default/A/1", 2}, {"default/A/2", 2}, {"default/A/2", 3}, {"default/A/2", 4}}));
}

// A page that holds only damaged lines (its events unreadable on the table's disk) moves on past them:
// taken for a page that moved on no seq, it ended the table's replay there, and its later events were
// never shown.
TEST(TimeOrderedReplay, APageOfDamagedLinesOnlyIsPassedAndTheTableGoesOn) {
  std::vector<std::uint64_t> shown;
  TimeOrderedReplay merged(
      [](const std::string&, std::uint64_t from) -> std::optional<json> {
        if (from <= 2) return json{{"ok", true}, {"events", json::array()}, {"unreadable", {1, 2}}, {"more", true}};
        return json{{"ok", true}, {"events", {{{"seq", 3}, {"time", 10.0}}}}, {"more", false}};
      },
      [&](const json& e) { shown.push_back(e["seq"].get<std::uint64_t>()); });
  merged.add("default/A/1", 1);
  EXPECT_TRUE(merged.run().failed.empty());
  EXPECT_EQ(shown, std::vector<std::uint64_t>{3});
}

// A director's Ctrl-C while table 1's next page is awaited: table 1's next event is unknown, and may be
// older than table 2's held, so the merge ends there; each table is named with its first seq not shown,
// from which the next watch goes on (the two watches together show what one would have, in its order).
TEST(TimeOrderedReplay, StoppedWhileAPageIsAwaitedItShowsNoMoreAndNamesEachTablesFirstSeqNotShown) {
  Journals j{{{"default/A/1", {1, 2, 3, 4, 5}}, {"default/A/2", {1.5, 2.5, 3.5, 4.5}}}};
  j.stop_at_ask = 3;  // table 1's second page
  const auto out = j.replay({{"default/A/1", 1}, {"default/A/2", 1}});
  EXPECT_TRUE(out.failed.empty()) << "the stop taken for the table's failure";
  EXPECT_EQ(out.stopped, (std::map<std::string, std::uint64_t>{{"default/A/1", 3}, {"default/A/2", 2}}));
  EXPECT_EQ(j.shown, (Shown{{"default/A/1", 1}, {"default/A/2", 1}, {"default/A/1", 2}}));
  EXPECT_EQ(j.asks, 3u);
}

// Stopped while the pages in hand are shown: they are shown as far as every table's next event is known,
// and no page is asked for after the stop.
TEST(TimeOrderedReplay, StoppedWhileShowingItGoesThroughThePagesInHandAndAsksForNoMore) {
  Journals j{{{"default/A/1", {1, 2, 3, 4, 5}}, {"default/A/2", {1.5, 2.5, 3.5, 4.5}}}};
  j.stop_at_show = 1;
  const auto out = j.replay({{"default/A/1", 1}, {"default/A/2", 1}});
  EXPECT_EQ(out.stopped, (std::map<std::string, std::uint64_t>{{"default/A/1", 3}, {"default/A/2", 2}}));
  EXPECT_EQ(j.shown, (Shown{{"default/A/1", 1}, {"default/A/2", 1}, {"default/A/1", 2}}));
  EXPECT_EQ(j.asks, 2u) << "a page asked for after the stop";
}

// Stopped before a table's first page came: no table's event is known to be the oldest, none is shown.
TEST(TimeOrderedReplay, StoppedBeforeEveryTablesFirstPageNothingIsShown) {
  Journals j{{{"default/A/1", {1, 2, 3}}, {"default/A/2", {1.5}}, {"default/A/3", {0.5}}}};
  j.stop_at_ask = 2;
  const auto out = j.replay({{"default/A/1", 1}, {"default/A/2", 4}, {"default/A/3", 1}});
  EXPECT_TRUE(j.shown.empty());
  EXPECT_EQ(out.stopped, (std::map<std::string, std::uint64_t>{{"default/A/1", 1}, {"default/A/2", 4}, {"default/A/3", 1}}));
}
