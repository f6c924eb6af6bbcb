#pragma once
// The judge: a finished histogram held against the case's hand-written verdict, giving the case's status
// (docs/design.md, "Statuses and exit codes"). It stands with the expectations it reads; what a case did
// is recorded in harness/run/records/result.hpp, which speaks these statuses.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/case.hpp"

namespace vmmcheck::model {

// Statuses (docs/design.md). A skip (NotSupported, Skip) is never a pass.
// Warning: a `model` case showed an outcome only the PTX model forbids, or a `rejected` misuse was
// accepted with the state as documented (exit 0 unless --strict).
// The last four come from a baseline (run --baseline, harness/run/records/baseline.hpp): a listed failure that happened
// as listed (ExpectedFail), a failure matching a flake pattern (Flake), a case a skip pattern names
// (Skip, not run), a listed failure that passed (UnexpectedPass: a failure until the list is updated).
enum class Status { Pass, Fail, NotSupported, Crash, Timeout, Error, Warning, ExpectedFail, Flake, Skip, UnexpectedPass };
const char* to_string(Status s);
bool parse_status(const std::string& text, Status& out);

using Histogram = std::vector<std::pair<std::string, std::uint64_t>>;  // outcome -> count, pattern order

struct Judgement {
  Status status = Status::Error;
  std::uint64_t weak = 0;  // instances with a weak outcome of the pattern
  std::string reason;      // the judge's words: which forbidden outcomes, or what the driver accepted
};

// `histogram` (counted over `instances`) against c's verdict:
//   required, fault, api  every instance must have an allowed outcome, else Fail;
//   model                 the same, but a forbidden outcome is a Warning;
//   rejected              any error passes; CUDA_SUCCESS with the state as documented is a Warning (a
//                         driver finding); an outcome VMMCHECK_* (state or data changed) is a Fail;
//   undefined             every outcome is allowed: Pass.
// A histogram that does not add up to `instances`, or has none, is an Error.
Judgement judge(const Case& c, const Histogram& histogram, std::uint64_t instances);

}  // namespace vmmcheck::model
