// The real cardtabled, started by a test: a temporary folder for its state and ipc endpoints, requests
// over a real REQ socket, its log. Shared by the integration tests of the daemon.
#pragma once

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "daemon_process.hpp"
#include "test_folder.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

class Daemon : public ::testing::Test {
 protected:
  void TearDown() override { stop(); }

  // Starts cardtabled on a scenario file; returns its pid.
  pid_t start(const std::string& scenario, double speed, std::vector<std::string> extra = {}) {
    return launch(SCENARIO_DIR "/master", {"--simulate", std::string(SCENARIO_DIR) + "/" + scenario}, speed, std::move(extra));
  }
  // Starts cardtabled on a whole session generated from a master record file (--simulate-session),
  // `extra` adding --foul, --sim-faults...; returns its pid.
  pid_t start_session(const std::string& master, const std::string& session, double speed, std::vector<std::string> extra = {}) {
    return launch(master, {"--simulate-session", session}, speed, std::move(extra));
  }
  // The one command line both share: the test's own folder, endpoints and heartbeat, plain text.
  pid_t launch(const std::string& master, std::vector<std::string> source, double speed, std::vector<std::string> extra) {
    std::vector<std::string> args = {CARDTABLED, "--master", master};
    args.insert(args.end(), source.begin(), source.end());
    args.insert(args.end(), {"--speed", std::to_string(speed), "--plaintext", "--state-dir", (dir / "state").string(), "--publish",
                             publish, "--control", "bind:" + ctl, "--live", "bind:" + live, "--heartbeat", heartbeat});
    args.insert(args.end(), extra.begin(), extra.end());
    pid = fork_exec(args, (dir / "daemon.log").string());
    return pid;
  }
  static pid_t fork_exec(const std::vector<std::string>& args, const std::string& log) { return cardtable::test::spawn(args, log); }
  void stop(int sig = SIGTERM) {
    if (pid <= 0) return;
    status = cardtable::test::end_process(pid, sig);
  }
  std::optional<json> request(const json& body, int timeout_ms = 3000) {
    return cardtable::test::control_request(ctx, ctl, body, timeout_ms);
  }
  static bool wait_for(const std::function<bool()>& done, std::chrono::seconds limit = 30s) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (done()) return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }
  bool wait_finished(std::chrono::seconds limit = 30s) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (auto r = request({{"command", "status"}}, 500); r && (*r)["status"]["simulator"]["finished"].get<bool>()) return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }
  std::vector<json> replay_all() {
    std::vector<json> out;
    std::uint64_t since = 1;
    while (true) {
      auto r = request({{"command", "replay"}, {"since", since}});
      if (!r || !(*r)["ok"].get<bool>()) return out;
      for (auto& e : (*r)["events"]) out.push_back(e);
      if (!(*r)["more"].get<bool>()) return out;
      since = out.back()["seq"].get<std::uint64_t>() + 1;
    }
  }
  // The live.card events the live journal holds once the first board's embargo has ended (0 if none
  // comes within the wait): what a broadcaster gets of the play.
  std::size_t released_cards() {
    std::size_t cards = 0;
    wait_for([&] {
      auto r = request({{"command", "replay-live"}, {"since", 1}}, 500);
      if (!r || !(*r)["ok"].get<bool>()) return false;
      cards = 0;
      for (const json& e : (*r)["events"]) cards += e["type"] == "live.card" ? 1U : 0U;
      return cards > 0;
    });
    return cards;
  }
  std::string log() const { return text_of(dir / "daemon.log"); }
  // A file's whole text (a program's log): empty when there is none.
  static std::string text_of(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Waits for a child to end; its exit status, or -1 when a signal ended it.
  static int exit_status_of(pid_t child) {
    int st = 0;
    ::waitpid(child, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }

  // The endpoints the daemon bound, from its "ready:" log line (ephemeral ports read back), e.g.
  // {"publish": "tcp://127.0.0.1:PORT", ...} (the port the system chose for "*"); empty until it is ready.
  std::map<std::string, std::string> bound(std::chrono::seconds limit = 10s) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      std::string text = log();
      auto at = text.find("ready: publishing on bind:");
      if (at != std::string::npos) {
        std::string line = text.substr(at, text.find('\n', at) - at);
        std::map<std::string, std::string> out;
        for (auto [key, marker] : {std::pair{"publish", "publishing on bind:"}, {"control", "control on bind:"}, {"live", "live on bind:"}}) {
          auto p = line.find(marker);
          if (p == std::string::npos) continue;
          p += std::string(marker).size();
          out[key] = line.substr(p, line.find(',', p) - p);
        }
        return out;
      }
      std::this_thread::sleep_for(50ms);
    }
    return {};
  }

  cardtable::test::TestFolder folder{"cardtabled-test"};  // removed after TearDown stopped the daemon
  fs::path dir = folder.path();
  std::string pub = folder.ipc("pub"), ctl = folder.ipc("ctl"), live = folder.ipc("live");
  std::string publish = "bind:" + pub;  // --publish: "connect:" + a hub's upstream to publish through it
  std::string heartbeat = "0.2";  // seconds, --heartbeat
  pid_t pid = -1;
  int status = 0;
  zmq::context_t ctx;
};
