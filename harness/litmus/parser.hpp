#pragma once
// The litmus file parser (docs/litmus.md, "The language"): text in the NVlabs/mixedproxy test language
// to Rows. Our own recursive-descent parser over the artifact's grammar (src/grammar.lark); templates
// ("$$" and "|"-separated rows) are expanded first, each instance parsed on its own, positions reported
// in the file's own lines and columns.
#include <string>

#include "litmus/file.hpp"

namespace vmmcheck::litmus {

// Parses `text` as the contents of `path`. Throws ParseError (path:line:column: what was expected).
File parse_text(const std::string& text, const std::string& path);

// Reads and parses one file. Throws ParseError, or std::runtime_error when it cannot be read.
File parse_file(const std::string& path);

}  // namespace vmmcheck::litmus
