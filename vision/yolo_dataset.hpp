// Photographs labelled in the YOLO layout (Roboflow export): what `cardtable-vision eval` measures on.
// A dataset is one group (a folder with images/ and labels/) or a folder of such groups; class names
// come from a data.yaml in the folder or a parent. A label row is `class cx cy w h` (normalised) or a
// polygon `class x1 y1 x2 y2 ...`, whose bounding box is taken. Boxes mark corner indices. BACK and
// jokers are not cards: they are kept as labels but have no card.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bridge/card.hpp"
#include "bridge/hand.hpp"

namespace cardtable::vision {

struct LabelBox {
  double cx = 0, cy = 0, w = 0, h = 0;  // normalised to the image, 0..1
  std::string name;                     // the class name, e.g. "10H", "BACK"
  std::optional<bridge::Card> card;     // none for BACK and jokers
};

struct LabelledImage {
  std::filesystem::path image;
  std::string group;
  std::string name;  // "group/file.jpg": what split lists name
  std::vector<LabelBox> boxes;
  bool labelled = true;        // false: no label file (YOLO's way of saying no object; counted as no card)
  bridge::Hand cards() const;  // the distinct cards shown
};

struct DatasetGroup {
  std::string name;
  std::vector<LabelledImage> images;
};

// "10H" -> ten of hearts; "AS" -> ace of spades; "BACK", "RED JOKER" -> none.
std::optional<bridge::Card> card_of_class_name(std::string_view name);

// Class names from the `names: [...]` list of a data.yaml (flow list, quoted or not). Throws
// std::runtime_error naming the file when there is no such list.
std::vector<std::string> parse_data_yaml_names(std::string_view text, const std::string& where);

// One label file's rows. Throws std::runtime_error with file and line on a bad row (unknown class,
// odd coordinate count, a number that does not parse).
std::vector<LabelBox> parse_label_rows(std::string_view text, const std::vector<std::string>& names,
                                       const std::string& where);

// Reads the whole dataset. `only` (when not empty) keeps the images whose "group/file" is listed; a listed
// name with no image is an error, which names `listed_in` (the list's file) when given.
std::vector<DatasetGroup> read_yolo_dataset(const std::filesystem::path& dir, const std::vector<std::string>& only = {},
                                            const std::string& listed_in = "");

// A list file: one "group/file" per line, '#' comments.
std::vector<std::string> read_name_list(const std::filesystem::path& file);

}  // namespace cardtable::vision
