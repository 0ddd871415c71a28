// Deck files: one tag per card, problems named with file and line, written atomically.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>

#include "devices/deck.hpp"
#include "devices/observe.hpp"

namespace cardtable::devices {
namespace {

std::string full_deck_text(const std::string& label, int first_byte) {
  std::string s = "deck " + label + "\n";
  for (int id = 0; id < 52; ++id) {
    char uid[16];
    std::snprintf(uid, sizeof uid, "%02X%02X%02X%02X", first_byte, 0x10, 0x20, id);
    s += std::string(uid) + " " + bridge::Card::from_id(id).str() + "  # tag " + std::to_string(id) + "\n";
  }
  return s;
}

TEST(DeckFile, FiftyTwoLinesMakeACompleteDeck) {
  std::vector<DeckProblem> problems;
  Deck d = parse_deck(full_deck_text("pack-07", 0x08), "decks/pack-07.deck", problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(d.label, "pack-07");
  EXPECT_TRUE(d.complete());
  EXPECT_EQ(d.cards.at(*Uid::parse("08102000")), bridge::Card::from_id(0));
}

TEST(DeckFile, RepeatedUidAndACardWithTwoTagsAreReportedWithTheirLines) {
  std::vector<DeckProblem> problems;
  Deck d = parse_deck("04A1B2C3D4E5F6 SA\n04A1B2C3D4E5F6 HK\n04A1B2C3D4E5F7 SA\nzz SA\n04A1B2C3D4E5F8 XX\n", "b.deck", problems);
  ASSERT_EQ(problems.size(), 5u);
  EXPECT_EQ(problems[0].str(), "b.deck:2: UID 04A1B2C3D4E5F6 is listed twice (first at line 1)");
  EXPECT_EQ(problems[1].str(), "b.deck:3: card SA has two tags (first at line 1)");
  EXPECT_EQ(problems[2].line, 4);
  EXPECT_EQ(problems[3].line, 5);
  EXPECT_EQ(problems[4].str(), "b.deck: deck b has 1 of 52 cards");
  EXPECT_EQ(d.cards.size(), 1u);
}

TEST(DeckFolder, AUidInTwoDecksKeepsTheFirstAndSaysSo) {
  auto dir = std::filesystem::temp_directory_path() / ("decks-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.deck") << full_deck_text("a", 0x08);
  std::ofstream(dir / "b.deck") << "08102000 HK\n";
  std::ofstream(dir / "notes.txt") << "not a deck";
  std::vector<DeckProblem> problems;
  DeckLibrary lib = DeckLibrary::load_folder(dir, problems);
  ASSERT_EQ(lib.decks().size(), 2u);
  auto m = lib.find(*Uid::parse("08102000"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->card, bridge::Card::from_id(0));
  EXPECT_EQ(m->deck->label, "a");
  bool said = false;
  for (auto& p : problems) said |= p.message.find("already enrolled in deck a") != std::string::npos;
  EXPECT_TRUE(said);
  std::filesystem::remove_all(dir);
}

TEST(DeckWrite, WritesAtomicallyAndReadsBackTheSameDeck) {
  auto dir = std::filesystem::temp_directory_path() / ("deckw-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::vector<DeckProblem> problems;
  Deck d = parse_deck(full_deck_text("pack-3", 0x0A), "x", problems);
  std::string error;
  ASSERT_TRUE(write_deck(dir / "pack-3.deck", d, error)) << error;
  std::ifstream in(dir / "pack-3.deck");
  std::stringstream ss;
  ss << in.rdbuf();
  Deck back = parse_deck(ss.str(), "pack-3.deck", problems);
  EXPECT_EQ(back.cards, d.cards);
  EXPECT_EQ(back.label, "pack-3");
  std::size_t files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);  // no temporary left behind
  EXPECT_FALSE(write_deck(dir / "missing" / "x.deck", d, error));
  EXPECT_NE(error.find("missing"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// What a reader of `zone` reports when it hears `uids`, against two enrolled packs: pack-07 (UIDs 08..)
// and pack-09 (UIDs 09..), the same faces on other tags.
table::Observation heard_by(table::Zone zone, std::initializer_list<const char*> uids, DeviceCounters& counters) {
  std::vector<DeckProblem> problems;
  DeckLibrary decks;
  decks.add(parse_deck(full_deck_text("pack-07", 0x08), "pack-07.deck", problems), problems);
  decks.add(parse_deck(full_deck_text("pack-09", 0x09), "pack-09.deck", problems), problems);
  AntennaTags heard;
  for (const char* uid : uids) heard.tags.push_back({*Uid::parse(uid), 0});
  return observe(zone, heard, &decks, "reader", 5, counters);
}

// An unenrolled tag is an unknown card, and its UID goes with the observation: a director looks for the
// stray tag by it (irregularity.unknown_card's detail).
TEST(Observe, AnUnenrolledTagIsUnknownWithItsUid) {
  DeviceCounters counters;
  table::Observation o = heard_by(table::Zone{table::ZoneKind::Scan, bridge::Seat::North}, {"08102000", "04DEADBEEF0001"}, counters);
  EXPECT_EQ(o.cards.size(), 1);
  EXPECT_EQ(o.unknown, 1);
  EXPECT_EQ(o.unknown_ids, std::vector<std::string>{"04DEADBEEF0001"});
  EXPECT_EQ(counters.unknown_tags, 1u);
}

// Law 13C at a pocket's reader: its own ♠A and another pack's ♠A (another tag) are two cards, never one --
// the pocket holds 14. The face is in the Hand once; each tag is in card_ids, so the table counts both.
TEST(Observe, TwoTagsOfOneFaceFromTwoPacksAreTwoCards) {
  const bridge::Card card = bridge::Card::from_id(0);
  DeviceCounters counters;
  table::Observation o = heard_by(table::Zone{table::ZoneKind::Hand, bridge::Seat::East}, {"09102000", "08102000", "08102001"}, counters);
  EXPECT_EQ(o.cards.size(), 2);
  EXPECT_EQ(o.card_ids.size(), 3u) << "three tags, three cards";
  ASSERT_EQ(o.card_ids.count(card), 2u) << "the second card of the face is not lost";
  EXPECT_EQ(o.card_ids.find(card)->second, "08102000");  // a face's tags in UID order, whatever order heard
  EXPECT_EQ(std::next(o.card_ids.find(card))->second, "09102000");
  // Counted once here, for the table's comparisons at every poll (Observation::count_tags).
  EXPECT_TRUE(o.tags_counted());
  EXPECT_EQ(o.same_face(), std::vector<bridge::Card>{card});
  EXPECT_EQ(o.count(), 3);
}

// One tag listed twice in a poll is still one card: only another tag is another card.
TEST(Observe, OneTagListedTwiceIsOneCard) {
  DeviceCounters counters;
  table::Observation o = heard_by(table::Zone{table::ZoneKind::Hand, bridge::Seat::East}, {"08102000", "08102000"}, counters);
  EXPECT_EQ(o.cards.size(), 1);
  EXPECT_EQ(o.card_ids.size(), 1u);
}

}  // namespace
}  // namespace cardtable::devices
