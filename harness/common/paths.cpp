#include "common/paths.hpp"

#include <fstream>
#include <iterator>

#include "common/error.hpp"

namespace vmmcheck {

std::string resolved_path(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path r = std::filesystem::weakly_canonical(std::filesystem::absolute(p), ec);
  if (ec) r = std::filesystem::absolute(p).lexically_normal();
  if (!r.has_filename() && r.has_parent_path()) r = r.parent_path();  // "cases/"
  return r.string();
}

std::string read_input_file(const std::filesystem::path& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw InputError(path.string() + ": no such file (" + what + ")");
  if (fs::is_directory(st)) throw InputError(path.string() + ": is a folder, not " + what);
  if (!fs::is_regular_file(st)) throw InputError(path.string() + ": is not a regular file (a FIFO, device or socket), not " + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read " + what + " (permission?)");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path.string() + ": reading " + what + " failed");
  return text;
}

}  // namespace vmmcheck
