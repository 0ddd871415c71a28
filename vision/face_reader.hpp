// Reads lone cards lying face up on the cloth by their whole face, against a deck learnt at the event
// (`cardtable-vision enroll --faces`): no network. A table camera sees each play area's card alone on a
// dark cloth, so the card is a bright rectangle; its face, straightened and shrunk to a thumbnail, is
// compared with every enrolled card's (both ways up: a card laid towards its player is upside down to
// the camera's other side). A face is named only when its best match is good and clear of the runner-up;
// anything else on the cloth that is card-sized -- overlapping cards, a card of another deck, a back -- is
// counted as seen and not read (the table's `unknown`), never guessed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/deck_file.hpp"
#include "vision/recogniser.hpp"

namespace cardtable::vision {

// The faces thumbnail `enroll --faces` makes: a 120 x 168 px face at a quarter scale (a deck file says its
// own size, `faces W H`, and is read at that size).
constexpr int kFaceWidth = 30, kFaceHeight = 42;

struct FaceReaderOptions {
  double min_score = 0.80;  // cosine of the face and its best match: below, not read
  double separation = 0.25;  // ...nor when it lies less than this far over from the runner-up (another
                             // card) towards it, along the line between the two (0.5: on the best)
  double min_area = 0.004;  // a card covers at least this share of the frame
  double max_area = 0.25;   // ...and at most this
};

// A card-sized bright rectangle in the frame: where a card lies.
struct FacePatch {
  cv::RotatedRect where;
  bool lone = false;  // a clean rectangle of a card's proportions (not cards overlapping, not a smudge)
};

// Every card-sized bright region of the frame, lone cards and clumps alike.
std::vector<FacePatch> find_faces(const cv::Mat& bgr, const FaceReaderOptions& options);

// A face's descriptor: the face under `where` upright (long side vertical; `turned`: the other way up),
// as a `width`x`height` BGR thumbnail of the whole face and a sharper one of its top-left index, each
// less its mean and normalised (so light and exposure cancel out). face_dim() numbers in all.
std::vector<float> face_descriptor(const cv::Mat& bgr, const cv::RotatedRect& where, int width, int height, bool turned);
int face_dim(int width, int height);

// How alike two descriptors are: the lesser of the two parts' cosines (layout and index must both agree).
double face_similarity(const std::vector<float>& a, const std::vector<float>& b, int width, int height);

// One photo's card both ways up.
struct FaceViews {
  std::vector<float> upright, turned;
};

// The lone card of an enrolment photo (one card on the cloth), or nothing when there is not exactly one.
std::optional<FaceViews> enrolment_face(const cv::Mat& bgr, int width, int height, const FaceReaderOptions& options = {});

// A faces deck from enrolment photos (several of a card averaged, each the way up that matches the first).
Deck make_face_deck(const std::string& name, const std::map<int, std::vector<FaceViews>>& photos, int width, int height);

// Reads every card in the frame against `deck` (a faces deck). Read cards are in `cards` (their box the
// card's bounds, confidence the match's cosine); every patch is an entry of `indices`, refused or not.
FrameReading read_faces(const cv::Mat& bgr, const Deck& deck, const FaceReaderOptions& options = {});

}  // namespace cardtable::vision
