#include "eval_command.hpp"

#include <iostream>
#include <stdexcept>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>

#include "options.hpp"
#include "vision/evaluation.hpp"
#include "vision/recogniser.hpp"
#include "vision/yolo_dataset.hpp"

namespace cardtable::vision_tool {

namespace {

constexpr const char* kHelp = R"(usage: cardtable-vision eval --dataset DIR [--json] [--model FILE] [--list FILE]
                             [--threads N] [--floor P] [--margin P] [--pair-floor P]
                             [--views N] [--arithmetic-views] [--every-view] [--detector-side PX]
                             [--dnn-reader] [--batch-reader] [--dnn-tail] [--whole-detector]
Reads every image of DIR -- one group (images/ and labels/) or a folder of groups, class names from a
data.yaml in DIR or a parent, YOLO rows 'class cx cy w h' or polygons -- and prints per group and overall:
the share of images whose card set was read exactly, card precision and recall (distinct cards per image;
BACK and jokers are not cards), each of the three with the range it lies in at 95 % confidence (Wilson:
109 cards without a false one put precision at 96.6 % or more), frames per second of the pipeline
(decoding the file excluded; the decode time is printed apart), the confusion pairs (label under a false
card -> card read), each false card with its image (a reader's error, or a card the labels miss: the
photograph tells), where the missing recall lies (of the labelled card indices: the share found, and the
share whose best candidate is the labelled card, read or refused) and the operating point they were
measured at (views and how they combine, floors).
  --json        one JSON object: overall figures at the top level (keys precision, recall, exact_share,
                precision_interval, recall_interval, exact_share_interval as [low, high], index_recall,
                index_best_right, frames_per_second...),
                "groups", "confusions", "false_card_images" (image, label, read),
                "operating_point"
  --model FILE  model metadata (default: the installed or source-tree vision/model/model.json)
  --list FILE   only the images named in FILE ("group/file.jpg" per line), e.g. vision/model/held_out_images.txt
  --threads N   OpenCV threads (default 1: the figure is per core)
  The operating point (--floor, --margin, --pair-floor, --views) is the model's own by default: the one
  chosen with its reader on the training images, model.json's reader.operating_point (vision/README.md,
  "Operating point"; a model.json without one: 0.995, 0.80, 0.80, 2 views). Each option overrides it:
  --floor P     refuse a reading below this confidence (a probability, 0..1)
  --margin P    refuse a reading whose runner-up is within P of it
  --pair-floor P  read a card whose two corners each read it at P or above, though neither reaches the
                floor alone (1 turns it off)
  --views N     read each index N times, turned 360/N degrees each time, and combine the views'
                probabilities by their geometric mean, normalised
  --arithmetic-views  combine the views by their arithmetic mean instead (the model's operating
                point was chosen for the geometric one: vision/README.md, "Operating point")
  --every-view  read every view of every index; by default the odd views are read only where they could
                still make a card (the same cards, less work)
  --detector-side PX  shrink the letterboxed frame to PX x PX for the detector alone (a multiple of 8;
                default 0: the model's 640); the reader still crops from the full-size frame. Faster on
                a slow core, at some precision (vision/README.md, "Speed")
  --dnn-reader  run the index reader in OpenCV, side by side in strips (the model's reader_strip.onnx),
                instead of computing it here (the default where the model's reader is the one this
                program computes; the text output's last line says what ran): the same readings
                within float rounding, slower
  --batch-reader  run it in OpenCV one crop per batch row (reader.onnx) instead (implies --dnn-reader):
                the same readings, slower still
  --dnn-tail    compute the detector's first layers here and run the rest in OpenCV (the model's
                cards_tail.onnx) instead of computing the whole detector here (the default where the
                detector is the one this program computes): the same readings within float rounding, slower
  --whole-detector  run the whole detector in OpenCV (cards.onnx): the same readings within float
                rounding, slower still
)";

// A floor or a margin: a probability. 99 for 0.99 is a slip to name, not a point that refuses every card.
double probability(const Options& o, const std::string& name) {
  const double v = o.double_value(name, 0);
  if (!(v >= 0 && v <= 1)) throw UsageError(name + " wants a probability in 0..1, not '" + o.value(name, "") + "'");
  return v;
}

}  // namespace

int eval_command(const std::vector<std::string>& args) {
  Options o(args, {"--dataset", "--model", "--list", "--threads", "--floor", "--margin", "--pair-floor", "--views", "--detector-side"}, {"--json", "--every-view", "--arithmetic-views", "--batch-reader", "--whole-detector", "--dnn-tail", "--dnn-reader", "--help"});
  if (o.flag("--help")) { std::cout << kHelp; return 0; }
  if (!o.has("--dataset")) throw UsageError("eval needs --dataset DIR\n" + std::string(kHelp));
  cv::setNumThreads(o.int_value("--threads", 1));
  vision::RecogniserOptions ropt;
  // The operating point: the model's own (model.json reader.operating_point) unless given here.
  if (o.has("--floor")) ropt.floor = probability(o, "--floor");
  if (o.has("--margin")) ropt.margin = probability(o, "--margin");
  if (o.has("--pair-floor")) ropt.pair_floor = probability(o, "--pair-floor");
  if (o.has("--views")) {
    ropt.reader_views = o.int_value("--views", 0);
    if (*ropt.reader_views < 1 || *ropt.reader_views > 16) throw UsageError("--views must be 1..16");
  }
  ropt.early_refusal = !o.flag("--every-view");
  ropt.geometric_views = !o.flag("--arithmetic-views");
  ropt.strip_reader = !o.flag("--batch-reader");
  ropt.detector_front = !o.flag("--whole-detector");
  ropt.detector_tail = !o.flag("--dnn-tail");
  ropt.hand_reader = !o.flag("--dnn-reader") && !o.flag("--batch-reader");
  ropt.detector_side = o.int_value("--detector-side", ropt.detector_side);
  vision::Recogniser rec(o.value("--model", default_model()), ropt);
  std::vector<std::string> only;
  if (o.has("--list")) only = vision::read_name_list(o.value("--list", ""));
  const auto groups = vision::read_yolo_dataset(o.value("--dataset", ""), only, o.value("--list", ""));
  std::size_t images = 0, unlabelled = 0;
  for (const auto& g : groups)
    for (const auto& im : g.images) {
      ++images;
      unlabelled += im.labelled ? 0 : 1;
    }
  if (images == 0) throw std::runtime_error(o.value("--dataset", "") + ": no image to measure");
  if (unlabelled)
    std::cerr << "cardtable-vision eval: " << unlabelled << " of the " << images
              << " images have no label file; each is counted as showing no card\n";
  const auto ev = vision::evaluate(rec, groups);
  std::cout << (o.flag("--json") ? vision::evaluation_json(ev) : vision::evaluation_text(ev) + "engines: " + rec.engines() + "\n");
  return 0;
}

}  // namespace cardtable::vision_tool
