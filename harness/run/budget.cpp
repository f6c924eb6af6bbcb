#include "run/budget.hpp"

namespace vmmcheck::run {

bool Budget::certifying() const {
  const Budget d;
  return instances >= d.instances && iterations >= d.iterations && op_words >= d.op_words &&
         spin_timeout_ms >= d.spin_timeout_ms && resident_timeout_ms >= d.resident_timeout_ms;
}

}  // namespace vmmcheck::run
