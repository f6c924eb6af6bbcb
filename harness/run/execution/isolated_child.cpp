#include "run/execution/isolated_child.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "model/controls.hpp"
#include "model/loader.hpp"
#include "model/select.hpp"
#include "common/cuda_objects.hpp"
#include "run/kit/device_fault.hpp"
#include "run/execution/process_settings.hpp"
#include "ipc/child_process.hpp"
#include "run/records/report_json.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {
using ipc::claim_result_fd;
using ipc::write_result;
namespace {

using json = Json;

// What the child reports when the harness itself failed before or around the case.
CaseResult child_failure(const std::string& name, const std::exception& e) {
  CaseResult r;
  r.name = name;
  const auto* cuda = dynamic_cast<const CudaError*>(&e);
  r.status = cuda && is_device_fault(cuda->code()) ? Status::Crash : Status::Error;
  r.reason = std::string("in the isolated child: ") + e.what();
  return r;
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

std::string child_spec(const RunSettings& settings, const model::Case& c) {
  // The run's settings whole: the child reads what it runs the case with from them, and nothing else.
  json spec{{"case", c.name}, {"settings", to_json(settings)}, {"parent", static_cast<long long>(getpid())}};
  // A control may be a case made for the purpose: the child rebuilds it from the case it controls.
  if (!c.control_for.empty()) spec["control_for"] = c.control_for;
  // The table the case came from: the child loads that one rather than every table of the run.
  if (!c.source.empty()) spec["case_file"] = c.source;
  return spec.dump();
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
    const RunSettings settings = settings_from_json(spec.at("settings"), "isolated-case spec");
    apply_to_process(settings);
    // A case: its own table, not every table of the run. A control made for the purpose: every table, as
    // the parent found it among all of them (model/controls.hpp).
    std::vector<std::filesystem::path> paths;
    if (spec.contains("case_file") && !spec.contains("control_for")) paths.emplace_back(spec.at("case_file").get<std::string>());
    else
      for (const std::string& path : settings.cases_paths) paths.emplace_back(path);
    const model::CaseTable table = model::load_cases(paths);
    std::optional<model::ControlCase> control;
    if (spec.contains("control_for")) {
      control = model::control_of(model::find_case(table.cases, spec.at("control_for").get<std::string>()), table.cases);
      if (!control || control->control.name != name)
        throw InputError("isolated-case: " + name + " is not the control of " + spec.at("control_for").get<std::string>());
    }
    const model::Case& c = control ? control->control : model::find_case(table.cases, name);
    if (!c.pattern().needs_gpu) {
      r = run_without_session(c);
    } else {
      try {
        // Never destroyed: the process ends right after the result is out (below).
        auto* session = new GpuSession(settings.device, settings.budget);
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

}  // namespace vmmcheck::run
