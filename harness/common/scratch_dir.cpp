#include "common/scratch_dir.hpp"

#include <stdlib.h>

#include <fstream>
#include <stdexcept>

namespace vmmcheck {

ScratchDir::ScratchDir(const std::string& what) {
  std::string pattern = (std::filesystem::temp_directory_path() / ("vmmcheck-" + what + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a scratch folder " + pattern);
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string ScratchDir::write(const std::string& name, const std::string& bytes) const {
  const std::string p = file(name);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + p);
  return p;
}

}  // namespace vmmcheck
