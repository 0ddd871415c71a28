// A replay page names what the table's journal no longer holds (rotated away: its first_available is past
// the seq asked for) and what it cannot read (damaged lines); watch and replay say both.
#include "journal_losses.hpp"

#include <gtest/gtest.h>

using cardtable::tools::journal_losses;
using nlohmann::json;

namespace {
json page(std::uint64_t first, std::uint64_t last, std::uint64_t first_available, std::uint64_t last_seq, json unreadable = json()) {
  json events = json::array();
  for (std::uint64_t s = first; s <= last; ++s)
    if (!unreadable.is_array() || std::find(unreadable.begin(), unreadable.end(), json(s)) == unreadable.end()) events.push_back({{"seq", s}});
  json r = {{"ok", true}, {"events", events}, {"more", false}, {"first_available", first_available}, {"last_seq", last_seq}};
  if (unreadable.is_array()) r["unreadable"] = unreadable;
  return r;
}
}  // namespace

TEST(JournalLosses, AWholePageLosesNothing) {
  EXPECT_TRUE(journal_losses(page(1, 100, 1, 100), 1).empty());
  EXPECT_TRUE(journal_losses(page(41, 100, 1, 100), 41).empty());
  EXPECT_TRUE(journal_losses(page(1, 0, 1, 0), 1).empty()) << "an empty journal asked from its start";
  EXPECT_TRUE(journal_losses(page(1, 0, 1, 100), 101).empty()) << "asked past its end: nothing yet, nothing lost";
}

TEST(JournalLosses, EventsRotatedAwayBeforeThePageAreSaidWithWhereTheJournalStarts) {
  auto said = journal_losses(page(41, 100, 41, 100), 1);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "events #1 to #40 are no longer in its journal (rotated away, its journal starts at #41): not shown");
  said = journal_losses(page(6, 10, 6, 10), 5);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "event #5 is no longer in its journal (rotated away, its journal starts at #6): not shown");
}

TEST(JournalLosses, AnEmptyPageOfAJournalThatNowStartsLaterLosesWhatWasAskedFor) {
  auto said = journal_losses(page(1, 0, 81, 80), 20);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "events #20 to #80 are no longer in its journal (rotated away, its journal starts at #81): not shown");
}

TEST(JournalLosses, DamagedLinesAreNamedAndNotTakenForRotatedAway) {
  auto said = journal_losses(page(1, 10, 1, 10, json::array({1, 7})), 1);
  ASSERT_EQ(said.size(), 1u) << said[0];
  EXPECT_EQ(said[0], "events #1, #7 are damaged in its journal on the disk, not readable: not shown");
  said = journal_losses(page(3, 10, 3, 10, json::array({4})), 1);
  ASSERT_EQ(said.size(), 2u);
  EXPECT_EQ(said[0], "events #1 to #2 are no longer in its journal (rotated away, its journal starts at #3): not shown");
  EXPECT_EQ(said[1], "event #4 is damaged in its journal on the disk, not readable: not shown");
}

TEST(JournalLosses, AReplyOfAnotherShapeSaysNothingAndNeverThrows) {
  EXPECT_TRUE(journal_losses(json("nonsense"), 1).empty());
  EXPECT_TRUE(journal_losses(json{{"events", "no"}, {"unreadable", {"x", -1}}, {"first_available", "9"}}, 1).empty());
}
