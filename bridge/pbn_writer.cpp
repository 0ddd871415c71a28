#include "bridge/pbn_writer.hpp"

#include <algorithm>
#include <array>

namespace cardtable::bridge {
namespace {

void put_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  // PBN strings escape only '"' and a backslash that would otherwise read as an escape.
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    bool escape_backslash = c == '\\' && (i + 1 == value.size() || value[i + 1] == '"' || value[i + 1] == '\\');
    if (c == '"' || escape_backslash) out += '\\';
    out += c;
  }
  out += "\"]\n";
}

constexpr std::array<std::string_view, 15> kMandatory = {"Event",      "Site", "Date",     "Board",    "West",
                                                         "North",      "East", "South",    "Dealer",   "Vulnerable",
                                                         "Deal",       "Scoring", "Declarer", "Contract", "Result"};

}  // namespace

namespace {
std::string write_game(const BoardRecord& r, bool compact);
}

std::string write_pbn_game(const BoardRecord& r) { return write_game(r, false); }

namespace {
std::string write_game(const BoardRecord& r, bool compact) {
  std::string out;
  out.reserve(256);
  auto tag_or = [&](std::string_view name, std::string_view fallback) -> std::string {
    if (const std::string* v = r.tag(name)) return *v;
    return std::string(fallback);
  };
  Seat dealer = r.effective_dealer();
  for (std::string_view name : kMandatory) {
    if (name == "Event") put_tag(out, name, r.event.empty() ? tag_or(name, "?") : r.event);
    else if (name == "Board") put_tag(out, name, r.board > 0 ? std::to_string(r.board) : "?");
    else if (name == "Dealer") put_tag(out, name, std::string(1, seat_letter(dealer)));
    else if (name == "Vulnerable") put_tag(out, name, pbn_name(r.effective_vulnerability()));
    else if (name == "Deal") put_tag(out, name, r.deal ? r.deal->pbn(dealer) : "?");  // export: dealer's hand first
    else if (!compact || r.tag(name)) put_tag(out, name, tag_or(name, "?"));
  }
  for (const Tag& t : r.tags) {
    if (std::find(kMandatory.begin(), kMandatory.end(), t.name) != kMandatory.end()) continue;
    put_tag(out, t.name, t.value);
  }
  if (r.dd) {
    put_tag(out, "DoubleDummyTricks", r.dd->pbn());
    if (r.optimum_score_ns) {
      int s = *r.optimum_score_ns;
      put_tag(out, "OptimumScore", (s >= 0 ? "NS " : "EW ") + std::to_string(s >= 0 ? s : -s));
    }
    if (!r.par_contract.empty()) put_tag(out, "ParContract", r.par_contract);
    put_tag(out, "OptimumResultTable", "Declarer;Denomination\\2R;Result\\2R");
    for (Seat s : kAllSeats)
      for (Strain st : {Strain::NoTrump, Strain::Spades, Strain::Hearts, Strain::Diamonds, Strain::Clubs}) {
        std::string den(strain_pbn(st));
        out += seat_letter(s);
        out += den.size() == 1 ? "  " : " ";
        out += den;
        int n = r.dd->at(s, st);
        out += n >= 10 ? " " : "  ";
        out += std::to_string(n);
        out += '\n';
      }
  }
  if (r.auction) {
    put_tag(out, "Auction", std::string(1, seat_letter(r.auction->dealer)));
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < r.auction->calls.size(); ++i) {
      const Call& c = r.auction->calls[i];
      out += c.str();
      if (!c.note.empty()) {
        notes.push_back(c.note);
        out += " =" + std::to_string(notes.size()) + "=";
      }
      out += (i % 4 == 3 || i + 1 == r.auction->calls.size()) ? '\n' : ' ';
    }
    for (std::size_t i = 0; i < notes.size(); ++i) put_tag(out, "Note", std::to_string(i + 1) + ":" + notes[i]);
  }
  if (r.play) {
    put_tag(out, "Play", std::string(1, seat_letter(r.play->leader)));
    for (const auto& trick : r.play->tricks) {
      for (int i = 0; i < kSeats; ++i) {
        const auto& c = trick[static_cast<std::size_t>(index(rotate(r.play->leader, i)))];
        out += c ? c->str() : "-";
        out += i == 3 ? '\n' : ' ';
      }
    }
    if (r.play->tricks.size() < 13) out += "*\n";
  }
  return out;
}
}  // namespace

std::string write_pbn(const std::vector<BoardRecord>& records) {
  std::string out = "% PBN 2.1\n% EXPORT\n% Content-type: text/x-pbn; charset=UTF-8\n% Creator: cardtable\n";
  for (const BoardRecord& r : records) {
    out += '\n';
    out += write_game(r, false);
  }
  return out;
}

std::string write_pbn_compact(const std::vector<BoardRecord>& records) {
  std::string out = "% PBN 2.1\n% Content-type: text/x-pbn; charset=UTF-8\n% Creator: cardtable\n";
  for (const BoardRecord& r : records) {
    out += '\n';
    out += write_game(r, true);
  }
  return out;
}

}  // namespace cardtable::bridge
