#include "model/loader.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "common/error.hpp"
#include "common/text.hpp"
#include "model/oracle.hpp"
#include "model/registry.hpp"

#ifndef VMMCHECK_CASES_DIR
#define VMMCHECK_CASES_DIR "cases"
#endif

namespace vmmcheck::model {
namespace {

// Accumulates the file name so every error reads "file:line: message".
struct Context {
  std::string source;

  [[noreturn]] void fail(const toml::node* at, const std::string& message) const {
    std::ostringstream out;
    out << source;
    if (at && at->source().begin.line) out << ":" << at->source().begin.line;
    out << ": " << message;
    throw InputError(out.str());
  }

  const toml::node& need(const toml::table& t, std::string_view key, const std::string& what) const {
    const toml::node* n = t.get(key);
    if (!n) fail(&t, what + " has no '" + std::string(key) + "'");
    return *n;
  }

  std::string text(const toml::table& t, std::string_view key, const std::string& what,
                   bool required = true) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) fail(&t, what + " has no '" + std::string(key) + "'");
      return {};
    }
    if (!n->is_string()) fail(n, "'" + std::string(key) + "' of " + what + " must be a string");
    return std::string(*n->value<std::string>());
  }

  std::vector<std::string> strings(const toml::node& n, const std::string& what) const {
    const toml::array* a = n.as_array();
    if (!a) fail(&n, what + " must be an array of strings");
    std::vector<std::string> out;
    for (const toml::node& item : *a) {
      if (!item.is_string()) fail(&item, what + " must hold only strings");
      out.push_back(std::string(*item.value<std::string>()));
    }
    return out;
  }

  const toml::array& tables(const toml::table& t, std::string_view key, const std::string& what,
                            bool required) const {
    static const toml::array empty;
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) fail(&t, what + " has no [[" + std::string(key) + "]] entries");
      return empty;
    }
    const toml::array* a = n->as_array();
    if (!a || !a->is_array_of_tables())
      fail(n, "'" + std::string(key) + "' must be an array of tables ([[" + std::string(key) + "]])");
    return *a;
  }

  void only_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                 const std::string& what) const {
    for (auto&& [key, node] : t) {
      if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end())
        fail(&node, "unknown key '" + std::string(key.str()) + "' in " + what);
    }
  }
};

std::string joined(const std::vector<std::string_view>& tokens) {
  std::string out;
  for (std::string_view t : tokens) out += (out.empty() ? "" : ", ") + std::string(t);
  return out;
}

// A `when = { axis = ["value", ...] }` condition: every listed axis must take one of the listed values.
// Values are spelled as in the axis' `value` (the token code acts on), never as name segments.
using Condition = std::map<std::string, std::set<std::string>>;

Condition parse_condition(const Context& ctx, const toml::table& entry, const std::vector<Axis>& axes,
                          const std::string& what) {
  Condition cond;
  const toml::node* n = entry.get("when");
  if (!n) return cond;  // matches every case
  const toml::table* t = n->as_table();
  if (!t) ctx.fail(n, "'when' of " + what + " must be a table of axis = [values]");
  for (auto&& [key, value] : *t) {
    const std::string axis_name(key.str());
    auto axis = std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == axis_name; });
    if (axis == axes.end()) ctx.fail(&value, what + " names axis '" + axis_name + "', which the family does not have");
    std::set<std::string> tokens;
    for (const std::string& token : ctx.strings(value, "'when." + axis_name + "'")) {
      const auto known = std::find_if(axis->values.begin(), axis->values.end(),
                                      [&](const AxisValue& v) { return v.value == token; });
      if (known == axis->values.end()) {
        // The name segment is not a second spelling: say which value it belongs to.
        const auto by_name = std::find_if(axis->values.begin(), axis->values.end(),
                                          [&](const AxisValue& v) { return v.name == token; });
        ctx.fail(&value, what + " names value '" + token + "' of axis '" + axis_name + "', which does not exist" +
                             (by_name != axis->values.end()
                                  ? " ('" + token + "' is the name segment of value '" + by_name->value + "'; `when` matches values)"
                                  : ""));
      }
      tokens.insert(token);
    }
    cond[axis_name] = std::move(tokens);
  }
  return cond;
}

bool matches(const Condition& cond, const std::map<std::string, std::string>& tokens_by_axis) {
  for (const auto& [axis, tokens] : cond)
    if (!tokens.count(tokens_by_axis.at(axis))) return false;
  return true;
}

struct VerdictEntry {
  Condition when;
  Verdict verdict;
  bool used = false;
  const toml::node* at = nullptr;
};

std::vector<Axis> parse_axes(const Context& ctx, const toml::table& root, const PatternInfo& pattern) {
  std::vector<Axis> axes;
  for (const toml::node& node : ctx.tables(root, "axis", "the family", true)) {
    const toml::table& t = *node.as_table();
    ctx.only_keys(t, {"name", "doc", "values"}, "an [[axis]]");
    Axis axis;
    axis.name = ctx.text(t, "name", "an [[axis]]");
    axis.doc = ctx.text(t, "doc", "axis '" + axis.name + "'");
    const AxisInfo* known = pattern.find_axis(axis.name);
    if (!known) ctx.fail(&t, "pattern '" + std::string(pattern.name) + "' has no axis '" + axis.name + "'");
    for (const Axis& other : axes)
      if (other.name == axis.name) ctx.fail(&t, "axis '" + axis.name + "' is declared twice");
    const toml::node& values = ctx.need(t, "values", "axis '" + axis.name + "'");
    const toml::array* arr = values.as_array();
    if (!arr || arr->empty()) ctx.fail(&values, "'values' of axis '" + axis.name + "' must be a non-empty array of tables");
    for (const toml::node& vnode : *arr) {
      const toml::table* vt = vnode.as_table();
      if (!vt) ctx.fail(&vnode, "each value of axis '" + axis.name + "' must be a table {value, name, description}");
      ctx.only_keys(*vt, {"value", "name", "description", "code"}, "a value of axis '" + axis.name + "'");
      AxisValue v;
      v.value = ctx.text(*vt, "value", "a value of axis '" + axis.name + "'");
      v.name = ctx.text(*vt, "name", "value '" + v.value + "'", false);
      if (v.name.empty()) v.name = v.value;
      v.description = ctx.text(*vt, "description", "value '" + v.value + "'");
      v.code = ctx.text(*vt, "code", "value '" + v.value + "'", false);
      if (std::find(known->tokens.begin(), known->tokens.end(), v.value) == known->tokens.end())
        ctx.fail(vt, "axis '" + axis.name + "' has no value '" + v.value + "' in pattern '" + std::string(pattern.name) +
                         "' (it has: " + joined(known->tokens) + ")");
      if (v.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
        ctx.fail(vt, "name '" + v.name + "' may hold only a-z, 0-9 and _ (it is a segment of a dotted name)");
      for (const AxisValue& other : axis.values) {
        if (other.name == v.name) ctx.fail(vt, "axis '" + axis.name + "' has two values named '" + v.name + "'");
        if (other.value == v.value) ctx.fail(vt, "axis '" + axis.name + "' lists value '" + v.value + "' twice");
      }
      axis.values.push_back(std::move(v));
    }
    axes.push_back(std::move(axis));
  }
  return axes;
}

// `fixed = { axis = "value", ... }`: axes of the pattern the family does not cross; every case takes the
// value, and the name has no segment for it.
std::vector<std::pair<std::string, std::string>> parse_fixed(const Context& ctx, const toml::table& root,
                                                             const std::vector<Axis>& axes, const PatternInfo& pattern) {
  std::vector<std::pair<std::string, std::string>> fixed;
  const toml::node* n = root.get("fixed");
  if (!n) return fixed;
  const toml::table* t = n->as_table();
  if (!t) ctx.fail(n, "'fixed' must be a table of axis = \"value\"");
  for (auto&& [key, value] : *t) {
    const std::string axis(key.str());
    const AxisInfo* known = pattern.find_axis(axis);
    if (!known) ctx.fail(&value, "'fixed' names axis '" + axis + "', which pattern '" + std::string(pattern.name) + "' does not have");
    if (std::any_of(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == axis; }))
      ctx.fail(&value, "axis '" + axis + "' is both crossed ([[axis]]) and fixed");
    if (!value.is_string()) ctx.fail(&value, "'fixed." + axis + "' must be a string (a value of the axis)");
    const std::string token(*value.value<std::string>());
    if (std::find(known->tokens.begin(), known->tokens.end(), token) == known->tokens.end())
      ctx.fail(&value, "axis '" + axis + "' has no value '" + token + "' in pattern '" + std::string(pattern.name) +
                           "' (it has: " + joined(known->tokens) + ")");
    fixed.emplace_back(axis, token);
  }
  return fixed;
}

VerdictEntry parse_verdict(const Context& ctx, const toml::table& t, const std::vector<Axis>& axes,
                           const PatternInfo& pattern) {
  ctx.only_keys(t, {"when", "expect", "outcomes", "rule", "cite", "why", "override"}, "a [[verdict]]");
  VerdictEntry e;
  e.at = &t;
  e.when = parse_condition(ctx, t, axes, "a [[verdict]]");
  const std::string expect = ctx.text(t, "expect", "a [[verdict]]");
  if (!parse_expectation(expect, e.verdict.expectation))
    ctx.fail(t.get("expect"), "unknown expectation '" + expect + "' (required, undefined, fault, api, model, rejected)");
  if (const toml::node* o = t.get("outcomes")) e.verdict.outcomes = ctx.strings(*o, "'outcomes'");
  for (const std::string& o : e.verdict.outcomes)
    if (!pattern.accepts_outcome(o))
      ctx.fail(t.get("outcomes"), "pattern '" + std::string(pattern.name) + "' has no outcome '" + o + "'");
  const bool open_outcomes = e.verdict.expectation == Expectation::Undefined || e.verdict.expectation == Expectation::Rejected;
  if (!open_outcomes && e.verdict.outcomes.empty())
    ctx.fail(&t, std::string("a ") + to_string(e.verdict.expectation) +
                     " verdict must list the outcomes the rules allow (a fault case: [\"fault\"]; an api case: the status)");
  if (open_outcomes && !e.verdict.outcomes.empty())
    ctx.fail(&t, std::string("an ") + to_string(e.verdict.expectation) + " verdict lists no outcomes (undefined: every one is " +
                     "allowed; rejected: every status but CUDA_SUCCESS); leave 'outcomes' out");
  if (e.verdict.expectation == Expectation::Rejected && !pattern.driver_status_outcomes)
    ctx.fail(&t, "a rejected verdict is for driver calls: pattern '" + std::string(pattern.name) + "' has no driver statuses");
  e.verdict.rule = ctx.text(t, "rule", "a [[verdict]]");
  e.verdict.citation = ctx.text(t, "cite", "a [[verdict]]");
  e.verdict.why = ctx.text(t, "why", "a [[verdict]]");
  if (t.contains("override")) e.verdict.override_cite = ctx.text(t, "override", "a [[verdict]]");
  e.verdict.source = ctx.source + ":" + std::to_string(t.source().begin.line);
  return e;
}

std::string fill_snippet(std::string snippet, const std::vector<Axis>& axes,
                         const std::vector<PathStep>& path) {
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string key = "{" + axes[i].name + "}";
    for (std::size_t at = snippet.find(key); at != std::string::npos; at = snippet.find(key, at)) {
      snippet.replace(at, key.size(), path[i].value.code);
      at += path[i].value.code.size();
    }
  }
  return snippet;
}

void parse_family(const Context& ctx, const toml::table& root, CaseTable& out) {
  ctx.only_keys(root, {"family", "pattern", "title", "labels", "snippet", "axis", "fixed", "prune", "verdict"},
                "the family");
  Family fam;
  fam.source = ctx.source;
  fam.name = ctx.text(root, "family", "the case file");
  // The head of every case name: dotted segments of a-z, 0-9 and _ (what results, baselines and the
  // schemas take), and not litmus's, whose names are the litmus rows'.
  if (!is_dotted_name(fam.name))
    ctx.fail(root.get("family"), "family '" + one_printable_line(fam.name, 80) + "' must be dotted names of a-z, 0-9 and _ (alias.mp)");
  if (fam.name == "litmus" || fam.name.rfind("litmus.", 0) == 0)
    ctx.fail(root.get("family"), "family '" + fam.name + "': litmus.* names are the litmus rows'");
  fam.pattern = ctx.text(root, "pattern", "the family");
  fam.title = ctx.text(root, "title", "the family");
  const PatternInfo* pattern = find_pattern(fam.pattern);
  if (!pattern) ctx.fail(root.get("pattern"), "unknown pattern '" + fam.pattern + "'");
  if (const toml::node* l = root.get("labels")) fam.labels = ctx.strings(*l, "'labels'");
  const std::string snippet = ctx.text(root, "snippet", "the family");
  fam.axes = parse_axes(ctx, root, *pattern);
  fam.fixed = parse_fixed(ctx, root, fam.axes, *pattern);
  // Every axis the pattern needs is crossed or fixed (an optional one may be left out).
  for (const AxisInfo& needed : pattern->axes) {
    const auto named = [&](const auto& a) { return needed.name == a; };
    const bool crossed = std::any_of(fam.axes.begin(), fam.axes.end(), [&](const Axis& a) { return named(a.name); });
    const bool fixed = std::any_of(fam.fixed.begin(), fam.fixed.end(), [&](const auto& f) { return named(f.first); });
    if (!needed.optional && !crossed && !fixed)
      ctx.fail(&root, "pattern '" + std::string(pattern->name) + "' needs an axis '" + std::string(needed.name) + "'");
  }

  std::vector<Condition> prune_conditions;
  for (const toml::node& node : ctx.tables(root, "prune", "the family", false)) {
    const toml::table& t = *node.as_table();
    ctx.only_keys(t, {"name", "why", "when"}, "a [[prune]]");
    PruneRule p;
    p.name = ctx.text(t, "name", "a [[prune]]");
    p.why = ctx.text(t, "why", "prune rule '" + p.name + "'");
    p.source = ctx.source + ":" + std::to_string(t.source().begin.line);
    if (!t.get("when")) ctx.fail(&t, "prune rule '" + p.name + "' needs a 'when'");
    prune_conditions.push_back(parse_condition(ctx, t, fam.axes, "prune rule '" + p.name + "'"));
    for (const auto& [axis, tokens] : prune_conditions.back()) p.when[axis].assign(tokens.begin(), tokens.end());
    fam.prunes.push_back(std::move(p));
  }
  std::vector<VerdictEntry> verdicts;
  for (const toml::node& node : ctx.tables(root, "verdict", "the family", true))
    verdicts.push_back(parse_verdict(ctx, *node.as_table(), fam.axes, *pattern));

  out.families.push_back(std::move(fam));
  Family& family = out.families.back();  // `fam` was moved into it
  const bool isolate = std::find(family.labels.begin(), family.labels.end(), "isolate") != family.labels.end();

  // Cross the axes: an odometer over value indices, first axis slowest.
  std::vector<std::size_t> index(family.axes.size(), 0);
  for (bool done = false; !done;) {
    Case c;
    c.family = family.name;
    c.title = family.title;
    c.labels = family.labels;
    c.isolate = isolate;
    c.source = family.source;
    c.name = family.name;
    std::map<std::string, std::string> tokens_by_axis;
    for (std::size_t i = 0; i < family.axes.size(); ++i) {
      const AxisValue& v = family.axes[i].values[index[i]];
      c.path.push_back({family.axes[i].name, v});
      tokens_by_axis[family.axes[i].name] = v.value;
      c.name += "." + v.name;
    }
    for (const auto& [axis, token] : family.fixed) {
      c.path.push_back({axis, AxisValue{token, token, "the same for every case of " + family.name, token}, true});
      tokens_by_axis[axis] = token;
    }
    const auto prune = std::find_if(prune_conditions.begin(), prune_conditions.end(),
                                    [&](const Condition& when) { return matches(when, tokens_by_axis); });
    if (prune != prune_conditions.end()) {
      family.pruned.push_back(c.name + ": " + family.prunes[prune - prune_conditions.begin()].name);
    } else {
      auto v = std::find_if(verdicts.begin(), verdicts.end(), [&](const VerdictEntry& e) { return matches(e.when, tokens_by_axis); });
      if (v == verdicts.end()) ctx.fail(&root, "no [[verdict]] matches case " + c.name);
      v->used = true;
      try {
        c.def = pattern->make(tokens_by_axis);  // every token was checked against the pattern above
      } catch (const InputError& e) {
        ctx.fail(&root, e.what());
      }
      c.verdict = v->verdict;
      c.snippet = fill_snippet(snippet, family.axes, c.path);
      out.cases.push_back(std::move(c));
    }
    // advance the odometer
    std::size_t i = family.axes.size();
    while (i > 0) {
      --i;
      if (++index[i] < family.axes[i].values.size()) break;
      index[i] = 0;
      if (i == 0) done = true;
    }
    if (family.axes.empty()) done = true;
  }
  for (const VerdictEntry& e : verdicts)
    if (!e.used) ctx.fail(e.at, "this [[verdict]] matches no case (an earlier entry or a prune rule covers it)");
}

void merge(CaseTable& into, CaseTable&& from) {
  for (Family& f : from.families) {
    for (const Family& g : into.families)
      if (g.name == f.name) throw InputError(f.source + ": family '" + f.name + "' is also defined in " + g.source);
  }
  std::move(from.families.begin(), from.families.end(), std::back_inserter(into.families));
  std::move(from.cases.begin(), from.cases.end(), std::back_inserter(into.cases));
}

}  // namespace

// Case tables are ASCII. Why: toml++ 3.3 (the version Debian 12 ships) reaches __builtin_unreachable in
// its Unicode whitespace test for many non-ASCII characters (U+00A1-U+049A among them), which is
// undefined behaviour in a release build; fuzzing found it (fuzz/). Refusing them first keeps the loader
// defined on any input.
void require_ascii(std::string_view text, const std::string& source) {
  std::size_t line = 1, column = 1;
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (byte >= 0x80) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", byte);
      throw InputError(source + ":" + std::to_string(line) + ": byte " + hex + " at column " + std::to_string(column) +
                       " is not ASCII; case tables are plain ASCII text");
    }
    if (ch == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

// A dotted key nests a table per part, and toml++ 3.3 recurses once a level after parsing: a key or table
// header of some 150,000 parts ([a.a.a...]) overflowed the stack. The dots outside strings and comments
// between two separators bound a key's parts (inline tables nest at most 256 deep); no table needs many.
void require_short_keys(std::string_view text, const std::string& source) {
  constexpr int kMostKeyParts = 64;
  std::size_t line = 1;
  int dots = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#') {  // a comment, to the end of its line
      const std::size_t end = text.find('\n', i);
      if (end == std::string_view::npos) return;
      i = end - 1;
    } else if (c == '"' || c == '\'') {  // a string: "...", '...', """...""" or '''...''' (toml++ says if one is not closed)
      const std::size_t quotes = text.compare(i, 3, std::string(3, c)) == 0 ? 3 : 1;
      std::size_t j = i + quotes;
      for (; j < text.size() && text.compare(j, quotes, std::string(quotes, c)) != 0; ++j) {
        if (c == '"' && text[j] == '\\') ++j;  // an escape: the next character is the string's
        if (j < text.size() && text[j] == '\n') ++line;
      }
      if (j >= text.size()) return;
      j += quotes;
      while (quotes == 3 && j < text.size() && text[j] == c) ++j;  // """"": the first quotes are the string's
      i = j - 1;
    } else if (c == '.') {
      if (++dots > kMostKeyParts)
        throw InputError(source + ":" + std::to_string(line) + ": a dotted key of more than " + std::to_string(kMostKeyParts) +
                         " parts; a case table needs a few");
    } else if (c == '\n' || c == '=' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}') {
      if (c == '\n') ++line;
      dots = 0;
    }
  }
}

std::string listed(const std::vector<std::string>& outcomes) {
  std::string out = "[";
  for (const std::string& o : outcomes) out += (out.size() > 1 ? ", " : "") + o;
  return out + "]";
}

// Every verdict the oracle can derive must be the oracle's, or carry an `override` citing why not.
void check_against_oracle(const CaseTable& table) {
  for (const Case& c : table.cases) {
    if (!oracle_models(c)) continue;
    const Derivation d = derive(c);
    const bool agree = agrees(d, c.verdict);
    if (agree || !c.verdict.override_cite.empty()) continue;
    std::string oracle = to_string(d.expectation);
    if (d.expectation != Expectation::Undefined) oracle += " " + listed(d.outcomes);
    std::string table_says = to_string(c.verdict.expectation);
    if (c.verdict.expectation != Expectation::Undefined) table_says += " " + listed(c.verdict.outcomes);
    throw InputError(c.verdict.source + ": case " + c.name + ": the verdict says " + table_says + ", the " +
                     (d.from_model ? "PTX memory model" : "contract oracle") + " says " + oracle + ": " + d.steps.front() +
                     ". Fix the verdict, or give it an `override` that cites why it departs from the model.");
  }
}

CaseTable parse_cases(std::string_view text, const std::string& source) {
  Context ctx{source};
  require_ascii(text, source);
  require_short_keys(text, source);
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    std::ostringstream out;
    out << source << ":" << e.source().begin.line << ": malformed TOML: " << e.description();
    throw InputError(out.str());
  }
  CaseTable table;
  parse_family(ctx, root, table);
  check_against_oracle(table);
  return table;
}

bool is_case_table_file(const std::filesystem::path& file) { return file.extension() == ".toml"; }

CaseTable load_cases(const std::filesystem::path& file_or_folder) {
  return load_cases(std::vector<std::filesystem::path>{file_or_folder});
}

CaseTable load_cases(const std::vector<std::filesystem::path>& files_or_folders) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const fs::path& file_or_folder : files_or_folders) {
    std::error_code ec;
    if (fs::is_directory(file_or_folder, ec)) {
      std::vector<fs::path> in_folder;
      try {
        for (const auto& entry : fs::directory_iterator(file_or_folder))
          if (entry.is_regular_file() && is_case_table_file(entry.path())) in_folder.push_back(entry.path());
      } catch (const fs::filesystem_error& e) {
        throw InputError(file_or_folder.string() + ": cannot list the folder: " + e.code().message());
      }
      std::sort(in_folder.begin(), in_folder.end());
      if (in_folder.empty()) throw InputError(file_or_folder.string() + ": no .toml case files in this folder");
      files.insert(files.end(), in_folder.begin(), in_folder.end());
    } else if (fs::is_regular_file(file_or_folder, ec)) {
      files.push_back(file_or_folder);
    } else if (fs::exists(file_or_folder, ec)) {
      throw InputError(file_or_folder.string() + ": is not a regular file (a FIFO, device or socket), not a case table");
    } else {
      throw InputError(file_or_folder.string() + ": no such case file or folder");
    }
  }

  CaseTable all;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(file.string() + ": cannot read");
    std::ostringstream text;
    text << in.rdbuf();
    merge(all, parse_cases(text.str(), file.string()));
  }
  std::sort(all.cases.begin(), all.cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < all.cases.size(); ++i)
    if (all.cases[i].name == all.cases[i - 1].name)
      throw InputError(all.cases[i].source + ": case " + all.cases[i].name + " is also generated by " + all.cases[i - 1].source);
  return all;
}

std::filesystem::path default_cases_path() {
  // Not VMMCHECK_CASES: that is run's twin of --cases (the command line reads it), and no other's.
  return VMMCHECK_CASES_DIR;
}

}  // namespace vmmcheck::model
