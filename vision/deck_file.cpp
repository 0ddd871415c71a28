#include "vision/deck_file.hpp"
#include "vision/face_reader.hpp"
#include "vision/word_lines.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cardtable::vision {

void normalise(std::vector<float>& v) {
  double n = 0;
  for (float x : v) n += static_cast<double>(x) * x;
  n = std::sqrt(n);
  if (n > 0)
    for (float& x : v) x = static_cast<float>(x / n);
}

Deck parse_deck(std::string_view text, const std::string& where) {
  Deck d;
  for_each_record(text, where, [&](const std::string& at, const Words& w) {
    // The prototypes' size ('dim' or 'faces') is said once, before any prototype.
    if ((w[0] == "dim" || w[0] == "faces") && d.dim != 0)
      throw std::runtime_error(at + ": the prototypes' size ('dim' or 'faces') is said twice");
    if (w[0] == "deck" && w.size() == 2) {
      d.name = std::string(w[1]);
    } else if (w[0] == "dim" && w.size() == 2) {
      if (!whole_number(w[1], d.dim) || d.dim < 1 || d.dim > 4096)
        throw std::runtime_error(at + ": 'dim' wants 1..4096");
    } else if (w[0] == "faces" && w.size() == 3) {
      // Thumbnails of 8..64 pixels a side: big enough to tell a five from a six, small enough to match
      // 52 of them on every card of every frame.
      for (std::size_t k = 0; k < 2; ++k) {
        int& out = k == 0 ? d.face_width : d.face_height;
        if (!whole_number(w[1 + k], out) || out < 8 || out > 64)
          throw std::runtime_error(at + ": 'faces' wants a width and a height of 8..64 pixels");
      }
      d.dim = face_dim(d.face_width, d.face_height);
    } else if (w[0] == "card") {
      if (d.dim == 0) throw std::runtime_error(at + ": 'dim' or 'faces' must come before the cards");
      if (w.size() != static_cast<std::size_t>(d.dim) + 2)
        throw std::runtime_error(at + ": a card line is 'card NAME' and " + std::to_string(d.dim) + " numbers");
      const auto card = bridge::Card::parse(w[1]);
      if (!card) throw std::runtime_error(at + ": not a card: '" + std::string(w[1]) + "'");
      if (d.prototypes.contains(card->id())) throw std::runtime_error(at + ": " + card->str() + " given twice");
      std::vector<float> v;
      for (std::size_t i = 2; i < w.size(); ++i) {
        float x = 0;
        if (!finite_number(w[i], x))
          throw std::runtime_error(at + ": not a number: '" + std::string(w[i]) + "'");
        v.push_back(x);
      }
      normalise(v);
      d.prototypes[card->id()] = std::move(v);
    } else {
      throw std::runtime_error(at + ": unknown line (deck NAME, dim N, faces W H, card NAME numbers..., # comment)");
    }
  });
  if (d.prototypes.empty()) throw std::runtime_error(where + ": no cards");
  if (const auto lacks = missing_cards(d); !lacks.empty())
    throw std::runtime_error(where + ": lacks " + lacks + " (a deck holds the whole pack: a missing card would be read as its look-alike)");
  return d;
}

std::string missing_cards(const std::function<bool(int)>& has) {
  std::string out;
  for (int id = 0; id < 52; ++id)
    if (!has(id)) out += (out.empty() ? "" : " ") + bridge::Card::from_id(id).str();
  return out;
}

std::string missing_cards(const Deck& deck) {
  return missing_cards([&](int id) { return deck.prototypes.contains(id); });
}

Deck read_deck(const std::filesystem::path& file) {
  return parse_deck(read_text_file(file, "deck file"), file.string());
}

std::string format_deck(const Deck& d) {
  std::ostringstream o;
  o << "# cardtable-vision deck 1\ndeck " << (d.name.empty() ? "unnamed" : d.name) << "\n";
  if (d.faces()) o << "faces " << d.face_width << " " << d.face_height << "\n";
  else o << "dim " << d.dim << "\n";
  for (const auto& [id, v] : d.prototypes) {
    o << "card " << bridge::Card::from_id(id).str();
    for (float x : v) o << " " << x;
    o << "\n";
  }
  return o.str();
}

Deck make_deck(const std::string& name, const std::map<int, std::vector<std::vector<float>>>& samples) {
  Deck d;
  d.name = name;
  for (const auto& [id, list] : samples) {
    if (list.empty()) continue;
    std::vector<float> mean(list.front().size(), 0.0f);
    for (auto v : list) {
      normalise(v);
      for (std::size_t i = 0; i < mean.size() && i < v.size(); ++i) mean[i] += v[i];
    }
    normalise(mean);
    d.dim = static_cast<int>(mean.size());
    d.prototypes[id] = std::move(mean);
  }
  return d;
}

void apply_deck(FrameReading& r, const Deck& deck, double margin, double single_corner) {
  if (deck.faces()) throw std::runtime_error("deck '" + deck.name + "' holds faces, not network embeddings");
  if (deck.prototypes.size() != 52) throw std::runtime_error("deck '" + deck.name + "' lacks " + missing_cards(deck) + ": a deck must hold the whole pack");
  std::map<int, CardReading> cards;
  r.refused = 0;
  for (auto& i : r.indices) {
    if (static_cast<int>(i.feature.size()) != deck.dim) throw std::runtime_error("deck and model embeddings differ in size");
    auto f = i.feature;
    normalise(f);
    double best = -2, second = -2;
    int best_id = -1;
    for (const auto& [id, p] : deck.prototypes) {
      double s = 0;
      for (std::size_t k = 0; k < p.size(); ++k) s += static_cast<double>(p[k]) * f[k];
      if (s > best) { second = best; best = s; best_id = id; }
      else if (s > second) second = s;
    }
    i.refused = best_id < 0 || best - second < margin;
    if (!i.refused) {
      i.best[1] = i.best[0];
      i.best[0] = {bridge::Card::from_id(best_id), best};
      i.confidence = std::clamp(best, 0.0, 1.0);
      auto& c = cards[best_id];
      c.card = bridge::Card::from_id(best_id);
      ++c.corners;
      if (i.confidence > c.confidence) { c.confidence = i.confidence; c.box = i.box; }
    } else {
      ++r.refused;
    }
  }
  r.cards.clear();
  for (auto& [id, c] : cards) {
    if (c.corners < 2) c.confidence *= single_corner;
    r.cards.push_back(c);
  }
}

}  // namespace cardtable::vision
