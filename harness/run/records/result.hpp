#pragma once
// Result records: what a case did, and how it is judged against its expectation.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/case.hpp"
#include "model/judge.hpp"

namespace vmmcheck::run {

// The statuses and histograms the model's judge speaks (model/judge.hpp), as the records use them.
using model::Histogram;
using model::parse_status;
using model::Status;
using model::to_string;

using Axes = std::vector<std::pair<std::string, std::string>>;  // axis -> value token, in name order

// What a case's control did (docs/design.md, "Power"): the same case with its ordering mechanism removed,
// run on the same GPU. The case's Pass is evidence only when the control showed an outcome the case
// forbids.
struct Power {
  std::string control;    // the control's name: "<case>.control" (the case under a mutant), or another case
  std::string mechanism;  // what the control removes
  std::string mutant;            // the mutant the case itself ran under; empty for a separate case
  std::string separate_because;  // for a separate case: why no mutant of the case itself can remove it
  Axes axes;              // every axis of the control, optional ones included
  Status status = Status::Error;  // how the control's run ended; its histogram counts only if it ran
  Histogram histogram;
  std::uint64_t instances = 0;
  std::uint64_t violations = 0;  // control instances with an outcome the case forbids
  std::string reason;            // why the control did not run, when it did not
  // A litmus row's controls (litmus/derived_controls.hpp, and one its file names), each as it ran; the
  // fields above are the one with the highest rate of the forbidden outcome (or the first, if none
  // showed it). Empty for a case of the tables.
  struct Tried {
    std::string control, mechanism;
    Status status = Status::Error;
    std::uint64_t instances = 0, violations = 0;
    std::string reason;
    // Its wall time, compile included, and the part of it spent waiting for its kernel to compile: what
    // a row's power costs (docs/litmus.md, "Power").
    double seconds = 0, compile_wait_seconds = 0;
  };
  std::vector<Tried> tried;

  // The control ran (it passed or failed its own verdict: either way its outcomes were counted) and
  // showed an outcome the case forbids.
  bool discriminating() const { return (status == Status::Pass || status == Status::Fail) && violations > 0; }
};

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
  // Litmus rows: the instances whose preconditions held ("ld r0, [flag] == 1"); `weak` counts among them.
  std::optional<std::uint64_t> judged;
  double seconds = 0;           // wall time of the case
  double gpu_seconds = 0;       // GPU time of the litmus launches (in-kernel cases)
  double compile_seconds = 0;   // a litmus row's: NVRTC's time for its kernel (compiled ahead: not in `seconds`)
  double compile_wait_seconds = 0;  // ... and the part of `seconds` it waited for that kernel
  std::string reason;           // why it failed, was skipped or errored
  std::string rule;             // the case's rule and citation, so a report needs no case tables
  std::string citation;
  std::optional<Power> power;   // required and fault cases with a control, in a run that measured it
  // Set when a baseline rewrote the status: what vmmcheck itself reported, and why it was rewritten.
  std::optional<Status> original_status;
  std::string note;
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

// Judges r's finished histogram against the case's verdict (model::judge) and fills status, weak and
// reason (the judge's words first, then what the runner noted).
void classify(const model::Case& c, CaseResult& r);

// A result for a case that could not run here.
CaseResult not_run(const model::Case& c, Status status, const std::string& reason);

}  // namespace vmmcheck::run
