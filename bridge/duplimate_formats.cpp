#include "bridge/duplimate_formats.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace cardtable::bridge {
namespace {

// Duplimate numbers cards 1..52 from the spade ace down to the club two.
int duplimate_number(Card c) { return (3 - index(c.suit())) * 13 + (12 - index(c.rank())) + 1; }
Card card_of_number(int n) {
  int i = n - 1;
  return Card(static_cast<Suit>(3 - i / 13), static_cast<Rank>(12 - i % 13));
}

// One DUP block, described once.
struct DupBlock {
  char bri[78];     // North, East, South: 13 x "NN" each
  char dge[68];     // four hands x (4 suit symbols + 13 ranks)
  char random;      // 'Y' / 'N'
  char backwards;   // 'Y' / 'N'
  char lowest[3];   // lowest board of the set, left aligned, space padded
  char copies[2];
  char highest[3];
};
static_assert(sizeof(DupBlock) == 156, "a DUP board is 156 bytes");

// DGE suit markers: the code-page-437 glyphs of the suits.
constexpr char kDgeSpades = 0x06, kDgeHearts = 0x03, kDgeDiamonds = 0x04, kDgeClubs = 0x05;

int read_field(const char* p, std::size_t n) {
  int v = 0;
  std::string_view s(p, n);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return (ec == std::errc() && ptr == s.data() + s.size()) ? v : -1;
}

// The pieces appended: gcc 12 at -O3 warns a false -Wrestrict on "text" + std::string (the const char* +
// string&& operator inserts at the front), which a Release -DCARDTABLE_WERROR=ON build refuses.
template <typename... Pieces>
std::string joined(const Pieces&... pieces) {
  std::string out;
  (out.append(pieces), ...);
  return out;
}

void write_field(char* p, std::size_t n, int v) {
  std::memset(p, ' ', n);
  std::string s = std::to_string(v);
  std::memcpy(p, s.data(), std::min(n, s.size()));
}

}  // namespace

RecordSet read_dup(std::string_view bytes, std::string_view file_name) {
  RecordSet out;
  std::string file(file_name);
  std::string stem = file_stem(file_name);
  if (bytes.size() % sizeof(DupBlock) != 0)
    add_diagnostic(out.diagnostics, Diagnostic::Severity::Error, file, 0, 0,
                   joined("size ", std::to_string(bytes.size()), " is not a multiple of 156 bytes; the last ",
                          std::to_string(bytes.size() % sizeof(DupBlock)), " bytes are ignored"));
  std::size_t count = bytes.size() / sizeof(DupBlock);
  int first_board = 1;
  for (std::size_t b = 0; b < count; ++b) {
    DupBlock blk;
    std::memcpy(&blk, bytes.data() + b * sizeof(DupBlock), sizeof blk);
    if (b == 0) {
      int lowest = read_field(blk.lowest, sizeof blk.lowest);
      if (lowest > 0) first_board = lowest;
    }
    int board = first_board + static_cast<int>(b);
    auto fail = [&](const std::string& msg) {
      add_diagnostic(out.diagnostics, Diagnostic::Severity::Error, file, 0, 0,
                     joined("board ", std::to_string(board), " (byte ", std::to_string(b * sizeof(DupBlock)), "): ", msg));
    };
    Deal d;
    bool ok = true;
    constexpr Seat kBriSeats[3] = {Seat::North, Seat::East, Seat::South};
    for (int h = 0; h < 3 && ok; ++h) {
      for (int i = 0; i < 13; ++i) {
        const char* p = blk.bri + h * 26 + i * 2;
        int n = (p[0] >= '0' && p[0] <= '9' && p[1] >= '0' && p[1] <= '9') ? (p[0] - '0') * 10 + (p[1] - '0') : -1;
        if (n < 1 || n > 52) {
          fail(joined("card ", std::to_string(i + 1), " of ", seat_name(kBriSeats[h]), " is '", std::string_view(p, 2),
                      "', expected 01..52"));
          ok = false;
          break;
        }
        Card c = card_of_number(n);
        if (auto holder = d.holder(c)) {
          fail(joined(c.str(), " is given to ", seat_name(*holder), " and ", seat_name(kBriSeats[h])));
          ok = false;
          break;
        }
        d.hand(kBriSeats[h]).add(c);
      }
    }
    if (!ok) continue;
    Hand rest = Hand::full_deck() - (d.hand(Seat::North) | d.hand(Seat::East) | d.hand(Seat::South));
    d.hand(Seat::West) = rest;
    // The DGE half repeats the deal; a disagreement means a damaged file.
    bool dge_ok = true;
    for (int h = 0; h < 4 && dge_ok; ++h) {
      Hand got;
      std::optional<Suit> suit;
      for (int i = 0; i < 17; ++i) {
        char c = blk.dge[h * 17 + i];
        if (c == kDgeSpades) suit = Suit::Spades;
        else if (c == kDgeHearts) suit = Suit::Hearts;
        else if (c == kDgeDiamonds) suit = Suit::Diamonds;
        else if (c == kDgeClubs) suit = Suit::Clubs;
        else if (auto r = parse_rank_char(c); r && suit) got.add(Card(*suit, *r));
        else dge_ok = false;
      }
      if (got != d.hand(kAllSeats[h])) dge_ok = false;
    }
    if (!dge_ok)
      add_diagnostic(out.diagnostics, Diagnostic::Severity::Warning, file, 0, 0,
                     joined("board ", std::to_string(board), ": the DGE part disagrees with the card numbers; the card numbers are used"));
    BoardRecord r;
    r.place = {file, 0, 0};
    r.event = stem;
    r.board = board;
    r.dealer = dealer_of_board(board);
    r.vulnerability = vulnerability_of_board(board);
    r.deal = d;
    out.boards.push_back(std::move(r));
  }
  return out;
}

std::string write_dup(const std::vector<BoardRecord>& records) {
  std::string out;
  int lowest = 0, highest = 0;
  for (const BoardRecord& r : records) {
    if (!r.deal || !r.deal->valid()) continue;
    lowest = lowest == 0 ? r.board : std::min(lowest, r.board);
    highest = std::max(highest, r.board);
  }
  bool first = true;
  for (const BoardRecord& r : records) {
    if (!r.deal || !r.deal->valid()) continue;  // DUP can only hold complete deals
    DupBlock blk;
    std::memset(&blk, 0, sizeof blk);
    constexpr Seat kBriSeats[3] = {Seat::North, Seat::East, Seat::South};
    for (int h = 0; h < 3; ++h) {
      int i = 0;
      r.deal->hand(kBriSeats[h]).for_each_descending([&](Card c) {
        int n = duplimate_number(c);
        blk.bri[h * 26 + i * 2] = static_cast<char>('0' + n / 10);
        blk.bri[h * 26 + i * 2 + 1] = static_cast<char>('0' + n % 10);
        ++i;
      });
    }
    for (int h = 0; h < 4; ++h) {
      std::string s;
      const Hand& hand = r.deal->hand(kAllSeats[h]);
      s += kDgeSpades;
      s += hand.suit_text(Suit::Spades);
      s += kDgeHearts;
      s += hand.suit_text(Suit::Hearts);
      s += kDgeDiamonds;
      s += hand.suit_text(Suit::Diamonds);
      s += kDgeClubs;
      s += hand.suit_text(Suit::Clubs);
      std::memcpy(blk.dge + h * 17, s.data(), 17);
    }
    if (first) {  // the set-up fields, as Duplimate software writes them: on the first board only
      blk.random = 'Y';
      blk.backwards = 'N';
      write_field(blk.lowest, sizeof blk.lowest, lowest);
      write_field(blk.copies, sizeof blk.copies, 0);
      write_field(blk.highest, sizeof blk.highest, highest);
      first = false;
    }
    out.append(reinterpret_cast<const char*>(&blk), sizeof blk);
  }
  return out;
}

RecordSet read_dlm(std::string_view text, std::string_view file_name) {
  RecordSet out;
  std::string file(file_name);
  std::string stem = file_stem(file_name);
  int from = -1, to = -1;
  struct Entry { int board; std::string value; int line; };
  std::vector<Entry> entries;
  int line = 0;
  bool saw_document = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line;
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.remove_suffix(1);
    if (l.empty()) continue;
    if (l == "[Document]") { saw_document = true; continue; }
    auto eq = l.find('=');
    if (eq == std::string_view::npos) {
      add_diagnostic(out.diagnostics, Diagnostic::Severity::Error, file, line, 1, "expected 'key=value'");
      continue;
    }
    std::string_view key = l.substr(0, eq), value = l.substr(eq + 1);
    auto number = [](std::string_view s) {
      int v = -1;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      return (ec == std::errc() && p == s.data() + s.size()) ? v : -1;
    };
    if (key == "From board") from = number(value);
    else if (key == "To board") to = number(value);
    else if (key.starts_with("Board ")) {
      int b = number(key.substr(6));
      if (b <= 0) add_diagnostic(out.diagnostics, Diagnostic::Severity::Error, file, line, 1, joined("'", key, "' has no board number"));
      else entries.push_back({b, std::string(value), line});
    }
  }
  if (!saw_document)
    add_diagnostic(out.diagnostics, Diagnostic::Severity::Warning, file, 1, 1, "no [Document] header: not a Duplimate DLM file?");
  for (const Entry& e : entries) {
    // Boards outside From..To are the machine's filler, not part of the set.
    if (from > 0 && to > 0 && (e.board < from || e.board > to)) continue;
    int col = static_cast<int>(std::string("Board ").size() + std::to_string(e.board).size()) + 2;
    auto fail = [&](const std::string& msg) {
      add_diagnostic(out.diagnostics, Diagnostic::Severity::Error, file, e.line, col, joined("board ", std::to_string(e.board), ": ", msg));
    };
    if (e.value.size() != 29) {
      fail(joined("expected 26 letters and a 3-digit check number, found ", std::to_string(e.value.size()), " characters"));
      continue;
    }
    Deal d;
    int check = 0;
    bool ok = true;
    for (int i = 0; i < 26; ++i) {
      char c = e.value[static_cast<std::size_t>(i)];
      if (c < 'a' || c > 'p') {
        fail(std::string("'") + c + "' is not a letter a..p");
        ok = false;
        break;
      }
      check ^= static_cast<unsigned char>(c);
      int v = c - 'a';
      d.hand(static_cast<Seat>(v / 4)).add(card_of_number(2 * i + 1));
      d.hand(static_cast<Seat>(v % 4)).add(card_of_number(2 * i + 2));
    }
    if (!ok) continue;
    int stated = -1;
    std::string_view digits = std::string_view(e.value).substr(26);
    std::from_chars(digits.data(), digits.data() + 3, stated);
    if (stated != (check ^ e.board))
      add_diagnostic(out.diagnostics, Diagnostic::Severity::Warning, file, e.line, col + 26,
                     joined("board ", std::to_string(e.board), ": check number ", digits, " should be ", std::to_string(check ^ e.board)));
    if (!d.valid()) {
      for (const DealProblem& p : d.problems()) fail(p.message());
      continue;
    }
    BoardRecord r;
    r.place = {file, e.line, 1};
    r.event = stem;
    r.board = e.board;
    r.dealer = dealer_of_board(e.board);
    r.vulnerability = vulnerability_of_board(e.board);
    r.deal = d;
    out.boards.push_back(std::move(r));
  }
  return out;
}

std::string write_dlm(const std::vector<BoardRecord>& records) {
  int from = 0, to = 0;
  for (const BoardRecord& r : records) {
    if (!r.deal || !r.deal->valid()) continue;
    from = from == 0 ? r.board : std::min(from, r.board);
    to = std::max(to, r.board);
  }
  std::string out = "[Document]\nHeadline=Generated by cardtable\nStatus=Show\nDuplicates=1\n";
  out += "From board=" + std::to_string(from) + "\nTo board=" + std::to_string(to) + "\n";
  out += "Next board to duplimate=0\nPrintOuts=0\nCrypto key=0\nChecksum=" + std::to_string(from ^ to) + "\n";
  for (const BoardRecord& r : records) {
    if (!r.deal || !r.deal->valid()) continue;
    std::string num = std::to_string(r.board);
    if (r.board < 10) num.insert(num.begin(), '0');
    std::string letters;
    int check = 0;
    for (int i = 0; i < 26; ++i) {
      int a = index(*r.deal->holder(card_of_number(2 * i + 1)));
      int b = index(*r.deal->holder(card_of_number(2 * i + 2)));
      char c = static_cast<char>('a' + a * 4 + b);
      check ^= c;
      letters += c;
    }
    std::string digits = std::to_string((check ^ r.board) % 1000);
    digits.insert(0, 3 - digits.size(), '0');
    out += "Duplicates " + num + "=0\nBoard " + num + "=" + letters + digits + "\n";
  }
  return out;
}

}  // namespace cardtable::bridge
