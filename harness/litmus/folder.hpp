#pragma once
// Litmus files by path: a file, or every *.test file of a folder (sorted by name, not recursive).
#include <filesystem>
#include <vector>

#include "litmus/file.hpp"

namespace vmmcheck::litmus {

// Parses every file named or found, each once however often it is named. Throws ParseError for the first
// malformed one, std::runtime_error for a path that is neither a file nor a folder, a folder with no
// *.test file, and two rows of one name (files of one stem in two folders).
std::vector<File> parse_paths(const std::vector<std::filesystem::path>& paths);

// The rows of all of them, in file order.
std::vector<Row> rows_of(const std::vector<File>& files);

}  // namespace vmmcheck::litmus
