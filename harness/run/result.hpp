#pragma once
// Result records: what a case did, and how it is judged against its expectation.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/case.hpp"

namespace vmmcheck::run {

// Statuses (docs/design.md). A skip (NotSupported) is never a pass.
enum class Status { Pass, Fail, NotSupported, Crash, Timeout, Error };
const char* to_string(Status s);
bool parse_status(const std::string& text, Status& out);

using Histogram = std::vector<std::pair<std::string, std::uint64_t>>;  // outcome -> count, pattern order

using Axes = std::vector<std::pair<std::string, std::string>>;  // axis -> value token, in name order

struct CaseResult {
  std::string name;
  std::string family;
  std::string pattern;  // the registry's name for it (patterns/registry.hpp)
  Axes axes;            // what the case is, so a report never parses the name
  model::Expectation expectation = model::Expectation::Undefined;
  Status status = Status::Error;
  Histogram histogram;
  std::uint64_t weak = 0;       // instances with a weak outcome
  std::uint64_t instances = 0;  // instances run (= the histogram's total)
  double seconds = 0;           // wall time of the case
  double gpu_seconds = 0;       // GPU time of the litmus launches (in-kernel cases)
  std::string reason;           // why it failed, was skipped or errored
  std::string rule;             // the case's rule and citation, so a report needs no case tables
  std::string citation;
};

// A result for the case with its identity, verdict and empty histogram filled in, status Error until run.
CaseResult begin_result(const model::Case& c);

// A histogram with every outcome of the pattern, all zero, in bin order.
Histogram empty_histogram(const model::PatternInfo& pattern);

// Adds `count` to bin `bin` (a pattern's Bin enum: the histogram is in bin order).
void add_bin(Histogram& h, int bin, std::uint64_t count = 1);

// Adds `count` to the bin named `outcome`, appending the bin when the pattern did not list it (the
// driver statuses of api cases).
void add_outcome(Histogram& h, const std::string& outcome, std::uint64_t count = 1);

// Judges a finished histogram against the case's hand-written verdict and fills status, weak and reason.
void classify(const model::Case& c, CaseResult& r);

// A result for a case that could not run here.
CaseResult not_run(const model::Case& c, Status status, const std::string& reason);

}  // namespace vmmcheck::run
