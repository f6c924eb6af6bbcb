#pragma once
// The table a generated row's outcomes are counted by on the GPU (kernels/outcome_index.h): each
// register's values as the model's outcome space lists them, in the kernel's register order. No GPU here:
// the engine (run/rows/engine.hpp) hands it to the tally kernel, and CPU tests check it against the model.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/outcome_index.h"
#include "model/ptx_model.hpp"

namespace vmmcheck::run {

// The table for a kernel whose results are `registers` (codegen::Kernel::registers), or nothing when the
// space does not fit one (more registers or values than kernels/outcome_index.h holds, more bins, or
// registers the model does not know): then the instances are counted on the host.
// `spinning`: the registers of spin-until loads, which may also hold kSpinBoundReached (vocabulary/shape.hpp).
std::optional<VmmcheckOutcomeTable> outcome_table(const model::ptx::OutcomeSpace& space,
                                                  const std::vector<std::string>& registers,
                                                  const std::vector<std::string>& spinning = {});

// The registers of `test`'s spin-until loads.
std::vector<std::string> spinning_registers(const patterns::litmus::Litmus& test);

// The register values of `bin` (< t.bins), and the bin of `values`: the tally's own functions, on the host.
std::vector<std::uint32_t> values_of(const VmmcheckOutcomeTable& t, unsigned bin);
unsigned bin_of(const VmmcheckOutcomeTable& t, const std::vector<std::uint32_t>& values);

}  // namespace vmmcheck::run
