#include "vision/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include <opencv2/imgcodecs.hpp>

#include <nlohmann/json.hpp>

#include "vision/recogniser.hpp"

namespace cardtable::vision {

Interval wilson_interval(int successes, int trials) {
  if (trials <= 0) return {0, 1};  // nothing measured: nothing established
  constexpr double z = 1.959963984540054;  // two-sided 95 %
  const double n = trials, p = static_cast<double>(successes) / n, z2n = z * z / n;
  const double centre = (p + z2n / 2) / (1 + z2n);
  const double half = z / (1 + z2n) * std::sqrt(p * (1 - p) / n + z2n / (4 * n));
  // At 0 or n successes the bound is exact (n / (n + z^2)); clamp rounding at the ends.
  return {std::max(0.0, successes == 0 ? 0.0 : centre - half), std::min(1.0, successes == trials ? 1.0 : centre + half)};
}

void Score::add(const Score& o) {
  images += o.images;
  exact += o.exact;
  true_cards += o.true_cards;
  false_cards += o.false_cards;
  missed_cards += o.missed_cards;
  refused += o.refused;
  labelled_indices += o.labelled_indices;
  found_indices += o.found_indices;
  best_right_indices += o.best_right_indices;
  seconds += o.seconds;
  decode_seconds += o.decode_seconds;
}

Score score_image(const LabelledImage& truth, const std::vector<ReadCard>& read, std::vector<Confusion>& falses,
                  const std::vector<FoundIndex>& found) {
  Score s;
  s.images = 1;
  for (const auto& b : truth.boxes) {
    if (!b.card) continue;
    ++s.labelled_indices;
    const FoundIndex* nearest = nullptr;
    double nearest_distance = 0;
    for (const auto& f : found) {
      if (std::abs(f.cx - b.cx) > b.w / 2 || std::abs(f.cy - b.cy) > b.h / 2) continue;
      const double d = std::hypot(f.cx - b.cx, f.cy - b.cy);
      if (!nearest || d < nearest_distance) { nearest = &f; nearest_distance = d; }
    }
    if (!nearest) continue;
    ++s.found_indices;
    if (nearest->best == b.card) ++s.best_right_indices;
  }
  const bridge::Hand want = truth.cards();
  bridge::Hand got;
  for (const auto& r : read) got.add(r.card);
  s.true_cards = (want & got).size();
  s.false_cards = (got - want).size();
  s.missed_cards = (want - got).size();
  s.exact = want == got ? 1 : 0;
  bridge::Hand named;  // a false card read at both corners is one false card
  for (const auto& r : read) {
    if (want.contains(r.card) || named.contains(r.card)) continue;
    named.add(r.card);
    // What did the false card stand on? The nearest labelled index whose box holds its centre.
    std::string under = "-";
    double best = 1e9;
    for (const auto& b : truth.boxes) {
      if (std::abs(r.cx - b.cx) > b.w && std::abs(r.cy - b.cy) > b.h) continue;
      const double d = std::hypot(r.cx - b.cx, r.cy - b.cy);
      if (d < best && std::abs(r.cx - b.cx) <= b.w && std::abs(r.cy - b.cy) <= b.h) { best = d; under = b.name; }
    }
    falses.emplace_back(under, r.card.str());
  }
  return s;
}

namespace {

std::string line(const std::string& name, const Score& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-26s %5d %7.1f%% %9.2f%% %8.2f%% %6d %6d %6d %7.1f\n", name.c_str(), s.images,
                100 * s.exact_share(), 100 * s.precision(), 100 * s.recall(), s.true_cards, s.false_cards, s.missed_cards,
                s.fps());
  return buf;
}

nlohmann::json interval_json(const Interval& i) { return nlohmann::json::array({i.low, i.high}); }

nlohmann::json to_json(const Score& s) {
  return {{"images", s.images},
          {"exact_images", s.exact},
          {"exact_share", s.exact_share()},
          {"precision", s.precision()},
          {"recall", s.recall()},
          {"true_cards", s.true_cards},
          {"false_cards", s.false_cards},
          {"missed_cards", s.missed_cards},
          {"refused_indices", s.refused},
          {"index_recall", s.index_recall()},
          {"index_best_right", s.best_right_share()},
          {"frames_per_second", s.fps()},
          {"decode_ms_per_frame", s.images ? 1000 * s.decode_seconds / s.images : 0.0},
          {"precision_interval", interval_json(s.precision_interval())},
          {"recall_interval", interval_json(s.recall_interval())},
          {"exact_share_interval", interval_json(s.exact_interval())}};
}

std::string interval_line(const std::string& name, const Score& s) {
  char buf[256];
  const auto p = s.precision_interval(), r = s.recall_interval(), x = s.exact_interval();
  std::snprintf(buf, sizeof buf, "%-26s %5.1f-%5.1f%% %5.1f-%5.1f%% %5.1f-%5.1f%%\n", name.c_str(), 100 * x.low, 100 * x.high,
                100 * p.low, 100 * p.high, 100 * r.low, 100 * r.high);
  return buf;
}

std::vector<std::pair<Confusion, int>> sorted(const std::map<Confusion, int>& m) {
  std::vector<std::pair<Confusion, int>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

}  // namespace

Evaluation evaluate(Recogniser& rec, const std::vector<DatasetGroup>& groups) {
  Evaluation ev;
  ev.options = rec.options();
  using clock = std::chrono::steady_clock;
  for (const auto& g : groups) {
    Score gs;
    for (const auto& im : g.images) {
      const auto t0 = clock::now();
      const cv::Mat frame = cv::imread(im.image.string(), cv::IMREAD_COLOR);
      const auto t1 = clock::now();
      if (frame.empty()) throw std::runtime_error(im.image.string() + ": not an image OpenCV can decode");
      const auto reading = rec.read(frame);
      const auto t2 = clock::now();
      std::vector<ReadCard> read;
      for (const auto& c : reading.cards)
        read.push_back({c.card, (c.box.x + c.box.width / 2.0) / frame.cols, (c.box.y + c.box.height / 2.0) / frame.rows});
      std::vector<FoundIndex> found;
      for (const auto& i : reading.indices)
        found.push_back({(i.box.x + i.box.width / 2.0) / frame.cols, (i.box.y + i.box.height / 2.0) / frame.rows, i.best[0].card});
      std::vector<Confusion> falses;
      auto s = score_image(im, read, falses, found);
      for (auto& c : falses) {
        ++ev.confusions[c];
        ev.false_cards.push_back({g.name + "/" + im.image.filename().string(), std::move(c)});
      }
      s.refused = reading.refused;
      s.decode_seconds = std::chrono::duration<double>(t1 - t0).count();
      s.seconds = std::chrono::duration<double>(t2 - t1).count();
      gs.add(s);
    }
    ev.overall.add(gs);
    ev.groups.emplace_back(g.name, gs);
  }
  return ev;
}

std::string evaluation_text(const Evaluation& e) {
  std::string out = "group                      images   exact precision   recall   true  false missed   fps\n";
  for (const auto& [name, s] : e.groups) out += line(name, s);
  out += line("overall", e.overall);
  char head[128];
  std::snprintf(head, sizeof head, "%-26s %12s %12s %12s\n", "95% ranges (Wilson)", "exact", "precision", "recall");
  out += head;
  for (const auto& [name, s] : e.groups) out += interval_line(name, s);
  out += interval_line("overall", e.overall);
  char buf[256];
  // The overall index recall is the "found" column of the table below, so it is not said here too.
  std::snprintf(buf, sizeof buf, "frame decode (not in fps): %.1f ms per frame; indices refused: %d\n",
                e.overall.images ? 1000 * e.overall.decode_seconds / e.overall.images : 0.0, e.overall.refused);
  out += buf;
  // Where the missing recall lies: indices not found, found and read wrong, read right but refused.
  out += "labelled indices           found   best candidate right (read or refused)\n";
  auto indices_line = [&out](const std::string& name, const Score& s) {
    char b[160];
    std::snprintf(b, sizeof b, "%-26s %5.1f%%   %5.1f%%\n", name.c_str(), 100 * s.index_recall(), 100 * s.best_right_share());
    out += b;
  };
  for (const auto& [name, s] : e.groups) indices_line(name, s);
  indices_line("overall", e.overall);
  out += "confusions (label under the false card -> read):\n";
  int n = 0;
  for (const auto& [c, k] : sorted(e.confusions)) {
    if (n++ == 20) break;
    out += "  " + c.first + " -> " + c.second + "  x" + std::to_string(k) + "\n";
  }
  if (e.confusions.empty()) out += "  none\n";
  if (!e.false_cards.empty()) {
    out += "false cards (image: label under -> read):\n";
    n = 0;
    for (const auto& f : e.false_cards) {
      if (n++ == 40) { out += "  ... " + std::to_string(e.false_cards.size() - 40) + " more (--json lists them all)\n"; break; }
      out += "  " + f.image + ": " + f.confusion.first + " -> " + f.confusion.second + "\n";
    }
  }
  if (e.options) {
    const auto& o = *e.options;
    const OperatingPoint pt = operating_point(o);
    std::snprintf(buf, sizeof buf, "operating point: %d views (%s mean%s), floor %.3g, margin %.3g, pair floor %.3g, detector side %s%s%s%s%s\n",
                  pt.views, o.geometric_views ? "geometric" : "arithmetic", o.early_refusal ? "" : ", every view read", pt.floor,
                  pt.margin, pt.pair_floor, o.detector_side ? std::to_string(o.detector_side).c_str() : "the model's",
                  o.strip_reader ? "" : ", batch reader", o.detector_front ? "" : ", whole detector in cv::dnn",
                  !o.detector_front || o.detector_tail ? "" : ", detector's tail in cv::dnn", o.hand_reader ? "" : ", reader in cv::dnn");
    out += buf;
  }
  return out;
}

std::string evaluation_json(const Evaluation& e) {
  nlohmann::json j = to_json(e.overall);
  nlohmann::json groups = nlohmann::json::object();
  for (const auto& [name, s] : e.groups) groups[name] = to_json(s);
  j["groups"] = groups;
  nlohmann::json conf = nlohmann::json::array();
  for (const auto& [c, k] : sorted(e.confusions)) conf.push_back({{"label", c.first}, {"read", c.second}, {"count", k}});
  j["confusions"] = conf;
  nlohmann::json falses = nlohmann::json::array();
  for (const auto& f : e.false_cards) falses.push_back({{"image", f.image}, {"label", f.confusion.first}, {"read", f.confusion.second}});
  j["false_card_images"] = falses;
  if (e.options) {
    const auto& o = *e.options;
    const OperatingPoint pt = operating_point(o);
    j["operating_point"] = {{"floor", pt.floor},
                            {"margin", pt.margin},
                            {"pair_floor", pt.pair_floor},
                            {"views", pt.views},
                            {"views_mean", o.geometric_views ? "geometric" : "arithmetic"},
                            {"early_refusal", o.early_refusal},
                            {"odd_view_reach", o.odd_view_reach},
                            {"detector_side", o.detector_side},
                            {"strip_reader", o.strip_reader},
                            {"detector_front", o.detector_front},
                            {"detector_tail", o.detector_tail},
                            {"hand_reader", o.hand_reader}};
  }
  return j.dump(1) + "\n";
}

}  // namespace cardtable::vision
