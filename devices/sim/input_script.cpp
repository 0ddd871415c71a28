#include "devices/sim/input_script.hpp"

#include <algorithm>
#include <memory>

namespace cardtable::devices {

InputScript fixed_script(std::vector<table::TableInput> inputs) {
  std::vector<table::Zone> zones;
  for (const table::TableInput& in : inputs)
    if (in.kind == table::TableInput::Kind::Observe && std::find(zones.begin(), zones.end(), in.observation.zone) == zones.end())
      zones.push_back(in.observation.zone);
  auto shared = std::make_shared<const std::vector<table::TableInput>>(std::move(inputs));
  return InputScript(
      [shared]() -> InputCursor {
        return [shared, i = std::size_t{0}]() mutable -> std::optional<table::TableInput> {
          if (i == shared->size()) return std::nullopt;
          return (*shared)[i++];
        };
      },
      std::move(zones));
}

}  // namespace cardtable::devices
