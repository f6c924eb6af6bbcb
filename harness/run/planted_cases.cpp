// planted.*: cases that crash or hang on purpose, to show that isolation contains them (tests/planted/).
// They are never part of the shipped tables, and always run in a child process.
#include <unistd.h>

#include <csignal>

#include "common/error.hpp"
#include "contract.hpp"
#include "run/session.hpp"

namespace vmmcheck::run {

void run_planted_host(const model::Case& c, CaseResult& r) {
  const std::string& behaviour = c.axis("behaviour");
  if (behaviour == "crash") std::raise(SIGSEGV);
  if (behaviour == "hang")
    for (;;) pause();
  add_outcome(r.histogram, "done");
  r.instances = 1;
}

void run_planted_gpu(GpuSession& s, const model::Case& c, CaseResult& r) {
  const std::string& behaviour = c.axis("behaviour");
  DeviceBuffer<std::uint32_t> word(1);
  CUDA_CHECK(cudaMemset(word.get(), 0, word.bytes()));
  if (behaviour == "crash") kernels::launch_planted_trap(s.stream(0));
  else if (behaviour == "hang") kernels::launch_planted_spin(word.get(), s.stream(0));
  else kernels::launch_planted_ok(word.get(), s.stream(0));
  CUDA_CHECK(cudaStreamSynchronize(s.stream(0)));
  add_outcome(r.histogram, "done");
  r.instances = 1;
}

}  // namespace vmmcheck::run
