#include "model/judge.hpp"

#include <algorithm>
#include <sstream>

namespace vmmcheck::model {

const char* to_string(Status s) {
  switch (s) {
    case Status::Pass: return "Pass";
    case Status::Fail: return "Fail";
    case Status::NotSupported: return "NotSupported";
    case Status::Crash: return "Crash";
    case Status::Timeout: return "Timeout";
    case Status::Error: return "Error";
    case Status::Warning: return "Warning";
    case Status::ExpectedFail: return "ExpectedFail";
    case Status::Flake: return "Flake";
    case Status::Skip: return "Skip";
    case Status::UnexpectedPass: return "UnexpectedPass";
  }
  return "?";
}

bool parse_status(const std::string& text, Status& out) {
  for (Status s : {Status::Pass, Status::Fail, Status::NotSupported, Status::Crash, Status::Timeout, Status::Error,
                   Status::Warning, Status::ExpectedFail, Status::Flake, Status::Skip, Status::UnexpectedPass}) {
    if (text == to_string(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

Judgement judge(const Case& c, const Histogram& histogram, std::uint64_t instances) {
  Judgement r;
  const PatternInfo& pattern = c.pattern();
  std::uint64_t total = 0;
  r.weak = 0;
  for (std::size_t i = 0; i < histogram.size(); ++i) {
    total += histogram[i].second;
    if (i < pattern.outcomes.size() && pattern.outcomes[i].weak) r.weak += histogram[i].second;
  }
  if (total != instances || instances == 0) {
    r.status = Status::Error;
    r.reason = "the histogram counts " + std::to_string(total) + " outcomes for " + std::to_string(instances) + " instances";
    return r;
  }
  if (c.verdict.expectation == Expectation::Undefined) {
    r.status = Status::Pass;  // every outcome is allowed; the histogram is the result
    return r;
  }
  if (c.verdict.expectation == Expectation::Rejected) {
    // The documentation forbids the call without naming the status: any error honours it. A driver that
    // accepts it (CUDA_SUCCESS) with the state the case checks afterwards as documented has not broken
    // anything a program relies on: a Warning naming what it did (a conformance suite's compatibility
    // warning; a Fail under --strict). A state or data change (an outcome VMMCHECK_*) is a Fail.
    auto seen = [&](auto matches) {
      return std::find_if(histogram.begin(), histogram.end(),
                          [&](const auto& bin) { return bin.second > 0 && matches(bin.first); });
    };
    const auto broken = seen([](const std::string& o) { return o.rfind("VMMCHECK_", 0) == 0; });
    const auto accepted = seen([](const std::string& o) { return o == "CUDA_SUCCESS"; });
    if (broken != histogram.end()) {
      r.status = Status::Fail;
      r.reason = "the misuse changed what it must not (" + broken->first + ")";
    } else if (accepted != histogram.end()) {
      r.status = Status::Warning;
      r.reason = "the driver accepted a call its documentation forbids (CUDA_SUCCESS); the state checked afterwards was "
                 "as documented";
    } else {
      r.status = Status::Pass;
    }
    return r;
  }
  // required, fault and api alike: every instance must have one of the outcomes the verdict lists.
  std::ostringstream why;
  for (const auto& [outcome, count] : histogram) {
    const bool allowed = std::find(c.verdict.outcomes.begin(), c.verdict.outcomes.end(), outcome) != c.verdict.outcomes.end();
    if (!allowed && count > 0) {
      if (why.tellp() > 0) why << "; ";
      why << count << " of " << instances << " instances saw '" << outcome << "'";
    }
  }
  if (why.tellp() > 0) {
    std::string allowed;
    for (const std::string& o : c.verdict.outcomes) allowed += (allowed.empty() ? "" : ", ") + o;
    const bool model_only = c.verdict.expectation == Expectation::Model;
    r.status = model_only ? Status::Warning : Status::Fail;
    if (model_only) allowed += "; the PTX model requires it, the prose does not clearly";
    r.reason = why.str() + " (the rules allow only: " + allowed + ")";
  } else {
    r.status = Status::Pass;
  }
  return r;
}

}  // namespace vmmcheck::model
