#pragma once
// One spelling of a place: what results files record and what resuming compares, so `cases/`, `./cases`
// and `/abs/cases` are one folder.
#include <filesystem>
#include <string>

namespace vmmcheck {

// Absolute, symbolic links and `..` resolved as far as the path exists, no trailing '/'.
std::string resolved_path(const std::filesystem::path& p);

}  // namespace vmmcheck
