#pragma once
// The executor decides where each case runs. Most run in this process, on one GpuSession. A case that
// is expected to fault, is labelled `isolate` (it may hang or crash), or runs under --isolate, runs in
// a child process of vmmcheck with a hard timeout: a signal or a device fault there is Crash, the
// timeout is Timeout, and this process goes on. After either it checks, in another child, that the
// GPU still answers; if it does not, device_lost() says why and the caller stops.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "model/case.hpp"
#include "run/records/budget.hpp"
#include "run/records/result.hpp"
#include "run/records/run_settings.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {

class Executor {
 public:
  // `session` may be null: then every GPU case runs isolated (or is NotSupported without a GPU).
  // `gpu_present`: a GPU was found at the start (else GPU cases are NotSupported, `no_gpu_reason`).
  Executor(RunSettings settings, bool gpu_present, std::string no_gpu_reason, std::unique_ptr<GpuSession> session);

  CaseResult run(const model::Case& c);

  // The in-process session (null when every case runs isolated), for the litmus rows' engine.
  GpuSession* session() const { return session_.get(); }

  // Empty while the GPU answers; after a Crash or Timeout it did not survive, the reason.
  const std::string& device_lost() const { return device_lost_; }
  bool isolates(const model::Case& c) const;

 private:
  CaseResult run_isolated(const model::Case& c);
  void check_device_after(const CaseResult& r);

  RunSettings options_;
  bool gpu_present_ = false;
  std::string no_gpu_reason_;
  std::unique_ptr<GpuSession> session_;
  std::string device_lost_;
  std::string unreaped_;  // a child that SIGKILL did not remove
};

}  // namespace vmmcheck::run
