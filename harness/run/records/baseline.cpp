#include "run/records/baseline.hpp"

#include <algorithm>
#include <fstream>
#include <set>

#include "common/error.hpp"
#include "common/text.hpp"

namespace vmmcheck::run {
namespace {

bool base_failure(Status s) { return s == Status::Fail || s == Status::Crash || s == Status::Timeout || s == Status::Error; }

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string() + ": cannot read the baseline file");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// "<stem>-fails.txt" -> "<stem>-<kind>.txt" beside it; empty when FILE is not named that way.
std::filesystem::path sibling(const std::filesystem::path& fails, const std::string& kind) {
  const std::string name = fails.filename().string();
  const std::string suffix = "-fails.txt";
  if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return {};
  return fails.parent_path() / (name.substr(0, name.size() - suffix.size()) + "-" + kind + ".txt");
}

bool is_case_name(const std::string& s) {
  static const std::regex name("^[a-z0-9_]+(\\.[a-z0-9_]+)+$");
  return std::regex_match(s, name);
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
    try {
      out.push_back({std::regex(text, std::regex::ECMAScript), text, where});
    } catch (const std::regex_error& e) {
      throw InputError(where + ": bad regular expression '" + text + "': " + e.what());
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
      const std::string words = trimmed(text.substr(text.find_first_not_of('#')));
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
