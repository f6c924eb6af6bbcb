#include "litmus/parse_template.hpp"

#include <algorithm>
#include <utility>

#include "litmus/ascii.hpp"

namespace vmmcheck::litmus::syntax {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The first and one-past-last non-blank offsets of file[start, end) (equal when it is all blank).
std::pair<std::size_t, std::size_t> trimmed(const std::string& file, std::size_t start, std::size_t end) {
  while (start < end && is_blank(file[start])) ++start;
  while (end > start && is_blank(file[end - 1])) --end;
  return {start, end};
}

// A row's parameter: its trimmed text and where that text starts in the file.
struct Parameter {
  std::size_t at;
  std::string text;
};

std::vector<Parameter> parameters(const std::string& file, const Template::Row& row) {
  std::vector<Parameter> out;
  std::size_t start = row.start;
  for (;;) {
    std::size_t bar = file.find('|', start);
    std::size_t end = bar < row.end ? bar : row.end;
    auto [from, to] = trimmed(file, start, end);
    out.push_back({from, file.substr(from, to - from)});
    if (end == row.end) return out;
    start = end + 1;
  }
}

// The number of the "$<digits>" at file[at], and the offset past it: all its digits count (so $10 is
// parameter ten, not $1 then '0'); a number too long for an index counts as one past any row's last
// parameter (no row has more parameters than the file has bytes).
std::pair<std::size_t, std::size_t> hole_at(const std::string& file, std::size_t at, std::size_t end) {
  std::size_t i = at + 1, index = 0;
  const std::size_t too_many = file.size() + 1;
  for (; i < end && is_digit(file[i]); ++i)
    index = index < too_many ? index * 10 + static_cast<std::size_t>(file[i] - '0') : too_many;
  return {index, i};
}

constexpr std::size_t kMostTemplateRows = 10'000;
// An instance's text: its holes may repeat a long parameter (20,000 holes in an 80 KB file, filled with a
// 20,000-character parameter, asked for 400 MB of text and 3 GB of offsets). The shipped ones are a few KB.
constexpr std::size_t kMostInstanceText = 4u << 20;

}  // namespace

std::optional<Template> split_template(const std::string& file, const Lines& lines, const std::string& path) {
  std::optional<Template> t;
  for (std::size_t start = 0; start < file.size();) {
    std::size_t end = std::min(file.find('\n', start), file.size());
    auto [from, to] = trimmed(file, start, end);
    if (file.compare(from, to - from, "$$") == 0) {
      if (t) fail_in_file(path, lines, from, "a second $$ line: a file holds one template");
      t = Template{start, {}};
    } else if (t && from < to && file[from] != '#') {
      // Each row is a test parsed, decided and kept: a bound, as on a test's commands (300,000 rows took
      // 25 s and 1.5 GB). The largest shipped template has a few dozen.
      if (t->rows.size() == kMostTemplateRows)
        fail_in_file(path, lines, from, "more than " + std::to_string(kMostTemplateRows) + " rows in one template (split the file)");
      t->rows.push_back({start, end});
    }
    start = end + 1;
  }
  if (t && t->rows.empty())
    fail_in_file(path, lines, t->end, "expected rows of '|'-separated parameters after $$");
  return t;
}

Source instantiate(const std::string& file, const Template& t, int index, const Lines& lines,
                   const std::string& path) {
  const Template::Row& row = t.rows[static_cast<std::size_t>(index)];
  const std::vector<Parameter> params = parameters(file, row);
  Source s;
  s.path = path;
  s.lines = &lines;
  s.instance = index;
  for (std::size_t i = 0; i < t.end;) {
    if (file[i] != '$' || i + 1 >= t.end || !is_digit(file[i + 1])) {
      s.text += file[i];
      s.origin.push_back(i++);
      continue;
    }
    const auto [hole, after] = hole_at(file, i, t.end);
    if (hole >= params.size())
      fail_in_file(path, lines, trimmed(file, row.start, row.end).first,
                   "the template uses " + file.substr(i, after - i) + " but the row has " +
                       std::to_string(params.size()) + (params.size() == 1 ? " parameter" : " parameters") +
                       " (template row " + std::to_string(index) + ")");
    const Parameter& p = params[hole];
    if (s.text.size() + p.text.size() > kMostInstanceText)
      fail_in_file(path, lines, trimmed(file, row.start, row.end).first,
                   "the template filled with this row is more than " + std::to_string(kMostInstanceText >> 20) +
                       " MB of text (template row " + std::to_string(index) + ")");
    s.text += p.text;
    for (std::size_t k = 0; k < p.text.size(); ++k) s.origin.push_back(p.at + k);
    i = after;
  }
  s.origin.push_back(t.end);  // the end of an instance is the end of the template
  return s;
}

}  // namespace vmmcheck::litmus::syntax
