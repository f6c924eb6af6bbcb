#include "run/records/result.hpp"


namespace vmmcheck::run {

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
  model::Judgement j = model::judge(c, r.histogram, r.instances);
  r.expectation = c.verdict.expectation;
  r.status = j.status;
  r.weak = j.weak;
  if (!j.reason.empty()) r.reason = j.reason + (r.reason.empty() ? "" : "; " + r.reason);
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
