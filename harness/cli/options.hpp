#pragma once
// Everything the command line sets. Each flag has a VMMCHECK_* environment twin (see command_line.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "run/budget.hpp"

namespace vmmcheck::cli {

enum class Command { List, Run, Explain, Probe, IsolatedCase };

struct Options {
  Command command = Command::Run;
  std::vector<std::string> cases;  // files or folders of case tables; empty: the shipped tables
  std::string filter;       // comma-separated globs over dotted names
  std::string json;         // results/probe/list JSON file; "-" for stdout
  bool json_given = false;
  int device = 0;
  bool allow_multicast = false;
  std::string results;      // explain: a results file to show what hardware did
  std::vector<std::string> names;  // explain: case names
  run::Budget budget;
  bool isolate = false;     // run: every case in a child process
  bool verbose = false;     // run: list every case, also those skipped because there is no GPU
  bool power = true;        // run: measure each required or fault case's control (docs/design.md, Power)
  double timeout_s = 120;   // run: hard limit per isolated case
  std::string resume;       // run: a results file whose cases are not run again
  std::string spec;         // isolated-case: what the parent asks the child to run
};

}  // namespace vmmcheck::cli
