// The pieces every integration test that runs the real cardtabled needs, once: start it (or a program
// in front of it, such as strace) with its stderr in a log file, end it and read how it ended, ask its
// control endpoint over a real REQ socket, and read its journal back until something holds.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

namespace cardtable::test {

// Forks and runs args[0] (looked up on PATH when it has no '/'), its stderr appended to `log`.
inline pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
  const pid_t p = ::fork();
  if (p == 0) {
    if (!std::freopen(log.c_str(), "a", stderr)) std::_Exit(126);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    std::_Exit(127);
  }
  return p;
}

// Sends `sig`, waits for the process and returns its wait status; `pid` becomes -1. Nothing to do for
// a process not started (pid <= 0).
inline int end_process(pid_t& pid, int sig = SIGTERM) {
  if (pid <= 0) return 0;
  ::kill(pid, sig);
  int st = 0;
  ::waitpid(pid, &st, 0);
  pid = -1;
  return st;
}

// Waits up to `limit` for a process that should end on its own (a start refused); its exit status, or
// nothing while it still runs (then `pid` is left for end_process).
inline std::optional<int> exit_within(pid_t& pid, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (true) {
    int st = 0;
    if (::waitpid(pid, &st, WNOHANG) == pid) {
      pid = -1;
      return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    if (std::chrono::steady_clock::now() >= end) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// The event types a daemon's journals under `state_dir` hold, in file order (journal and live journal
// alike): what a daemon said before it stopped, read without it.
inline std::vector<std::string> journalled_types(const std::filesystem::path& state_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(state_dir, ec)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text(std::istreambuf_iterator<char>(in), {});
    for (std::size_t at = text.find("\"type\":\""); at != std::string::npos; at = text.find("\"type\":\"", at + 1)) {
      const std::size_t from = at + 8, to = text.find('"', from);
      if (to != std::string::npos) out.push_back(text.substr(from, to - from));
    }
  }
  return out;
}

// One request on a fresh REQ socket; `prepare` may set options (CURVE keys) before it connects.
inline std::optional<nlohmann::json> control_request(zmq::context_t& ctx, const std::string& endpoint, const nlohmann::json& body,
                                                     int timeout_ms, const std::function<void(zmq::socket_t&)>& prepare = {}) {
  zmq::socket_t s(ctx, zmq::socket_type::req);
  s.set(zmq::sockopt::linger, 0);
  s.set(zmq::sockopt::rcvtimeo, timeout_ms);
  if (prepare) prepare(s);
  s.connect(endpoint);
  s.send(zmq::buffer(body.dump()));
  zmq::message_t m;
  if (!s.recv(m)) return std::nullopt;
  return nlohmann::json::parse(m.to_string_view());
}

// Reads the journal (replay over the control endpoint: every event, none missed while a subscription
// takes hold) into `events` until `pred` holds over it, or the time is up.
inline bool replay_until(const std::function<std::optional<nlohmann::json>(const nlohmann::json&)>& request,
                         std::vector<nlohmann::json>& events, const std::function<bool(const std::vector<nlohmann::json>&)>& pred,
                         std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (auto r = request({{"command", "replay"}, {"since", events.size() + 1}}))
      for (const auto& e : (*r)["events"]) events.push_back(e);
    if (pred(events)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace cardtable::test
