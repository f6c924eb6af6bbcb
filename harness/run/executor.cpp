#include "run/executor.hpp"

#include <signal.h>
#include <sys/prctl.h>

#include <unistd.h>

#include <cstdio>
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

// A case of a pattern that needs no GPU (the planted host cases), run in this process.
CaseResult run_host_case(const model::Case& c) {
  const model::Pattern* pattern = model::find_pattern(c.pattern);
  CaseResult r = begin_result(c);
  run_planted_host(c, r);
  classify(c, *pattern, r);
  return r;
}

// What the child reports when the harness itself failed before or around the case.
CaseResult child_failure(const std::string& name, const std::exception& e) {
  CaseResult r;
  r.name = name;
  const auto* cuda = dynamic_cast<const CudaError*>(&e);
  r.status = cuda && is_device_fault(cuda->code()) ? Status::Crash : Status::Error;
  r.reason = std::string("in the isolated child: ") + e.what();
  return r;
}

// Bytes that are not printable ASCII (a child's output may hold anything, even half a UTF-8 sequence)
// as \xNN, so the reason is valid JSON text.
std::string printable(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if ((byte >= 0x20 && byte < 0x7f) || ch == '\n' || ch == '\t') {
      out += ch;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", byte);
      out += hex;
    }
  }
  return out;
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
  return json{{"case", case_name}, {"cases", o.cases_paths}, {"device", o.device}, {"budget", to_json(o.budget)},
              {"parent", static_cast<long long>(getpid())}}
      .dump();
}

std::string alive_spec(int device) {
  return json{{"alive", true}, {"device", device}, {"parent", static_cast<long long>(getpid())}}.dump();
}

void run_isolated_case_child(const std::string& spec_json) {
  claim_result_fd();  // before CUDA opens anything
  json spec;
  try {
    spec = json::parse(spec_json);
  } catch (const json::exception& e) {
    throw InputError(std::string("isolated-case: the spec is not JSON: ") + e.what());
  }
  // A child never outlives the run that started it: if vmmcheck is killed, so is the case it ran. (If
  // the parent died before this line, the death signal would never come: check.)
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (spec.contains("parent") && getppid() != spec.value("parent", 0LL)) std::_Exit(1);
  const int device = spec.value("device", 0);
  if (spec.value("alive", false)) std::_Exit(check_alive(device));

  const std::string name = spec.value("case", std::string());
  CaseResult r;
  try {
    const Budget budget = budget_from_json(spec.at("budget"), "isolated-case spec");
    std::vector<std::filesystem::path> paths;
    for (const std::string& path : spec.at("cases").get<std::vector<std::string>>()) paths.emplace_back(path);
    const model::CaseTable table = model::load_cases(paths);
    const model::Case& c = model::find_case(table.cases, name);
    if (!model::find_pattern(c.pattern)->needs_gpu) {
      r = run_host_case(c);
    } else {
      try {
        // Never destroyed: the process ends right after the result is out (below).
        auto* session = new GpuSession(device, budget);
        r = session->run(c);
      } catch (const NotSupportedError& e) {
        r = not_run(c, Status::NotSupported, e.what());
      }
    }
  } catch (const std::exception& e) {
    r = child_failure(name, e);
  }
  write_result(to_json(r).dump(-1, ' ', false, json::error_handler_t::replace));
  // The result is out. Ending here skips the context's teardown, which after a device fault can itself
  // misbehave or take long; the driver frees what the process held.
  std::_Exit(0);
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
    r = run_host_case(c);
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
  const std::string log = printable(tail_lines(child.log_tail, 6));
  auto with_log = [&](std::string why) { return log.empty() ? why : why + "; its last output:\n" + log; };
  if (child.unreaped)
    unreaped_ = "the child running " + c.name + " was still not gone 30 s after SIGKILL (stuck in the driver?)";
  // A complete result counts even if the child was killed afterwards (a slow exit past the deadline).
  if (child.end != ChildRun::End::NotStarted && !child.result.empty()) {
    try {
      CaseResult got = result_from_json(json::parse(child.result), "the isolated child");
      if (got.name != c.name) throw std::runtime_error("the child reported case '" + got.name + "'");
      if (got.family.empty()) {  // a harness failure in the child: it knew only the name
        got.family = r.family;
        got.expectation = r.expectation;
        got.rule = r.rule;
        got.citation = r.citation;
        got.histogram = r.histogram;
      }
      got.seconds = child.seconds;
      if (child.end == ChildRun::End::TimedOut) got.reason += " (the child reported, then was killed at the timeout)";
      return got;
    } catch (const std::exception& e) {
      if (child.end == ChildRun::End::Exited) {
        r.status = Status::Error;
        r.reason = with_log(std::string("the isolated child's result is unreadable: ") + e.what());
        return r;
      }
    }
  }
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
  r.status = Status::Crash;
  r.reason = with_log("the child exited with status " + std::to_string(child.code) + " without a result" +
                      (child.error.empty() ? "" : " (" + child.error + ")"));
  return r;
}

void Executor::check_device_after(const CaseResult& r) {
  if (!unreaped_.empty()) {
    device_lost_ = unreaped_;
    return;
  }
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
