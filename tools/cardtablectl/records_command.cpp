#include "records_command.hpp"
#include "number_args.hpp"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "bridge/double_dummy.hpp"
#include "bridge/master_record.hpp"
#include "bridge/pbn_writer.hpp"
#include "bridge/record_file.hpp"
#include "bridge/synthetic_record.hpp"
#include "counted_words.hpp"
#include "hand_diagram.hpp"

namespace cardtable::tools {
namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace cardtable::bridge;
using json = nlohmann::json;

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

json to_json(const Diagnostic& d) {
  json j = {{"severity", d.is_error() ? "error" : "warning"}, {"file", d.place.file}, {"message", d.message}};
  if (d.place.line > 0) j["line"] = d.place.line;
  if (d.place.column > 0) j["column"] = d.place.column;
  return j;
}

json to_json(const BoardRecord& r) {
  json j = {{"event", r.event}, {"board", r.board}, {"dealer", std::string(1, seat_letter(r.effective_dealer()))},
            {"vulnerable", std::string(pbn_name(r.effective_vulnerability()))}, {"file", r.place.file}};
  if (!r.session.empty()) j["session"] = r.session;
  if (r.place.line > 0) j["line"] = r.place.line;
  if (r.deal) {
    j["deal"] = r.deal->pbn(r.effective_dealer());
    json hands = json::object();
    for (Seat s : kAllSeats)
      if (!r.deal->hand(s).empty()) hands[std::string(1, seat_letter(s))] = r.deal->hand(s).pbn();
    j["hands"] = hands;
  }
  return j;
}

void print_diagnostics(const Diagnostics& ds, std::ostream& os) {
  for (const Diagnostic& d : ds) os << d.str() << '\n';
}

// Parses "records <sub> ..." options; throws UsageError with a message on a wrong option.
po::variables_map parse(const std::vector<std::string>& args, const po::options_description& opts,
                        const po::positional_options_description& pos) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

std::vector<fs::path> paths_of(const po::variables_map& vm, const char* name) {
  std::vector<fs::path> out;
  if (vm.count(name))
    for (const std::string& s : vm[name].as<std::vector<std::string>>()) out.emplace_back(s);
  if (out.empty()) throw UsageError(std::string("give at least one file or folder (") + name + ")");
  return out;
}

int validate(const std::vector<std::string>& args) {
  po::options_description opts("records validate PATH... [options]");
  opts.add_options()("help,h", "this help")("json", "machine-readable output")(
      "path", po::value<std::vector<std::string>>(), "record files or folders");
  po::positional_options_description pos;
  pos.add("path", -1);
  auto vm = parse(args, opts, pos);
  if (vm.count("help")) { std::cout << opts; return kExitOk; }
  bool as_json = vm.count("json") > 0;

  Diagnostics problems;
  MasterRecord master;
  json files = json::array();
  std::size_t total_boards = 0, total_deals = 0;
  for (const fs::path& p : paths_of(vm, "path")) {
    for (const fs::path& f : record_files(p, problems)) {
      std::size_t boards = 0, deals = 0;
      read_record_file(f, [&](BoardRecord&& r) {
        ++boards;
        if (r.deal && r.deal->valid()) ++deals;
        Diagnostics conv = check_board_conventions(r);
        problems.insert(problems.end(), conv.begin(), conv.end());
        master.add(r, problems);
      }, problems);
      total_boards += boards;
      total_deals += deals;
      files.push_back({{"path", f.string()}, {"boards", boards}, {"valid_deals", deals}});
      if (!as_json) std::cout << f.string() << ": " << counted(boards, "board") << ", " << counted(deals, "complete deal") << '\n';
    }
  }
  json dups = json::array();
  for (const DuplicateDeal& d : master.duplicates()) {
    DealMatch m{d.second, d.map};
    std::string msg = master.describe(d.second) + " holds the same deal as " + master.describe(d.first) +
                      (m.exact() ? "" : " (" + m.describe() + ")");
    dups.push_back({{"first", master.describe(d.first)}, {"second", master.describe(d.second)}, {"how", m.describe()}});
    if (!as_json) std::cout << "duplicate deal: " << msg << '\n';
  }
  bool bad = !problems.empty() || !master.duplicates().empty();
  if (as_json) {
    json out = {{"files", files}, {"boards", total_boards}, {"valid_deals", total_deals}, {"problems", json::array()},
                {"duplicates", dups}, {"ok", !bad}};
    for (const Diagnostic& d : problems) out["problems"].push_back(to_json(d));
    std::cout << out.dump(2) << '\n';
  } else {
    print_diagnostics(problems, std::cout);
    std::cout << counted(total_boards, "board") << ", " << counted(total_deals, "complete deal") << ", " << counted(problems.size(), "problem")
              << ", " << counted(master.duplicates().size(), "duplicate deal") << '\n';
  }
  return bad ? kExitProblems : kExitOk;
}

int show(const std::vector<std::string>& args) {
  po::options_description opts("records show PATH... [options]");
  opts.add_options()("help,h", "this help")("board,b", po::value<int>(), "show only this board number")(
      "session,s", po::value<std::string>(), "show only this session (PBN Round/Stage, LIN segment)")(
      "json", "machine-readable output")("path", po::value<std::vector<std::string>>(), "record files or folders");
  po::positional_options_description pos;
  pos.add("path", -1);
  auto vm = parse(args, opts, pos);
  if (vm.count("help")) { std::cout << opts; return kExitOk; }
  RecordSet set = read_records(paths_of(vm, "path"));
  const int only = vm.count("board") ? vm["board"].as<int>() : 0;  // 0: every board
  json out = json::array();
  std::size_t shown = 0;
  for (const BoardRecord& r : set.boards) {
    if (only != 0 && r.board != only) continue;
    if (vm.count("session") && r.session != vm["session"].as<std::string>()) continue;
    ++shown;
    if (vm.count("json")) out.push_back(to_json(r));
    else std::cout << hand_diagram(r) << '\n';
  }
  if (vm.count("json")) std::cout << out.dump(2) << '\n';
  print_diagnostics(set.diagnostics, std::cerr);
  if ((only != 0 || vm.count("session")) && shown == 0) {
    // Say what was asked for and what there is, so a wrong number or session name shows at once.
    std::string asked = only != 0 ? "board " + std::to_string(only) : std::string("a board");
    if (vm.count("session")) asked += " of session '" + vm["session"].as<std::string>() + "'";
    std::set<std::string> sessions;
    for (const BoardRecord& r : set.boards) sessions.insert(r.session);
    std::string have;
    for (const auto& s : sessions) have += (have.empty() ? "" : ", ") + ("'" + s + "'");
    std::cerr << "cardtablectl records show: no " << asked << " in the records (" << counted(set.boards.size(), "board")
              << (have.empty() ? "" : "; sessions " + have) << ")\n";
    return kExitProblems;
  }
  return set.diagnostics.empty() ? kExitOk : kExitProblems;
}

int convert(const std::vector<std::string>& args) {
  po::options_description opts("records convert PATH... --to pbn|lin|dup|dlm [-o OUT]");
  opts.add_options()("help,h", "this help")("to,t", po::value<std::string>(), "output format: pbn, lin, dup or dlm")(
      "output,o", po::value<std::string>(), "output file (default: standard output)")(
      "path", po::value<std::vector<std::string>>(), "record files or folders");
  po::positional_options_description pos;
  pos.add("path", -1);
  auto vm = parse(args, opts, pos);
  if (vm.count("help")) { std::cout << opts; return kExitOk; }
  if (!vm.count("to")) throw UsageError("say which format to write with --to pbn|lin|dup|dlm");
  auto format = parse_format(vm["to"].as<std::string>());
  if (!format) throw UsageError("unknown format '" + vm["to"].as<std::string>() + "' (expected pbn, lin, dup or dlm)");
  RecordSet set = read_records(paths_of(vm, "path"));
  print_diagnostics(set.diagnostics, std::cerr);
  if ((*format == RecordFormat::Dup || *format == RecordFormat::Dlm)) {
    std::size_t partial = 0;
    for (const BoardRecord& r : set.boards) partial += (r.deal && r.deal->valid()) ? 0U : 1U;
    if (partial) std::cerr << counted(partial, "record") << " without a complete deal cannot be written as " << format_name(*format) << '\n';
  }
  std::string text = write_records(set.boards, *format);
  if (vm.count("output")) {
    std::ofstream out(vm["output"].as<std::string>(), std::ios::binary);
    out << text;
    if (!out) {
      std::cerr << vm["output"].as<std::string>() << ": cannot write\n";
      return kExitProblems;
    }
  } else {
    std::cout << text;
  }
  return set.diagnostics.empty() ? kExitOk : kExitProblems;
}

int lookup(const std::vector<std::string>& args) {
  po::options_description opts("records lookup --master PATH... DEAL");
  opts.add_options()("help,h", "this help")("master,m", po::value<std::vector<std::string>>()->multitoken(),
                                            "master record files or folders")("json", "machine-readable output")(
      "deal", po::value<std::string>(), "the deal as a PBN deal string, e.g. \"N:AKQ.... ... ... ...\"");
  po::positional_options_description pos;
  pos.add("deal", 1);
  auto vm = parse(args, opts, pos);
  if (vm.count("help")) { std::cout << opts; return kExitOk; }
  // "--master a.pbn b.pbn N:..." : --master takes several paths, so the deal may arrive as its last one.
  std::vector<std::string> masters = vm.count("master") ? vm["master"].as<std::vector<std::string>>() : std::vector<std::string>{};
  std::string deal_text = vm.count("deal") ? vm["deal"].as<std::string>() : std::string();
  auto looks_like_deal = [](const std::string& s) { return s.size() > 2 && s[1] == ':' && parse_seat(s.substr(0, 1)); };
  if (deal_text.empty() && !masters.empty() && looks_like_deal(masters.back())) {
    deal_text = masters.back();
    masters.pop_back();
  }
  if (deal_text.empty()) throw UsageError("give the deal to look up as a PBN deal string");
  if (masters.empty()) throw UsageError("give the master record with --master PATH...");
  std::vector<fs::path> master_paths(masters.begin(), masters.end());
  Deal::ParseError pe;
  auto deal = Deal::parse_pbn(deal_text, &pe);
  if (!deal) throw UsageError("the deal: column " + std::to_string(pe.column + 1) + ": " + pe.message);
  if (!deal->valid()) {
    for (const DealProblem& p : deal->problems()) std::cerr << "the deal: " << p.message() << '\n';
    return kExitProblems;
  }
  MasterRecord master;
  Diagnostics ds = master.load(master_paths);
  print_diagnostics(ds, std::cerr);
  auto matches = master.lookup(*deal);
  if (vm.count("json")) {
    json out = json::array();
    for (const DealMatch& m : matches) {
      const MasterBoard& b = master.board(m.entry);
      json j = {{"event", master.session(b.session).event}, {"board", b.board}, {"how", m.describe()}, {"exact", m.exact()}};
      if (!master.session(b.session).session.empty()) j["session"] = master.session(b.session).session;
      if (auto r = m.rotation()) j["rotation"] = *r;
      out.push_back(j);
    }
    std::cout << out.dump(2) << '\n';
  } else {
    for (const DealMatch& m : matches) std::cout << master.describe(m.entry) << ": " << m.describe() << '\n';
    if (matches.empty()) std::cout << "not in the master record (" << counted(master.size(), "board") << ")\n";
  }
  return matches.empty() ? kExitProblems : kExitOk;
}

int analyze(const std::vector<std::string>& args) {
  po::options_description opts("records analyze PATH... [--check] [-o OUT.pbn]");
  opts.add_options()("help,h", "this help")("check", "compare with the DoubleDummyTricks and OptimumScore tags in the file")(
      "output,o", po::value<std::string>(), "write the records with DoubleDummyTricks, OptimumScore, ParContract and "
                                            "OptimumResultTable tags to this PBN file")(
      "json", "machine-readable output")("path", po::value<std::vector<std::string>>(), "record files or folders");
  po::positional_options_description pos;
  pos.add("path", -1);
  auto vm = parse(args, opts, pos);
  if (vm.count("help")) { std::cout << opts; return kExitOk; }
  bool check = vm.count("check") > 0;
  bool as_json = vm.count("json") > 0;
  RecordSet set = read_records(paths_of(vm, "path"));
  print_diagnostics(set.diagnostics, std::cerr);

  // Each distinct deal is solved once: results files repeat a deal for every table.
  auto key = [](const Deal& d) {
    return std::array<std::uint64_t, 4>{d.hands()[0].bits(), d.hands()[1].bits(), d.hands()[2].bits(), d.hands()[3].bits()};
  };
  std::map<std::array<std::uint64_t, 4>, std::size_t> unique;
  std::vector<Deal> deals;
  for (const BoardRecord& r : set.boards) {
    if (!r.deal || !r.deal->valid()) continue;
    if (unique.emplace(key(*r.deal), deals.size()).second) deals.push_back(*r.deal);
  }
  std::vector<DdResult> results = solve_double_dummy(deals);

  std::size_t disagreements = 0, checked_dd = 0, checked_score = 0, failures = 0, making_only = 0;
  json out = json::array();
  std::vector<BoardRecord> written;
  for (const BoardRecord& r : set.boards) {
    if (!r.deal || !r.deal->valid()) continue;
    const DdResult& res = results[unique[key(*r.deal)]];
    std::string where = r.place.str() + ": board " + std::to_string(r.board);
    if (!res.table) {
      ++failures;
      std::cerr << where << ": double-dummy analysis failed: " << res.error << '\n';
      continue;
    }
    auto p = par(*res.table, r.effective_dealer(), r.effective_vulnerability());
    json j = to_json(r);
    j["double_dummy"] = res.table->pbn();
    if (p) { j["par_score_ns"] = p->score_ns; j["par_contracts"] = p->contracts; }
    if (check) {
      if (r.dd) {
        ++checked_dd;
        if (r.dd->making_only_form() && *r.dd != *res.table) ++making_only;
        if (!r.dd->agrees_with(*res.table)) {
          ++disagreements;
          std::string msg = where + ": DoubleDummyTricks is " + r.dd->pbn() + ", double-dummy analysis gives " + res.table->pbn();
          j["disagreements"].push_back(msg);
          if (!as_json) std::cout << msg << '\n';
        }
      }
      if (r.optimum_score_ns && p) {
        ++checked_score;
        if (*r.optimum_score_ns != p->score_ns) {
          ++disagreements;
          std::string msg = where + ": OptimumScore is NS " + std::to_string(*r.optimum_score_ns) + ", par is NS " + std::to_string(p->score_ns);
          j["disagreements"].push_back(msg);
          if (!as_json) std::cout << msg << '\n';
        }
      }
    } else if (!as_json && !vm.count("output")) {
      std::cout << "Board " << r.board << " (" << r.event << (r.session.empty() ? "" : " / " + r.session) << ")  "
                << r.deal->pbn(r.effective_dealer()) << "\n      NT  S  H  D  C\n";
      for (Seat s : {Seat::North, Seat::South, Seat::East, Seat::West}) {
        std::cout << "  " << seat_letter(s) << " ";
        for (Strain st : {Strain::NoTrump, Strain::Spades, Strain::Hearts, Strain::Diamonds, Strain::Clubs}) {
          int n = res.table->at(s, st);
          std::cout << (n >= 10 ? " " : "  ") << n;
        }
        std::cout << '\n';
      }
      if (p) std::cout << "  par " << (p->score_ns >= 0 ? "NS " : "EW ") << std::abs(p->score_ns) << "  " << p->pbn_contract() << "\n";
      std::cout << '\n';
    }
    out.push_back(j);
    BoardRecord w = r;
    w.dd = res.table;
    if (p) { w.optimum_score_ns = p->score_ns; w.par_contract = p->pbn_contract(); }
    written.push_back(std::move(w));
  }
  if (vm.count("output")) {
    std::ofstream f(vm["output"].as<std::string>(), std::ios::binary);
    f << write_records(written, RecordFormat::Pbn);
    if (!f) { std::cerr << vm["output"].as<std::string>() << ": cannot write\n"; return kExitProblems; }
  }
  if (as_json) std::cout << out.dump(2) << '\n';
  if (check && !as_json) {
    std::cout << "checked " << checked_dd << " DoubleDummyTricks and " << checked_score << " OptimumScore tags over "
              << counted(deals.size(), "deal") << ": " << counted(disagreements, "disagreement");
    if (making_only)
      std::cout << " (" << counted(making_only, "table") << (making_only == 1 ? " lists" : " list")
                << " only making contracts, with one filler value for every count under 7)";
    std::cout << '\n';
  }
  return (disagreements || failures || !set.diagnostics.empty()) ? kExitProblems : kExitOk;
}

int generate(const std::vector<std::string>& args) {
  po::options_description opts("records generate --boards N [options]  (a synthetic master record)");
  opts.add_options()("help,h", "this help")("boards,n", po::value<int>()->default_value(32), "how many boards")(
      "per-session", po::value<int>()->default_value(32), "boards per session (board numbers restart at 1)")(
      "seed", po::value<std::string>()->default_value("1"), "random seed, 0 or more: the same seed gives the same deals")(
      "event", po::value<std::string>()->default_value("Synthetic"), "Event tag")(
      "to,t", po::value<std::string>()->default_value("pbn"), "output format: pbn, lin, dup or dlm")(
      "output,o", po::value<std::string>(), "output file (default: standard output)");
  auto vm = parse(args, opts, {});
  if (vm.count("help")) { std::cout << opts; return kExitOk; }
  int n = vm["boards"].as<int>(), per = vm["per-session"].as<int>();
  if (n < 0 || per <= 0 || per > 999) throw UsageError("--boards must be >= 0 and --per-session 1..999");
  const auto seed = parse_unsigned(vm["seed"].as<std::string>());
  if (!seed) throw UsageError("--seed must be a whole number, 0 or more (not '" + vm["seed"].as<std::string>() + "')");
  auto format = parse_format(vm["to"].as<std::string>());
  if (!format) throw UsageError("unknown format '" + vm["to"].as<std::string>() + "'");
  std::ostream* os = &std::cout;
  std::ofstream file;
  if (vm.count("output")) {
    file.open(vm["output"].as<std::string>(), std::ios::binary);
    if (!file) { std::cerr << vm["output"].as<std::string>() << ": cannot write\n"; return kExitProblems; }
    os = &file;
  }
  // Written in chunks so that a million boards never sit in memory as records.
  std::vector<BoardRecord> chunk;
  bool first = true;
  auto flush = [&] {
    // PBN in the import form a dealing program writes (only the tags with a value).
    std::string text = *format == RecordFormat::Pbn ? write_pbn_compact(chunk) : write_records(chunk, *format);
    if (*format == RecordFormat::Pbn && !first) text.erase(0, text.find("\n\n") + 1);  // one header only
    *os << text;
    chunk.clear();
    first = false;
  };
  synthetic_records(n, per, *seed, vm["event"].as<std::string>(), [&](BoardRecord&& r) {
    chunk.push_back(std::move(r));
    if (chunk.size() == 10000) flush();
  });
  if (!chunk.empty() || first) flush();
  return *os ? kExitOk : kExitProblems;
}

}  // namespace

std::string records_usage() {
  return "usage: cardtablectl records <command> [options]\n"
         "\n"
         "commands:\n"
         "  validate PATH...                        check every board of record files or folders (PBN, LIN, DUP, DLM)\n"
         "  show PATH... [--board N] [--session S]  hand diagrams\n"
         "  convert PATH... --to FMT [-o OUT]       write the records as pbn, lin, dup or dlm\n"
         "  lookup --master PATH... DEAL            where a deal (PBN deal string) sits in the master record\n"
         "  analyze PATH... [--check] [-o OUT]      double-dummy tables and par; --check compares with the file's tags\n"
         "  generate --boards N [-o OUT]            a synthetic master record of random deals\n"
         "\n"
         "Every command takes --json for machine-readable output (except convert and generate) and --help.\n"
         "Exit status: 0 all well, 1 problems found, 2 wrong usage.\n";
}

int run_records(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << records_usage();
    return args.empty() ? kExitUsage : kExitOk;
  }
  std::vector<std::string> rest(std::next(args.begin()), args.end());
  try {
    if (args[0] == "validate") return validate(rest);
    if (args[0] == "show") return show(rest);
    if (args[0] == "convert") return convert(rest);
    if (args[0] == "lookup") return lookup(rest);
    if (args[0] == "analyze") return analyze(rest);
    if (args[0] == "generate") return generate(rest);
  } catch (const UsageError& e) {
    std::cerr << "cardtablectl records " << args[0] << ": " << e.what() << "\n(see cardtablectl records " << args[0]
              << " --help)\n";
    return kExitUsage;
  }
  std::cerr << "cardtablectl records: unknown command '" << args[0] << "'\n\n" << records_usage();
  return kExitUsage;
}

}  // namespace cardtable::tools
