#include "bridge/pbn_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <istream>
#include <memory>
#include <optional>

#include "bridge/text_encoding.hpp"

namespace cardtable::bridge {
namespace {

struct Token {
  std::string text;  // owned: a game's sections outlive the chunk of the file they were read from
  int line = 0;
  int column = 0;
};

struct RawTag {
  std::string name;
  std::string value;
  int line = 0;
  int column = 0;  // of the value's first character
  std::vector<Token> section;  // the data lines after the tag (Auction, Play, tables)
};

// Every space but the newline, which ends lines and games. (Found by fuzzing: a vertical tab or form
// feed once stopped the tokenizer from moving on.)
bool is_blank(char c) { return c != '\n' && std::isspace(static_cast<unsigned char>(c)); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int> parse_int(std::string_view s) {
  s = trim(s);
  if (s.starts_with('+')) s.remove_prefix(1);  // "NS +620"
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

bool unknown_value(std::string_view v) { return v.empty() || v == "?"; }

// An OptimumResultTable of 20 rows "Declarer Denomination Result" as a double-dummy table; nullopt when
// the table is not the declarer/denomination/result kind or not complete.
std::optional<DdTable> parse_result_table(const RawTag& tag) {
  if (tag.value.find("Declarer") == std::string::npos || tag.value.find("Result") == std::string::npos) return std::nullopt;
  DdTable t;
  int filled = 0;
  for (std::size_t i = 0; i + 2 < tag.section.size(); i += 3) {
    auto seat = parse_seat(tag.section[i].text);
    const std::string& den = tag.section[i + 1].text;
    int tricks = -1;
    std::from_chars(tag.section[i + 2].text.data(), tag.section[i + 2].text.data() + tag.section[i + 2].text.size(), tricks);
    std::optional<Strain> strain;
    if (den == "NT" || den == "N") strain = Strain::NoTrump;
    else if (den == "S") strain = Strain::Spades;
    else if (den == "H") strain = Strain::Hearts;
    else if (den == "D") strain = Strain::Diamonds;
    else if (den == "C") strain = Strain::Clubs;
    if (!seat || !strain || tricks < 0 || tricks > 13) return std::nullopt;
    t.tricks[static_cast<std::size_t>(index(*seat))][static_cast<std::size_t>(*strain)] = tricks;
    ++filled;
  }
  if (filled != 20) return std::nullopt;
  return t;
}

class PbnParser {
 public:
  PbnParser(std::string_view file, const BoardSink& sink, Diagnostics& diags)
      : file_(file), stem_(file_stem(file)), sink_(sink), diags_(diags) {}

  // Reads a piece of the file that ends at a line boundary (or the file's end); state carries over.
  void feed(std::string_view text);
  // The end of the file: the last game ends, an open comment is reported.
  void finish();

 private:
  void error(int line, int column, std::string message, Diagnostic::Severity sev = Diagnostic::Severity::Error) {
    diags_.push_back({sev, {file_, line, column}, std::move(message)});
  }
  void warn(int line, int column, std::string message) {
    error(line, column, std::move(message), Diagnostic::Severity::Warning);
  }
  int column_of(std::size_t pos) const { return static_cast<int>(pos - line_start_) + 1; }

  void parse_tag();
  void finish_game();
  void build_record(std::vector<RawTag>& tags, int first_line);
  void parse_auction(const RawTag& tag, BoardRecord& rec, const std::vector<std::pair<int, std::string>>& notes);
  void parse_play(const RawTag& tag, BoardRecord& rec);
  void check_tag_value(const RawTag& tag);

  std::string_view text_;
  std::string file_;
  std::string stem_;
  const BoardSink& sink_;
  Diagnostics& diags_;

  std::size_t pos_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;
  bool line_has_content_ = false;
  bool in_comment_ = false;  // inside "{ ... }", which may span lines and chunks
  int comment_line_ = 0;
  int comment_column_ = 0;

  std::vector<RawTag> game_;
  int game_line_ = 0;
  std::vector<RawTag> previous_;                         // the last game's tags, after inheritance
  std::vector<std::pair<std::string, std::string>> sticky_;  // "##" tags, copied into every later game
  std::vector<std::string> orphan_inherits_;                 // tags already warned about a "#" with nothing to copy
};

void PbnParser::feed(std::string_view text) {
  text_ = text;
  pos_ = 0;
  line_start_ = 0;
  const std::size_t n = text_.size();
  while (pos_ < n) {
    if (in_comment_) {  // comment to the closing brace, across lines
      while (pos_ < n && text_[pos_] != '}') {
        if (text_[pos_] == '\n') { ++line_; line_start_ = pos_ + 1; }
        ++pos_;
      }
      if (pos_ >= n) break;
      ++pos_;
      in_comment_ = false;
      continue;
    }
    char c = text_[pos_];
    if (c == '\n') {
      if (!line_has_content_) finish_game();  // an empty line ends a game
      ++line_;
      line_start_ = ++pos_;
      line_has_content_ = false;
      continue;
    }
    if (is_blank(c)) { ++pos_; continue; }
    if (c == '%' && pos_ == line_start_) {  // escape line: directives such as "% PBN 2.1", "%Creator"
      while (pos_ < n && text_[pos_] != '\n') ++pos_;
      line_has_content_ = true;
      continue;
    }
    line_has_content_ = true;
    if (c == ';') {  // comment to the end of the line
      while (pos_ < n && text_[pos_] != '\n') ++pos_;
      continue;
    }
    if (c == '{') {
      in_comment_ = true;
      comment_line_ = line_;
      comment_column_ = column_of(pos_);
      ++pos_;
      continue;
    }
    if (c == '[') {
      parse_tag();
      continue;
    }
    // A token of a section (Auction calls, Play cards, table rows).
    std::size_t start = pos_;
    while (pos_ < n && !std::isspace(static_cast<unsigned char>(text_[pos_])) && text_[pos_] != '[' &&
           text_[pos_] != '{' && text_[pos_] != ';')
      ++pos_;
    if (pos_ == start) ++pos_;  // never stand still, whatever the byte
    Token tok{std::string(text_.substr(start, pos_ - start)), line_, column_of(start)};
    if (game_.empty())
      error(tok.line, tok.column, "unexpected text '" + std::string(tok.text) + "' outside a tag section");
    else
      game_.back().section.push_back(std::move(tok));
  }
}

void PbnParser::finish() {
  if (in_comment_) error(comment_line_, comment_column_, "comment opened with '{' is never closed with '}'");
  in_comment_ = false;
  finish_game();
}

void PbnParser::parse_tag() {
  const std::size_t n = text_.size();
  int tag_line = line_;
  int tag_col = column_of(pos_);
  // The tokens of a tag may stand on separate lines ("[\n Event\n \"x\"\n ]").
  auto skip_space = [&] {
    while (pos_ < n && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') { ++line_; line_start_ = pos_ + 1; }
      ++pos_;
    }
  };
  ++pos_;  // '['
  skip_space();
  std::size_t name_start = pos_;
  while (pos_ < n && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
  RawTag tag;
  tag.name = std::string(text_.substr(name_start, pos_ - name_start));
  tag.line = tag_line;
  auto skip_to_close = [&] {
    while (pos_ < n && text_[pos_] != ']' && text_[pos_] != '\n') ++pos_;
    if (pos_ < n && text_[pos_] == ']') ++pos_;
  };
  if (tag.name.empty()) {
    error(tag_line, tag_col, "expected a tag name after '['");
    skip_to_close();
    return;
  }
  skip_space();
  if (pos_ >= n || text_[pos_] != '"') {
    error(line_, column_of(pos_), "tag " + tag.name + ": expected its value in double quotes");
    skip_to_close();
    return;
  }
  ++pos_;
  tag.column = column_of(pos_);
  bool closed = false;
  // The common case, a value with no escape, tab or CR, is taken in one piece (a master record of a
  // million boards is mostly this).
  {
    std::size_t end = pos_;
    while (end < n && text_[end] != '"' && text_[end] != '\\' && text_[end] != '\n' && text_[end] != '\t' &&
           text_[end] != '\r')
      ++end;
    if (end < n && text_[end] == '"') {
      tag.value.assign(text_.data() + pos_, end - pos_);
      pos_ = end + 1;
      closed = true;
    }
  }
  while (!closed && pos_ < n && text_[pos_] != '\n') {
    char c = text_[pos_];
    if (c == '\\' && pos_ + 1 < n && (text_[pos_ + 1] == '"' || text_[pos_ + 1] == '\\')) {
      tag.value += text_[pos_ + 1];
      pos_ += 2;
      continue;
    }
    if (c == '"') { closed = true; ++pos_; break; }
    if (c == '\t') error(line_, column_of(pos_), "tag " + tag.name + ": tab character in the value");
    if (c != '\r') tag.value += c;
    ++pos_;
  }
  if (!closed) {
    error(tag_line, tag.column, "tag " + tag.name + ": the value's closing '\"' is missing");
    return;
  }
  skip_space();
  if (pos_ >= n || text_[pos_] != ']') {
    error(line_, column_of(pos_), "tag " + tag.name + ": expected ']' after the value");
    skip_to_close();
  } else {
    ++pos_;
  }
  if (game_.empty()) game_line_ = tag_line;
  game_.push_back(std::move(tag));
}

const RawTag* find_tag(const std::vector<RawTag>& tags, std::string_view name) {
  for (const RawTag& t : tags)
    if (t.name == name) return &t;
  return nullptr;
}

void PbnParser::finish_game() {
  if (game_.empty()) return;
  std::vector<RawTag> tags = std::move(game_);
  game_.clear();

  // Tag value inheritance (PBN 2.1, 3.5): "#" copies the previous game's value; "##value" sets a value that
  // every later game inherits until the tag is given again; "##" alone makes the previous value inherited.
  for (RawTag& t : tags) {
    bool inherit_forward = t.value.starts_with("##");
    if (t.value == "#" || t.value == "##") {
      const RawTag* prev = find_tag(previous_, t.name);
      if (!prev) {
        // Some exporters write "#" in every game, the first included: an empty value, said once per tag.
        if (std::find(orphan_inherits_.begin(), orphan_inherits_.end(), t.name) == orphan_inherits_.end()) {
          warn(t.line, t.column, "tag " + t.name + ": '" + t.value + "' copies the previous game's value, but the previous game has no such tag");
          orphan_inherits_.push_back(t.name);
        }
        t.value.clear();
      } else {
        t.value = prev->value;
        if (t.section.empty()) t.section = prev->section;
      }
    } else if (inherit_forward) {
      t.value.erase(0, 2);
    }
    std::erase_if(sticky_, [&](const auto& s) { return s.first == t.name; });
    if (inherit_forward) sticky_.emplace_back(t.name, t.value);
  }
  for (const auto& [name, value] : sticky_) {
    if (!find_tag(tags, name)) {
      RawTag t;
      t.name = name;
      t.value = value;
      t.line = game_line_;
      tags.push_back(std::move(t));
    }
  }

  // Results files often give one record per table and omit Board and Deal after the first: the record
  // then belongs to the previous board (PBN 2.1 import format).
  bool describes_play = false;
  for (const char* name : {"Auction", "Play", "Contract", "Declarer", "Result", "Score", "West", "North", "East", "South"})
    if (find_tag(tags, name)) describes_play = true;
  const RawTag* board = find_tag(tags, "Board");
  if (!find_tag(tags, "Deal") && describes_play) {
    const RawTag* prev_board = find_tag(previous_, "Board");
    const RawTag* prev_deal = find_tag(previous_, "Deal");
    if (prev_deal && (!board || (prev_board && trim(board->value) == trim(prev_board->value)))) {
      for (const char* name : {"Board", "Dealer", "Vulnerable", "Deal"}) {
        const RawTag* p = find_tag(previous_, name);
        if (p && !find_tag(tags, name)) {
          RawTag copy = *p;
          copy.line = game_line_;
          copy.column = 0;
          tags.push_back(std::move(copy));
        }
      }
    }
  }

  build_record(tags, game_line_);
  previous_ = std::move(tags);
}

void PbnParser::check_tag_value(const RawTag& t) {
  const std::string& v = t.value;
  if (t.name == "Date") {
    // "YYYY.MM.DD", any digit may be '?'.
    bool ok = v.size() == 10 && v[4] == '.' && v[7] == '.';
    for (std::size_t i = 0; ok && i < v.size(); ++i)
      if (i != 4 && i != 7 && !std::isdigit(static_cast<unsigned char>(v[i])) && v[i] != '?') ok = false;
    // Some exporters write "2013-08-10 19:19" or similar: readable, but not PBN.
    // A date in another form changes nothing a table needs: a warning, not an error.
    if (!ok && !v.empty() && v != "?" && v != "#")
      warn(t.line, t.column, "tag Date: '" + v + "' is not a date of the form YYYY.MM.DD");
  } else if (t.name == "Declarer") {
    std::string_view d = trim(v);
    if (d.starts_with('^')) d.remove_prefix(1);
    if (!unknown_value(d) && !(d.size() == 1 && parse_seat(d)))
      error(t.line, t.column, "tag Declarer: '" + v + "' is not a seat (expected N, E, S, W or ?)");
  } else if (t.name == "Contract") {
    std::string_view c = trim(v);
    // A bare strain ("H", "NT") names the trumps of an end position.
    bool strain_only = c == "S" || c == "H" || c == "D" || c == "C" || c == "NT";
    if (!unknown_value(c) && !strain_only && c != "Pass" && c != "pass" && c != "PASS" && !parse_contract(c, Seat::North))
      error(t.line, t.column, "tag Contract: '" + v + "' is not a contract (expected e.g. 4HX, 3NT or Pass)");
  } else if (t.name == "Result") {
    // "9", "^9" (after an irregularity), "NS 9", "NS 9 EW 4".
    std::string_view r = trim(v);
    bool ok = true;
    while (!r.empty() && ok) {
      if (r.starts_with("NS ") || r.starts_with("EW ")) r.remove_prefix(3);
      if (r.starts_with('^')) r.remove_prefix(1);
      auto space = r.find(' ');
      std::string_view number = r.substr(0, space);
      auto n = parse_int(number);
      ok = unknown_value(number) || (n && *n >= 0 && *n <= 13);
      r = space == std::string_view::npos ? std::string_view{} : trim(r.substr(space));
    }
    if (!ok) error(t.line, t.column, "tag Result: '" + v + "' is not a number of tricks (0 to 13)");
  }
}

void PbnParser::build_record(std::vector<RawTag>& tags, int first_line) {
  BoardRecord rec;
  rec.place = {file_, first_line, 0};
  bool has_board = false;
  bool deal_ok = true;
  bool has_deal = false;
  std::string session_round, session_stage, session_section;
  std::vector<std::pair<int, std::string>> notes;
  const RawTag* auction = nullptr;
  const RawTag* play = nullptr;
  const RawTag* result_table = nullptr;

  for (const RawTag& t : tags) {
    if (t.name == "Note") {
      auto colon = t.value.find(':');
      if (colon != std::string::npos)
        if (auto n = parse_int(std::string_view(t.value).substr(0, colon))) notes.emplace_back(*n, t.value.substr(colon + 1));
    }
  }

  for (const RawTag& t : tags) {
    const std::string& v = t.value;
    if (t.name == "Event") {
      rec.event = v;
      rec.tags.push_back({t.name, v});
    } else if (t.name == "Board") {
      has_board = true;
      if (unknown_value(trim(v))) continue;
      auto n = parse_int(v);
      if (!n || *n <= 0) error(t.line, t.column, "tag Board: '" + v + "' is not a board number (a positive integer)");
      else rec.board = *n;
    } else if (t.name == "Dealer") {
      if (unknown_value(trim(v))) continue;
      auto s = parse_seat(trim(v));
      if (!s || trim(v).size() != 1) error(t.line, t.column, "tag Dealer: '" + v + "' is not a seat (expected N, E, S or W)");
      else rec.dealer = s;
    } else if (t.name == "Vulnerable") {
      if (trim(v) == "?" || v.empty()) continue;
      auto vul = parse_vulnerability(v);
      if (!vul) error(t.line, t.column, "tag Vulnerable: '" + v + "' is not a vulnerability (expected None, NS, EW or All)");
      else rec.vulnerability = vul;
    } else if (t.name == "Deal") {
      has_deal = true;
      Deal::ParseError pe;
      auto d = Deal::parse_pbn(v, &pe);
      if (!d) {
        error(t.line, t.column + static_cast<int>(pe.column), "tag Deal: " + pe.message);
        deal_ok = false;
      } else if (d->empty()) {
        error(t.line, t.column, "tag Deal: the deal gives no cards at all");
        deal_ok = false;
      } else if (!d->partial_valid() && !d->consistent()) {
        for (const DealProblem& p : d->problems()) {
          // An unknown hand ("-") is not a wrong count, nor are the cards it would hold missing.
          if (p.kind == DealProblem::Kind::WrongCount && p.count == 0) continue;
          if (p.kind == DealProblem::Kind::MissingCard &&
              std::any_of(d->hands().begin(), d->hands().end(), [](const Hand& h) { return h.empty(); }))
            continue;
          error(t.line, t.column, "tag Deal: " + p.message());
        }
        deal_ok = false;
      } else {
        rec.deal = d;
      }
    } else if (t.name == "Round") {
      session_round = v;
      rec.tags.push_back({t.name, v});
    } else if (t.name == "Stage") {
      session_stage = v;
      rec.tags.push_back({t.name, v});
    } else if (t.name == "Section") {
      session_section = v;
      rec.tags.push_back({t.name, v});
    } else if (t.name == "Auction") {
      auction = &t;
    } else if (t.name == "Play") {
      play = &t;
    } else if (t.name == "DoubleDummyTricks") {
      if (auto dd = DdTable::parse_pbn(trim(v))) rec.dd = dd;
      else error(t.line, t.column, "tag DoubleDummyTricks: '" + v + "' is not 20 hexadecimal digits (0-d)");
    } else if (t.name == "OptimumScore") {
      std::string_view s = trim(v);
      bool ok = false;
      if (s.size() > 3 && (s.starts_with("NS ") || s.starts_with("EW "))) {
        if (auto n = parse_int(s.substr(3))) {
          rec.optimum_score_ns = s.starts_with("NS") ? *n : -*n;
          ok = true;
        }
      }
      if (!ok && !unknown_value(s))
        error(t.line, t.column, "tag OptimumScore: '" + v + "' is not a score (expected \"NS <number>\" or \"EW <number>\")");
    } else if (t.name == "ParContract") {
      rec.par_contract = v;
    } else if (t.name == "OptimumResultTable") {
      // Rows "N NT 7" (declarer, denomination, tricks): the double-dummy table when DoubleDummyTricks is absent.
      result_table = &t;
    } else {
      check_tag_value(t);
      rec.tags.push_back({t.name, v});
    }
  }

  if (!has_board && !has_deal) return;  // a game without a board: its problems are reported, nothing to load
  if (!deal_ok) return;                 // reported above; the record is not loaded
  if (unknown_value(trim(rec.event)) || rec.event == "#") rec.event = stem_;
  // The session: Round, Stage or Section when the record names one, otherwise the file it came from.
  rec.session = !unknown_value(trim(session_round))     ? session_round
                : !unknown_value(trim(session_stage))   ? session_stage
                : !unknown_value(trim(session_section)) ? session_section
                                                        : stem_;
  if (result_table && !rec.dd) rec.dd = parse_result_table(*result_table);
  if (auction) parse_auction(*auction, rec, notes);
  if (play) parse_play(*play, rec);
  sink_(std::move(rec));
}

void PbnParser::parse_auction(const RawTag& tag, BoardRecord& rec, const std::vector<std::pair<int, std::string>>& notes) {
  auto dealer = parse_seat(trim(tag.value));
  if (!dealer) {
    if (!unknown_value(trim(tag.value)))
      error(tag.line, tag.column, "tag Auction: '" + tag.value + "' is not a seat (expected the dealer, N, E, S or W)");
    return;
  }
  // The auction may start left of the dealer: each leading "-" stands for a seat before the dealer.
  Auction a;
  a.dealer = *dealer;
  bool before_first_call = true;
  bool irregular = false;  // a "^" mark before a call: insufficient (^I), out of turn (^S), ...
  std::optional<Call> last_bid;
  for (const Token& tok : tag.section) {
    std::string_view s = tok.text;
    if (s == "*") break;
    if (s == "-" && before_first_call) {
      a.dealer = left_hand_opponent(a.dealer);
      continue;
    }
    if (s.starts_with('^')) { irregular = true; continue; }
    if (s == "+" || s == "-" || s.starts_with('$')) continue;
    if (s.find_first_not_of("!?") == std::string_view::npos) {  // a suffix annotation written apart: "2C !"
      if (!a.calls.empty() && s.starts_with('!')) a.calls.back().alerted = true;
      continue;
    }
    if (s.starts_with('=')) {
      auto n = parse_int(s.substr(1, s.size() >= 2 ? s.size() - 2 : 0));
      if (!a.calls.empty() && n)
        for (const auto& [num, text] : notes)
          if (num == *n) a.calls.back().note = text;
      continue;
    }
    if (s == "AP" || s == "ap") {
      a.all_pass();
      continue;
    }
    bool alerted = false;
    while (!s.empty() && (s.back() == '!' || s.back() == '?')) {
      alerted = alerted || s.back() == '!';
      s.remove_suffix(1);
    }
    if (auto caret = s.find('^'); caret != std::string_view::npos) s = s.substr(0, caret);
    auto call = Call::parse(s);
    if (call) call->alerted = alerted;
    if (!call) {
      error(tok.line, tok.column, "Auction: '" + std::string(tok.text) + "' is not a call (expected Pass, X, XX or a bid such as 1NT)");
      continue;
    }
    if (call->kind == Call::Kind::Bid) {
      if (!irregular && last_bid && std::pair(call->level, call->strain) <= std::pair(last_bid->level, last_bid->strain))
        error(tok.line, tok.column, "Auction: " + call->str() + " is insufficient after " + last_bid->str() +
                                        " (mark it ^I if the record means it)");
      if (!last_bid || std::pair(call->level, call->strain) > std::pair(last_bid->level, last_bid->strain)) last_bid = call;
    }
    before_first_call = false;
    irregular = false;
    a.calls.push_back(*call);
  }
  if (rec.dealer && *rec.dealer != a.dealer)
    error(tag.line, tag.column, "tag Auction: the auction starts with " + std::string(seat_name(a.dealer)) +
                                    " but the dealer is " + std::string(seat_name(*rec.dealer)));
  rec.auction = std::move(a);
}

void PbnParser::parse_play(const RawTag& tag, BoardRecord& rec) {
  auto first = parse_seat(trim(tag.value));
  if (!first) {
    if (!unknown_value(trim(tag.value)))
      error(tag.line, tag.column, "tag Play: '" + tag.value + "' is not a seat (expected the opening leader)");
    return;
  }
  Play p;
  p.leader = *first;
  std::size_t k = 0;
  Hand played;
  for (const Token& tok : tag.section) {
    std::string_view s = tok.text;
    if (s == "*") break;
    if (s.starts_with('$') || s.starts_with('=')) continue;
    if (s.starts_with('^')) continue;  // irregularity marks (^R revoke, ^L lead out of turn, ...)
    if (s == "+") s = "-";  // the play stopped here (claim): a place without a card
    if (s.find_first_not_of("!?") == std::string_view::npos) continue;  // an annotation written apart
    if (s == "--") s = "-";  // some exporters write the empty place as "--"
    std::size_t trick = k / 4;
    Seat seat = rotate(*first, static_cast<int>(k % 4));
    ++k;
    if (p.tricks.size() <= trick) p.tricks.emplace_back();
    if (s == "-") continue;
    while (!s.empty() && (s.back() == '!' || s.back() == '?')) s.remove_suffix(1);
    if (auto caret = s.find('^'); caret != std::string_view::npos) s = s.substr(0, caret);
    auto card = Card::parse(s);
    if (!card) {
      error(tok.line, tok.column, "Play: '" + std::string(tok.text) + "' is not a card (expected e.g. SA, HT, C2)");
      continue;
    }
    if (played.contains(*card)) error(tok.line, tok.column, "Play: " + card->str() + " is played twice");
    played.add(*card);
    if (rec.deal && !rec.deal->hand(seat).empty() && !rec.deal->hand(seat).contains(*card))
      error(tok.line, tok.column, "Play: " + card->str() + " is played by " + std::string(seat_name(seat)) + ", who does not hold it");
    p.tricks[trick][static_cast<std::size_t>(index(seat))] = *card;
  }
  if (p.tricks.size() > 13) error(tag.line, tag.column, "Play: more than 13 tricks");
  rec.play = std::move(p);
}

}  // namespace

void read_pbn(std::string_view text, std::string_view file_name, const BoardSink& sink, Diagnostics& diagnostics) {
  std::string storage;
  PbnParser parser(file_name, sink, diagnostics);
  parser.feed(as_utf8(text, storage));
  parser.finish();
}

void read_pbn(std::istream& in, std::string_view file_name, const BoardSink& sink, Diagnostics& diagnostics,
              std::size_t chunk_bytes) {
  // A chunk at a time, cut after the last newline, so that a master record of a million boards never
  // sits in memory as text. Each chunk is decoded on its own; the first one decides the charset.
  const std::size_t kChunk = std::max<std::size_t>(chunk_bytes, 1);
  PbnParser parser(file_name, sink, diagnostics);
  std::string buffer, storage;
  // Read into a block left uninitialised and append only what came: growing `buffer` by a whole chunk
  // zero-filled 4 MB for every file, a 2 KB master record too, and the daemon loads its masters at each
  // start (a restart test loads them hundreds of times; under ASan each fill was a fresh mapping's faults).
  const std::unique_ptr<char[]> block(new char[kChunk]);
  bool first = true;
  std::optional<bool> latin2;
  while (true) {
    in.read(block.get(), static_cast<std::streamsize>(kChunk));
    buffer.append(block.get(), static_cast<std::size_t>(in.gcount()));
    bool end = !in;
    // Cut after the last empty line (no tag or game spans it), else after the last newline.
    std::size_t cut = buffer.size();
    if (!end) {
      cut = std::string::npos;
      for (std::size_t i = buffer.size(); i-- > 1;) {
        if (buffer[i] != '\n') continue;
        std::size_t j = i;
        if (buffer[j - 1] == '\r' && j >= 2) --j;
        if (buffer[j - 1] == '\n') { cut = i + 1; break; }
      }
      // No empty line yet: read on; only a file with none for many chunks is cut at a newline.
      if (cut == std::string::npos && buffer.size() > std::max(16 * kChunk, std::size_t{64} << 20)) cut = buffer.rfind('\n');
      if (cut == std::string::npos) continue;
      if (buffer[cut - 1] != '\n') ++cut;
    }
    std::string_view piece(buffer.data(), cut);
    if (first && piece.starts_with("\xEF\xBB\xBF")) piece.remove_prefix(3);
    if (!latin2) latin2 = mentions_latin2(piece);
    if (is_valid_utf8(piece)) {
      parser.feed(piece);
    } else {
      storage = latin_to_utf8(piece, *latin2);
      parser.feed(storage);
    }
    first = false;
    buffer.erase(0, cut);
    if (end) break;
  }
  parser.finish();
}

RecordSet read_pbn(std::string_view text, std::string_view file_name) {
  RecordSet out;
  read_pbn(text, file_name, [&](BoardRecord&& r) { out.boards.push_back(std::move(r)); }, out.diagnostics);
  return out;
}

Diagnostics check_board_conventions(const BoardRecord& r) {
  Diagnostics out;
  auto warn = [&](std::string msg) { out.push_back({Diagnostic::Severity::Warning, r.place, std::move(msg)}); };
  std::string b = "board " + std::to_string(r.board);
  if (r.board > 0) {
    if (r.dealer && *r.dealer != dealer_of_board(r.board))
      warn(b + ": Dealer is " + std::string(seat_name(*r.dealer)) + " but board " + std::to_string(r.board) +
           " is dealt by " + std::string(seat_name(dealer_of_board(r.board))));
    if (r.vulnerability && *r.vulnerability != vulnerability_of_board(r.board))
      warn(b + ": Vulnerable is " + std::string(pbn_name(*r.vulnerability)) + " but board " + std::to_string(r.board) +
           " is " + std::string(pbn_name(vulnerability_of_board(r.board))) + " in the standard cycle");
  } else {
    warn("a record has no board number");
  }
  if (r.deal && !r.deal->valid()) {
    int known = 0, size = 0;
    for (const Hand& h : r.deal->hands()) {
      known += h.empty() ? 0 : 1;
      size = std::max(size, h.size());
    }
    if (size < 13) warn(b + ": the deal is an end position of " + std::to_string(size) + " cards a hand");
    else warn(b + ": the deal gives only " + std::to_string(known) + " of the 4 hands");
  }
  if (!r.deal) warn(b + ": no deal");
  return out;
}

}  // namespace cardtable::bridge
