#include "model/case.hpp"

#include <stdexcept>

namespace vmmcheck::model {

const char* to_string(Expectation e) {
  switch (e) {
    case Expectation::Required: return "required";
    case Expectation::Undefined: return "undefined";
    case Expectation::Fault: return "fault";
    case Expectation::Api: return "api";
    case Expectation::Model: return "model";
    case Expectation::Rejected: return "rejected";
  }
  return "?";
}

bool parse_expectation(const std::string& text, Expectation& out) {
  for (Expectation e : {Expectation::Required, Expectation::Undefined, Expectation::Fault, Expectation::Api, Expectation::Model,
                        Expectation::Rejected}) {
    if (text == to_string(e)) {
      out = e;
      return true;
    }
  }
  return false;
}

const std::string& Case::axis(const std::string& axis_name) const {
  for (const PathStep& step : path)
    if (step.axis == axis_name) return step.value.value;
  throw std::out_of_range("case " + name + " has no axis '" + axis_name + "'");
}

}  // namespace vmmcheck::model
