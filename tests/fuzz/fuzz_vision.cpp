// libFuzzer targets for vision/'s parsers of outside files: the zones calibration file, the deck file,
// the model metadata, YOLO label rows and data.yaml. Each must report an error, never crash or hang.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "vision/deck_file.hpp"
#include "vision/model_info.hpp"
#include "vision/yolo_dataset.hpp"
#include "vision/zones_file.hpp"

using namespace cardtable::vision;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
#if defined(CARDTABLE_FUZZ_ZONES)
    const auto m = parse_zones(text, "fuzz");
    (void)m.zone_at({10, 10});
    (void)parse_zones(format_zones(m), "again");
#elif defined(CARDTABLE_FUZZ_DECK)
    (void)parse_deck(format_deck(parse_deck(text, "fuzz")), "again");
#elif defined(CARDTABLE_FUZZ_MODEL)
    (void)parse_model_info(text, "fuzz");
#elif defined(CARDTABLE_FUZZ_LABELS)
    static const std::vector<std::string> names = {"10C", "AS", "BACK", "RED JOKER"};
    (void)parse_label_rows(text, names, "fuzz");
    (void)parse_data_yaml_names(text, "fuzz");
#endif
  } catch (const std::runtime_error&) {
  }
  return 0;
}
