// Fuzzes the case-file loader: any bytes must either load or be refused with InputError (exit 2 in the
// CLI). Any other exception, a crash, or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/error.hpp"
#include "model/loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    vmmcheck::model::parse_cases(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
  } catch (const vmmcheck::InputError&) {
  }
  return 0;
}
