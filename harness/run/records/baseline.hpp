#pragma once
// A baseline (run --baseline FILE; ctest's VMMCHECK_BASELINE): the expectation files of ci/expectations,
// read as the report driver reads them (reports/vmmcheck_report/expectations.py) and as deqp-runner's
// baselines work:
//   <stem>-fails.txt   "name,Status" rows (Status one of Fail, Crash, Timeout, Error), each with its reason
//                      as "#" comment lines directly above it: a listed case that fails that way becomes
//                      ExpectedFail; one that passes becomes UnexpectedPass (a failure: update the list)
//   <stem>-flakes.txt  one regular expression per line (matched against the whole name, and only the subset
//                      of ECMAScript and Python's re that docs/design.md gives, "Conventions"): a failing
//                      case that matches becomes Flake
//   <stem>-skips.txt   the same: a matching case is not run, and is Skip
// FILE names the fails file; the flakes and skips files beside it with the same stem are read when they
// exist. Anything malformed, or a file that is not UTF-8, is an InputError naming file:line.
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "run/records/result.hpp"

namespace vmmcheck::run {

class Baseline {
 public:
  static Baseline read(const std::filesystem::path& fails_file);

  // The fails rows whose name is none of `known` (every case and litmus row there is), each as
  // "file:line: NAME names no case or litmus row", in file order.
  std::vector<std::string> unknown_rows(const std::vector<std::string>& known) const;

  // The skip pattern that names `name` ("file:line"), if any: such a case is not run.
  std::optional<std::string> skipped_by(const std::string& name) const;
  // Rewrites r's status as the baseline says (keeping vmmcheck's in original_status, why in note).
  void apply(CaseResult& r) const;
  // Restores what vmmcheck reported (a result kept from a file being resumed, before applying again).
  static void reset(CaseResult& r);

  // kind -> the file read ("" where there was none), for the results' "expectations" block and the header.
  std::vector<std::pair<std::string, std::string>> files() const;

 private:
  struct Listed {
    Status status;
    std::string reason, where;
  };
  struct Pattern {
    std::regex regex;
    std::string text, where;
  };
  static std::vector<Pattern> read_patterns(const std::filesystem::path& path);

  std::map<std::string, Listed> fails_;
  std::vector<Pattern> flakes_, skips_;
  std::string fails_path_, flakes_path_, skips_path_;
};

// Whether a status keeps a run from being clean: Fail, Crash, Timeout, Error, UnexpectedPass -- and
// Warning under `strict`.
bool is_failure(Status s, bool strict);

}  // namespace vmmcheck::run
