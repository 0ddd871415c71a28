// Watch's counts on stderr, singular for one: "1 live events past #100 (#150 to #150)" read as a slip.
#include <gtest/gtest.h>

#include "counted_words.hpp"

namespace cardtable::tools {

TEST(CountedWords, OneIsSingularEveryOtherCountPlural) {
  EXPECT_EQ(counted(1, "live event"), "1 live event");
  EXPECT_EQ(counted(0, "live event"), "0 live events");
  EXPECT_EQ(counted(3, "live event"), "3 live events");
}

TEST(CountedWords, ARunOfOneSeqNamesItOnce) {
  EXPECT_EQ(seq_run(150, 150), "#150");
  EXPECT_EQ(seq_run(1003, 1005), "#1003 to #1005");
  EXPECT_EQ(events_numbered(4, 4), "event #4");
  EXPECT_EQ(events_numbered(1, 40), "events #1 to #40");
}

}  // namespace cardtable::tools
