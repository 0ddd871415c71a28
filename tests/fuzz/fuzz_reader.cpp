// libFuzzer target for one reader, chosen at build time (CARDTABLE_FUZZ_READER = read_pbn, read_lin,
// read_dup or read_dlm): on any bytes it must report, never crash, hang or leak; what it reads must write.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bridge/duplimate_formats.hpp"
#include "bridge/lin_format.hpp"
#include "bridge/pbn_reader.hpp"
#include "bridge/pbn_writer.hpp"

using namespace cardtable::bridge;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  RecordSet set = CARDTABLE_FUZZ_READER(bytes, "fuzz-input");
  (void)write_pbn(set.boards);
  (void)write_lin(set.boards);
  (void)write_dup(set.boards);
  (void)write_dlm(set.boards);
  return 0;
}
