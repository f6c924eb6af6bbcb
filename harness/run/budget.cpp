#include "run/budget.hpp"

namespace vmmcheck::run {

bool Budget::certifying() const {
  const Budget d;
  return instances >= d.instances && iterations >= d.iterations && op_words >= d.op_words &&
         spin_timeout_ms >= d.spin_timeout_ms && resident_timeout_ms >= d.resident_timeout_ms;
}

bool operator==(const Budget& a, const Budget& b) {
  return a.instances == b.instances && a.iterations == b.iterations && a.op_words == b.op_words &&
         a.stress == b.stress && a.stress_accesses == b.stress_accesses && a.seed == b.seed &&
         a.threads_per_block == b.threads_per_block && a.spin_timeout_ms == b.spin_timeout_ms &&
         a.resident_timeout_ms == b.resident_timeout_ms;
}

}  // namespace vmmcheck::run
