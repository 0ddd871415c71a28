#include "enroll_command.hpp"

#include <poll.h>
#include <unistd.h>

#include <boost/program_options.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "devices/device.hpp"
#include "devices/enrolment.hpp"
#include "counted_words.hpp"
#include "records_command.hpp"

namespace cardtable::tools {
namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// What the reader hands over, queued for the terminal loop: the scan antenna's tags and the reader's life.
class EnrolSink : public devices::DeviceSink {
 public:
  explicit EnrolSink(int antenna) : antenna_(antenna) {}
  void push(table::TableInput) override {}
  void device_event(devices::DeviceEvent e) override {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(e));
    wake_.notify_all();
  }
  void heard(const devices::TagReport& r) override {
    if (r.antenna != antenna_) return;
    std::vector<devices::Uid> uids;
    for (const std::string& u : r.uids)
      if (auto uid = devices::Uid::parse(u)) uids.push_back(*uid);
    std::lock_guard lock(mutex_);
    polls_.push_back(std::move(uids));
    wake_.notify_all();
  }
  // Waits up to `ms` for something, then hands over all of it.
  void take(int ms, std::deque<std::vector<devices::Uid>>& polls, std::deque<devices::DeviceEvent>& events) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return !polls_.empty() || !events_.empty(); });
    polls.swap(polls_);
    events.swap(events_);
    polls_.clear();
    events_.clear();
  }

 private:
  int antenna_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::vector<devices::Uid>> polls_;
  std::deque<devices::DeviceEvent> events_;
};

// A line from stdin if one is ready (the loop never blocks on the terminal).
std::optional<std::string> ready_line(bool& eof) {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  if (eof || poll(&p, 1, 0) <= 0) return std::nullopt;
  std::string line;
  if (!std::getline(std::cin, line)) {
    eof = true;
    return std::nullopt;
  }
  return line;
}

}  // namespace

int run_enroll(const std::vector<std::string>& args) {
  po::options_description opts("cardtablectl enroll --label LABEL [options]");
  opts.add_options()("help,h", "this help")("label", po::value<std::string>(), "the pack's label (letters, digits, - _ .); the file is LABEL.deck")(
      "out", po::value<std::string>()->default_value("."), "the deck folder to write into")(
      "driver", po::value<std::string>()->default_value("acr122u"), "the scan reader's driver: acr122u or cardtable-board")(
      "antenna", po::value<int>()->default_value(0), "the scan antenna of a reader board")(
      "port", po::value<std::string>(), "the reader's USB port (e.g. 1-1.2), when several are plugged in")(
      "order", po::value<std::string>()->default_value("named"),
      "named: pass a sorted pack (spades ace first) as the cards are named; any: any order, type each card's name")(
      "decks", po::value<std::string>(), "the folder of packs already enrolled, to recognise foreign cards")(
      "quirks", po::value<std::string>(), "the reader quirk file (default: the installed one)")(
      "force", "replace an existing deck file of that label");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtablectl enroll: " << e.what() << "\n(see cardtablectl enroll --help)\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << opts
              << "\nEnrols a pack of RFID cards: pass the cards over the scan reader one at a time; each is confirmed,\n"
                 "a repeated, foreign or doubled card is refused with the reason. Type 'done' to stop early (the missing\n"
                 "cards are listed and the partial deck written), 'quit' to stop without writing. The deck file is written\n"
                 "atomically when all 52 cards are in. Deck files: docs/hardware.md.\n";
    return kExitOk;
  }
  if (!vm.count("label")) {
    std::cerr << "cardtablectl enroll: give --label\n";
    return kExitUsage;
  }
  const std::string label = vm["label"].as<std::string>();
  const std::string order_name = vm["order"].as<std::string>();
  if (order_name != "named" && order_name != "any") {
    std::cerr << "cardtablectl enroll: --order is named or any\n";
    return kExitUsage;
  }
  {
    std::vector<devices::DeckProblem> problems;
    devices::parse_deck("deck " + label + "\n", "label", problems);
    if (problems.size() > 1) {  // the only problem allowed is "0 of 52 cards"
      std::cerr << "cardtablectl enroll: --label: letters, digits, '-', '_', '.' only\n";
      return kExitUsage;
    }
  }
  const fs::path out = fs::path(vm["out"].as<std::string>()) / (label + ".deck");
  if (fs::exists(out) && !vm.count("force")) {
    std::cerr << out.string() << " exists: give --force to replace it\n";
    return kExitProblems;
  }

  devices::DeviceEnvironment env;
  std::shared_ptr<devices::DeckLibrary> others;
  if (vm.count("decks")) {
    std::vector<devices::DeckProblem> problems;
    others = std::make_shared<devices::DeckLibrary>(devices::DeckLibrary::load_folder(vm["decks"].as<std::string>(), problems));
    for (const auto& p : problems) std::cerr << p.str() << "\n";
  }
  if (vm.count("quirks")) env.quirks_path = vm["quirks"].as<std::string>();
  const int antenna = vm["antenna"].as<int>();
  devices::DeviceConfig config{"scan", vm["driver"].as<std::string>(), {{antenna, table::Zone{table::ZoneKind::Scan}}}, {}};
  if (vm.count("port")) config.options["port"] = vm["port"].as<std::string>();
  std::string error;
  auto reader = devices::make_device(config, env, error);
  EnrolSink sink(antenna);
  if (!reader || !reader->start(sink, error)) {
    std::cerr << "cardtablectl enroll: " << error << "\n";
    return kExitProblems;
  }

  devices::Enrolment enrolment(label, order_name == "any" ? devices::Enrolment::Order::Any : devices::Enrolment::Order::Named, others);
  std::cout << "Waiting for the " << config.driver << " reader..." << std::endl;
  bool eof = false, ready = false, write = true;
  while (!enrolment.complete()) {
    std::deque<std::vector<devices::Uid>> polls;
    std::deque<devices::DeviceEvent> events;
    sink.take(100, polls, events);
    for (const auto& e : events) {
      std::cout << "Reader " << devices::to_string(e.kind) << ": " << e.reason << std::endl;
      if (e.kind == devices::DeviceEvent::Kind::Added && !ready) {
        ready = true;
        std::cout << enrolment.prompt() << std::endl;
      }
    }
    for (const auto& tags : polls)
      for (const std::string& m : enrolment.feed(tags)) std::cout << m << std::endl;
    if (auto line = ready_line(eof)) {
      if (*line == "done") break;
      if (*line == "quit") {
        write = false;
        break;
      }
      if (line->empty()) continue;
      if (auto card = bridge::Card::parse(*line); card && enrolment.waiting_for_name()) {
        for (const std::string& m : enrolment.name_card(*card)) std::cout << m << std::endl;
      } else {
        std::cout << "'" << *line << "': " << (enrolment.waiting_for_name() ? "not a card name" : "type done or quit") << std::endl;
      }
    }
  }
  reader->stop();
  if (!write) {
    std::cout << "Nothing written." << std::endl;
    return kExitProblems;
  }
  auto missing = enrolment.missing();
  if (!missing.empty()) {
    std::cout << counted(missing.size(), "card") << " missing:";
    for (bridge::Card c : missing) std::cout << " " << c.display();
    std::cout << std::endl;
  }
  if (!devices::write_deck(out, enrolment.deck(), error)) {
    std::cerr << "cardtablectl enroll: " << error << "\n";
    return kExitProblems;
  }
  std::cout << "Wrote " << out.string() << " (" << counted(enrolment.deck().cards.size(), "card") << ")." << std::endl;
  return missing.empty() ? kExitOk : kExitProblems;
}

}  // namespace cardtable::tools
