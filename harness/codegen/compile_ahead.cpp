#include "codegen/compile_ahead.hpp"

#include <algorithm>

namespace vmmcheck::codegen {

CompileAhead::CompileAhead(int arch, unsigned threads) : arch_(arch) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

CompileAhead::~CompileAhead() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();  // not started: nobody will ask for it now
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void CompileAhead::start(const Kernel& kernel, int ptxas_level, bool next) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto& job = jobs_[{kernel.name, ptxas_level}];
    if (job) {
      if (!next) return;
      const auto queued = std::find(queue_.begin(), queue_.end(), job.get());
      if (queued == queue_.end()) return;  // compiling, or compiled
      queue_.erase(queued);
      queue_.push_front(job.get());
      return;
    }
    job = std::make_unique<Job>();
    job->kernel = kernel;
    job->level = ptxas_level;
    if (next) queue_.push_front(job.get());
    else queue_.push_back(job.get());
  }
  wake_.notify_one();
}

const Compiled& CompileAhead::get(const Kernel& kernel, int ptxas_level) {
  start(kernel, ptxas_level);
  std::unique_lock<std::mutex> lock(mutex_);
  Job& job = *jobs_.at({kernel.name, ptxas_level});
  // Still queued behind others: compile it here rather than wait for them.
  if (const auto queued = std::find(queue_.begin(), queue_.end(), &job); queued != queue_.end()) {
    queue_.erase(queued);
    lock.unlock();
    try {
      job.compiled = compile(job.kernel, arch_, job.level);
    } catch (...) {
      job.error = std::current_exception();
    }
    lock.lock();
    job.done = true;
    finished_.notify_all();
  }
  finished_.wait(lock, [&] { return job.done; });
  if (job.error) std::rethrow_exception(job.error);
  return job.compiled;
}

void CompileAhead::work() {
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping
    // Up to kPerProgram queued kernels of one ptxas level, compiled as one program -- fewer when there are
    // not that many for every worker, so that no core waits while another compiles four.
    const std::size_t per = std::max<std::size_t>(1, std::min(kPerProgram, queue_.size() / workers_.size()));
    std::vector<Job*> batch{queue_.front()};
    queue_.pop_front();
    for (auto it = queue_.begin(); it != queue_.end() && batch.size() < per;)
      if ((*it)->level == batch.front()->level) {
        batch.push_back(*it);
        it = queue_.erase(it);
      } else {
        ++it;
      }
    lock.unlock();
    std::vector<const Kernel*> kernels;
    for (const Job* j : batch) kernels.push_back(&j->kernel);
    std::vector<Outcome> outcomes;
    try {
      outcomes = compile_together(kernels, arch_, batch.front()->level);
    } catch (...) {  // not a compile error (those are in the outcomes): every kernel of the batch has it
      outcomes.assign(batch.size(), Outcome{Compiled{}, std::current_exception()});
    }
    lock.lock();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      batch[i]->compiled = std::move(outcomes[i].compiled);
      batch[i]->error = outcomes[i].error;
      batch[i]->done = true;
    }
    finished_.notify_all();
  }
}

}  // namespace vmmcheck::codegen
