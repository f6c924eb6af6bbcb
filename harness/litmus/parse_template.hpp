#pragma once
// Litmus templates (the artifact's src/test_to_alloy.py, main): a line that holds only "$$" ends the
// template; each later line that is neither blank nor a '#' comment is a row of '|'-separated
// parameters, and the row's instance is the template with every $i replaced by parameter i.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "litmus/parse_source.hpp"

namespace vmmcheck::litmus::syntax {

struct Template {
  std::size_t end = 0;  // the template is the file's text before this offset (the $$ line's start)
  struct Row {
    std::size_t start, end;  // the row's line in the file, without its '\n'
  };
  std::vector<Row> rows;
};

// The template and rows of `file`, or nothing when no line is "$$". Throws ParseError for a second
// "$$" line or a template without rows.
std::optional<Template> split_template(const std::string& file, const Lines& lines, const std::string& path);

// The instance of row `index`. Throws ParseError at the row when the template uses a parameter the row
// does not have.
Source instantiate(const std::string& file, const Template& t, int index, const Lines& lines,
                   const std::string& path);

}  // namespace vmmcheck::litmus::syntax
