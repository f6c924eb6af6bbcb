#pragma once
// `vmmcheck explain CASE`: the rule, its citation, a minimal code snippet, the expectation and why -- the
// hand-written reason and the oracle's own derivation -- and what real hardware did, from stored results.
#include <filesystem>
#include <string>
#include <vector>

#include "litmus/file.hpp"
#include "model/case.hpp"

namespace vmmcheck::cli {

// `table`: every case loaded (the case's control is found among them); `results`: JSON result files to
// search for this case (missing or unreadable files are skipped).
std::string explain(const model::Case& c, const std::vector<model::Case>& table,
                    const std::vector<std::filesystem::path>& results);

// A litmus row (docs/litmus.md): its test as written, what it asks, the model's answer with the witness
// execution or the axioms, the kernel it runs as, and what hardware did, from stored results.
std::string explain(const litmus::Row& row, const std::vector<std::filesystem::path>& results);

// The JSON result files shipped with vmmcheck (ci/results), newest name last.
std::vector<std::filesystem::path> shipped_results();

}  // namespace vmmcheck::cli
