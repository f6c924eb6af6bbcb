#include "run/records/result.hpp"

#include <algorithm>
#include <sstream>

namespace vmmcheck::run {

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

Histogram empty_histogram(const model::PatternInfo& pattern) {
  Histogram h;
  for (const patterns::Outcome& o : pattern.outcomes) h.emplace_back(std::string(o.name), 0);
  return h;
}

void add_bin(Histogram& h, int bin, std::uint64_t count) { h.at(static_cast<std::size_t>(bin)).second += count; }

void add_outcome(Histogram& h, const std::string& outcome, std::uint64_t count) {
  for (auto& [name, n] : h) {
    if (name == outcome) {
      n += count;
      return;
    }
  }
  h.emplace_back(outcome, count);
}

void classify(const model::Case& c, CaseResult& r) {
  const model::PatternInfo& pattern = c.pattern();
  r.expectation = c.verdict.expectation;
  std::uint64_t total = 0;
  r.weak = 0;
  for (std::size_t i = 0; i < r.histogram.size(); ++i) {
    total += r.histogram[i].second;
    if (i < pattern.outcomes.size() && pattern.outcomes[i].weak) r.weak += r.histogram[i].second;
  }
  if (total != r.instances || r.instances == 0) {
    r.status = Status::Error;
    r.reason = "the histogram counts " + std::to_string(total) + " outcomes for " + std::to_string(r.instances) + " instances";
    return;
  }
  if (c.verdict.expectation == model::Expectation::Undefined) {
    r.status = Status::Pass;  // every outcome is allowed; the histogram is the result
    return;
  }
  if (c.verdict.expectation == model::Expectation::Rejected) {
    // The documentation forbids the call without naming the status: any error honours it. A driver that
    // accepts it (CUDA_SUCCESS) with the state the case checks afterwards as documented has not broken
    // anything a program relies on: a Warning naming what it did (a conformance suite's compatibility
    // warning; a Fail under --strict). A state or data change (an outcome VMMCHECK_*) is a Fail.
    auto seen = [&](auto matches) {
      return std::find_if(r.histogram.begin(), r.histogram.end(),
                          [&](const auto& bin) { return bin.second > 0 && matches(bin.first); });
    };
    const auto broken = seen([](const std::string& o) { return o.rfind("VMMCHECK_", 0) == 0; });
    const auto accepted = seen([](const std::string& o) { return o == "CUDA_SUCCESS"; });
    if (broken != r.histogram.end()) {
      r.status = Status::Fail;
      r.reason = "the misuse changed what it must not (" + broken->first + ")" + (r.reason.empty() ? "" : "; " + r.reason);
    } else if (accepted != r.histogram.end()) {
      r.status = Status::Warning;
      r.reason = "the driver accepted a call its documentation forbids (CUDA_SUCCESS); the state checked afterwards was "
                 "as documented" + (r.reason.empty() ? "" : "; " + r.reason);
    } else {
      r.status = Status::Pass;
    }
    return;
  }
  // required, fault and api alike: every instance must have one of the outcomes the verdict lists.
  std::ostringstream why;
  for (const auto& [outcome, count] : r.histogram) {
    const bool allowed = std::find(c.verdict.outcomes.begin(), c.verdict.outcomes.end(), outcome) != c.verdict.outcomes.end();
    if (!allowed && count > 0) {
      if (why.tellp() > 0) why << "; ";
      why << count << " of " << r.instances << " instances saw '" << outcome << "'";
    }
  }
  if (why.tellp() > 0) {
    std::string allowed;
    for (const std::string& o : c.verdict.outcomes) allowed += (allowed.empty() ? "" : ", ") + o;
    const bool model_only = c.verdict.expectation == model::Expectation::Model;
    r.status = model_only ? Status::Warning : Status::Fail;
    if (model_only) allowed += "; the PTX model requires it, the prose does not clearly";
    // Keep what the runner observed (e.g. which error a fault raised) after the verdict.
    r.reason = why.str() + " (the rules allow only: " + allowed + ")" + (r.reason.empty() ? "" : "; " + r.reason);
  } else {
    r.status = Status::Pass;
  }
}

CaseResult begin_result(const model::Case& c) {
  CaseResult r;
  r.name = c.name;
  r.family = c.family;
  r.pattern = std::string(c.pattern().name);
  for (const model::PathStep& step : c.path) r.axes.emplace_back(step.axis, step.value.value);
  r.expectation = c.verdict.expectation;
  r.rule = c.verdict.rule;
  r.citation = c.verdict.citation;
  r.histogram = empty_histogram(c.pattern());
  return r;
}

CaseResult not_run(const model::Case& c, Status status, const std::string& reason) {
  CaseResult r = begin_result(c);
  r.status = status;
  r.reason = reason;
  return r;
}

}  // namespace vmmcheck::run
