// The measuring stick: how well a reader names the cards of labelled photographs. Cards are counted
// distinct per image (two corners of one card are one card); BACK and jokers are not cards.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bridge/hand.hpp"
#include "vision/recogniser.hpp"
#include "vision/yolo_dataset.hpp"

namespace cardtable::vision {

// A share measured on n trials, as the range it lies in with 95 % confidence (Wilson's score interval,
// which stays inside 0..1 and is not empty at 0 or n successes). It says what a figure on a few hundred
// cards can establish: 109 cards read without a false one put precision at 96.6 % or more, not at
// 100 %; to show the 99.5 % this way takes about 765 cards read without a false one.
struct Interval {
  double low = 0, high = 1;
};
Interval wilson_interval(int successes, int trials);

struct Score {
  int images = 0;
  int exact = 0;            // images whose card set was read exactly
  int true_cards = 0, false_cards = 0, missed_cards = 0;
  int refused = 0;          // indices found but not read
  int labelled_indices = 0, found_indices = 0;  // card indices labelled; of them, with a detector peak inside
  // Of the labelled indices, those whose found index (the nearest peak inside the box) has the label's
  // card as its best candidate, read or refused: with found_indices it parts the recall that is missing
  // into indices not found, indices read wrong, and indices read right but not sure enough to be taken.
  int best_right_indices = 0;
  double index_recall() const { return labelled_indices ? static_cast<double>(found_indices) / labelled_indices : 1.0; }
  double best_right_share() const { return labelled_indices ? static_cast<double>(best_right_indices) / labelled_indices : 1.0; }
  double seconds = 0;       // pipeline time, frame decode excluded
  double decode_seconds = 0;
  double precision() const { return true_cards + false_cards ? static_cast<double>(true_cards) / (true_cards + false_cards) : 1.0; }
  double recall() const { return true_cards + missed_cards ? static_cast<double>(true_cards) / (true_cards + missed_cards) : 1.0; }
  double exact_share() const { return images ? static_cast<double>(exact) / images : 0.0; }
  double fps() const { return seconds > 0 ? images / seconds : 0.0; }
  Interval precision_interval() const { return wilson_interval(true_cards, true_cards + false_cards); }
  Interval recall_interval() const { return wilson_interval(true_cards, true_cards + missed_cards); }
  Interval exact_interval() const { return wilson_interval(exact, images); }
  void add(const Score& o);
};

// A confusion: the label under a false card ("-" when it stands on no labelled index), and what was read.
using Confusion = std::pair<std::string, std::string>;

// One false card and the image it was read in ("group/file.jpg", as --list names images): a false card
// is either a reader's error or a card the labels miss, and only the photograph tells which.
struct FalseCard {
  std::string image;
  Confusion confusion;
};

struct Evaluation {
  std::vector<std::pair<std::string, Score>> groups;
  Score overall;
  std::map<Confusion, int> confusions;
  std::vector<FalseCard> false_cards;  // in the order the images were read
  // The recogniser's options the figures were measured at (evaluate() fills it): figures mean nothing
  // without the floors and the combination of views that gave them.
  std::optional<RecogniserOptions> options;
};

// Scores one image: truth (its labels) against the cards read, whose boxes (normalised centres) name what
// each false card stood on; `falses` gets one confusion per false card.
struct ReadCard {
  bridge::Card card;
  double cx = 0, cy = 0;  // normalised
};
// An index the detector found, read or refused: its centre (normalised) and the reader's best card there
// (in the views it read: the odd views only where they could still make a card, unless --every-view).
struct FoundIndex {
  double cx = 0, cy = 0;
  std::optional<bridge::Card> best;
};
// `found`: every index the detector found -- for index recall, which tells finding an index apart from
// reading it, and for the share of labelled indices whose best candidate is right.
Score score_image(const LabelledImage& truth, const std::vector<ReadCard>& read, std::vector<Confusion>& falses,
                  const std::vector<FoundIndex>& found = {});

// Reads every image of the groups and scores it: what `cardtable-vision eval` and the corpus test run.
Evaluation evaluate(Recogniser& recogniser, const std::vector<DatasetGroup>& groups);

std::string evaluation_text(const Evaluation& e);
std::string evaluation_json(const Evaluation& e);

}  // namespace cardtable::vision
