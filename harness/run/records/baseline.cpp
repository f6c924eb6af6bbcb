#include "run/records/baseline.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "common/paths.hpp"
#include "common/text.hpp"

namespace vmmcheck::run {
namespace {

bool base_failure(Status s) { return s == Status::Fail || s == Status::Crash || s == Status::Timeout || s == Status::Error; }

// Well-formed UTF-8 as Python's codec reads it (the report driver refuses a file that is not): no overlong
// forms, no surrogates, nothing past U+10FFFF.
bool is_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t more;                       // continuation bytes
    unsigned char low = 0x80, high = 0xBF;  // the second byte's range (narrower after E0, ED, F0, F4); later ones 80-BF
    if (c < 0x80) {
      more = 0;
    } else if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      if (c == 0xE0) low = 0xA0;   // no overlong form
      if (c == 0xED) high = 0x9F;  // no surrogate
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      if (c == 0xF0) low = 0x90;   // no overlong form
      if (c == 0xF4) high = 0x8F;  // nothing past U+10FFFF
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= more; ++k) {
      if (i + k >= s.size()) return false;
      const unsigned char b = static_cast<unsigned char>(s[i + k]);
      if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xBF)) return false;
    }
    i += more + 1;
  }
  return true;
}

// The lines of a baseline file, as the report driver splits them: at "\n" alone (a "\r" before it is
// trimmed with the line).
std::vector<std::string> lines_of(const std::filesystem::path& path) {
  const std::string text = read_input_file(path, "a baseline file");
  if (!is_utf8(text)) throw InputError(path.string() + ": not UTF-8 text");
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// "<stem>-fails.txt" -> "<stem>-<kind>.txt" beside it; empty when FILE is not named that way.
std::filesystem::path sibling(const std::filesystem::path& fails, const std::string& kind) {
  const std::string name = fails.filename().string();
  const std::string suffix = "-fails.txt";
  if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return {};
  return fails.parent_path() / (name.substr(0, name.size() - suffix.size()) + "-" + kind + ".txt");
}

// Two dotted segments or more: a family's name and the case's own.
bool is_case_name(const std::string& s) { return is_dotted_name(s) && s.find('.') != std::string::npos; }

// The pattern subset (docs/design.md, "Conventions"): what ECMAScript (std::regex, here) and Python's re
// read alike. check_pattern in reports/vmmcheck_report/expectations.py is this in Python, with the same
// messages; tests/data/expectations/corpus.json holds both readers to the same answers.
bool plain(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool printable(char c) { return c > ' ' && c < '\x7f'; }  // a byte of a non-ASCII character is neither
std::string shown(char c) {
  return printable(c) ? "'" + std::string(1, c) + "'" : "a space, control or non-ASCII character";
}

// What is wrong with the backslash at text[i], or "".
std::string escape_problem(const std::string& text, std::size_t i) {
  static const std::string escapable = ".\\*+?()[]{}|^$-";  // the character itself
  static const std::string class_escapes = "dDwWsS";          // alike in both over ASCII, and names are ASCII
  if (i + 1 >= text.size()) return "a '\\' ends the pattern";
  const char e = text[i + 1];
  if (e != '\0' && (escapable.find(e) != std::string::npos || class_escapes.find(e) != std::string::npos)) return "";
  return (printable(e) ? "'\\" + std::string(1, e) + "'" : shown(e)) +
         " is not in the subset (a '\\' goes before one of .\\*+?()[]{}|^$- or d w s D W S)";
}

// The class opening at text[start]: the index after it, or where it goes wrong, with `problem` saying why.
std::size_t class_end(const std::string& text, std::size_t start, std::string& problem) {
  std::size_t i = start + 1;
  if (i < text.size() && text[i] == '^') ++i;
  const std::size_t first = i;
  while (i < text.size() && text[i] != ']') {
    const char c = text[i];
    if (c == '\\') {
      if (!(problem = escape_problem(text, i)).empty()) return i;
      i += 2;
    } else if (c == '-') {
      // a literal only first or last: elsewhere the dialects read it differently ([a-z-0], [--a])
      if (i != first && !(i + 1 < text.size() && text[i + 1] == ']')) {
        problem = "'-' in a class must be first, last or in a range such as a-z";
        return i;
      }
      ++i;
    } else if (plain(c) || c == '.') {
      if (i + 2 < text.size() && text[i + 1] == '-' && text[i + 2] != ']') {  // a range c-high
        const char high = text[i + 2];
        if (!plain(high) && high != '.') {
          problem = "a range ends at " + shown(high) + ": only letters, digits, '_' and '.' do";
          return i + 2;
        }
        if (high < c) {
          problem = "the range '" + text.substr(i, 3) + "' is reversed";
          return i;
        }
        i += 3;
      } else {
        ++i;
      }
    } else {  // '[' (a POSIX class or a nested set in the one, a literal in the other), '^', ...
      problem = shown(c) + " in a class is not in the subset";
      return i;
    }
  }
  if (i >= text.size()) problem = "'[' is not closed";
  // [] matches nothing in ECMAScript, and opens a class holding ']' in Python
  else if (i == first) problem = "an empty class ('[]' or '[^]') is not in the subset";
  return problem.empty() ? i + 1 : start;
}

// The count "{n}", "{n,}" or "{n,m}" at text[i] (n and m of one to three digits, n <= m): the index after
// it, or i with `problem` saying why not.
std::size_t count_end(const std::string& text, std::size_t i, std::string& problem) {
  std::size_t k = i + 1;
  auto number = [&](std::string& digits) {
    const std::size_t from = k;
    while (k < text.size() && text[k] >= '0' && text[k] <= '9') ++k;
    digits = text.substr(from, k - from);
    return !digits.empty() && digits.size() <= 3;
  };
  std::string low, high;
  bool ok = number(low);
  if (ok && k < text.size() && text[k] == ',') {
    ++k;
    if (k < text.size() && text[k] >= '0' && text[k] <= '9') ok = number(high);
  }
  if (!ok || k >= text.size() || text[k] != '}') {
    problem = "'{' starts no count {n}, {n,} or {n,m} (at most three digits each)";
    return i;
  }
  if (!high.empty() && std::stoi(high) < std::stoi(low)) {
    problem = "the count '" + text.substr(i, k + 1 - i) + "' is reversed";
    return i;
  }
  return k + 1;
}

// Bounds that keep every reader's matcher small (std::regex recurses per group and unrolls counts): a
// name pattern needs none of what they refuse.
constexpr std::size_t kMostPatternLength = 256;
constexpr std::size_t kMostGroupDepth = 8;

// Both readers backtrack, so a pattern's time on a name that does not match grows with the ways it can try:
// its choices multiplied -- '?' two, '{n,m}' m - n + 1, '*', '+' and '{n,}' about a name's length
// (kUnboundedWays), an alternation its branches' sum. They are bounded, and a quantifier other than '?' on a
// group that holds a choice is refused: (.+)+X tries exponentially many ways, and a run hung on one name.
constexpr std::uint64_t kUnboundedWays = 128;
constexpr std::uint64_t kMostWays = 65536;
std::uint64_t times(std::uint64_t a, std::uint64_t b) { return std::min(a * b, kMostWays + 1); }  // both <= kMostWays + 1
struct Ways {  // per group still open, and the pattern's top: its ways are sum + prefix * last
  std::uint64_t sum = 0;     // the branches before the last '|'
  std::uint64_t prefix = 1;  // this branch's atoms before the last one
  std::uint64_t last = 1;    // the last atom's (a quantifier takes these)
  std::uint64_t total() const { return std::min(sum + times(prefix, last), kMostWays + 1); }
};

// The ways the count at text[from, to) ({n}, {n,} or {n,m}, checked) repeats what it follows.
std::uint64_t count_ways(const std::string& text, std::size_t from, std::size_t to) {
  const std::string inside = text.substr(from + 1, to - from - 2);
  const std::size_t comma = inside.find(',');
  if (comma == std::string::npos) return 1;
  if (comma + 1 == inside.size()) return kUnboundedWays;
  return std::stoull(inside.substr(comma + 1)) - std::stoull(inside.substr(0, comma)) + 1;
}

// Why `text` is outside the pattern subset ("column N: ..."), or "" when it is in it.
std::string check_pattern(const std::string& text) {
  std::vector<std::size_t> opened;  // where each group still open starts
  std::vector<bool> counted;        // per group still open: it holds a count {n}
  bool repeatable = false;          // what was just read is an atom, which a quantifier may follow
  bool quantified = false;          // what was just read is a quantifier
  bool group_holds_count = false;   // what was just read is a group holding a count
  std::vector<Ways> ways(1);        // the top, then each group still open
  std::string problem;
  // After ways.back() changed: the bound holds over every open level (their ways multiplied: at least the
  // pattern's).
  auto too_many_ways = [&] {
    std::uint64_t all = 1;
    for (const Ways& w : ways) all = times(all, w.total());
    if (all <= kMostWays) return false;
    problem = "the pattern can try more than " + std::to_string(kMostWays) +
              " ways to match a name (its choices multiplied; '*', '+' and '{n,}' count " + std::to_string(kUnboundedWays) +
              ") and is not in the subset";
    return true;
  };
  auto at = [&](std::size_t where) { return "column " + std::to_string(where + 1) + ": " + problem; };
  if (text.size() > kMostPatternLength) {
    problem = "a pattern of more than " + std::to_string(kMostPatternLength) + " characters is not in the subset";
    return at(kMostPatternLength);
  }
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '*' || c == '+' || c == '?' || c == '{') {
      const std::string q(1, c);
      std::size_t end = i + 1;
      if (!repeatable)
        problem = quantified ? "'" + q + "' after a quantifier (possessive or repeated) is not in the subset"
                             : "'" + q + "' repeats nothing";
      else if (c == '{' && group_holds_count)
        problem = "a count on a group that holds a count is not in the subset";
      else if (c == '{')
        end = count_end(text, i, problem);
      if (problem.empty() && c != '?' && ways.back().last > 1)
        problem = "a quantifier other than '?' on a group that holds a choice ('|', '?', '*', '+' or '{n,m}') is not in the subset";
      if (problem.empty()) {
        Ways& w = ways.back();
        w.last = c == '?' ? w.last + 1 : c == '{' ? count_ways(text, i, end) : kUnboundedWays;
        too_many_ways();
      }
      if (!problem.empty()) return at(i);
      if (c == '{' && !counted.empty()) counted.back() = true;
      group_holds_count = false;
      i = end;
      // lazy: alike in both, and no different from greedy in a whole-name match
      if (i < text.size() && text[i] == '?') ++i;
      repeatable = false;
      quantified = true;
      continue;
    }
    std::size_t where = i;
    repeatable = true;
    quantified = false;
    group_holds_count = false;
    if (c != '(' && c != ')' && c != '|') {  // an atom of one way (or an anchor): the last one joins the prefix
      Ways& w = ways.back();
      w.prefix = times(w.prefix, w.last);
      w.last = 1;
    }
    if (plain(c) || c == '.') {
      ++i;
    } else if (c == '\\') {
      problem = escape_problem(text, i);
      i += 2;
    } else if (c == '[') {
      i = class_end(text, i, problem);
      where = i;
    } else if (c == '(') {
      const bool non_capturing = text.compare(i, 3, "(?:") == 0;
      if (!non_capturing && text.compare(i, 2, "(?") == 0)
        problem = "'(?' other than '(?:' (a lookaround, named group, inline flag, atomic group) is not in the subset";
      if (problem.empty() && opened.size() == kMostGroupDepth)
        problem = "groups nested more than " + std::to_string(kMostGroupDepth) + " deep are not in the subset";
      opened.push_back(i);
      counted.push_back(false);
      ways.emplace_back();
      i += non_capturing ? 3 : 1;
      repeatable = false;
    } else if (c == ')') {
      if (opened.empty()) {
        problem = "')' closes no group";
      } else {
        opened.pop_back();
        group_holds_count = counted.back();
        counted.pop_back();
        if (group_holds_count && !counted.empty()) counted.back() = true;
        const std::uint64_t group = ways.back().total();
        ways.pop_back();
        ways.back().prefix = times(ways.back().prefix, ways.back().last);
        ways.back().last = group;
        too_many_ways();
      }
      ++i;
    } else if (c == '|') {
      Ways& w = ways.back();
      w.sum = w.total();
      w.prefix = w.last = 1;
      repeatable = false;
      ++i;
    } else if (c == '^' || c == '$') {
      repeatable = false;
      ++i;
    } else {
      problem = shown(c) + " is not in the subset";
    }
    if (!problem.empty()) return at(where);
  }
  if (!opened.empty()) {
    problem = "'(' is not closed";
    return at(opened.back());
  }
  return "";
}

}  // namespace

bool is_failure(Status s, bool strict) {
  return base_failure(s) || s == Status::UnexpectedPass || (strict && s == Status::Warning);
}

std::vector<Baseline::Pattern> Baseline::read_patterns(const std::filesystem::path& path) {
  std::vector<Pattern> out;
  const std::vector<std::string> lines = lines_of(path);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string text = trimmed(lines[i]);
    if (text.empty() || text[0] == '#') continue;
    const std::string where = path.string() + ":" + std::to_string(i + 1);
    // The pattern as the message shows it: its start, where a long one would fill the terminal.
    const std::string quoted = "'" + (text.size() > 60 ? text.substr(0, 60) + "..." : text) + "'";
    if (const std::string problem = check_pattern(text); !problem.empty())
      throw InputError(where + ": bad regular expression " + quoted + ": " + problem);
    try {
      out.push_back({std::regex(text, std::regex::ECMAScript), text, where});
    } catch (const std::regex_error& e) {  // not expected in the subset; still file:line
      throw InputError(where + ": bad regular expression " + quoted + ": " + e.what());
    }
  }
  return out;
}

Baseline Baseline::read(const std::filesystem::path& fails_file) {
  Baseline b;
  b.fails_path_ = fails_file.string();
  const std::vector<std::string> lines = lines_of(fails_file);
  std::string comment;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string text = trimmed(lines[i]);
    const std::string where = fails_file.string() + ":" + std::to_string(i + 1);
    if (text.empty()) {
      comment.clear();  // a blank line ends a comment: a header belongs to no row
    } else if (text[0] == '#') {
      const std::size_t hashes = text.find_first_not_of('#');  // npos for a line of '#' alone
      const std::string words = hashes == std::string::npos ? "" : trimmed(text.substr(hashes));
      if (!words.empty()) comment += (comment.empty() ? "" : " ") + words;
    } else {
      const auto comma = text.find(',');
      if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos)
        throw InputError(where + ": expected 'name,Status', got '" + text + "'");
      const std::string name = trimmed(text.substr(0, comma)), status_text = trimmed(text.substr(comma + 1));
      Status status;
      if (!is_case_name(name)) throw InputError(where + ": '" + name + "' is not a dotted case name");
      if (!parse_status(status_text, status) || !base_failure(status))
        throw InputError(where + ": status '" + status_text + "' is not one of Crash, Error, Fail, Timeout");
      if (comment.empty()) throw InputError(where + ": " + name + "," + status_text + " has no '# reason' comment line above it");
      if (const auto it = b.fails_.find(name); it != b.fails_.end())
        throw InputError(where + ": " + name + " is already listed at " + it->second.where);
      b.fails_[name] = {status, comment, where};
      comment.clear();
    }
  }
  for (const auto& [kind, patterns, path] :
       {std::tuple<std::string, std::vector<Pattern>*, std::string*>{"flakes", &b.flakes_, &b.flakes_path_},
        {"skips", &b.skips_, &b.skips_path_}}) {
    const std::filesystem::path file = sibling(fails_file, kind);
    if (file.empty() || !std::filesystem::exists(file)) continue;
    *patterns = read_patterns(file);
    *path = file.string();
  }
  return b;
}

std::vector<std::string> Baseline::unknown_rows(const std::vector<std::string>& known) const {
  const std::set<std::string> names(known.begin(), known.end());
  std::vector<std::pair<std::string, std::string>> unknown;  // (where, name)
  for (const auto& [name, listed] : fails_)
    if (!names.count(name)) unknown.emplace_back(listed.where, name);
  // file order: "path:line" compared by line number
  std::sort(unknown.begin(), unknown.end(), [](const auto& a, const auto& b) {
    const auto line = [](const std::string& where) { return std::stol(where.substr(where.rfind(':') + 1)); };
    return line(a.first) < line(b.first);
  });
  std::vector<std::string> out;
  for (const auto& [where, name] : unknown) out.push_back(where + ": " + name + " names no case or litmus row");
  return out;
}

std::optional<std::string> Baseline::skipped_by(const std::string& name) const {
  for (const Pattern& p : skips_)
    if (std::regex_match(name, p.regex)) return p.where + " (pattern '" + p.text + "')";
  return std::nullopt;
}

void Baseline::reset(CaseResult& r) {
  if (!r.original_status) return;
  r.status = *r.original_status;
  r.original_status.reset();
  r.note.clear();
}

void Baseline::apply(CaseResult& r) const {
  reset(r);
  auto rewrite = [&](Status s, std::string note) {
    r.original_status = r.status;
    r.status = s;
    r.note = std::move(note);
  };
  const std::string status = to_string(r.status);
  if (const auto skip = skipped_by(r.name)) {
    rewrite(Status::Skip, "skipped by " + *skip);
  } else if (const auto it = fails_.find(r.name); it != fails_.end()) {
    const Listed& listed = it->second;
    const std::string expected = to_string(listed.status);
    if (r.status == listed.status) rewrite(Status::ExpectedFail, "expected " + expected + " (" + listed.where + "): " + listed.reason);
    else if (r.status == Status::Pass) rewrite(Status::UnexpectedPass, "listed as expected " + expected + " at " + listed.where + ", but passed");
    else r.note = "listed as expected " + expected + " at " + listed.where + ", but got " + status;  // news: it stays
  } else if (base_failure(r.status)) {
    for (const Pattern& p : flakes_)
      if (std::regex_match(r.name, p.regex)) {
        rewrite(Status::Flake, "known flaky (" + p.where + ")");
        break;
      }
  }
}

std::vector<std::pair<std::string, std::string>> Baseline::files() const {
  return {{"fails", fails_path_}, {"flakes", flakes_path_}, {"skips", skips_path_}};
}

}  // namespace vmmcheck::run
