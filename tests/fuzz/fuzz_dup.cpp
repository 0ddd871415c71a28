// libFuzzer target: the DUP reader must report, never crash, on any bytes; what it reads must write.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bridge/duplimate_formats.hpp"
#include "bridge/lin_format.hpp"
#include "bridge/pbn_reader.hpp"
#include "bridge/pbn_writer.hpp"

using namespace cardtable::bridge;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  RecordSet set = read_dup(text, "fuzz.dup");
  // Whatever was read can be written in every format.
  (void)write_pbn(set.boards);
  (void)write_lin(set.boards);
  (void)write_dup(set.boards);
  (void)write_dlm(set.boards);
  return 0;
}
