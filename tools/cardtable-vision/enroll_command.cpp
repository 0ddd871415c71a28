#include "enroll_command.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>

#include <opencv2/imgcodecs.hpp>

#include "options.hpp"
#include "vision/deck_file.hpp"
#include "vision/recogniser.hpp"

namespace cardtable::vision_tool {

namespace fs = std::filesystem;

namespace {
constexpr const char* kHelp = R"(usage: cardtable-vision enroll --images DIR --out DECK [--name NAME] [--model FILE]
Learns a deck from photographs of its cards, one card face up per photo, the file named by the card
before any '_' or '-' (SA.jpg, H10_2.png, 10H-left.jpg; several photos of a card are averaged). For each
photo the strongest corner index found gives the network's embedding there; the deck file keeps one
prototype (the normalised mean) per card. At the event: lay each card alone on the playing cloth under
the table's camera, in the table's light, and save a frame per card (cardtable-vision calibrate --source
gives the camera's view); two photos per card, turned 180 degrees, are better than one.
)";
}  // namespace

int enroll_command(const std::vector<std::string>& args) {
  Options o(args, {"--images", "--out", "--name", "--model"}, {"--help"});
  if (o.flag("--help")) { std::cout << kHelp; return 0; }
  if (!o.has("--images") || !o.has("--out")) throw UsageError(std::string("needs --images DIR and --out DECK\n") + kHelp);
  vision::RecogniserOptions ropt;
  ropt.keep_features = true;
  vision::Recogniser rec(o.value("--model", default_model()), ropt);
  std::map<int, std::vector<std::vector<float>>> samples;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(o.value("--images", ""))) if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  int skipped = 0;
  for (const auto& f : files) {
    std::string stem = f.stem().string();
    stem = stem.substr(0, stem.find_first_of("_-"));
    const auto card = bridge::Card::parse(stem);
    const cv::Mat img = cv::imread(f.string(), cv::IMREAD_COLOR);
    if (!card || img.empty()) {
      std::cerr << f.string() << ": skipped (" << (card ? "not an image" : "the name is not a card") << ")\n";
      ++skipped;
      continue;
    }
    const auto r = rec.read(img);
    const vision::IndexReading* best = nullptr;
    for (const auto& i : r.indices)
      if (!best || i.presence > best->presence) best = &i;
    if (!best) {
      std::cerr << f.string() << ": skipped (no corner index found)\n";
      ++skipped;
      continue;
    }
    samples[card->id()].push_back(best->feature);
  }
  const auto deck = vision::make_deck(o.value("--name", fs::path(o.value("--images", "")).filename().string()), samples);
  if (deck.prototypes.empty()) throw std::runtime_error("no card enrolled");
  std::ofstream out(o.value("--out", ""));
  if (!(out << vision::format_deck(deck))) throw std::runtime_error("cannot write " + o.value("--out", ""));
  std::cout << "enrolled " << deck.prototypes.size() << " cards (" << skipped << " photos skipped) into " << o.value("--out", "") << "\n";
  return 0;
}

}  // namespace cardtable::vision_tool
