#pragma once
// Kernels compiled ahead, in parallel (docs/litmus.md, "Compiling ahead"): every kernel a run will launch
// is handed to a pool of threads at once, one per core, each compiling up to four queued kernels as one
// NVRTC program through nvrtc.hpp's caches; whoever needs one waits for that one only. A run's GPU cases
// go on while its litmus rows compile.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "codegen/generator.hpp"
#include "codegen/nvrtc.hpp"

namespace vmmcheck::codegen {

class CompileAhead {
 public:
  // `threads` 0: one per core the machine has.
  CompileAhead(int arch, unsigned threads = 0);
  ~CompileAhead();  // finishes what it started (a compile cannot be interrupted), then joins
  CompileAhead(const CompileAhead&) = delete;
  CompileAhead& operator=(const CompileAhead&) = delete;

  // Starts compiling `kernel` at `ptxas_level` (nvrtc.hpp) unless it was asked for already: after those
  // queued before it, or -- `next` -- before them (a kernel needed now; one queued already moves up).
  void start(const Kernel& kernel, int ptxas_level = -1, bool next = false);
  // Waits for it (starting it first if nobody did) and returns it, or throws its CompileError.
  const Compiled& get(const Kernel& kernel, int ptxas_level = -1);

  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }

  // Kernels a worker compiles as one program (measured fastest on the H200's host: nvrtc.hpp).
  static constexpr std::size_t kPerProgram = 4;

 private:
  struct Job {
    Kernel kernel;
    int level = -1;
    bool done = false;
    Compiled compiled;
    std::exception_ptr error;
  };
  using Key = std::pair<std::string, int>;  // kernel name, ptxas level
  void work();

  int arch_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::map<Key, std::unique_ptr<Job>> jobs_;
  std::deque<Job*> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace vmmcheck::codegen
