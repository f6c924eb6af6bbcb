// Fuzzes the results-file reader (`run --resume`, and what compare and merge read in C++): each input is
// a results file. Read or refused with an InputError -- never a crash, and no recursion without a limit
// in the JSON parser (nlohmann's is bounded by the input's nesting, which the reader checks first).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "run/records/report_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("vmmcheck-fuzz-results-" + std::to_string(::getpid()) + ".json");
  std::ofstream(file, std::ios::binary) << std::string(reinterpret_cast<const char*>(data), size);
  try {
    const vmmcheck::run::StoredRun r = vmmcheck::run::read_results(file);
    (void)r;
  } catch (const vmmcheck::InputError&) {
  }
  return 0;
}
