#pragma once
// A folder of this process's own under the temporary directory (mkdtemp: no name another process, or
// a stale file of a killed one, can take), removed with everything in it when its owner goes: bench's
// rounds' files, selftest's passes, toolchain's PTX and CUBINs.
#include <filesystem>
#include <string>

namespace vmmcheck {

class ScratchDir {
 public:
  // `what` names it: <tmp>/vmmcheck-<what>-XXXXXX. Throws std::runtime_error when it cannot be made.
  explicit ScratchDir(const std::string& what);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` in it.
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `bytes` to `name` in it; its path. Throws std::runtime_error when it cannot.
  std::string write(const std::string& name, const std::string& bytes) const;

 private:
  std::filesystem::path path_;
};

}  // namespace vmmcheck
