#pragma once
// A run's settings (docs/design.md, "Run settings"): filled once from the command line (cli/run_settings.hpp),
// read whole by the suite, its executor and every isolated child (which gets them as JSON in its spec,
// run/execution/isolated_child.hpp). A new setting is one field here and one line in to_json and
// settings_from_json; tests/unit/test_run_settings.cpp fails for a `run` flag that reaches neither the
// child nor the list of flags only the parent reads.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/select.hpp"
#include "run/records/baseline.hpp"
#include "run/records/budget.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::run {

struct RunSettings {
  // What runs, and where.
  std::vector<std::string> cases_paths;  // the case tables (absolute), as a child loads them again
  std::string cases_path_text;           // as the results' context records them
  model::Selection selection;             // --filter, --caselist, --shard: recorded in the context
  int device = 0;
  Budget budget;                          // instances, launches, stress (--stress, --stress-params)
  bool allow_multicast = false;           // --allow-multicast: the opt-in the multicast gate asks for
  std::string mutant;                     // --mutant: an ordering mechanism taken out (selftest's children)
  // How cases run.
  std::string program;  // the vmmcheck binary that runs isolated children
  bool isolate_all = false;
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};  // per isolated case
  bool power = true;                                              // measure each case's control
  // An assert row none of whose controls showed the outcome gets a second round of controls of two
  // changes (run/rows/row_power.hpp): more power, much more time.
  bool deep_power = false;
  // A litmus row that showed a forbidden outcome runs again compiled with ptxas -O0, and its reason
  // says what that showed: an experiment beside the verdict, which its machine code decides.
  bool rerun_unoptimized = false;
  // What is kept.
  std::string json_file;    // rewritten after every case; empty: none
  // Write the results file even when nothing ran: an mpi rank's own file, which rank 0 reads (a user's
  // file is written only once something ran: suite.cpp, Suite::save).
  bool write_when_nothing_ran = false;
  std::string resume_file;  // an interrupted run's results, kept: the same run (run/records/provenance.hpp)
  std::optional<Baseline> baseline;
  std::string tool_version, git_sha;
};

// Every field; a baseline as the files it was read from, a selection as its words.
Json to_json(const RunSettings& s);
// The settings again (a baseline read again from its files). Throws InputError naming `where`.
RunSettings settings_from_json(const Json& j, const std::string& where);

}  // namespace vmmcheck::run
