#pragma once
// `vmmcheck bench` (docs/bench.md): the benchmarks on the local GPU, a line per row as it is measured and
// the JSON rewritten after every row -- with several rounds, after every round -- so an interrupted run
// keeps what it measured.
#include <ostream>

#include "cli/options.hpp"

namespace vmmcheck::cli {

int cmd_bench(const Options& o, std::ostream& out);

}  // namespace vmmcheck::cli
