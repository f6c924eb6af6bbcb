// Runners of planted.* (patterns/planted/definition.hpp): cases that crash or hang on purpose, to show that
// isolation contains them (tests/planted/). Never part of the shipped tables; always run in a child.
#include <unistd.h>

#include <csignal>

#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "patterns/planted/kernels.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {

void run_pattern(const patterns::PlantedHost& def, const model::Case&, CaseResult& r) {
  switch (def.behaviour) {
    case patterns::Behaviour::Crash: std::raise(SIGSEGV); break;
    case patterns::Behaviour::Hang:
      for (;;) pause();
    case patterns::Behaviour::Ok: break;
  }
  add_bin(r.histogram, patterns::PlantedHost::Done);
  r.instances = 1;
}

void run_pattern(GpuSession& s, const patterns::PlantedGpu& def, const model::Case&, CaseResult& r) {
  DeviceBuffer<std::uint32_t> word(1);
  CUDA_CHECK(cudaMemsetAsync(word.get(), 0, word.bytes(), s.work()));  // on the kernel's stream: ordered before it
  switch (def.behaviour) {
    case patterns::Behaviour::Crash: kernels::launch_planted_trap(s.work()); break;
    case patterns::Behaviour::Hang: kernels::launch_planted_spin(word.get(), s.work()); break;
    case patterns::Behaviour::Ok: kernels::launch_planted_ok(word.get(), s.work()); break;
  }
  CUDA_CHECK(cudaStreamSynchronize(s.work()));
  add_bin(r.histogram, patterns::PlantedGpu::Done);
  r.instances = 1;
}

// Self-tests of the harness: they run wherever the harness does (planted_gpu on any GPU).
std::string why_not_here(const patterns::PlantedHost&, const device::ProbeReport&, int) { return ""; }
std::string why_not_here(const patterns::PlantedGpu&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
