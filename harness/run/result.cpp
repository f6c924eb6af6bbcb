#include "run/result.hpp"

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
  }
  return "?";
}

bool parse_status(const std::string& text, Status& out) {
  for (Status s : {Status::Pass, Status::Fail, Status::NotSupported, Status::Crash, Status::Timeout, Status::Error,
                   Status::Warning}) {
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
    // The documentation forbids the call without naming the status: any error honours it -- unless a
    // property the case checks beside the status failed (an outcome VMMCHECK_*, e.g. a refused unmap
    // that changed the mapping anyway).
    const auto success = std::find_if(r.histogram.begin(), r.histogram.end(), [](const auto& bin) {
      return bin.second > 0 && (bin.first == "CUDA_SUCCESS" || bin.first.rfind("VMMCHECK_", 0) == 0);
    });
    r.status = success == r.histogram.end() ? Status::Pass : Status::Fail;
    if (r.status == Status::Fail)
      r.reason = (success->first == "CUDA_SUCCESS" ? std::string("the driver returned CUDA_SUCCESS for a call its documentation forbids")
                                                   : "the call was refused, but " + success->first) +
                 (r.reason.empty() ? "" : "; " + r.reason);
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
