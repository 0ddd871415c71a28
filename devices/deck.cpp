#include "devices/deck.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bridge/hand.hpp"
#include "devices/data_lines.hpp"

namespace cardtable::devices {

std::string DeckProblem::str() const {
  return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
}

std::optional<Uid> Deck::uid_of(bridge::Card card) const {
  for (const auto& [uid, c] : cards)
    if (c == card) return uid;
  return std::nullopt;
}

namespace {
std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}
// Labels name files and appear in events: printable, no path separators.
bool good_label(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_' || c == '.'; });
}
}  // namespace

Deck parse_deck(std::string_view text, const std::string& name, std::vector<DeckProblem>& problems) {
  Deck deck;
  std::filesystem::path p(name);
  deck.label = p.stem().string();
  std::map<Uid, int> uid_line;
  std::map<int, int> card_line;  // card id → line
  bool seen_label = false;
  DataLines lines(text);
  while (lines.next()) {
    const std::string_view line = lines.line();
    const int line_no = lines.number();
    auto w = words(line);
    auto problem = [&](std::string m) { problems.push_back({name, line_no, std::move(m)}); };
    if (w[0] == "deck") {
      if (w.size() != 2 || !good_label(w[1])) {
        problem("`deck` takes one label of letters, digits, '-', '_', '.'");
      } else if (seen_label || !deck.cards.empty()) {
        problem("`deck` must come once, before the cards");
      } else {
        deck.label = std::string(w[1]);
        seen_label = true;
      }
      continue;
    }
    if (w.size() != 2) {
      problem("expected `<UID> <card>`, e.g. `04A1B2C3D4E5F6 SA`");
      continue;
    }
    auto uid = Uid::parse(w[0]);
    if (!uid) {
      problem("'" + std::string(w[0].substr(0, 32)) + "' is not a UID (8, 14 or 20 hex digits)");
      continue;
    }
    auto card = bridge::Card::parse(w[1]);
    if (!card) {
      problem("'" + std::string(w[1].substr(0, 16)) + "' is not a card (e.g. SA, HT, C2)");
      continue;
    }
    if (auto it = uid_line.find(*uid); it != uid_line.end()) {
      problem("UID " + uid->str() + " is listed twice (first at line " + std::to_string(it->second) + ")");
      continue;
    }
    if (auto it = card_line.find(card->id()); it != card_line.end()) {
      problem("card " + card->str() + " has two tags (first at line " + std::to_string(it->second) + ")");
      continue;
    }
    uid_line[*uid] = line_no;
    card_line[card->id()] = line_no;
    deck.cards[*uid] = *card;
  }
  if (!deck.complete())
    problems.push_back({name, 0, "deck " + deck.label + " has " + std::to_string(deck.cards.size()) + " of 52 cards"});
  return deck;
}

std::string format_deck(const Deck& deck) {
  std::ostringstream out;
  out << "# cardtable deck file (docs/hardware.md): one tag per line, <UID> <card>\n";
  out << "deck " << deck.label << "\n";
  bridge::Hand all = bridge::Hand::full_deck();
  all.for_each_descending([&](bridge::Card c) {
    if (auto uid = deck.uid_of(c)) out << uid->str() << " " << c.str() << "\n";
  });
  return out.str();
}

bool write_deck(const std::filesystem::path& path, const Deck& deck, std::string& error) {
  const std::string text = format_deck(deck);
  std::filesystem::path folder = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  std::string tmp = (folder / ("." + path.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(tmp.data());
  if (fd < 0) {
    error = tmp + ": " + std::strerror(errno);
    return false;
  }
  auto fail = [&](const char* what) {
    error = path.string() + ": " + what + ": " + std::strerror(errno);
    close(fd);
    unlink(tmp.c_str());
    return false;
  };
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write");
    }
    done += static_cast<std::size_t>(n);
  }
  if (fchmod(fd, 0644) != 0) return fail("chmod");
  if (fsync(fd) != 0) return fail("fsync");
  if (close(fd) != 0) {
    error = path.string() + ": close: " + std::strerror(errno);
    unlink(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path.string() + ": rename: " + std::strerror(errno);
    unlink(tmp.c_str());
    return false;
  }
  // The rename is durable only once the folder is synced (a power cut could otherwise lose it).
  int dir = open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    fsync(dir);
    close(dir);
  }
  return true;
}

DeckLibrary DeckLibrary::load_folder(const std::filesystem::path& folder, std::vector<DeckProblem>& problems) {
  DeckLibrary lib;
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::directory_iterator(folder, ec); !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".deck" && it->is_regular_file()) files.push_back(it->path());
  if (ec) {
    problems.push_back({folder.string(), 0, "cannot read the deck folder: " + ec.message()});
    return lib;
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      problems.push_back({f.string(), 0, "cannot open"});
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    lib.add(parse_deck(ss.str(), f.string(), problems), problems);
  }
  return lib;
}

void DeckLibrary::add(Deck deck, std::vector<DeckProblem>& problems) {
  std::size_t at = decks_.size();
  for (auto it = deck.cards.begin(); it != deck.cards.end();) {
    if (auto seen = index_.find(it->first); seen != index_.end()) {
      problems.push_back({deck.label, 0, "UID " + it->first.str() + " (" + it->second.str() + ") is already enrolled in deck " + decks_[seen->second].label + "; ignored here"});
      it = deck.cards.erase(it);
      continue;
    }
    index_[it->first] = at;
    ++it;
  }
  decks_.push_back(std::move(deck));
}

std::optional<DeckMatch> DeckLibrary::find(const Uid& uid) const {
  auto it = index_.find(uid);
  if (it == index_.end()) return std::nullopt;
  const Deck& d = decks_[it->second];
  return DeckMatch{d.cards.at(uid), &d};
}

}  // namespace cardtable::devices
