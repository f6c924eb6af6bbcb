#pragma once
// Litmus files by path: a file, or every *.test file of a folder (sorted by name, not recursive).
#include <filesystem>
#include <vector>

#include "litmus/file.hpp"

namespace vmmcheck::litmus {

// The file in a litmus folder whose "rows" give that folder's rows their own stress knobs.
inline constexpr const char* kFolderStressParams = "stress-params.json";

// Whether a file of a folder is a litmus file: *.test, or a herd-style *.litmus.
bool is_litmus_file(const std::filesystem::path& file);

// The files a command reads of `paths` (its inputs, which no output may overwrite): each file as named,
// and for a folder the files in it the loaders read (litmus files, case tables, kFolderStressParams).
std::vector<std::filesystem::path> input_files_of(const std::vector<std::filesystem::path>& paths);

// Parses every file named or found, each once however often it is named. Throws ParseError for the first
// malformed one, std::runtime_error for a path that is neither a file nor a folder, a folder with no
// *.test file, and two rows of one name (files of one stem in two folders).
std::vector<File> parse_paths(const std::vector<std::filesystem::path>& paths);

// The rows of all of them, in file order.
std::vector<Row> rows_of(const std::vector<File>& files);

}  // namespace vmmcheck::litmus
