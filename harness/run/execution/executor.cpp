#include "run/execution/executor.hpp"

#include <cstdio>
#include <sstream>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "run/kit/device_fault.hpp"
#include "run/execution/isolated_child.hpp"
#include "ipc/child_process.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::run {
using ipc::ChildRun;
using ipc::run_child;
using ipc::signal_name;
namespace {

using json = Json;

constexpr auto kAliveTimeout = std::chrono::seconds(60);

std::string tail_lines(const std::string& log, std::size_t lines) {
  std::size_t at = log.size();
  while (lines > 0 && at > 0) {
    at = log.rfind('\n', at - 1);
    if (at == std::string::npos) return log;
    if (at + 1 < log.size()) --lines;
  }
  return log.substr(at == 0 ? 0 : at + 1);
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

}  // namespace

Executor::Executor(RunSettings settings, bool gpu_present, std::string no_gpu_reason, std::unique_ptr<GpuSession> session)
    : options_(std::move(settings)), gpu_present_(gpu_present), no_gpu_reason_(std::move(no_gpu_reason)), session_(std::move(session)) {}

bool Executor::isolates(const model::Case& c) const {
  return options_.isolate_all || !session_ || session_->lost() || c.verdict.expectation == model::Expectation::Fault ||
         c.isolate;
}

CaseResult Executor::run(const model::Case& c) {
  const bool needs_gpu = c.pattern().needs_gpu;
  if (!device_lost_.empty()) return not_run(c, Status::NotSupported, "not run: " + device_lost_);
  if (needs_gpu && !gpu_present_) return not_run(c, Status::NotSupported, no_gpu_reason_);
  CaseResult r;
  if (isolates(c)) {
    r = run_isolated(c);
  } else if (!needs_gpu) {
    r = run_without_session(c);
  } else {
    r = session_->run(c);
  }
  check_device_after(r);
  return r;
}

CaseResult Executor::run_isolated(const model::Case& c) {
  const ChildRun child =
      run_child({options_.program, "isolated-case", "--spec", child_spec(options_, c)}, options_.timeout);
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
        got.pattern = r.pattern;
        got.axes = r.axes;
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
  if (!gpu_present_ || (r.status != Status::Crash && r.status != Status::Timeout)) return;
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
