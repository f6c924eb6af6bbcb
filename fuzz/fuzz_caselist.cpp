// Fuzzes the case-list reader (`run --caselist`) and the glob matcher behind it and --filter: each input
// is a case list, read and then matched against a few names. Read or refused with an InputError -- never
// a crash, a hang or unbounded recursion in the matcher.
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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("vmmcheck-fuzz-caselist-" + std::to_string(::getpid()) + ".txt");
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::ofstream(file, std::ios::binary) << input;
  static const std::vector<std::string> names = {"alias.mp.same.flagsame.nofence.gpu", "litmus.mp.0.cta_rel_acq", "api.unmap_with_hole",
                                                 std::string(200, 'a') + ".b"};
  try {
    const vmmcheck::model::Caselist list = vmmcheck::model::Caselist::read(file);
    for (const std::string& n : names) (void)list.selects(n);
    list.check_against(names);
  } catch (const vmmcheck::InputError&) {
  }
  // The same text as a --filter, and each of its lines as one glob.
  for (const std::string& n : names) (void)vmmcheck::model::filter_selects(input.substr(0, 512), n);
  return 0;
}
