#pragma once
// Everything the command line sets. Each flag has a VMMCHECK_* environment twin (see app.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "run/budget.hpp"

namespace vmmcheck::cli {

struct Options {
  std::string cases;        // file or folder of case tables; empty: the shipped tables
  std::string filter;       // comma-separated globs over dotted names
  std::string json;         // results/probe/list JSON file; "-" for stdout
  bool json_given = false;
  int device = 0;
  bool allow_multicast = false;
  std::string results;      // explain: a results file to show what hardware did
  std::vector<std::string> names;  // explain: case names
  run::Budget budget;
};

}  // namespace vmmcheck::cli
