#include "devices/quirks.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "data_files/source_or_installed.hpp"
#include "devices/data_lines.hpp"

// Set by devices/CMakeLists.txt: the installed quirk file and the source tree's.
#ifndef CARDTABLE_QUIRKS_FILE
#define CARDTABLE_QUIRKS_FILE "/usr/share/cardtable/readers.quirk"
#endif
#ifndef CARDTABLE_QUIRKS_SOURCE
#define CARDTABLE_QUIRKS_SOURCE ""
#endif

namespace cardtable::devices {

int ReaderQuirk::logical_antenna(int physical) const {
  if (physical >= 0 && static_cast<std::size_t>(physical) < antenna_order.size()) return antenna_order[static_cast<std::size_t>(physical)];
  return physical;
}

std::optional<int> ReaderQuirk::physical_antenna(int logical) const {
  for (std::size_t p = 0; p < antenna_order.size(); ++p)
    if (antenna_order[p] == logical) return static_cast<int>(p);
  // Past the order's end the numbers are the hardware's own (logical_antenna above).
  if (logical >= 0 && static_cast<std::size_t>(logical) >= antenna_order.size()) return logical;
  return std::nullopt;
}

namespace {
std::optional<int> to_int(std::string_view s, int base = 10) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}
std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    std::size_t at = s.find(sep);
    out.push_back(trim(s.substr(0, at)));
    if (at == std::string_view::npos) return out;
    s = s.substr(at + 1);
  }
}
}  // namespace

QuirkTable QuirkTable::parse(std::string_view text, std::vector<QuirkProblem>& problems) {
  QuirkTable t;
  ReaderQuirk* cur = nullptr;
  struct Lines {
    int usb = 0, order = 0;
  };
  std::vector<Lines> lines_of;  // per section: where its usb and antenna_order are, for the checks below
  DataLines lines(text);
  while (lines.next()) {
    const std::string_view line = lines.line();
    const int line_no = lines.number();
    auto problem = [&](std::string m) { problems.push_back({line_no, std::move(m)}); };
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3) {
        problem("a section is `[model]`");
        cur = nullptr;
        continue;
      }
      t.quirks_.push_back(ReaderQuirk{});
      lines_of.push_back({});
      cur = &t.quirks_.back();
      cur->model = std::string(trim(line.substr(1, line.size() - 2)));
      continue;
    }
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      problem("expected `key = value`");
      continue;
    }
    if (!cur) {
      problem("a key before any [model] section");
      continue;
    }
    std::string_view key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    auto number = [&](int& field, int lo, int hi) {
      auto v = to_int(value);
      if (!v || *v < lo || *v > hi) problem(std::string(key) + " must be a number from " + std::to_string(lo) + " to " + std::to_string(hi));
      else field = *v;
    };
    if (key == "usb") {
      auto parts = split(value, ':');
      auto vid = parts.size() == 2 ? to_int(parts[0], 16) : std::nullopt;
      auto pid = parts.size() == 2 ? to_int(parts[1], 16) : std::nullopt;
      if (!vid || !pid || *vid > 0xFFFF || *pid > 0xFFFF || *vid < 0 || *pid < 0) problem("usb = VID:PID in hex, e.g. 072f:2200");
      else cur->vid = static_cast<std::uint16_t>(*vid), cur->pid = static_cast<std::uint16_t>(*pid), lines_of.back().usb = line_no;
    } else if (key == "protocol") {
      if (value != "pn53x-ccid" && value != "cardtable-board") problem("protocol is pn53x-ccid or cardtable-board");
      else cur->protocol = std::string(value);
    } else if (key == "antennas") {
      number(cur->antennas, 1, 16);
    } else if (key == "antenna_order") {
      cur->antenna_order.clear();
      lines_of.back().order = line_no;
      for (auto p : split(value, ',')) {
        auto v = to_int(p);
        if (!v || *v < 0 || *v > 15) {
          problem("antenna_order lists logical antennas 0..15, e.g. 2,0,1,3");
          cur->antenna_order.clear();
          break;
        }
        cur->antenna_order.push_back(*v);
      }
    } else if (key == "poll_ms") {
      number(cur->poll_ms, 10, 10000);
    } else if (key == "timeout_ms") {
      number(cur->timeout_ms, 10, 10000);
    } else if (key == "retries") {
      number(cur->retries, 1, 100);
    } else if (key == "crosstalk_margin") {
      number(cur->crosstalk_margin, 0, 255);
    } else if (key == "bugs") {
      for (auto b : split(value, ','))
        if (!b.empty()) cur->bugs.insert(std::string(b));
    } else {
      problem("unknown key '" + std::string(key) + "'");
    }
  }
  for (std::size_t i = 0; i < t.quirks_.size(); ++i) {
    const ReaderQuirk& q = t.quirks_[i];
    if (q.protocol.empty()) problems.push_back({0, "[" + q.model + "] has no protocol"});
    // One logical antenna for each physical one. A shorter order leaves the last physical antennas read
    // as their own numbers, which the order may have given to another (1,2,3 with 4 antennas: physical 2
    // and 3 both feed antenna3, and antenna0 has none); a longer one names antennas the model lacks.
    // Said alone: the entries' own checks below would only echo it.
    if (!q.antenna_order.empty() && q.antenna_order.size() != static_cast<std::size_t>(q.antennas)) {
      problems.push_back({lines_of[i].order, "[" + q.model + "] antenna_order lists " + std::to_string(q.antenna_order.size()) +
                                                 " antennas, but antennas = " + std::to_string(q.antennas) +
                                                 " (one logical antenna for each physical one)", true});
    } else {
      // antenna_order maps each physical antenna to a logical one: a logical antenna named twice gets two
      // physical ones (the reader keeps one of their readings, the other antenna is never read) and leaves
      // another with none; one the model does not have is a zone no configuration can name right.
      std::set<int> seen;
      for (int logical : q.antenna_order) {
        if (logical >= q.antennas) {
          problems.push_back({lines_of[i].order, "[" + q.model + "] antenna_order lists antenna" + std::to_string(logical) + ", but antennas = " +
                                                     std::to_string(q.antennas) + " (antenna0 to antenna" + std::to_string(q.antennas - 1) + ")", true});
          break;
        }
        if (!seen.insert(logical).second) {
          problems.push_back({lines_of[i].order, "[" + q.model + "] antenna_order lists antenna" + std::to_string(logical) +
                                                     " twice (each physical antenna is another logical one)", true});
          break;
        }
      }
    }
    // A device is taken by the first section with its VID:PID (by_usb): a second one would never be used,
    // and the reader it names would wait for a device that is taken as another model or not at all.
    if (lines_of[i].usb)
      for (std::size_t j = 0; j < i; ++j)
        if (lines_of[j].usb && t.quirks_[j].vid == q.vid && t.quirks_[j].pid == q.pid) {
          char id[16];
          std::snprintf(id, sizeof id, "%04x:%04x", q.vid, q.pid);
          problems.push_back({lines_of[i].usb, "[" + q.model + "] has usb = " + id + ", as [" + t.quirks_[j].model + "] (line " +
                                                   std::to_string(lines_of[j].usb) + ") has: a device is one model", true});
          break;
        }
  }
  return t;
}

QuirkTable QuirkTable::load(const std::string& path, std::vector<QuirkProblem>& problems) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problems.push_back({0, "cannot be opened"});
    return {};
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), problems);
}

std::string QuirkTable::default_path() {
  return data_files::source_or_installed(CARDTABLE_QUIRKS_SOURCE, CARDTABLE_QUIRKS_FILE);
}

const ReaderQuirk* QuirkTable::by_usb(std::uint16_t vid, std::uint16_t pid) const {
  for (const ReaderQuirk& q : quirks_)
    if (q.vid == vid && q.pid == pid) return &q;
  return nullptr;
}

const ReaderQuirk* QuirkTable::by_model(std::string_view model) const {
  for (const ReaderQuirk& q : quirks_)
    if (q.model == model) return &q;
  return nullptr;
}

std::vector<const ReaderQuirk*> QuirkTable::by_protocol(std::string_view protocol) const {
  std::vector<const ReaderQuirk*> out;
  for (const ReaderQuirk& q : quirks_)
    if (q.protocol == protocol) out.push_back(&q);
  return out;
}

}  // namespace cardtable::devices
