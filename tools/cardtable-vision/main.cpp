// cardtable-vision: the camera side's tool -- measure the recogniser on labelled photographs (eval),
// read cards in images (read), write a zones calibration file from a frame (calibrate), learn a deck
// from photographs of its cards (enroll).
#include <iostream>
#include <string>
#include <vector>

#include "calibrate_command.hpp"
#include "enroll_command.hpp"
#include "eval_command.hpp"
#include "options.hpp"
#include "read_command.hpp"

namespace {

constexpr const char* kHelp = R"(usage: cardtable-vision COMMAND [ARGS] (COMMAND --help for its arguments)
  eval --dataset DIR [--json]     precision, recall, exact images, frames/s on labelled photographs
  read IMAGE... [--json]          the cards read in each image
  calibrate --frame IMG --out F   the zones file from the table's ArUco markers (and --png to check it)
  enroll --images DIR --out DECK   learn a deck from one photo per card (no retraining; --faces:
                                   whole faces, no network)
  --version
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kHelp;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "cardtable-vision " << CARDTABLE_VERSION << "\n";
    return 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "eval") return cardtable::vision_tool::eval_command(args);
    if (cmd == "calibrate") return cardtable::vision_tool::calibrate_command(args);
    if (cmd == "enroll") return cardtable::vision_tool::enroll_command(args);
    if (cmd == "read") return cardtable::vision_tool::read_command(args);
    std::cerr << "cardtable-vision: unknown command '" << cmd << "'\n" << kHelp;
    return 2;
  } catch (const cardtable::vision_tool::UsageError& e) {
    std::cerr << "cardtable-vision " << cmd << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cardtable-vision " << cmd << ": " << e.what() << "\n";
    return 1;
  }
}
