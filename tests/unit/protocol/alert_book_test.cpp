// A table's open alerts: opened by an alert, closed by its acknowledgement; the hub's book remembers a
// bounded number of acknowledgements and takes a table's own list when it asks for it.
#include <gtest/gtest.h>

#include "protocol/alert_book.hpp"

using cardtable::protocol::AlertBook;
using nlohmann::json;

namespace {

json alert(std::uint64_t seq) { return {{"seq", seq}, {"severity", "alert"}, {"type", "irregularity.revoke"}, {"time", 1.0 * static_cast<double>(seq)}}; }
json ack(std::uint64_t seq, std::uint64_t of) {
  return {{"seq", seq}, {"severity", "info"}, {"type", "director.ack"}, {"evidence", {{"seq", std::to_string(of)}, {"by", "Anne"}}}};
}

}  // namespace

TEST(AlertBook, AnAcknowledgementClosesTheAlertAndASecondOneIsRefusedNamingTheFirst) {
  AlertBook book;
  book.on_published(alert(3));
  book.on_published(alert(5));
  book.on_published(ack(6, 3));
  EXPECT_EQ(book.open_count(), 1u);
  EXPECT_EQ(book.open()[0]["seq"], 5);
  ASSERT_TRUE(book.refuse_ack(3));
  EXPECT_NE(book.refuse_ack(3)->find("by Anne (event 6)"), std::string::npos) << *book.refuse_ack(3);
  EXPECT_FALSE(book.refuse_ack(5));
}

TEST(AlertBook, TheHubsBookRemembersOnlyTheNewestAcknowledgements) {
  AlertBook book(100);
  for (std::uint64_t i = 1; i <= 1000; ++i) {
    book.on_published(alert(2 * i - 1));
    book.on_published(ack(2 * i, 2 * i - 1));
  }
  EXPECT_EQ(book.acks_kept(), 100u);
  EXPECT_EQ(book.open_count(), 0u);
  EXPECT_TRUE(book.refuse_ack(1999)) << "the newest acknowledgement is remembered";
  EXPECT_FALSE(book.refuse_ack(1)) << "the oldest is forgotten";
  EXPECT_EQ(AlertBook().acks_kept(), 0u);
}

TEST(AlertBook, ATablesOwnListReplacesTheOpenAlertsAndLaterEventsApplyOnTop) {
  AlertBook book;
  book.on_published(alert(9));  // seen by the hub, acknowledged at the table while the hub was away
  book.replace_open(json::array({alert(2), alert(4), json{{"seq", 7}, {"severity", "info"}}, json("garbage")}));
  EXPECT_EQ(book.open_count(), 2u) << "only the alerts of the table's list";
  book.on_published(ack(10, 4));  // forwarded after the question
  book.on_published(alert(11));
  json open = book.open();
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0]["seq"], 2);
  EXPECT_EQ(open[1]["seq"], 11);
  book.replace_open(json("not a list"));
  EXPECT_EQ(book.open_count(), 0u);
}

// The hub keeps its book from what tables publish: a malformed event is ignored, never thrown out of the
// book (before, {"seq":"x"} from a table stopped cardtable-hub with an uncaught JSON type error).
TEST(AlertBook, AnEventWithFieldsOfTheWrongTypeIsIgnoredNotThrown) {
  AlertBook book;
  const json bad[] = {json::array(), json("alert"), json{{"seq", "x"}, {"severity", "alert"}}, json{{"seq", -4}, {"severity", "alert"}},
                      json{{"seq", 3.5}, {"severity", "alert"}}, json{{"seq", 7}, {"severity", 1}},
                      json{{"seq", 8}, {"type", 2}, {"severity", "alert"}},
                      json{{"seq", 9}, {"type", "director.ack"}, {"evidence", {{"seq", 7}, {"by", "Anne"}}}},
                      json{{"seq", 10}, {"type", "director.ack"}, {"evidence", {{"seq", "1"}, {"by", 5}}}}};
  for (const auto& e : bad) EXPECT_NO_THROW(book.on_published(e)) << e.dump();
  EXPECT_EQ(book.open_count(), 1u);  // seq 8: an alert whose type is not a string is still an alert
  ASSERT_TRUE(book.refuse_ack(1));
  EXPECT_NE(book.refuse_ack(1)->find("by director"), std::string::npos) << *book.refuse_ack(1);
}

// A heartbeat counts the table's open alerts at its last_seq: set against the book as it stood then, not
// as it is now (an alert or an ack since), and an acknowledgement of an alert the book never held does not
// put it back.
TEST(AlertBook, TheOpenAlertsAtASeqLeaveOutLaterAlertsAndCountThoseAcknowledgedLater) {
  AlertBook book(100);
  book.on_published(alert(3));
  book.on_published(alert(5));
  book.on_published(ack(6, 3));
  book.on_published(ack(7, 4));  // an alert this book never saw
  book.on_published(alert(8));
  EXPECT_EQ(book.open_count(), 2u);
  EXPECT_EQ(book.open_count_at(2), 0u);
  EXPECT_EQ(book.open_count_at(4), 1u) << "alert 3, acknowledged after";
  EXPECT_EQ(book.open_count_at(5), 2u);
  EXPECT_EQ(book.open_count_at(6), 1u);
  EXPECT_EQ(book.open_count_at(7), 1u) << "alert 4 was never in the book";
  EXPECT_EQ(book.open_count_at(8), 2u);
  EXPECT_EQ(book.open_count_at(100), book.open_count());
}

// A table's `alerts` reply of another shape ({"severity": 5}) once threw out of the hub's loop (json's
// value() throws on a field of another type) and stopped the hub: such an entry is no open alert.
TEST(AlertBook, AnEntryOfAnotherShapeInATablesListIsNoOpenAlertAndNeverThrows) {
  AlertBook book;
  const nlohmann::json list = nlohmann::json::parse(R"([{"seq": 3, "severity": 5}, {"seq": 4, "severity": "alert"}, {"seq": "5", "severity": "alert"}])");
  ASSERT_NO_THROW(book.replace_open(list));
  EXPECT_EQ(book.open_count(), 1u);
}
