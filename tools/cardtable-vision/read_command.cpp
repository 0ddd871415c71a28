#include "read_command.hpp"

#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "image_file.hpp"
#include "options.hpp"
#include "vision/recogniser.hpp"

namespace cardtable::vision_tool {

int read_command(const std::vector<std::string>& args) {
  std::vector<std::string> images, rest;
  for (const auto& a : args) (a.rfind("--", 0) == 0 || (!rest.empty() && rest.back() == "--model") ? rest : images).push_back(a);
  Options o(rest, {"--model"}, {"--json", "--help"});
  if (o.flag("--help") || images.empty()) {
    std::cout << "usage: cardtable-vision read IMAGE... [--json] [--model FILE]\n"
                 "Prints the cards read in each image, each with its confidence and how many corners agree,\n"
                 "and the count of indices found but refused (below the floor or the margin). An image that\n"
                 "cannot be read is named on stderr (and as {\"image\", \"error\"} with --json), the others are\n"
                 "still read, and the exit status is then 1.\n";
    return images.empty() && !o.flag("--help") ? 2 : 0;
  }
  vision::Recogniser rec(o.value("--model", default_model()));
  nlohmann::json all = nlohmann::json::array();
  int unread = 0;
  for (const auto& path : images) {
    // An image that cannot be read is said, and the rest are still read (as cat does with its files);
    // the exit status tells that one was not.
    vision::FrameReading r;
    try {
      r = rec.read(read_image(path));
    } catch (const std::exception& e) {  // a file that is no image, or one the recogniser cannot take
      const std::string why = e.what();
      const std::string said = why.rfind(path, 0) == 0 ? why : path + ": " + why;
      std::cerr << "cardtable-vision read: " << said << "\n";
      all.push_back({{"image", path}, {"error", said}});
      ++unread;
      continue;
    }
    nlohmann::json cards = nlohmann::json::array();
    std::cout << (o.flag("--json") ? "" : path + ":");
    for (const auto& c : r.cards) {
      cards.push_back({{"card", c.card.str()}, {"confidence", c.confidence}, {"corners", c.corners}});
      if (!o.flag("--json")) std::cout << " " << c.card.str() << "(" << static_cast<int>(100 * c.confidence) << "%," << c.corners << ")";
    }
    if (!o.flag("--json")) std::cout << (r.refused ? " refused:" + std::to_string(r.refused) : "") << "\n";
    all.push_back({{"image", path}, {"cards", cards}, {"refused", r.refused}});
  }
  if (o.flag("--json")) std::cout << all.dump(1) << "\n";
  return unread ? 1 : 0;
}

}  // namespace cardtable::vision_tool
