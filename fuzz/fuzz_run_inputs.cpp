// Fuzzes the readers of the files a run is given besides case tables and litmus files, one target for
// the three (one link, one run: CI's time): the input's first byte picks the reader, the rest is the file.
//   0: the baseline (`run --baseline`): split at its first NUL into a fails file and a flakes file (with a
//      skips file of the flakes' text too), read as one baseline -- a pattern's groups and counts are
//      bounded (run/records/baseline.cpp), so none overflows the stack;
//   1: a case list (`run --caselist`), then matched against a few names, and the text as a --filter;
//   2: a results file (`run --resume`).
// Every input must be read or refused with an InputError -- never a crash, a hang or unbounded recursion.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "model/caselist.hpp"
#include "model/select.hpp"
#include "run/records/baseline.hpp"
#include "run/records/report_json.hpp"

namespace {

const std::filesystem::path& folder() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("vmmcheck-fuzz-inputs-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

std::filesystem::path write(const std::string& name, const std::string& text) {
  const std::filesystem::path p = folder() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

void baseline(const std::string& input) {
  const std::size_t nul = input.find('\0');
  const std::string flakes = nul == std::string::npos ? std::string() : input.substr(nul + 1);
  const auto fails = write("x-fails.txt", input.substr(0, nul));
  write("x-flakes.txt", flakes);
  write("x-skips.txt", flakes);
  (void)vmmcheck::run::Baseline::read(fails);
}

void caselist(const std::string& input) {
  static const std::vector<std::string> names = {"alias.mp.same.flagsame.nofence.gpu", "litmus.mp.0.cta_rel_acq",
                                                 "api.unmap_with_hole", std::string(200, 'a') + ".b"};
  for (const std::string& n : names) (void)vmmcheck::model::filter_selects(input.substr(0, 512), n);
  const vmmcheck::model::Caselist list = vmmcheck::model::Caselist::read(write("list.txt", input));
  for (const std::string& n : names) (void)list.selects(n);
  list.check_against(names);
}

void results(const std::string& input) { (void)vmmcheck::run::read_results(write("results.json", input)); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0: baseline(input); break;
      case 1: caselist(input); break;
      default: results(input); break;
    }
  } catch (const vmmcheck::InputError&) {
  }
  return 0;
}
