// Fuzzes the expectation readers of `run --baseline`: the input is split at its first NUL byte into a
// fails file and a flakes file (with a skips file of the flakes' text too), written beside each other and
// read as one baseline. Every input must be read or refused with an InputError -- never crash, hang or
// overflow the stack (a pattern's groups and counts are bounded: run/records/baseline.cpp).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "run/records/baseline.hpp"

namespace {

const std::filesystem::path& folder() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("vmmcheck-fuzz-expectations-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string fails = input.substr(0, nul), flakes = nul == std::string::npos ? std::string() : input.substr(nul + 1);
  write(folder() / "x-fails.txt", fails);
  write(folder() / "x-flakes.txt", flakes);
  write(folder() / "x-skips.txt", flakes);
  try {
    const vmmcheck::run::Baseline b = vmmcheck::run::Baseline::read(folder() / "x-fails.txt");
    (void)b;
  } catch (const vmmcheck::InputError&) {
  }
  return 0;
}
