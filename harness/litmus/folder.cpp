#include "litmus/folder.hpp"

#include <algorithm>
#include <stdexcept>

#include "litmus/parser.hpp"

namespace vmmcheck::litmus {

std::vector<File> parse_paths(const std::vector<std::filesystem::path>& paths) {
  std::vector<File> files;
  for (const auto& path : paths) {
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> found;
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file() && entry.path().extension() == ".test") found.push_back(entry.path());
      std::sort(found.begin(), found.end());
      for (const auto& f : found) files.push_back(parse_file(f.string()));
    } else if (std::filesystem::is_regular_file(path)) {
      files.push_back(parse_file(path.string()));
    } else {
      throw std::runtime_error(path.string() + ": no such litmus file or folder");
    }
  }
  return files;
}

std::vector<Row> rows_of(const std::vector<File>& files) {
  std::vector<Row> rows;
  for (const File& f : files) rows.insert(rows.end(), f.rows.begin(), f.rows.end());
  return rows;
}

}  // namespace vmmcheck::litmus
