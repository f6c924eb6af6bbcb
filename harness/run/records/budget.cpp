#include "run/records/budget.hpp"

#include <algorithm>

namespace vmmcheck::run {

bool Budget::certifying() const {
  const Budget d;
  return instances >= d.instances && iterations >= d.iterations && row_launches >= d.row_launches && op_words >= d.op_words &&
         stress.spin_timeout_us >= d.stress.spin_timeout_us &&
         stress.row_spin_timeout_us >= d.stress.row_spin_timeout_us && resident_timeout_ms >= d.resident_timeout_ms &&
         std::all_of(row_stress.begin(), row_stress.end(),
                     [&](const RowStress& r) { return r.params.row_spin_timeout_us >= d.stress.row_spin_timeout_us; });
}

bool operator==(const Budget& a, const Budget& b) {
  return a.instances == b.instances && a.iterations == b.iterations && a.row_launches == b.row_launches &&
         a.op_words == b.op_words &&
         a.stress == b.stress && to_json(a.row_stress) == to_json(b.row_stress) && a.seed == b.seed &&

         a.resident_timeout_ms == b.resident_timeout_ms;
}

}  // namespace vmmcheck::run
