#include "run/rows/outcome_table.hpp"

#include <algorithm>

#include "vocabulary/op_kinds.hpp"

namespace vmmcheck::run {

std::vector<std::string> spinning_registers(const patterns::litmus::Litmus& test) {
  std::vector<std::string> out;
  for (const auto& thread : test.threads) {
    for (const auto& op : thread.ops)
      if (op.spin && !op.reg.empty()) out.push_back(op.reg);
    for (const auto& [label, regs] : patterns::litmus::loop_registers(thread))  // a loop's bound marks them
      for (const std::string& r : regs)
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  return out;
}

std::optional<VmmcheckOutcomeTable> outcome_table(const model::ptx::OutcomeSpace& space,
                                                  const std::vector<std::string>& registers,
                                                  const std::vector<std::string>& spinning) {
  if (registers.size() > VMMCHECK_OUTCOME_MAX_REGISTERS || registers.size() != space.registers.size()) return std::nullopt;
  VmmcheckOutcomeTable t{};
  t.registers = static_cast<unsigned>(registers.size());
  std::uint64_t bins = 1;
  for (std::size_t k = 0; k < registers.size(); ++k) {
    const auto at = std::find(space.registers.begin(), space.registers.end(), registers[k]);
    if (at == space.registers.end()) return std::nullopt;
    std::vector<std::uint32_t> values = space.values[static_cast<std::size_t>(at - space.registers.begin())];
    if (std::find(spinning.begin(), spinning.end(), registers[k]) != spinning.end())
      values.push_back(patterns::litmus::kSpinBoundReached);
    if (values.empty() || values.size() > VMMCHECK_OUTCOME_MAX_VALUES) return std::nullopt;
    t.count[k] = static_cast<unsigned>(values.size());
    std::copy(values.begin(), values.end(), t.values[k]);
    bins *= values.size();
    if (bins > VMMCHECK_OUTCOME_MAX_BINS) return std::nullopt;
  }
  t.bins = static_cast<unsigned>(bins);
  return t;
}

std::vector<std::uint32_t> values_of(const VmmcheckOutcomeTable& t, unsigned bin) {
  std::vector<std::uint32_t> values(t.registers);
  vmmcheck_outcome_values(&t, bin, values.data());
  return values;
}

unsigned bin_of(const VmmcheckOutcomeTable& t, const std::vector<std::uint32_t>& values) {
  return values.size() == t.registers ? vmmcheck_outcome_bin(&t, values.data()) : t.bins;
}

}  // namespace vmmcheck::run
