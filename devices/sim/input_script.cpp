#include "devices/sim/input_script.hpp"

#include <memory>

namespace cardtable::devices {

InputScript fixed_script(std::vector<table::TableInput> inputs) {
  auto shared = std::make_shared<const std::vector<table::TableInput>>(std::move(inputs));
  return [shared]() -> InputCursor {
    return [shared, i = std::size_t{0}]() mutable -> std::optional<table::TableInput> {
      if (i == shared->size()) return std::nullopt;
      return (*shared)[i++];
    };
  };
}

}  // namespace cardtable::devices
