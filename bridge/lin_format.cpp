#include "bridge/lin_format.hpp"

#include <cctype>
#include <charconv>

#include "bridge/text_encoding.hpp"

namespace cardtable::bridge {
namespace {

// 'text' in quotes, appended: gcc 12 at -O3 warns a false -Wrestrict on "'" + std::string(...) (the
// const char* + string&& operator inserts at the front), which a Release -Werror build refuses.
std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out += text;
  out += '\'';
  return out;
}

// LIN seat digits: 1 = South, 2 = West, 3 = North, 4 = East; hands are listed S, W, N, E.
constexpr Seat kLinSeats[4] = {Seat::South, Seat::West, Seat::North, Seat::East};

int lin_digit(Seat s) {
  for (int i = 0; i < 4; ++i)
    if (kLinSeats[i] == s) return i + 1;
  return 1;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A LIN hand: "SAKQ2HT9D8765C32" (suits in any order, letters in any case, "10" accepted).
std::optional<Hand> parse_lin_hand(std::string_view s, std::string& why) {
  Hand h;
  std::optional<Suit> suit;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    // 'S', 'H', 'D', 'C' switch suits; no rank shares a letter with a suit.
    if (std::string_view("SHDCshdc").find(c) != std::string_view::npos) {
      suit = parse_suit(std::string_view(&c, 1));
      continue;
    }
    if (!suit) { why = std::string("'") + c + "' before any suit letter"; return std::nullopt; }
    Rank r{};
    if (c == '1' && i + 1 < s.size() && s[i + 1] == '0') { r = Rank::Ten; ++i; }
    else if (auto pr = parse_rank_char(c)) r = *pr;
    else { why = std::string("'") + c + "' is not a rank"; return std::nullopt; }
    Card card(*suit, r);
    if (h.contains(card)) { why = card.str() + " appears twice"; return std::nullopt; }
    h.add(card);
  }
  return h;
}

// One board being read: it ends at the next qx or md, or at the end of the file.
struct Pending {
  BoardRecord rec;
  bool has_md = false;
  std::vector<Card> cards;
  Seat dealer = Seat::South;
  int claim = -1;
};

class LinParser {
 public:
  LinParser(std::string_view text, std::string_view file, const BoardSink& sink, Diagnostics& diags)
      : text_(text), file_(file), stem_(file_stem(file)), sink_(sink), diags_(diags) {}
  void run();

 private:
  void error(int line, int column, std::string msg) {
    diags_.push_back({Diagnostic::Severity::Error, {file_, line, column}, std::move(msg)});
  }
  void flush();
  void start_board(int line);
  void handle(std::string_view key, std::string_view value, int line, int column);

  std::string_view text_;
  std::string file_;
  std::string stem_;
  const BoardSink& sink_;
  Diagnostics& diags_;
  std::optional<Pending> cur_;
  std::string event_;
  std::string session_;
  std::vector<std::string> players_;  // S W N E
  int boards_seen_ = 0;
};

void LinParser::start_board(int line) {
  flush();
  cur_.emplace();
  cur_->rec.place = {file_, line, 0};
  cur_->rec.event = event_.empty() ? stem_ : event_;
  cur_->rec.session = session_;
}

void LinParser::flush() {
  if (!cur_) return;
  Pending p = std::move(*cur_);
  cur_.reset();
  if (!p.has_md) return;  // a heading without cards (vg, pn, nt only): nothing to load
  BoardRecord& r = p.rec;
  ++boards_seen_;
  if (r.board == 0) r.board = boards_seen_;
  if (!players_.empty()) {
    const char* names[4] = {"South", "West", "North", "East"};
    for (std::size_t i = 0; i < 4 && i < players_.size(); ++i)
      if (!players_[i].empty()) r.set_tag(names[i], players_[i]);
  }
  std::optional<Suit> trump;
  std::optional<Seat> leader;
  if (r.auction) {
    if (auto c = contract_of(*r.auction)) {
      trump = trump_of(c->strain);
      leader = left_hand_opponent(c->declarer);
      r.set_tag("Contract", c->str());
      r.set_tag("Declarer", std::string(1, seat_letter(c->declarer)));
    } else if (r.auction->complete()) {
      r.set_tag("Contract", "Pass");
    }
  }
  if (!p.cards.empty()) {
    if (!leader && r.deal) leader = r.deal->holder(p.cards.front());
    r.play = Play::from_order(leader.value_or(Seat::West), p.cards, trump);
  }
  if (p.claim >= 0) r.set_tag("Result", std::to_string(p.claim));
  sink_(std::move(r));
}

void LinParser::handle(std::string_view key, std::string_view value, int line, int column) {
  std::string k = lower(key);
  if (k == "vg") {
    // "event,segment,type,first board,last board,team1,score1,team2,score2"
    auto comma = value.find(',');
    event_ = std::string(value.substr(0, comma));
    session_.clear();
    if (comma != std::string_view::npos) {
      auto rest = value.substr(comma + 1);
      session_ = std::string(rest.substr(0, rest.find(',')));
    }
    return;
  }
  if (k == "pn") {
    players_.clear();
    std::size_t start = 0;
    while (start <= value.size()) {
      auto comma = value.find(',', start);
      players_.emplace_back(value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (players_.size() > 4) players_.resize(4);  // vugraph lists both rooms; the first four are this table
    return;
  }
  if (k == "qx") {
    start_board(line);
    std::string_view v = value;
    if (!v.empty() && (v[0] == 'o' || v[0] == 'c' || v[0] == 'O' || v[0] == 'C')) {
      cur_->rec.set_tag("Room", (v[0] == 'o' || v[0] == 'O') ? "Open" : "Closed");
      v.remove_prefix(1);
    }
    int n = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && n > 0) cur_->rec.board = n;
    return;
  }
  if (k == "md") {
    if (!cur_ || cur_->has_md) start_board(line);
    if (value.empty() || value[0] < '1' || value[0] > '4') {
      error(line, column, "md: expected the dealer digit 1-4 (1=S 2=W 3=N 4=E) before the hands");
      cur_->has_md = false;
      return;
    }
    cur_->dealer = kLinSeats[value[0] - '1'];
    cur_->rec.dealer = cur_->dealer;
    Deal d;
    std::string_view hands = value.substr(1);
    int given = 0;
    for (int i = 0; i < 4; ++i) {
      auto comma = hands.find(',');
      std::string_view h = hands.substr(0, comma);
      hands = comma == std::string_view::npos ? std::string_view{} : hands.substr(comma + 1);
      if (h.empty()) continue;
      std::string why;
      auto hand = parse_lin_hand(h, why);
      if (!hand) {
        error(line, column, "md: hand of " + std::string(seat_name(kLinSeats[i])) + ": " + why);
        return;
      }
      d.hand(kLinSeats[i]) = *hand;
      ++given;
    }
    // The fourth hand may be left out: it holds the cards nobody else does.
    if (given == 3) {
      Hand rest = Hand::full_deck();
      for (const Hand& h : d.hands()) rest = rest - h;
      for (Seat s : kAllSeats)
        if (d.hand(s).empty()) d.hand(s) = rest;
    }
    if (!d.partial_valid()) {
      for (const DealProblem& p : d.problems()) error(line, column, "md: " + p.message());
      return;
    }
    cur_->rec.deal = d;
    cur_->has_md = true;
    return;
  }
  if (!cur_) start_board(line);
  if (k == "sv") {
    std::string v = lower(value);
    if (v == "o" || v == "0" || v == "-") cur_->rec.vulnerability = Vulnerability::None;
    else if (v == "n") cur_->rec.vulnerability = Vulnerability::NorthSouth;
    else if (v == "e") cur_->rec.vulnerability = Vulnerability::EastWest;
    else if (v == "b") cur_->rec.vulnerability = Vulnerability::Both;
    else error(line, column, "sv: '" + std::string(value) + "' is not a vulnerability (expected o, n, e or b)");
  } else if (k == "ah") {
    // "Board 12"
    std::string_view v = value;
    while (!v.empty() && !std::isdigit(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
    int n = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && n > 0) cur_->rec.board = n;
  } else if (k == "mb") {
    if (!cur_->rec.auction) cur_->rec.auction = Auction{cur_->dealer, {}};
    std::string v(value);
    bool alert = !v.empty() && v.back() == '!';
    if (alert) v.pop_back();
    auto call = Call::parse(v);
    if (!call) {
      error(line, column, "mb: '" + std::string(value) + "' is not a call");
      return;
    }
    call->alerted = alert;
    if (lower(v) == "ap") {
      cur_->rec.auction->all_pass();
    } else {
      cur_->rec.auction->calls.push_back(*call);
    }
  } else if (k == "an") {
    if (cur_->rec.auction && !cur_->rec.auction->calls.empty()) cur_->rec.auction->calls.back().note = std::string(value);
  } else if (k == "pc") {
    auto card = Card::parse(value);
    if (!card) {
      error(line, column, "pc: '" + std::string(value) + "' is not a card");
      return;
    }
    cur_->cards.push_back(*card);
  } else if (k == "mc") {
    int n = -1;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec == std::errc()) cur_->claim = n;
  }
  // pg, nt, st, rh, rs, sk, hc, at, ... carry nothing a master record needs.
}

void LinParser::run() {
  std::size_t pos = 0;
  int line = 1;
  std::size_t line_start = 0;
  const std::size_t n = text_.size();
  auto skip_space = [&] {
    while (pos < n && std::isspace(static_cast<unsigned char>(text_[pos]))) {
      if (text_[pos] == '\n') { ++line; line_start = pos + 1; }
      ++pos;
    }
  };
  while (true) {
    skip_space();
    if (pos >= n) break;
    std::size_t kstart = pos;
    int kline = line;
    int kcol = static_cast<int>(pos - line_start) + 1;
    while (pos < n && text_[pos] != '|' && text_[pos] != '\n') ++pos;
    if (pos >= n || text_[pos] == '\n') {
      error(kline, kcol, quoted(text_.substr(kstart, pos - kstart)) + " is not followed by '|' and a value");
      continue;
    }
    std::string_view key = text_.substr(kstart, pos - kstart);
    ++pos;
    std::size_t vstart = pos;
    int vcol = static_cast<int>(pos - line_start) + 1;
    while (pos < n && text_[pos] != '|') {
      if (text_[pos] == '\n') { ++line; line_start = pos + 1; }
      ++pos;
    }
    std::string_view value = text_.substr(vstart, pos - vstart);
    if (pos < n) ++pos;
    else if (!key.empty()) error(kline, kcol, std::string("the value of ").append(quoted(key)).append(" has no closing '|'"));
    if (key.size() > 2 || key.empty()) {
      error(kline, kcol, quoted(key) + " is not a LIN key (two letters)");
      continue;
    }
    handle(key, value, kline, vcol);
  }
  flush();
}

std::string lin_hand(const Hand& h) {
  std::string out;
  for (Suit s : kDisplaySuits) {
    out += suit_letter(s);
    out += h.suit_text(s);
  }
  return out;
}

}  // namespace

void read_lin(std::string_view text, std::string_view file_name, const BoardSink& sink, Diagnostics& diagnostics) {
  std::string storage;
  std::string_view utf8 = as_utf8(text, storage);
  LinParser(utf8, file_name, sink, diagnostics).run();
}

RecordSet read_lin(std::string_view text, std::string_view file_name) {
  RecordSet out;
  read_lin(text, file_name, [&](BoardRecord&& r) { out.boards.push_back(std::move(r)); }, out.diagnostics);
  return out;
}

std::string write_lin(const std::vector<BoardRecord>& records) {
  std::string out;
  for (const BoardRecord& r : records) {
    if (!r.deal) continue;
    Seat dealer = r.effective_dealer();
    out += "qx|o" + std::to_string(r.board) + "|";
    std::string names[4];
    const char* tags[4] = {"South", "West", "North", "East"};
    bool any = false;
    for (int i = 0; i < 4; ++i)
      if (const std::string* v = r.tag(tags[i]); v && *v != "?") { names[i] = *v; any = true; }
    if (any) out += "pn|" + names[0] + "," + names[1] + "," + names[2] + "," + names[3] + "|";
    out += "md|" + std::to_string(lin_digit(dealer));
    for (int i = 0; i < 4; ++i) {
      if (i) out += ',';
      out += lin_hand(r.deal->hand(kLinSeats[i]));
    }
    out += "|rh||ah|Board " + std::to_string(r.board) + "|sv|";
    switch (r.effective_vulnerability()) {
      case Vulnerability::None: out += 'o'; break;
      case Vulnerability::NorthSouth: out += 'n'; break;
      case Vulnerability::EastWest: out += 'e'; break;
      case Vulnerability::Both: out += 'b'; break;
    }
    out += '|';
    std::optional<Suit> trump;
    if (r.auction) {
      for (const Call& c : r.auction->calls) {
        std::string t = c.kind == Call::Kind::Pass ? "p" : c.kind == Call::Kind::Double ? "d"
                      : c.kind == Call::Kind::Redouble ? "r" : std::to_string(c.level) + strain_letter(c.strain);
        out += "mb|" + t + (c.alerted ? "!" : "") + "|";
        if (!c.note.empty()) {
          std::string note = c.note;
          for (char& ch : note) if (ch == '|') ch = '/';
          out += "an|" + note + "|";
        }
      }
      if (auto c = contract_of(*r.auction)) trump = trump_of(c->strain);
    } else if (const std::string* ct = r.tag("Contract")) {
      if (auto c = parse_contract(*ct, Seat::North)) trump = trump_of(c->strain);
    }
    if (r.play) {
      std::vector<Card> cards = r.play->in_order(trump);
      for (std::size_t i = 0; i < cards.size(); ++i) {
        out += "pc|" + cards[i].str() + "|";
        if (i % 4 == 3) out += "pg||";
      }
    }
    out += "pg||\n";
  }
  return out;
}

}  // namespace cardtable::bridge
