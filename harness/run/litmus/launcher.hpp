#pragma once
// Litmus tests on the GPU (docs/litmus.md, "Running a row"): the test's generated kernel (compiled once
// per source by NVRTC), its addresses as views of one AliasSet -- an address of its own is a mapping of
// its own, a .texref a texture object over the view it aliases -- and launches, each with fresh CTA,
// lane and memory permutations, until the budget's instances have run. What comes back is counted per
// register outcome; run/litmus/row_result.hpp judges it.
#include <map>
#include <memory>
#include <string>

#include "patterns/litmus.hpp"
#include "run/litmus/row_result.hpp"
#include "run/records/budget.hpp"

namespace vmmcheck::run {

class LitmusLauncher {
 public:
  // Throws NotSupportedError when `device` does not exist or lacks VMM.
  LitmusLauncher(int device, const Budget& budget);
  ~LitmusLauncher();

  // Why `test` cannot run on this machine (empty: it can): the generator's reasons, and the device's.
  std::string why_not_here(const patterns::litmus::Litmus& test) const;

  // Runs `test` (why_not_here(test) must be empty) for at least the budget's instances, its kernel
  // compiled with ptxas at `ptxas_level` (-1: ptxas's default, -O3; litmus/nvrtc.hpp). A test already
  // run by this launcher at that level (the same text under another command) is not run again.
  const RowOutcomes& run(const patterns::litmus::Litmus& test, const std::string& source, int ptxas_level = -1);

 private:
  struct Loaded;
  int device_;
  Budget budget_;
  int arch_ = 0;
  int sms_ = 0;
  std::map<std::pair<std::string, int>, std::unique_ptr<Loaded>> kernels_;  // by kernel name and ptxas level
  std::map<std::pair<std::string, int>, RowOutcomes> done_;                 // by test source and ptxas level
};

}  // namespace vmmcheck::run
