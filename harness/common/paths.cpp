#include "common/paths.hpp"

namespace vmmcheck {

std::string resolved_path(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path r = std::filesystem::weakly_canonical(std::filesystem::absolute(p), ec);
  if (ec) r = std::filesystem::absolute(p).lexically_normal();
  if (!r.has_filename() && r.has_parent_path()) r = r.parent_path();  // "cases/"
  return r.string();
}

}  // namespace vmmcheck
