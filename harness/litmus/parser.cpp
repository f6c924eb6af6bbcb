// The litmus file parser: templates expanded (parse_template), each test read by recursive descent
// (parse_test over parse_source's tokens), one Row per command.
//
// Where this parser decides what the artifact (NVlabs/mixedproxy) leaves open or does otherwise:
// - Templates: the template ends at a line holding only "$$" (blanks around it allowed); a second such
//   line is an error. A row line whose first non-blank character is '#' is a comment. "$10" is
//   parameter ten (the longest number), never "$1" then '0'; substitution is one pass, so a parameter's
//   own text is never substituted again. A row may have more parameters than the template uses.
// - An error in a template instance names the file position of the offending character -- in the
//   template, or in the $$ row for a substituted parameter -- and ends "(template row N)", N counted
//   from 0 as in the row names "<stem>.<N>.<command>".
// - A file's rows are named <stem>.<command>: a stem with a '.' in it is refused (it would split the name).
// - Conditions: && binds tighter than ||, a chain of one operator is one node; `not` applies to the comparison or
//   parenthesised condition right after it ("not r0 == 1 && r1 == 1" is "(not r0 == 1) && r1 == 1").
//   Parentheses inside a condition are an extension. At most 100 levels of not/parentheses.
// - atom/red without sem are .relaxed, without scope .gpu (the PTX ISA defaults); ld/st without sem
//   are .weak; .volatile is .relaxed at .sys.
// - A register operand of st/atom/red must be set by an earlier load or atom of the same thread; a
//   register in a condition by some load or atom of the test; each register is set once. Registers
//   go by number (r01 is r1).
// - .texref/.surfref synonyms take the location and the space (.global/.shared) of the address they
//   alias. Integers are 32-bit unsigned values.
// - Row names: a command's name alone ("<stem>.<command>"), for check as for permit and assert.
// - `control NAME` after an assert command's name names the permit or check command NAME of the same
//   file; in a template, of any instance, and it must name exactly one row.
#include "litmus/parser.hpp"

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "litmus/parse_source.hpp"
#include "litmus/parse_template.hpp"
#include "litmus/grammar.hpp"
#include "litmus/herd.hpp"

namespace vmmcheck::litmus {
namespace {

// The file name without its directory and its ".test" (or a herd file's ".litmus").
std::string stem_of(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const std::string suffix : {".test", ".litmus"})
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      name.resize(name.size() - suffix.size());
      break;
    }
  return name;
}

// One Row per command of the test in `source`, named "<prefix>.<command>"; `row_line` is the $$ row's
// line for a template instance, 0 for a plain file (whose rows carry their command's line).
struct NamedControl {
  std::size_t row;  // index in File::rows
  int line;         // where the file names it
};

// Every row keeps its test's text: a bound on the file's rows' texts together, as on its commands and
// template rows (1,000 commands under 1 MB of comments kept 1 GB). The shipped files keep under 1 MB.
constexpr std::size_t kMostRowsText = 64u << 20;

void add_rows(File& file, const syntax::Source& source, const std::string& prefix, int row_line,
              std::vector<NamedControl>& controls, std::size_t& rows_text) {
  syntax::Test test = syntax::parse_test(source);
  for (syntax::Command& c : test.commands) {
    if ((rows_text += source.text.size()) > kMostRowsText)
      throw ParseError(file.path, source.instance >= 0 ? row_line : source.lines->line(source.origin[c.at]), 1,
                       "the rows of this file keep more than " + std::to_string(kMostRowsText >> 20) +
                           " MB of test text (each row keeps its test's): split the file");
    Row row;
    row.name = prefix + "." + c.name;
    row.file = file.path;
    row.line = source.instance >= 0 ? row_line : source.lines->line(source.origin[c.at]);
    row.instance = source.instance;
    row.test = test.litmus;
    row.test.name = row.name;
    row.condition = std::move(c.condition);
    row.expect = c.expect;
    row.source = source.text;
    row.control = c.control;  // a command name until resolve_controls makes it a row name
    row.case_name = c.case_name;
    file.rows.push_back(std::move(row));
    if (!c.control.empty()) controls.push_back({file.rows.size() - 1, source.lines->line(source.origin[c.control_at])});
  }
}

// Each `control NAME` as the one row of the file whose command is NAME, a permit or check row.
void resolve_controls(File& file, const std::vector<NamedControl>& controls) {
  for (const NamedControl& nc : controls) {
    Row& row = file.rows[nc.row];
    const std::string suffix = "." + row.control;
    const Row* found = nullptr;
    int matches = 0;
    for (const Row& other : file.rows)
      if (other.name.size() > suffix.size() && other.name.compare(other.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        found = &other;
        ++matches;
      }
    const auto fail = [&](const std::string& why) { throw ParseError(file.path, nc.line, 1, row.name + ": control " + row.control + " " + why); };
    if (matches == 0) fail("names no command of this file");
    if (matches > 1) fail("names " + std::to_string(matches) + " rows of this file (one is needed)");
    if (found->expect == Expect::Assert) fail("is an assert row; a control is a permit or check row");
    row.control = found->name;
    row.control_row = std::make_shared<const Row>(*found);
  }
}

}  // namespace

File parse_text(const std::string& text, const std::string& path) {
  const syntax::Lines lines(text);
  const std::string stem = stem_of(path);
  // A row is named litmus.<stem>.<command>: a '.' in the stem would make another family of its first part
  // (sb.old.test's rows would be litmus.sb.*, the shipped SB's).
  if (stem.find('.') != std::string::npos) {
    std::string renamed = stem;
    std::replace(renamed.begin(), renamed.end(), '.', '_');
    throw ParseError(path, 1, 1, "a '.' in the file's name before its extension would split its rows' names (litmus." + stem +
                                     ".<command>): name it " + renamed + std::filesystem::path(path).extension().string());
  }
  File file;
  file.path = path;
  std::vector<NamedControl> controls;
  std::size_t rows_text = 0;
  const auto templ = syntax::split_template(text, lines, path);
  if (!templ) {
    add_rows(file, syntax::whole_file(text, lines, path), stem, 0, controls, rows_text);
  } else {
    for (std::size_t i = 0; i < templ->rows.size(); ++i) {
      const int index = static_cast<int>(i);
      add_rows(file, syntax::instantiate(text, *templ, index, lines, path), stem + "." + std::to_string(index),
               lines.line(templ->rows[i].start), controls, rows_text);
    }
  }
  resolve_controls(file, controls);
  return file;
}

File parse_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error("cannot read litmus file " + path + ": a directory");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) throw std::runtime_error("cannot read litmus file " + path);
  return is_herd_path(path) ? parse_herd_text(text.str(), path) : parse_text(text.str(), path);
}

}  // namespace vmmcheck::litmus
