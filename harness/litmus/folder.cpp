#include "litmus/folder.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "litmus/parser.hpp"
#include "litmus/rows.hpp"
#include "model/loader.hpp"

namespace vmmcheck::litmus {

bool is_litmus_file(const std::filesystem::path& file) { return file.extension() == ".test" || file.extension() == ".litmus"; }

std::vector<std::filesystem::path> input_files_of(const std::vector<std::filesystem::path>& paths) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const fs::path& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      files.push_back(p);
      continue;
    }
    for (const auto& e : fs::directory_iterator(p, ec)) {
      const fs::path& f = e.path();
      if (is_litmus_file(f) || model::is_case_table_file(f) || f.filename() == kFolderStressParams) files.push_back(f);
    }
  }
  return files;
}

std::vector<File> parse_paths(const std::vector<std::filesystem::path>& paths) {
  std::vector<File> files;
  std::set<std::filesystem::path> seen;  // a file named twice (model DIR DIR, DIR/x.test DIR) is read once
  const auto add = [&](const std::filesystem::path& p) {
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(p, ec);
    if (seen.insert(ec ? p : canonical).second) files.push_back(parse_file(p.string()));
  };
  for (const auto& path : paths) {
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> found;
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file() && is_litmus_file(entry.path()))
          found.push_back(entry.path());
      if (found.empty()) throw std::runtime_error(path.string() + ": a folder with no litmus file (*.test, *.litmus) in it");
      std::sort(found.begin(), found.end());
      for (const auto& f : found) add(f);
    } else if (std::filesystem::is_regular_file(path)) {
      add(path);
    } else if (std::error_code ec; std::filesystem::exists(path, ec)) {
      throw std::runtime_error(path.string() + ": is not a regular file (a FIFO, device or socket), not a litmus file");
    } else {
      throw std::runtime_error(path.string() + ": no such litmus file or folder");
    }
  }
  // A row is named by its file's stem (litmus.<stem>.<command>): two files of one stem in two folders
  // would give two rows one name, which results, baselines and explain could not tell apart.
  std::map<std::string, const Row*> named;
  for (const File& f : files)
    for (const Row& r : f.rows) {
      const auto [it, fresh] = named.emplace(case_name_of(r), &r);
      if (!fresh)
        throw std::runtime_error(r.file + ":" + std::to_string(r.line) + ": row " + it->first + " has the name of a row of " +
                                 it->second->file + ":" + std::to_string(it->second->line) +
                                 (r.case_name.empty() ? " (a row is named by its file's stem: rename one of the files)"
                                                      : " (two rows stand for one case)"));
    }
  return files;
}

std::vector<Row> rows_of(const std::vector<File>& files) {
  std::vector<Row> rows;
  for (const File& f : files) rows.insert(rows.end(), f.rows.begin(), f.rows.end());
  return rows;
}

}  // namespace vmmcheck::litmus
