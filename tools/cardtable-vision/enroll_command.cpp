#include "enroll_command.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>

#include <opencv2/imgcodecs.hpp>

#include "options.hpp"
#include "vision/deck_file.hpp"
#include "vision/face_reader.hpp"
#include "vision/recogniser.hpp"

namespace cardtable::vision_tool {

namespace fs = std::filesystem;

namespace {
constexpr const char* kHelp = R"(usage: cardtable-vision enroll --images DIR --out DECK [--name NAME] [--model FILE | --faces] [--trust-names]
Learns a deck from photographs of its cards, one card face up per photo, the file named by the card
before any '_' or '-' (SA.jpg, H10_2.png, 10H-left.jpg; several photos of a card are averaged). The deck
file keeps one prototype (the normalised mean) per card:
  (default)  the network's embedding at the strongest corner index of each photo (measured on real
             photographs it reads fewer cards than the network's own classes, and none surely:
             vision/README.md, "Unseen deck");
  --faces    each card's whole face, straightened, and its index corner: lone cards on the cloth are then
             read face to face, with no network (the play areas seen from above).
Either way the whole pack is needed: a card with no usable photo would be read as its look-alike, so
enrolment names the cards it lacks (and each photo skipped, with why) and writes no deck.
At the event: lay each card alone on the playing cloth under the table's camera, in the table's light,
and save a frame per card (cardtable-vision calibrate --source gives the camera's view); two photos per
card, turned 180 degrees, are better than one.
A photo the network reads surely as another card than its name says (SA.png showing the nine of spades)
stops the enrolment, naming each such photo, and no deck is written: one misnamed photo makes the camera
read that card as another, and a false card is a false alert. --faces checks with the installed model
when there is one. --trust-names enrols by the names all the same (a deck the network misreads).
)";
}  // namespace

int enroll_command(const std::vector<std::string>& args) {
  Options o(args, {"--images", "--out", "--name", "--model"}, {"--help", "--faces", "--trust-names"});
  if (o.flag("--help")) { std::cout << kHelp; return 0; }
  if (!o.has("--images") || !o.has("--out")) throw UsageError(std::string("needs --images DIR and --out DECK\n") + kHelp);
  const bool faces = o.flag("--faces");
  if (faces && o.has("--model")) throw UsageError("--faces reads no network: --model goes with the default (embeddings) enrolment");
  vision::RecogniserOptions ropt;
  ropt.keep_features = true;
  std::unique_ptr<vision::Recogniser> rec;
  if (!faces) {
    rec = std::make_unique<vision::Recogniser>(o.value("--model", default_model()), ropt);
  } else if (!o.flag("--trust-names")) {
    // The faces deck needs no network; the installed one, where there is one, checks the photos' names.
    try {
      rec = std::make_unique<vision::Recogniser>(default_model(), vision::RecogniserOptions{});
    } catch (const std::exception& e) {
      std::cerr << "cardtable-vision enroll: the photos' names are not checked (no model: " << e.what() << ")\n";
    }
  }
  std::vector<std::string> misnamed;  // "SA.png: the network reads S9 (99 %)"
  std::map<int, std::vector<std::vector<float>>> samples;
  std::map<int, std::vector<vision::FaceViews>> face_photos;
  const fs::path dir = o.value("--images", "");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir.string() + (fs::exists(dir, ec) ? ": not a folder" : ": no such folder"));
  std::vector<fs::path> files;
  int skipped = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::error_code fe;
    if (e.is_regular_file(fe)) {
      files.push_back(e.path());
    } else if (e.is_symlink(fe) && !fs::exists(e.path(), fe)) {
      // A link whose photo has gone (a card folder copied without its target): said, like any photo skipped.
      std::cerr << e.path().string() << ": skipped (a link to " << fs::read_symlink(e.path(), fe).string() << ", which does not exist)\n";
      ++skipped;
    } else if (!e.is_directory(fe)) {
      std::cerr << e.path().string() << ": skipped (not a file)\n";
      ++skipped;
    }
  }
  std::sort(files.begin(), files.end());
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
    // A photo whose name is not what it shows: read by the network, surely (above its floor), as other
    // cards and not as the one named. Enrolled by the name, the camera would read that card as another.
    std::optional<vision::FrameReading> read;
    if (rec) read = rec->read(img);
    if (read && !read->cards.empty() && !o.flag("--trust-names") &&
        std::none_of(read->cards.begin(), read->cards.end(), [&](const vision::CardReading& c) { return c.card == *card; })) {
      std::string seen;
      for (const auto& c : read->cards)
        seen += (seen.empty() ? "" : ", ") + c.card.str() + " (" + std::to_string(static_cast<int>(100 * c.confidence)) + " %)";
      misnamed.push_back(f.filename().string() + ": named " + card->str() + ", the network reads " + seen);
      continue;
    }
    if (faces) {
      const auto views = vision::enrolment_face(img, vision::kFaceWidth, vision::kFaceHeight);
      if (!views) {
        std::cerr << f.string() << ": skipped (not exactly one card alone on the cloth)\n";
        ++skipped;
        continue;
      }
      face_photos[card->id()].push_back(*views);
      continue;
    }
    const vision::FrameReading& r = *read;
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
  if (!misnamed.empty()) {
    std::string list;
    for (std::size_t i = 0; i < misnamed.size() && i < 10; ++i) list += "\n  " + misnamed[i];
    if (misnamed.size() > 10) list += "\n  and " + std::to_string(misnamed.size() - 10) + " more";
    throw std::runtime_error(std::to_string(misnamed.size()) + " photos show another card than their name says; no deck written" + list +
                             "\nRename them (or, for a deck the network misreads, enrol with --trust-names)");
  }
  const std::size_t enrolled = faces ? face_photos.size() : samples.size();
  if (enrolled == 0)
    throw std::runtime_error("no card enrolled: " + (files.empty() ? dir.string() + " holds no file"
                                                                 : "none of the " + std::to_string(files.size()) + " files in " + dir.string() +
                                                                       " is a photo of a card named after it (SA.jpg, H10_2.png)"));
  // The whole pack or nothing: a card with no prototype would be read as its nearest look-alike
  // (vision/deck_file.hpp), a false card; the daemon refuses such a deck file too.
  const std::string lacks = vision::missing_cards([&](int id) { return faces ? face_photos.contains(id) : samples.contains(id); });
  if (!lacks.empty())
    throw std::runtime_error("no usable photo of " + lacks + " (" + std::to_string(enrolled) +
                             " of 52 cards enrolled); no deck written: a deck holds the whole pack, a missing card would be read as its look-alike."
                             "\nPhotograph each card named, alone and face up, and enrol again (the photos skipped are listed above)");
  const std::string name = o.value("--name", fs::path(o.value("--images", "")).filename().string());
  const auto deck = faces ? vision::make_face_deck(name, face_photos, vision::kFaceWidth, vision::kFaceHeight) : vision::make_deck(name, samples);
  std::ofstream out(o.value("--out", ""));
  if (!(out << vision::format_deck(deck))) throw std::runtime_error("cannot write " + o.value("--out", ""));
  std::cout << "enrolled " << deck.prototypes.size() << " cards (" << skipped << " photos skipped) into " << o.value("--out", "") << "\n";
  return 0;
}

}  // namespace cardtable::vision_tool
