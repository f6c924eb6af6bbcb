#include "run/rows/row_result.hpp"

#include <sstream>

#include "model/ptx_model.hpp"

namespace vmmcheck::run {
namespace {


// The file as results cite it: a shipped file by its place in the repository (cases/litmus/MP.test),
// whatever folder it was read from; any other as given.
std::string cited_path(const std::string& file) {
  const std::string shipped = "/cases/litmus/";
  const std::size_t at = file.rfind(shipped);
  return at == std::string::npos ? file : file.substr(at + 1);
}

// Does the model allow this outcome of the row's shape (its preconditions met), under each reading?
// Asked of the shape's outcome space, enumerated once per shape (model/ptx_model.hpp).
model::ptx::OutcomeSpace::Allowed model_allows(const litmus::Row& row, const std::vector<std::string>& registers,
                                               const std::vector<std::uint32_t>& values) {
  return model::ptx::outcome_space(row.test).answers(registers, values);
}

// "r0=1 r1=0"; a spin that reached its bound reads "r0=timeout".
std::string outcome_text(const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
  std::string s;
  for (std::size_t k = 0; k < registers.size(); ++k)
    s += (k ? " " : "") + registers[k] + "=" +
         (values[k] == patterns::litmus::kSpinBoundReached ? std::string("timeout") : std::to_string(values[k]));
  return s;
}

bool unwritten(const std::vector<std::uint32_t>& values) {
  for (std::uint32_t v : values)
    if (v == kUnwritten) return true;
  return false;
}

bool spin_timed_out(const std::vector<std::uint32_t>& values) {
  for (std::uint32_t v : values)
    if (v == patterns::litmus::kSpinBoundReached) return true;
  return false;
}

// The preconditions of a file ("ld.acquire r0, [flag] == 1"): instances where a load read another value
// answer no question the file asks, so they are counted but not judged.
bool preconditions_met(const litmus::Row& row, const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
  for (const auto& f : row.test.filter)  // herd's filter: likewise
    if (!model::ptx::holds(f, registers, values)) return false;
  for (const auto& t : row.test.threads)
    for (const auto& op : t.ops) {
      if (op.must_read < 0 || op.reg.empty()) continue;
      for (std::size_t k = 0; k < registers.size(); ++k)
        if (registers[k] == op.reg && values[k] != static_cast<std::uint32_t>(op.must_read)) return false;
    }
  return true;
}

std::string rate_text(std::uint64_t n, std::uint64_t of) {
  std::ostringstream o;
  o << n << " of " << of;
  if (of > 0) o << " (" << (100.0 * static_cast<double>(n) / static_cast<double>(of)) << "%)";
  return o.str();
}

}  // namespace

CaseResult begin_row_result(const litmus::Row& row) {
  CaseResult r;
  r.name = litmus::case_name_of(row);
  r.family = litmus::family_of(row);
  r.pattern = "litmus";
  r.axes = {{"file", litmus::file_token(row)},
            {"instance", row.instance < 0 ? std::string("none") : std::to_string(row.instance)},
            {"command", litmus::command_token(row)},
            {"expect", litmus::name_of(row.expect)}};
  r.expectation = litmus::model_verdict(row).expectation;
  r.rule = "every outcome the GPU shows must be one the PTX proxy model allows (the ISA's reading; one only the artifact's "
           "forbids is a Warning); the file asks whether " +
           model::ptx::to_string(row.condition) + " is " +
           (row.expect == litmus::Expect::Assert ? "always the case" : "possible");
  r.citation = "PTX ISA, Memory Consistency Model; " + cited_path(row.file) + ":" + std::to_string(row.line) + "; docs/litmus-model.md";
  return r;
}

void judge_row(const litmus::Row& row, const RowOutcomes& seen, CaseResult& r) {
  r.histogram.clear();
  r.instances = seen.instances;
  r.gpu_seconds = seen.gpu_seconds;
  std::uint64_t judged = 0, unmet = 0, timed_out = 0, asked = 0, forbidden = 0, artifact_only = 0, never_written = 0;
  std::string forbidden_list, artifact_list;
  for (const auto& [values, count] : seen.counts) {
    const std::string text = outcome_text(seen.registers, values);
    r.histogram.emplace_back(text, count);
    if (unwritten(values)) {  // the kernel's placement missed them: nothing the GPU did
      never_written += count;
      continue;
    }
    if (spin_timed_out(values)) {  // a spin's bound: no read to judge, and no order shown
      timed_out += count;
      continue;
    }
    if (!preconditions_met(row, seen.registers, values)) {
      unmet += count;
      continue;
    }
    judged += count;
    const std::string seen_text = text + " (" + std::to_string(count) + ")";
    const model::ptx::OutcomeSpace::Allowed allowed = model_allows(row, seen.registers, values);
    if (!allowed.isa) {
      forbidden += count;
      forbidden_list += (forbidden_list.empty() ? "" : ", ") + seen_text;
    } else if (!allowed.artifact) {
      artifact_only += count;
      artifact_list += (artifact_list.empty() ? "" : ", ") + seen_text;
    }
    if (model::ptx::holds(row.condition, seen.registers, values) != (row.expect == litmus::Expect::Assert)) asked += count;
  }
  r.weak = asked;
  r.judged = judged;
  const litmus::RowVerdict v = litmus::model_verdict(row);
  std::ostringstream o;
  const auto says = [&](bool allows) { return allows ? "allows" : "forbids"; };
  o << litmus::name_of(row.expect) << " (" << model::ptx::to_string(row.condition) << "): the model "
    << (v.readings_differ() ? std::string("(the ISA's reading) ") + says(v.isa_allows) + ", the artifact's " + says(v.artifact_allows)
                            : std::string(says(v.isa_allows)))
    << " " << (row.expect == litmus::Expect::Assert ? "a violation" : "it")
    << (v.matches ? " as the file says" : ", AGAINST the file's " + std::string(litmus::name_of(row.expect))) << "; seen "
    << rate_text(asked, judged) << " of the instances meeting the preconditions";
  if (unmet > 0) o << "; " << unmet << " instances did not meet them";
  if (timed_out > 0) o << "; " << timed_out << " instances reached a spin's bound (stress row_spin_timeout_us)";
  if (artifact_only > 0)
    o << "; outcomes only the artifact's reading forbids (the ISA's allows them: docs/litmus-model.md, \"Two readings\"): "
      << artifact_list;
  if (never_written > 0) {
    r.status = Status::Error;
    o << "; the kernel left the registers of " << never_written
      << " instances unwritten: its placement missed them (a harness bug, not the GPU's)";
  } else if (forbidden > 0) {
    r.status = Status::Fail;
    o << "; outcomes the model forbids: " << forbidden_list;
  } else if (seen.instances == 0) {
    r.status = Status::Error;
    o << "; no instance ran";
  } else if (artifact_only > 0) {
    r.status = Status::Warning;  // as the hand-written families' `model` verdicts: seen, not broken
  } else {
    r.status = Status::Pass;
  }
  r.reason = o.str();
}

void attribute_failure(const MachineCodeVerdict& code, CaseResult& r) {
  if (r.status != Status::Fail) return;
  if (!code.why_unchecked.empty()) {
    r.reason += "; its machine code was not checked (" + code.why_unchecked + "), so the Fail stands";
    return;
  }
  if (!code.check.breaks_model()) {
    r.reason += "; its machine code (" + code.compiler + ") " +
                (code.check.intact() ? "keeps every memory operation and fence of the PTX, of its strength and in order"
                                     : "changed it only as the model allows") +
                ": the GPU showed what the model forbids";
    return;
  }
  r.status = Status::Warning;
  std::string what;
  for (const toolchain::Finding& f : code.check.findings)
    if (f.problem != toolchain::Problem::Elided)
    what += (what.empty() ? "" : "; ") + std::string(toolchain::name_of(f.problem)) + " `" + f.site.text + "` of thread T" +
            std::to_string(f.site.thread) + " (" + f.detail + ")";
  r.reason += "; but " + code.compiler + " broke the model in the machine code the GPU ran: " + what +
              " -- a toolchain finding, not the GPU's (vmmcheck toolchain on the row's file shows the code; docs/toolchain.md)";
}

void note_unoptimized(const litmus::Row& row, const RowOutcomes& unoptimized, CaseResult& r) {
  std::uint64_t forbidden = 0;
  for (const auto& [values, count] : unoptimized.counts)
    if (preconditions_met(row, unoptimized.registers, values) && !model_allows(row, unoptimized.registers, values).isa) forbidden += count;
  r.reason += "; experiment: compiled with ptxas -O0 the row showed " + std::to_string(forbidden) +
              " forbidden outcomes in " + std::to_string(unoptimized.instances) + " instances (a count, not a verdict)";
}

}  // namespace vmmcheck::run
