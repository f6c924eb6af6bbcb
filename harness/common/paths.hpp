#pragma once
// One spelling of a place: what results files record and what resuming compares, so `cases/`, `./cases`
// and `/abs/cases` are one folder; and the one way a file the user names is read.
#include <filesystem>
#include <string>

namespace vmmcheck {

// Absolute, symbolic links and `..` resolved as far as the path exists, no trailing '/'.
std::string resolved_path(const std::filesystem::path& p);

// The whole text of an input file the user named (`what` says which: "the case list", ...): an InputError
// naming it when it is missing, a folder, or not a regular file -- a FIFO would block the read, a device
// never end -- or cannot be read.
std::string read_input_file(const std::filesystem::path& path, const std::string& what);

}  // namespace vmmcheck
