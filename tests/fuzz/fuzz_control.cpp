// libFuzzer over the daemon's whole control dispatch with the real handlers: a real EventLoop (master
// record, table, journal in a temporary folder, ipc endpoints), each input one request frame from a
// client of the role its first byte picks. Nothing may crash, hang or leak; every input gets a JSON reply.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "daemon/event_loop.hpp"
#include "process_folder.hpp"

namespace {

cardtable::daemon::EventLoop& loop() {
  static std::unique_ptr<cardtable::daemon::EventLoop> l = [] {
    namespace fs = std::filesystem;
    // Its endpoints and state, removed at exit after the object (a static made before it).
    static const cardtable::test::ProcessFolder folder("fuzz-control");
    const fs::path& dir = folder.path();
    std::string pub = "bind:ipc://" + (dir / "pub").string(), ctl = "bind:ipc://" + (dir / "ctl").string(),
                live = "bind:ipc://" + (dir / "live").string(), state = (dir / "state").string();
    const char* argv[] = {"cardtabled", "--master", CARDTABLE_SCENARIOS "/master", "--simulate", CARDTABLE_SCENARIOS "/play-fouled-board.scn",
                          "--plaintext", "--state-dir", state.c_str(), "--publish", pub.c_str(), "--control", ctl.c_str(),
                          "--live", live.c_str(), "--journal-file-mb", "1", "--journal-files", "2"};
    auto parsed = cardtable::daemon::parse_options(static_cast<int>(std::size(argv)), argv);
    return std::make_unique<cardtable::daemon::EventLoop>(std::move(*parsed.options));
  }();
  return *l;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const char* kRoles[] = {"director", "broadcaster", "hub", ""};
  std::string role = size > 0 ? kRoles[data[0] % 4] : "director";
  std::string_view frame(reinterpret_cast<const char*>(data), size);
  if (size > 0) frame.remove_prefix(1);
  std::string reply = loop().control().answer(frame, role);
  auto j = nlohmann::json::parse(reply, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("ok")) __builtin_trap();  // every input gets a reply
  return 0;
}
