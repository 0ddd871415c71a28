// Lone cards read by their whole face against a deck enrolled from photographs of its cards
// (`cardtable-vision enroll --faces`), on frames the test renders from Debian's card art: every card of
// the deck at any turn of the table, and -- the worst error being a false card -- what must never be named:
// a card the deck was not enrolled with, two cards overlapping, a back, an empty cloth.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "rendered_table.hpp"
#include "vision/face_reader.hpp"

namespace cardtable::vision {
namespace {

using bridge::Card;
using bridge::Rank;
using bridge::Suit;
namespace fs = std::filesystem;

constexpr int kW = kFaceWidth, kH = kFaceHeight;

class FaceReader : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    art_ = new test::TableRenderer("ct-faces");
    if (!art_->available()) return;
    // Enrolment as an operator makes it: each card alone on the cloth, one photo upright and one turned.
    std::map<int, std::vector<FaceViews>> samples;
    for (int id = 0; id < 52; ++id)
      for (double turn : {0.0, 180.0}) {
        const cv::Mat photo = art_->scene({{Card::from_id(id), 320, 320, turn}});
        const auto d = enrolment_face(photo, kW, kH);
        if (!d) {
          std::string seen;
          for (const auto& p : find_faces(photo, {}))
            seen += " [" + std::to_string(p.where.size.width) + "x" + std::to_string(p.where.size.height) + (p.lone ? " lone]" : " not lone]");
          cv::imwrite((fs::temp_directory_path() / "ct-faces-failed.png").string(), photo);
          FAIL() << Card::from_id(id).str() << " turned " << turn << ": no lone card in its photo; seen:" << seen;
        }
        samples[id].push_back(*d);
      }
    deck_ = new Deck(make_face_deck("standard", samples, kW, kH));
  }
  static void TearDownTestSuite() {
    delete art_;
    delete deck_;
    art_ = nullptr;
    deck_ = nullptr;
  }
  void SetUp() override {
    if (!art_->available()) GTEST_SKIP() << "needs kdegames-card-data-kf5 and rsvg-convert";
  }
  static inline test::TableRenderer* art_ = nullptr;
  static inline Deck* deck_ = nullptr;
};

TEST_F(FaceReader, EveryCardOfTheEnrolledDeckIsReadAtAnyTurnPlaceAndDistance) {
  double worst_score = 1;
  for (int id = 0; id < 52; ++id) {
    const Card c = Card::from_id(id);
    const double turn = (id * 37) % 360, scale = 0.85 + 0.3 * ((id * 7) % 10) / 10.0;
    const double x = 150 + (id * 53) % 340, y = 150 + (id * 31) % 340;
    const auto r = read_faces(art_->scene({{c, x, y, turn, scale}}), *deck_);
    ASSERT_EQ(r.cards.size(), 1u) << c.str() << " at " << turn << " degrees, scale " << scale << ": refused " << r.refused;
    EXPECT_EQ(r.cards[0].card, c) << "at " << turn << " degrees, scale " << scale;
    EXPECT_EQ(r.refused, 0);
    worst_score = std::min(worst_score, r.indices[0].best[0].p);
  }
  std::cout << "worst true-card cosine " << worst_score << " (min_score " << FaceReaderOptions{}.min_score << ")\n";
}

TEST_F(FaceReader, AnyFourCardsOfATrickAreReadEachInItsPlace) {
  // Every card of the pack in each of the four play areas, turned to its player, four to a frame.
  const double where[4][3] = {{320, 150, 180}, {490, 320, 90}, {320, 490, 0}, {150, 320, -90}};
  for (int first = 0; first < 52; first += 4) {
    std::vector<test::TableRenderer::Placed> trick;
    for (int k = 0; k < 4; ++k) {
      const int id = (first + k * 13 + first / 4) % 52;
      trick.push_back({Card::from_id(id), where[k][0], where[k][1], where[k][2]});
    }
    for (int shift = 0; shift < 4; ++shift) {
      std::vector<test::TableRenderer::Placed> t = trick;
      for (int k = 0; k < 4; ++k) {
        t[static_cast<std::size_t>(k)].cx = where[(k + shift) % 4][0];
        t[static_cast<std::size_t>(k)].cy = where[(k + shift) % 4][1];
        t[static_cast<std::size_t>(k)].angle = where[(k + shift) % 4][2];
      }
      const auto r = read_faces(art_->scene(t), *deck_);
      std::string want, got;
      for (const auto& p : t) want += p.card.str() + " ";
      for (const auto& c : r.cards) got += c.card.str() + " ";
      std::string refused;
      for (const auto& i : r.indices)
        if (i.refused)
          refused += " [" + i.best[0].card.str() + " " + std::to_string(i.best[0].p) + " vs " + i.best[1].card.str() + " " + std::to_string(i.best[1].p) + " at " +
                     std::to_string(i.box.width) + "x" + std::to_string(i.box.height) + "]";
      EXPECT_EQ(r.cards.size(), 4u) << "laid " << want << "read " << got << "refused" << refused;
      for (const auto& p : t) EXPECT_TRUE(r.hand().contains(p.card)) << p.card.str() << " of " << want << "read " << got;
    }
  }
}

TEST_F(FaceReader, FourCardsOfATrickAreReadEachInItsPlace) {
  const Card ca(Suit::Clubs, Rank::Ace), c3(Suit::Clubs, Rank::Three), c4(Suit::Clubs, Rank::Four), c2(Suit::Clubs, Rank::Two);
  const auto r = read_faces(art_->scene({{c3, 320, 150, 180}, {c4, 490, 320, 90}, {c2, 320, 490, 0}, {ca, 150, 320, -90}}), *deck_);
  ASSERT_EQ(r.cards.size(), 4u);
  bridge::Hand h = r.hand();
  for (Card c : {ca, c2, c3, c4}) EXPECT_TRUE(h.contains(c)) << c.str();
  for (const auto& card : r.cards) {
    const auto centre = cv::Point2f(card.box.x + card.box.width / 2, card.box.y + card.box.height / 2);
    if (card.card == c3) {
      EXPECT_LT(centre.y, 200);  // North's card, at the top
    }
    if (card.card == c2) {
      EXPECT_GT(centre.y, 440);
    }
  }
}

// Look-alikes (the two of clubs and of spades) are told apart only against each other: with one of them
// missing from the deck, the other would be read in its place. So a faces deck holds the whole pack, or
// it is refused, naming the cards it lacks -- at enrolment and when a file is loaded.
TEST_F(FaceReader, AFacesDeckHoldsTheWholePackOrIsRefusedNamingWhatItLacks) {
  Deck partial = *deck_;
  partial.prototypes.erase(Card(Suit::Clubs, Rank::Two).id());
  try {
    (void)parse_deck(format_deck(partial), "deck.txt");
    FAIL() << "a faces deck without the two of clubs was loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("C2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_faces(art_->cloth(), partial), std::runtime_error);
  std::map<int, std::vector<FaceViews>> photos;
  const auto one = enrolment_face(art_->scene({{Card(Suit::Spades, Rank::Ace), 320, 320, 0}}), kW, kH);
  ASSERT_TRUE(one);
  photos[Card(Suit::Spades, Rank::Ace).id()].push_back(*one);
  EXPECT_THROW(make_face_deck("one card", photos, kW, kH), std::runtime_error);
}

// Without the whole-pack rule, this is what would happen: each look-alike of a missing card stands in.
TEST_F(FaceReader, WhyTheWholePackMattersAMissingCardsLookAlikeIsNearlyAsSimilarAsTheCardItself) {
  const Card c2(Suit::Clubs, Rank::Two), s2(Suit::Spades, Rank::Two);
  const auto r = read_faces(art_->scene({{c2, 320, 320, 25}}), *deck_);
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].card, c2);
  ASSERT_EQ(r.indices.size(), 1u);
  EXPECT_EQ(r.indices[0].best[1].card, s2);
  EXPECT_GT(r.indices[0].best[1].p, 0.85);  // no absolute floor tells them apart; only the two against each other
}

TEST_F(FaceReader, TwoCardsOverlappingAreSeenNotGuessed) {
  const auto r = read_faces(art_->scene({{Card(Suit::Hearts, Rank::King), 300, 320, 10}, {Card(Suit::Spades, Rank::Five), 360, 330, -20}}), *deck_);
  EXPECT_TRUE(r.cards.empty());
  EXPECT_GE(r.refused, 1);
}

TEST_F(FaceReader, AnEmptyClothHoldsNothingAtAll) {
  const auto r = read_faces(art_->cloth(), *deck_);
  EXPECT_TRUE(r.indices.empty());
  EXPECT_TRUE(r.cards.empty());
}

TEST_F(FaceReader, EnrolmentWantsExactlyOneCardInThePhoto) {
  EXPECT_FALSE(enrolment_face(art_->cloth(), kW, kH));
  EXPECT_FALSE(enrolment_face(art_->scene({{Card(Suit::Hearts, Rank::King), 150, 320, 0}, {Card(Suit::Spades, Rank::Five), 480, 320, 0}}), kW, kH));
}

TEST_F(FaceReader, AFacesDeckSurvivesItsFileAndAnEmbeddingsDeckIsRefused) {
  const Deck again = parse_deck(format_deck(*deck_), "deck.txt");
  EXPECT_TRUE(again.faces());
  EXPECT_EQ(again.face_width, kW);
  EXPECT_EQ(again.prototypes.size(), 52u);
  const auto r = read_faces(art_->scene({{Card(Suit::Diamonds, Rank::Queen), 320, 320, 33}}), again);
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].card, Card(Suit::Diamonds, Rank::Queen));
  Deck embeddings;
  embeddings.dim = 64;
  embeddings.prototypes[0] = std::vector<float>(64, 0.125f);
  EXPECT_THROW(read_faces(art_->cloth(), embeddings), std::runtime_error);
}

}  // namespace
}  // namespace cardtable::vision
