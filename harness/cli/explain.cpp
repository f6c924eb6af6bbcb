#include "cli/explain.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/console.hpp"
#include "common/text.hpp"
#include "model/controls.hpp"
#include "codegen/generator.hpp"
#include "model/oracle.hpp"
#include "model/ptx_model.hpp"
#include "run/rows/row_result.hpp"

#ifndef VMMCHECK_RESULTS_DIR
#define VMMCHECK_RESULTS_DIR "ci/results"
#endif

namespace vmmcheck::cli {

std::vector<std::filesystem::path> shipped_results() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  // Full runs only: not the probes (*.probe.json) nor the isolation self-test runs (*.planted.json).
  for (const auto& e : std::filesystem::directory_iterator(VMMCHECK_RESULTS_DIR, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".json" && name.find(".probe.") == std::string::npos &&
        name.find(".planted.") == std::string::npos)
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

std::string observed(const std::string& name, const std::vector<std::filesystem::path>& results) {
  std::ostringstream o;
  for (const auto& file : results) {
    std::ifstream in(file);
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.contains("results")) continue;
    for (const auto& r : doc["results"]) {
      if (r.value("name", "") != name) continue;
      const auto& ctx = doc["context"];
      std::string gpu = "?";
      if (ctx.contains("devices") && !ctx["devices"].empty()) gpu = ctx["devices"][0].value("name", "?");
      o << "  " << gpu << ", driver " << ctx.value("driver_release", ctx.value("driver", "?")) << ": " << r.value("status", "?");
      std::string hist;
      for (const auto& [outcome, count] : r["histogram"].items())
        if (count.get<std::uint64_t>()) hist += " " + outcome + "=" + human_count(count.get<std::uint64_t>());
      o << " " << (hist.empty() ? "-" : hist.substr(1)) << " of " << human_count(r.value("instances", 0ull))
        << " instances  (" << file.filename().string() << ")\n";
      // What the runner saw beside the histogram (a driver status, whether an unmap waited, ...).
      if (const std::string reason = r.value("reason", std::string()); !reason.empty()) o << "    " << reason << "\n";
      if (r.contains("power")) {
        const auto& p = r["power"];
        o << "    power: " << (p.value("discriminating", false) ? "yes" : "NO") << ", without "
          << p.value("mechanism", std::string("?")) << " (" << p.value("control", std::string("?")) << "): "
          << human_count(p.value("violations", 0ull)) << " of " << human_count(p.value("instances", 0ull))
          << " forbidden\n";
      }
    }
  }
  return o.str();
}

}  // namespace

std::string explain(const model::Case& c, const std::vector<model::Case>& table,
                    const std::vector<std::filesystem::path>& results) {
  std::ostringstream o;
  o << c.name << "\n  " << c.title << "\n\n";
  o << "Rule:      " << c.verdict.rule << "\n";
  o << "Citation:  " << c.verdict.citation << "\n";
  o << "Expected:  " << model::to_string(c.verdict.expectation);
  if (!c.verdict.outcomes.empty()) {
    o << " -- only";
    for (const std::string& outcome : c.verdict.outcomes) o << " '" << outcome << "'";
  }
  o << "\nWhy:       " << c.verdict.why << "\n";
  if (model::oracle_models(c)) {
    const model::Derivation d = model::derive(c);
    if (d.from_model)
      o << "Model:     " << model::to_string(d.expectation)
        << ", by the PTX proxy memory model (docs/design.md, \"The memory model\") on the case's litmus shape:\n";
    else
      o << "Oracle:    " << model::to_string(d.expectation) << ", derived from the case's contract structure:\n";
    for (const std::string& step : d.steps) o << "  " << (step.rfind("  ", 0) == 0 ? "" : "- ") << step << "\n";
  } else {
    o << "Model:     none -- " << model::not_modelled_because(c) << "\n";
  }
  if (!c.verdict.override_cite.empty())
    o << "Departs from the model, because: " << c.verdict.override_cite << "\n";
  if (const std::optional<model::ControlCase> control = model::control_of(c, table)) {
    if (control->mutant)
      o << "Control:   this case with " << control->mechanism << " removed (mutant "
        << patterns::name_of(*control->mutant) << "): the same launches, in the same order";
    else
      o << "Control:   " << control->control.name << " -- the same case without " << control->mechanism
        << "; a separate case because " << control->separate_because;
    o << ". A run counts the outcomes the case forbids there: a Pass proves something only if they occur\n";
  }
  if (!c.pattern().mutants.empty()) {
    o << "Mutants:   the self-test takes out of pattern " << c.pattern().name << ":";
    for (const patterns::Lives& l : c.pattern().mutants) o << " " << patterns::name_of(l.mutant);
    o << "\n";
    for (const patterns::Lives& l : c.pattern().mutants)
      if (!l.unobservable.empty())
        o << "  " << patterns::name_of(l.mutant) << " may be unobservable here: " << l.unobservable << "\n";
  }
  o << "\nAxes:\n";
  for (const model::PathStep& step : c.path)
    o << "  " << step.axis << " = " << step.value.name << ": " << step.value.description << "\n";
  o << "\nOutcomes (pattern " << c.pattern().name << "):\n";
  for (const patterns::Outcome& out : c.pattern().outcomes)
    o << "  " << out.name << (out.weak ? " (weak)" : "") << ": " << out.description << "\n";
  o << "\nThe pattern:\n" << c.snippet;
  if (!c.snippet.empty() && c.snippet.back() != '\n') o << "\n";
  const std::string seen = observed(c.name, results);
  o << "\nWhat hardware did:\n" << (seen.empty() ? "  no stored result for this case yet\n" : seen);
  o << "\nDefined in " << c.verdict.source << "\n";
  return o.str();
}

namespace {

// What a test's `.memory` is, in words (docs/litmus.md, "Addresses").
const char* memory_words(patterns::Memory m) {
  switch (m) {
    case patterns::Memory::Device: return "device memory";
    case patterns::Memory::Compressible: return "compressible device memory (granted as asked, or the row is NotSupported)";
    case patterns::Memory::HostNuma: return "host memory of the GPU's NUMA node, mapped for the GPU";
  }
  return "?";
}

}  // namespace

std::string explain(const litmus::Row& row, const std::vector<std::filesystem::path>& results) {
  std::ostringstream o;
  const std::string name = litmus::case_name_of(row);
  o << name << "\n" << std::string(name.size(), '=') << "\n\n";
  o << "A litmus row (docs/litmus.md): " << litmus::name_of(row.expect) << " (" << model::ptx::to_string(row.condition)
    << "), " << row.file << ":" << row.line << "\n\nThe test:\n" << row.source;
  if (!row.source.empty() && row.source.back() != '\n') o << "\n";
  const litmus::RowVerdict v = litmus::model_verdict(row);
  o << "\nThe PTX proxy model (docs/litmus-model.md): " << (v.matches ? "as the file says" : "AGAINST the file") << "\n"
    << indented(v.explanation, "  ") << "\n";
  const std::string why_not = codegen::why_not_generated(row.test);
  o << "\nOn a GPU: " << (why_not.empty() ? "one generated kernel ('vmmcheck model " + row.file + " --kernels DIR' writes it)"
                                           : "not run: " + why_not)
    << "\n";
  if (row.test.memory != patterns::Memory::Device)
    o << "  Its locations are " << memory_words(row.test.memory)
      << " (.memory); the model's answer is the same as on device memory: the alias rules name no kind of memory.\n";
  const std::string seen = observed(name, results);
  o << "\nWhat hardware did:\n" << (seen.empty() ? "  no stored result for this row yet\n" : seen);
  return o.str();
}

}  // namespace vmmcheck::cli
