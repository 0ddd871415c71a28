// libFuzzer over the hub's control dispatch: a real Hub (ipc endpoints in a temporary folder), each input
// one request frame. Every input gets a JSON reply; nothing crashes.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "hub.hpp"
#include "process_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::unique_ptr<cardtable::hub::Hub> hub = [] {
    namespace fs = std::filesystem;
    // Its endpoints and state, removed at exit after the object (a static made before it).
    static const cardtable::test::ProcessFolder folder("fuzz-hub");
    const fs::path& dir = folder.path();
    cardtable::hub::HubOptions o;
    o.upstream = "ipc://" + (dir / "up").string();
    o.downstream = "ipc://" + (dir / "down").string();
    o.control = "ipc://" + (dir / "ctl").string();
    return std::make_unique<cardtable::hub::Hub>(o);
  }();
  std::string reply = hub->answer(std::string_view(reinterpret_cast<const char*>(data), size));
  auto j = nlohmann::json::parse(reply, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("ok")) __builtin_trap();
  return 0;
}
