// The wire's figures, in one run (docs/benchmarks.md):
//  1. latency from an observation entering the table to the event arriving at a subscriber, over tcp with
//     CURVE, journal on — beside bare libzmq PUB/SUB of a message of the same size over the same transport;
//  2. 20,000 events/s sustained to a subscriber that keeps up, journal on: how many are lost;
//  3. cardtable-hub carrying 200 simulated tables at 20 events/s each: its CPU and memory;
//  4. cardtabled's resident memory with the simulator.
// Usage: wire_bench CARDTABLED HUB SCENARIO MASTER   (bench/run-wire-bench does it for you)
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "bridge/synthetic_record.hpp"
#include "protocol/journal.hpp"
#include "table/scenario.hpp"
#include "table/table.hpp"

using namespace cardtable;
using clk = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

struct Curve {
  char server_pub[41], server_sec[41], client_pub[41], client_sec[41];
  Curve() {
    zmq_curve_keypair(server_pub, server_sec);
    zmq_curve_keypair(client_pub, client_sec);
  }
  void server(zmq::socket_t& s) const {
    s.set(zmq::sockopt::curve_server, 1);
    s.set(zmq::sockopt::curve_secretkey, std::string(server_sec));
  }
  void client(zmq::socket_t& s) const {
    s.set(zmq::sockopt::curve_serverkey, std::string(server_pub));
    s.set(zmq::sockopt::curve_publickey, std::string(client_pub));
    s.set(zmq::sockopt::curve_secretkey, std::string(client_sec));
  }
};

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

long rss_kb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("VmRSS:")) return std::stol(line.substr(6));
  return -1;
}

double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string s;
  std::getline(in, s);
  auto close = s.rfind(')');
  std::istringstream w(s.substr(close + 2));
  std::string x;
  for (int i = 0; i < 11; ++i) w >> x;  // fields 3..13
  long utime, stime;
  w >> utime >> stime;
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

pid_t spawn(const std::vector<std::string>& args) {
  pid_t p = fork();
  if (p == 0) {
    if (!std::freopen("/dev/null", "w", stderr)) _exit(126);  // the daemon's log would mix with the figures
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return p;
}

// 1. Latency: observation -> table -> journal -> PUB (CURVE, tcp) -> SUB, against bare PUB/SUB.
void latency(const Curve& curve, const fs::path& tmp) {
  zmq::context_t ctx;
  bridge::MasterRecord master;
  bridge::add_synthetic_records(master, 32, 32, 3, "Bench");
  std::vector<table::ScenarioError> errors;
  auto sc = table::parse_scenario("master m\nzones playing-table\nat 0 board Bench/1/1\nat 0 pockets full\nat 2 pocket N empty\n"
                                  "at 5 contract 3NT S\nat 6 play all as master contract 3NT S\nend 80\n",
                                  ".", [&](const auto&) -> const bridge::MasterRecord& { return master; }, errors);
  auto inputs = table::scenario_inputs(*sc);

  std::size_t message_bytes = 0;  // ours measured first; the bare run sends messages of the same size
  for (int mode = 0; mode < 2; ++mode) {  // 0: ours, 1: bare libzmq
    zmq::socket_t pub(ctx, zmq::socket_type::pub), sub(ctx, zmq::socket_type::sub);
    curve.server(pub);
    curve.client(sub);
    pub.set(zmq::sockopt::sndhwm, 0);
    sub.set(zmq::sockopt::rcvhwm, 0);
    pub.bind("tcp://127.0.0.1:*");
    std::string endpoint = pub.get(zmq::sockopt::last_endpoint);
    sub.set(zmq::sockopt::subscribe, "");
    sub.connect(endpoint);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    fs::remove_all(tmp / "journal");
    protocol::Journal journal(tmp / "journal", {});
    std::vector<double> us;
    for (int round = 0; round < 20; ++round) {
      table::Table t(master, sc->config);
      (void)t.take_events();
      for (const auto& in : inputs) {
        auto t0 = clk::now();
        std::size_t sent = 0;
        if (mode == 0) {
          table::apply(t, in);
          for (const table::Event& e : t.take_events()) {
            protocol::WireEvent w;
            w.type = e.type;
            w.message = e.message;
            w.evidence = e.evidence;
            w.tournament = "bench";
            std::string body = journal.append(w);
            std::string topic = w.topic();
            pub.send(zmq::buffer(topic), zmq::send_flags::sndmore);
            pub.send(zmq::buffer(body));
            message_bytes = body.size();
            ++sent;
          }
        } else {
          if (in.kind != table::TableInput::Kind::Observe) continue;
          std::string body(message_bytes ? message_bytes : 300, 'x');
          pub.send(zmq::buffer(std::string("play/bench//1/play.card")), zmq::send_flags::sndmore);
          pub.send(zmq::buffer(body));
          sent = 1;
        }
        for (std::size_t k = 0; k < sent; ++k) {
          std::vector<zmq::message_t> f;
          (void)zmq::recv_multipart(sub, std::back_inserter(f));
          us.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
        }
        if (mode == 1 && us.size() >= 5000) break;
      }
    }
    std::printf("%-44s median %6.1f us  p99 %6.1f us  (%zu messages of ~%zu bytes)\n",
                mode == 0 ? "observation -> subscriber (CURVE, journal):" : "bare libzmq PUB/SUB (CURVE, same size):",
                percentile(us, 0.5), percentile(us, 0.99), us.size(), message_bytes);
  }
}

// 2. 20,000 events/s for 5 s, journal on, to a subscriber that keeps up.
void sustained(const Curve& curve, const fs::path& tmp) {
  zmq::context_t ctx;
  zmq::socket_t pub(ctx, zmq::socket_type::pub), sub(ctx, zmq::socket_type::sub);
  curve.server(pub);
  curve.client(sub);
  pub.bind("tcp://127.0.0.1:*");
  std::string endpoint = pub.get(zmq::sockopt::last_endpoint);
  sub.set(zmq::sockopt::subscribe, "");
  sub.connect(endpoint);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::atomic<std::uint64_t> received{0}, last{0};
  std::atomic<bool> done{false};
  std::thread reader([&] {
    sub.set(zmq::sockopt::rcvtimeo, 500);
    while (!done || received < last) {
      std::vector<zmq::message_t> f;
      if (!zmq::recv_multipart(sub, std::back_inserter(f))) {
        if (done) break;
        continue;
      }
      ++received;
    }
  });
  fs::remove_all(tmp / "journal2");
  protocol::Journal journal(tmp / "journal2", {});
  const int rate = 20000, seconds = 5;
  auto start = clk::now();
  for (int i = 0; i < rate * seconds; ++i) {
    auto due = start + std::chrono::microseconds(static_cast<long long>(i) * 1000000 / rate);
    while (clk::now() < due) std::this_thread::yield();
    protocol::WireEvent w;
    w.type = "play.card";
    w.tournament = "bench";
    w.message = "West plays the queen of spades";
    w.evidence = {{"card", "SQ"}, {"trick", "3"}};
    std::string body = journal.append(w);
    std::string topic = w.topic();
    pub.send(zmq::buffer(topic), zmq::send_flags::sndmore);
    pub.send(zmq::buffer(body));
    last = static_cast<std::uint64_t>(i + 1);
  }
  double elapsed = std::chrono::duration<double>(clk::now() - start).count();
  done = true;
  reader.join();
  std::printf("sustained %d events/s for %d s, journal on:       sent %llu in %.2f s, received %llu, lost %llu\n", rate, seconds,
              static_cast<unsigned long long>(last.load()), elapsed, static_cast<unsigned long long>(received.load()),
              static_cast<unsigned long long>(last - received));
}

// 3. The hub: 200 tables at 20 events/s each for 10 s.
void hub(const std::string& hub_binary, const fs::path& tmp) {
  std::string up = "ipc://" + (tmp / "up").string(), down = "ipc://" + (tmp / "down").string(), ctl = "ipc://" + (tmp / "ctl").string();
  pid_t h = spawn({hub_binary, "--upstream", up, "--downstream", down, "--control", ctl});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  zmq::context_t ctx;
  zmq::socket_t sub(ctx, zmq::socket_type::sub);
  sub.set(zmq::sockopt::subscribe, "");
  sub.set(zmq::sockopt::rcvtimeo, 1000);
  sub.connect(down);
  std::vector<zmq::socket_t> tables;
  for (int t = 0; t < 200; ++t) {
    tables.emplace_back(ctx, zmq::socket_type::pub);
    tables.back().connect(up);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  std::atomic<std::uint64_t> received{0};
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done) {
      std::vector<zmq::message_t> f;
      if (zmq::recv_multipart(sub, std::back_inserter(f))) ++received;
    }
  });
  double cpu0 = cpu_seconds(h);
  auto start = clk::now();
  const int seconds = 10;
  std::uint64_t sent = 0;
  for (int tick = 0; tick < seconds * 20; ++tick) {  // every 50 ms, one event from each table
    auto due = start + std::chrono::milliseconds(50 * tick);
    std::this_thread::sleep_until(due);
    for (int t = 0; t < 200; ++t) {
      std::string topic = "play/venue/A/" + std::to_string(t + 1) + "/play.card";
      std::string body = R"({"seq":)" + std::to_string(tick + 1) + R"(,"class":"play","type":"play.card","table":")" +
                         std::to_string(t + 1) + R"(","message":"West plays the queen of spades","evidence":{"card":"SQ"}})";
      tables[static_cast<std::size_t>(t)].send(zmq::buffer(topic), zmq::send_flags::sndmore);
      tables[static_cast<std::size_t>(t)].send(zmq::buffer(body));
      ++sent;
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  double wall = std::chrono::duration<double>(clk::now() - start).count();
  double cpu = cpu_seconds(h) - cpu0;
  long rss = rss_kb(h);
  done = true;
  reader.join();
  std::printf("hub, 200 tables x 20 events/s for %d s:         forwarded %llu of %llu, hub CPU %.1f%% of one core, RSS %.1f MB\n",
              seconds, static_cast<unsigned long long>(received.load()), static_cast<unsigned long long>(sent), 100.0 * cpu / wall,
              static_cast<double>(rss) / 1024.0);
  kill(h, SIGTERM);
  waitpid(h, nullptr, 0);
}

// 4. cardtabled's resident memory with the simulator.
void daemon_memory(const std::string& cardtabled, const std::string& scenario, const std::string& master, const fs::path& tmp) {
  pid_t d = spawn({cardtabled, "--master", master, "--simulate", scenario, "--speed", "4", "--state-dir", (tmp / "state").string(),
                   "--publish", "bind:ipc://" + (tmp / "p").string(), "--control", "bind:ipc://" + (tmp / "c").string(), "--live",
                   "bind:ipc://" + (tmp / "l").string()});
  long peak = 0;
  for (int i = 0; i < 30; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    peak = std::max(peak, rss_kb(d));
  }
  std::printf("cardtabled with the simulator:                   resident memory %.1f MB (peak over 6 s)\n", static_cast<double>(peak) / 1024.0);
  kill(d, SIGTERM);
  waitpid(d, nullptr, 0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: wire_bench CARDTABLED HUB SCENARIO MASTER\n");
    return 2;
  }
  fs::path tmp = fs::temp_directory_path() / ("wire-bench-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  Curve curve;
  latency(curve, tmp);
  sustained(curve, tmp);
  hub(argv[2], tmp);
  daemon_memory(argv[1], argv[3], argv[4], tmp);
  fs::remove_all(tmp);
  return 0;
}
