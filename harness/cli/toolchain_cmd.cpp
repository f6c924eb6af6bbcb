#include "cli/toolchain_cmd.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "cli/cases.hpp"
#include "cli/app.hpp"
#include "codegen/generator.hpp"
#include "codegen/nvrtc.hpp"
#include "common/error.hpp"
#include "litmus/folder.hpp"
#include "litmus/rows.hpp"
#include "model/select.hpp"
#include "run/records/output_file.hpp"
#include "toolchain/audit.hpp"
#include "toolchain/repro.hpp"

namespace vmmcheck::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// One generated kernel and the rows that share it.
struct Subject {
  codegen::Kernel kernel;
  std::vector<std::string> rows;
};

std::vector<Subject> subjects_of(const Options& o, std::ostream& out) {
  std::vector<fs::path> paths(o.litmus.begin(), o.litmus.end());
  std::vector<litmus::Row> rows;
  try {
    rows = litmus::rows_of(litmus::parse_paths(paths));
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  std::vector<Subject> subjects;
  std::map<std::string, std::size_t> by_kernel;
  std::size_t not_generated = 0;
  for (const litmus::Row& row : rows) {
    // The filter takes a row's name as run and explain spell it (litmus.alias_mp.*), or as its file does.
    if (!o.filter.empty() && !model::filter_selects(o.filter, litmus::case_name_of(row)) && !model::filter_selects(o.filter, row.name))
      continue;
    if (!codegen::why_not_generated(row.test).empty()) {
      ++not_generated;
      continue;
    }
    codegen::Kernel k = codegen::generate(row.test);
    const auto [it, fresh] = by_kernel.emplace(k.name, subjects.size());
    if (fresh) subjects.push_back(Subject{std::move(k), {}});
    // By the row's own name (litmus.<file>...): the report groups a kernel's rows by their file.
    subjects[it->second].rows.push_back(litmus::row_name_of(row));
  }
  if (subjects.empty()) throw InputError("no generated kernel among the rows of " + o.litmus.front() + (o.filter.empty() ? "" : " matching " + o.filter));
  if (not_generated > 0) out << not_generated << " rows have no generated kernel (vmmcheck model --verbose says why): not checked\n";
  return subjects;
}

Json finding_json(const toolchain::KernelAudit& a, const toolchain::Finding& f) {
  Json ptx = Json::array();
  for (const toolchain::PtxInstruction& p : toolchain::ptx_of(f.site, a.ptx, a.line_offset))
    ptx.push_back({{"line", p.ptx_line}, {"text", p.text}});
  return Json{{"problem", toolchain::name_of(f.problem)},
              {"thread", f.site.thread},
              {"operation", f.site.index},
              {"litmus", f.site.text},
              {"source_line", f.site.line},
              {"ptx", ptx},
              {"needs", toolchain::requirement_of(f.site)},
              {"detail", f.detail},
              {"machine_code", f.context}};
}

}  // namespace

int cmd_toolchain(const Options& o, std::ostream& out, std::ostream& err) {
  const bool json_to_stdout = o.json_given && (o.json.empty() || o.json == "-");
  if (o.json_given && !json_to_stdout) run::claim_output(o.json, "toolchain", input_files(o));
  // --repro names a folder: a file there is refused before any compiling, not found at the first finding.
  std::error_code ec;
  if (!o.repro_dir.empty() && std::filesystem::exists(o.repro_dir, ec) && !std::filesystem::is_directory(o.repro_dir, ec))
    throw InputError("--repro " + o.repro_dir + ": not a folder (a reproducer per finding goes into one)");
  std::ostream& console = json_to_stdout ? err : out;
  const std::vector<Subject> subjects = subjects_of(o, console);

  toolchain::Settings settings;
  settings.ptxas = o.ptxas;
  settings.toolkit_ptxas = !o.no_toolkit_ptxas;
  settings.nvrtc = !o.no_nvrtc;
  settings.levels = o.ptxas_levels;
  std::sort(settings.levels.begin(), settings.levels.end());
  settings.levels.erase(std::unique(settings.levels.begin(), settings.levels.end()), settings.levels.end());
  settings.arch = o.arch;
  // An SM this NVRTC does not compile for is a bad input, not a kernel that cannot be checked.
  if (const std::vector<int> archs = codegen::nvrtc_archs();
      !archs.empty() && std::find(archs.begin(), archs.end(), o.arch) == archs.end()) {
    std::string list;
    for (int a : archs) list += (list.empty() ? "" : ", ") + std::to_string(a);
    throw InputError("--arch " + std::to_string(o.arch) + ": NVRTC " + codegen::nvrtc_version() + " compiles for " + list);
  }
  settings.disassembler = o.disassembler;
  std::unique_ptr<toolchain::Auditor> auditor;
  try {
    auditor = std::make_unique<toolchain::Auditor>(settings);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  } catch (const std::runtime_error& e) {
    err << "vmmcheck toolchain: cannot check here: " << e.what() << "\n";
    return kExitNothingRunnable;
  }
  std::size_t rows = 0;
  for (const Subject& s : subjects) rows += s.rows.size();
  console << "toolchain: " << rows << " rows, " << subjects.size() << " kernels, sm_" << o.arch << "; disassembler nvdisasm "
          << auditor->disassembler_version() << " (" << auditor->disassembler() << ")\n";
  for (const toolchain::Compiler& c : auditor->compilers())
    console << "  compiler " << c.name << (c.ptxas.empty() ? " (what run loads)" : "") << "\n";

  {
    std::vector<const codegen::Kernel*> kernels;
    for (const Subject& s : subjects) kernels.push_back(&s.kernel);
    auditor->prepare(kernels);
  }
  // Every kernel x compiler x level, on every core; the results in that order.
  struct Task {
    std::size_t subject, compiler;
    int level;
  };
  std::vector<Task> tasks;
  // Kernels next to each other share a program (Auditor::prepare): taken a program's length apart, the
  // workers disassemble different programs at once.
  const std::size_t stride = auditor->kernels_per_program();
  for (std::size_t c = 0; c < auditor->compilers().size(); ++c)
    for (int level : settings.levels)
      for (std::size_t first = 0; first < stride; ++first)
        for (std::size_t s = first; s < subjects.size(); s += stride) tasks.push_back(Task{s, c, level});
  std::vector<toolchain::KernelAudit> audits(tasks.size());
  toolchain::on_every_core(tasks.size(), [&](std::size_t i) {
    audits[i] = auditor->audit(subjects[tasks[i].subject].kernel, auditor->compilers()[tasks[i].compiler], tasks[i].level);
  });

  Json doc{{"schema", "vmmcheck-toolchain/1"},
           {"arch", "sm_" + std::to_string(o.arch)},
           {"disassembler", {{"path", auditor->disassembler()}, {"version", auditor->disassembler_version()}}},
           {"compilers", Json::array()},
           {"levels", settings.levels},
           {"kernels", Json::array()}};
  for (const toolchain::Compiler& c : auditor->compilers())
    doc["compilers"].push_back({{"name", c.name}, {"ptxas", c.ptxas.empty() ? "NVRTC" : c.ptxas}, {"version", c.version}});

  std::size_t broken = 0, findings = 0, errors = 0;
  struct Tally {
    std::size_t intact = 0, broke = 0, elided = 0;
  };
  std::map<std::pair<std::size_t, int>, Tally> tally;  // by (compiler, level)
  std::vector<Json> kernel_docs(subjects.size());
  for (std::size_t s = 0; s < subjects.size(); ++s)
    kernel_docs[s] = Json{{"name", subjects[s].kernel.name}, {"rows", subjects[s].rows}, {"audits", Json::array()}};
  std::ostringstream details;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Subject& s = subjects[tasks[i].subject];
    const toolchain::KernelAudit& a = audits[i];
    Json audit{{"compiler", a.compiler.name}, {"level", a.level}, {"intact", a.error.empty() && a.check.intact()},
               {"breaks_model", a.error.empty() && a.check.breaks_model()},
               {"copies", a.check.copies}, {"findings", Json::array()}};
    if (!a.lowered_to.empty()) audit["ptx_version_lowered_to"] = a.lowered_to;
    auto& t = tally[{tasks[i].compiler, a.level}];
    if (!a.error.empty()) {
      ++errors;
      audit["error"] = a.error;
      details << "ERROR   " << a.compiler.name << " -O" << a.level << "  " << s.kernel.name << ": " << a.error << "\n";
    } else if (a.check.intact()) {
      ++t.intact;
      if (o.verbose) details << "intact  " << a.compiler.name << " -O" << a.level << "  " << s.rows.front() << "\n";
    } else {
      ++(a.check.breaks_model() ? t.broke : t.elided);
      ++broken;
      details << (a.check.breaks_model() ? "BROKEN  " : "ELIDED  ") << a.compiler.name << " -O" << a.level << "  " << s.rows.front();
      if (s.rows.size() > 1) details << " (and " << s.rows.size() - 1 << " more rows of its kernel)";
      details << "\n";
      for (const toolchain::Finding& f : a.check.findings) {
        ++findings;
        audit["findings"].push_back(finding_json(a, f));
        details << toolchain::finding_text(a, f, "  ");
      }
      if (o.verbose)
        for (const std::string& note : a.check.notes) details << "  note: " << note << "\n";
      if (!o.repro_dir.empty()) {
        const fs::path dir = toolchain::write_repro(o.repro_dir, s.kernel, s.rows, a, *auditor);
        details << "  reproducer: " << dir.string() << "\n";
      }
    }
    kernel_docs[tasks[i].subject]["audits"].push_back(std::move(audit));
  }
  for (Json& k : kernel_docs) doc["kernels"].push_back(std::move(k));

  console << details.str();
  for (const auto& [key, t] : tally)
    console << auditor->compilers()[key.first].name << " -O" << key.second << ": " << t.intact << " kernels intact, " << t.broke
            << " broke the model, " << t.elided << " elided an operation as the model allows\n";
  console << (findings + errors == 0 ? "toolchain: ok" : "toolchain: FAILED") << " -- " << broken << " kernel compilations ("
          << findings << " findings) did not keep every operation, " << errors << " could not be checked\n";
  if (o.json_given) {
    if (json_to_stdout) {
      out << doc.dump(2) << "\n";
    } else {
      std::ofstream f(o.json);
      f << doc.dump(2) << "\n";
      if (!f) throw InputError(o.json + ": cannot write");
    }
  }
  return findings + errors == 0 ? kExitOk : kExitFailure;
}

}  // namespace vmmcheck::cli
