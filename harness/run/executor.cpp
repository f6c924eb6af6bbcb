#include "run/executor.hpp"

#include <signal.h>
#include <sys/prctl.h>

#include <cstdlib>
#include <sstream>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "model/loader.hpp"
#include "model/patterns.hpp"
#include "model/select.hpp"
#include "run/device_fault.hpp"
#include "run/isolation.hpp"
#include "run/report_json.hpp"
#include "run/cuda_objects.hpp"

namespace vmmcheck::run {
namespace {

using nlohmann::json;

constexpr auto kAliveTimeout = std::chrono::seconds(60);

bool has_label(const model::Case& c, const std::string& label) {
  for (const std::string& l : c.labels)
    if (l == label) return true;
  return false;
}

std::string tail_lines(const std::string& log, std::size_t lines) {
  std::size_t at = log.size();
  while (lines > 0 && at > 0) {
    at = log.rfind('\n', at - 1);
    if (at == std::string::npos) return log;
    if (at + 1 < log.size()) --lines;
  }
  return log.substr(at == 0 ? 0 : at + 1);
}

// Runs a case in this process, for the child: with a session when the pattern needs the GPU.
CaseResult run_here(const model::Case& c, int device, const Budget& budget, bool& session_lost) {
  const model::Pattern* pattern = model::find_pattern(c.pattern);
  if (!pattern->needs_gpu) {
    CaseResult r = begin_result(c);
    run_planted_host(c, r);
    classify(c, *pattern, r);
    return r;
  }
  try {
    GpuSession session(device, budget);
    CaseResult r = session.run(c);
    session_lost = session.lost();
    return r;
  } catch (const NotSupportedError& e) {
    return not_run(c, Status::NotSupported, e.what());
  }
}

// The alive check: a small allocation, a memset and a copy back must work within the timeout.
int check_alive(int device) {
  try {
    CUDA_CHECK(cudaSetDevice(device));
    DeviceBuffer<std::uint32_t> words(1 << 20);
    CUDA_CHECK(cudaMemset(words.get(), 0x5a, words.bytes()));
    std::uint32_t first = 0;
    CUDA_CHECK(cudaMemcpy(&first, words.get(), sizeof first, cudaMemcpyDeviceToHost));
    if (first != 0x5a5a5a5au) throw std::runtime_error("a memset read back wrong");
    write_result("alive");
    return 0;
  } catch (const std::exception& e) {
    write_result(std::string("dead: ") + e.what());
    return 1;
  }
}

}  // namespace

std::string child_spec(const ExecutorOptions& o, const std::string& case_name) {
  return json{{"case", case_name}, {"cases", o.cases_paths}, {"device", o.device}, {"budget", to_json(o.budget)}}.dump();
}

std::string alive_spec(int device) { return json{{"alive", true}, {"device", device}}.dump(); }

int run_isolated_case_child(const std::string& spec_json) {
  // A child never outlives the run that started it: if vmmcheck is killed, so is the case it ran.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  json spec;
  try {
    spec = json::parse(spec_json);
  } catch (const json::exception& e) {
    throw InputError(std::string("isolated-case: the spec is not JSON: ") + e.what());
  }
  const int device = spec.value("device", 0);
  if (spec.value("alive", false)) return check_alive(device);

  const Budget budget = budget_from_json(spec.at("budget"), "isolated-case spec");
  std::vector<std::filesystem::path> paths;
  for (const std::string& path : spec.at("cases").get<std::vector<std::string>>()) paths.emplace_back(path);
  const model::CaseTable table = model::load_cases(paths);
  const model::Case& c = model::find_case(table.cases, spec.at("case").get<std::string>());
  bool session_lost = false;
  const CaseResult r = run_here(c, device, budget, session_lost);
  write_result(to_json(r).dump());
  // After a device fault the context's teardown can itself misbehave; the result is out, so go now.
  if (session_lost) std::_Exit(0);
  return 0;
}

Executor::Executor(ExecutorOptions options, std::unique_ptr<GpuSession> session)
    : options_(std::move(options)), session_(std::move(session)) {}

bool Executor::isolates(const model::Case& c) const {
  return options_.isolate_all || !session_ || session_->lost() || c.verdict.expectation == model::Expectation::Fault ||
         has_label(c, "isolate");
}

CaseResult Executor::run(const model::Case& c) {
  const model::Pattern* pattern = model::find_pattern(c.pattern);
  if (!device_lost_.empty()) return not_run(c, Status::NotSupported, "not run: " + device_lost_);
  if (pattern->needs_gpu && !options_.gpu_present) return not_run(c, Status::NotSupported, options_.no_gpu_reason);
  CaseResult r;
  if (isolates(c)) {
    r = run_isolated(c);
  } else if (!pattern->needs_gpu) {
    bool unused = false;
    r = run_here(c, options_.device, options_.budget, unused);
  } else {
    r = session_->run(c);
  }
  check_device_after(r);
  return r;
}

CaseResult Executor::run_isolated(const model::Case& c) {
  const ChildRun child =
      run_child({options_.program, "isolated-case", "--spec", child_spec(options_, c.name)}, options_.timeout);
  CaseResult r = begin_result(c);
  r.seconds = child.seconds;
  const std::string log = tail_lines(child.log_tail, 6);
  auto with_log = [&](std::string why) { return log.empty() ? why : why + "; its last output:\n" + log; };
  switch (child.end) {
    case ChildRun::End::NotStarted:
      r.status = Status::Error;
      r.reason = "could not start the isolated child: " + child.error;
      return r;
    case ChildRun::End::TimedOut: {
      r.status = Status::Timeout;
      std::ostringstream limit;
      limit << options_.timeout.count() / 1000.0;
      r.reason = with_log("no result within " + limit.str() + " s; the child was killed");
      return r;
    }
    case ChildRun::End::Signalled:
      r.status = Status::Crash;
      r.reason = with_log("the child was killed by " + signal_name(child.code));
      return r;
    case ChildRun::End::Exited:
      break;
  }
  try {
    CaseResult got = result_from_json(json::parse(child.result), "the isolated child");
    got.seconds = child.seconds;
    return got;
  } catch (const std::exception&) {
    r.status = Status::Crash;
    r.reason = with_log("the child exited with status " + std::to_string(child.code) + " without a result");
    return r;
  }
}

void Executor::check_device_after(const CaseResult& r) {
  if (!options_.gpu_present || (r.status != Status::Crash && r.status != Status::Timeout)) return;
  const ChildRun alive = run_child({options_.program, "isolated-case", "--spec", alive_spec(options_.device)},
                                   std::chrono::duration_cast<std::chrono::milliseconds>(kAliveTimeout));
  if (alive.end == ChildRun::End::Exited && alive.code == 0 && alive.result == "alive") return;
  std::string why = alive.end == ChildRun::End::TimedOut ? "it did not answer within 60 s"
                    : alive.end == ChildRun::End::Signalled ? "the check was killed by " + signal_name(alive.code)
                    : alive.end == ChildRun::End::NotStarted ? "the check could not start: " + alive.error
                                                              : alive.result;
  device_lost_ = "after " + r.name + " (" + to_string(r.status) + ") the GPU no longer answered: " + why;
}

}  // namespace vmmcheck::run
