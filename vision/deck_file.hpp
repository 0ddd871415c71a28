// A deck learnt without retraining, from the operator's photographs (`cardtable-vision enroll`), of one
// of two kinds:
//   - embeddings: per card, the mean of the network's embedding at that card's corner indices; at play,
//     an index's embedding is matched to the nearest prototype by cosine, with a margin over the runner-up;
//   - faces (`enroll --faces`): per card, its whole face straightened to a small thumbnail (each channel
//     less its mean, normalised); at play, a lone card on the cloth is matched face to face, both ways
//     up (vision/face_reader.hpp). No network at all.
// Text file, one card a line:
//   # cardtable-vision deck 1
//   deck black-gold
//   dim 64                       (embeddings; or 'faces W H' for W x H BGR thumbnails, dim W*H*3)
//   card SA 0.0132 -0.2211 ...   (dim numbers, L2-normalised)
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bridge/card.hpp"
#include "vision/recogniser.hpp"

namespace cardtable::vision {

struct Deck {
  std::string name;
  int dim = 0;
  int face_width = 0, face_height = 0;           // a faces deck's thumbnail size; 0 for embeddings
  std::map<int, std::vector<float>> prototypes;  // by card id
  bool faces() const { return face_width > 0; }
};

// Scales `v` to unit length (a zero vector stays zero): prototypes and what is matched to them.
void normalise(std::vector<float>& v);

// Throws std::runtime_error naming `where` and the line.
Deck parse_deck(std::string_view text, const std::string& where);
Deck read_deck(const std::filesystem::path& file);
std::string format_deck(const Deck& d);

// The cards of the pack a deck lacks ("C2 S7"), or "". Every deck holds the whole pack: a card is told
// from its look-alike only against the look-alike's own prototype (the two of clubs from the two of
// spades), so with one missing the nearest other card stands in for it and the camera reads a false card.
std::string missing_cards(const Deck& deck);
// The same for any set of cards: `has(id)` says whether card `id` is there.
std::string missing_cards(const std::function<bool(int)>& has);

// Averages and normalises per-card embeddings into prototypes.
Deck make_deck(const std::string& name, const std::map<int, std::vector<std::vector<float>>>& samples);

// Re-reads each index of `r` by its embedding's nearest prototype; an index whose best prototype is not
// `margin` (cosine) above the runner-up is refused. Needs readings made with keep_features.
void apply_deck(FrameReading& r, const Deck& deck, double margin, double single_corner);

}  // namespace cardtable::vision
