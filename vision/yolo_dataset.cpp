#include "vision/yolo_dataset.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace cardtable::vision {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

double number(std::string_view tok, const std::string& where) {
  double v = 0;
  const auto* end = tok.data() + tok.size();
  auto [p, ec] = std::from_chars(tok.data(), end, v);
  if (ec != std::errc() || p != end || !(v == v)) throw std::runtime_error(where + ": not a number: '" + std::string(tok) + "'");
  return v;
}

bool is_image(const fs::path& p) {
  auto e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e == ".jpg" || e == ".jpeg" || e == ".png" || e == ".bmp";
}

std::vector<std::string> names_for(const fs::path& dir) {
  for (fs::path d = fs::absolute(dir);; d = d.parent_path()) {
    if (fs::exists(d / "data.yaml")) return parse_data_yaml_names(read_text(d / "data.yaml"), (d / "data.yaml").string());
    if (d == d.parent_path()) break;
  }
  throw std::runtime_error("no data.yaml in " + dir.string() + " or a parent: class names unknown");
}

DatasetGroup read_group(const fs::path& dir, const std::string& name, const std::vector<std::string>& names,
                        const std::set<std::string>& only) {
  DatasetGroup g{name, {}};
  // Without labels every card read counted as false (precision 0 %), without a word.
  if (!fs::is_directory(dir / "labels")) throw std::runtime_error((dir / "labels").string() + ": no such folder beside images/ (the YOLO label files)");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir / "images"))
    if (e.is_regular_file() && is_image(e.path())) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    LabelledImage im{f, name, name + "/" + f.filename().string(), {}};
    if (!only.empty() && !only.contains(im.name)) continue;
    const fs::path label = dir / "labels" / (f.stem().string() + ".txt");
    if (fs::exists(label)) im.boxes = parse_label_rows(read_text(label), names, label.string());
    else im.labelled = false;
    g.images.push_back(std::move(im));
  }
  return g;
}

}  // namespace

bridge::Hand LabelledImage::cards() const {
  bridge::Hand h;
  for (const auto& b : boxes)
    if (b.card) h.add(*b.card);
  return h;
}

std::optional<bridge::Card> card_of_class_name(std::string_view name) {
  if (name.size() < 2 || name.size() > 3) return std::nullopt;
  const auto suit = bridge::parse_suit(name.substr(name.size() - 1));
  const auto rank_text = name.substr(0, name.size() - 1);
  if (!suit) return std::nullopt;
  std::optional<bridge::Rank> rank;
  if (rank_text == "10") rank = bridge::Rank::Ten;
  else if (rank_text.size() == 1 && rank_text[0] != 'T' && rank_text[0] != 't') rank = bridge::parse_rank_char(rank_text[0]);
  if (!rank) return std::nullopt;
  return bridge::Card(*suit, *rank);
}

std::vector<std::string> parse_data_yaml_names(std::string_view text, const std::string& where) {
  // Only the flow form Roboflow writes: names: ['10C', '10D', ...] (possibly over several lines).
  std::size_t at = std::string_view::npos;
  for (std::size_t pos = 0; (pos = text.find("names:", pos)) != std::string_view::npos; pos += 6) {
    if (pos == 0 || text[pos - 1] == '\n') { at = pos; break; }
  }
  if (at == std::string_view::npos) throw std::runtime_error(where + ": no 'names:' list");
  const auto open = text.find('[', at);
  const auto close = open == std::string_view::npos ? open : text.find(']', open);
  if (close == std::string_view::npos) throw std::runtime_error(where + ": 'names:' is not a [...] list");
  std::vector<std::string> names;
  std::string_view body = text.substr(open + 1, close - open - 1);
  while (!body.empty()) {
    const auto comma = body.find(',');
    std::string item = trim(body.substr(0, comma));
    if (item.size() >= 2 && (item.front() == '\'' || item.front() == '"') && item.back() == item.front())
      item = item.substr(1, item.size() - 2);
    if (!item.empty()) names.push_back(item);
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  if (names.empty()) throw std::runtime_error(where + ": empty 'names:' list");
  return names;
}

std::vector<LabelBox> parse_label_rows(std::string_view text, const std::vector<std::string>& names,
                                       const std::string& where) {
  std::vector<LabelBox> out;
  int line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    const std::string at = where + ":" + std::to_string(line_no);
    std::vector<std::string_view> tok;
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      if (j > i) tok.push_back(line.substr(i, j - i));
      i = j;
    }
    if (tok.empty()) continue;
    const double cls = number(tok[0], at);
    if (cls < 0 || cls >= static_cast<double>(names.size()) || cls != static_cast<double>(static_cast<int>(cls)))
      throw std::runtime_error(at + ": class " + std::string(tok[0]) + " is not one of the " + std::to_string(names.size()) + " in data.yaml");
    const std::size_t coords = tok.size() - 1;
    if (coords < 4 || coords % 2 != 0)
      throw std::runtime_error(at + ": a row is 'class cx cy w h' or a polygon of x y pairs, not " + std::to_string(coords) + " numbers");
    LabelBox b;
    b.name = names[static_cast<std::size_t>(cls)];
    b.card = card_of_class_name(b.name);
    if (coords == 4) {
      b.cx = number(tok[1], at); b.cy = number(tok[2], at); b.w = number(tok[3], at); b.h = number(tok[4], at);
    } else {  // polygon: its bounding box
      double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
      for (std::size_t k = 1; k + 1 < tok.size(); k += 2) {
        const double x = number(tok[k], at), y = number(tok[k + 1], at);
        x0 = std::min(x0, x); x1 = std::max(x1, x); y0 = std::min(y0, y); y1 = std::max(y1, y);
      }
      b.cx = (x0 + x1) / 2; b.cy = (y0 + y1) / 2; b.w = x1 - x0; b.h = y1 - y0;
    }
    // Coordinates are fractions of the image: inf or a negative size was accepted and scored.
    auto fraction = [](double v) { return v >= 0 && v <= 1; };
    if (!fraction(b.cx) || !fraction(b.cy) || !(b.w > 0 && b.w <= 1) || !(b.h > 0 && b.h <= 1))
      throw std::runtime_error(at + ": a box's centre and size are fractions of the image (0..1, a size above 0)");
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<DatasetGroup> read_yolo_dataset(const fs::path& dir, const std::vector<std::string>& only, const std::string& listed_in) {
  if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + " is not a folder");
  const std::set<std::string> keep(only.begin(), only.end());
  const auto names = names_for(dir);
  std::vector<DatasetGroup> groups;
  if (fs::is_directory(dir / "images")) {
    fs::path norm = fs::absolute(dir).lexically_normal();
    if (norm.filename().empty()) norm = norm.parent_path();  // "group/" names "group"
    groups.push_back(read_group(dir, norm.filename().string(), names, keep));
  } else {
    std::vector<fs::path> subs;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_directory() && fs::is_directory(e.path() / "images")) subs.push_back(e.path());
    std::sort(subs.begin(), subs.end());
    for (const auto& s : subs) groups.push_back(read_group(s, s.filename().string(), names, keep));
  }
  if (groups.empty()) throw std::runtime_error(dir.string() + " holds no images/ folder and no group folders with one");
  // A list name that matches no image was dropped without a word, and a list matching none measured
  // nothing at precision and recall 1.0.
  if (!keep.empty()) {
    std::set<std::string> missing = keep;
    for (const auto& g : groups)
      for (const auto& im : g.images) missing.erase(im.name);
    if (!missing.empty())
      throw std::runtime_error((listed_in.empty() ? "" : listed_in + ": ") + std::to_string(missing.size()) + " of the " + std::to_string(keep.size()) + " images listed are not in " +
                               dir.string() + " (the first: '" + *missing.begin() + "'; a list names \"group/file.jpg\")");
  }
  return groups;
}

std::vector<std::string> read_name_list(const fs::path& file) {
  std::istringstream in(read_text(file));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    if (!line.empty() && line[0] != '#') out.push_back(line);
  }
  return out;
}

}  // namespace cardtable::vision
