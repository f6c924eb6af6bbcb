#include "cli/list_json.hpp"

#include <set>
#include <string>

#include "model/oracle.hpp"
#include "model/ptx_model.hpp"
#include "run/rows/row_result.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::cli {
namespace {

using json = nlohmann::ordered_json;

json axes_of(const model::Case& c) {
  json axes = json::object();
  for (const model::PathStep& step : c.path) axes[step.axis] = step.value.value;
  return axes;
}

json family_json(const model::Family& f) {
  json axes = json::array();
  for (const model::Axis& a : f.axes) {
    json values = json::array();
    for (const model::AxisValue& v : a.values)
      values.push_back({{"value", v.value}, {"name", v.name}, {"description", v.description}});
    axes.push_back({{"name", a.name}, {"doc", a.doc}, {"values", values}});
  }
  json outcomes = json::array();
  const model::PatternInfo* pattern = model::find_pattern(f.pattern);
  if (pattern)
    for (const patterns::Outcome& o : pattern->outcomes)
      outcomes.push_back({{"name", std::string(o.name)}, {"weak", o.weak}, {"description", std::string(o.description)}});
  json prunes = json::array();
  for (const model::PruneRule& p : f.prunes) prunes.push_back({{"name", p.name}, {"why", p.why}, {"when", p.when}, {"source", p.source}});
  json fixed = json::object();
  for (const auto& [axis, token] : f.fixed) fixed[axis] = token;
  return json{{"name", f.name},     {"pattern", f.pattern}, {"title", f.title},       {"source", f.source},
              {"labels", f.labels}, {"axes", axes},         {"fixed", fixed},         {"outcomes", outcomes},
              {"prunes", prunes},   {"pruned", f.pruned}};
}

// How the oracle derives the case's expectation (model/oracle.hpp): by the PTX proxy model or the
// contract structure, the rules applied in order; or why nothing models it.
json derivation_of(const model::Case& c) {
  if (!model::oracle_models(c)) return json{{"modelled", false}, {"because", model::not_modelled_because(c)}};
  const model::Derivation d = model::derive(c);
  return json{{"modelled", true},
              {"by", d.from_model ? "the PTX proxy model" : "the contract structure"},
              {"expectation", model::to_string(d.expectation)},
              {"outcomes", d.outcomes},
              {"steps", d.steps}};
}

// The litmus shape the model decides, for diagrams: threads as columns (their operations as a litmus
// file writes them), the operation boundaries between them, and the outcome asked about.
json shape_of(const model::Case& c) {
  const std::optional<patterns::litmus::Litmus> l = model::litmus_shape(c);
  if (!l) return nullptr;
  json threads = json::array();
  for (const auto& t : l->threads) {
    json ops = json::array();
    for (const auto& op : t.ops) ops.push_back(model::ptx::instruction_text(*l, op));
    threads.push_back({{"name", t.name}, {"gpu", t.gpu}, {"cta", t.cta}, {"resident", t.resident}, {"ops", ops}});
  }
  json boundaries = json::array();
  for (const auto& [a, b] : l->boundaries) boundaries.push_back({a, b});
  std::string weak;
  for (const auto& w : l->weak) weak += (weak.empty() ? "" : " && ") + w.reg + (w.equal ? " == " : " != ") + std::to_string(w.value);
  return json{{"threads", threads}, {"boundaries", boundaries}, {"weak", weak}};
}

// A litmus row as `run` records it (its case name, family and expectation) with the question its file
// asks and the model's answer and explanation (what `vmmcheck model` and `explain` print).
json row_json(const litmus::Row& row, const litmus::RowVerdict& v) {
  const run::CaseResult r = run::begin_row_result(row);
  return json{{"name", r.name},
              {"family", r.family},
              {"pattern", r.pattern},
              {"axes", [&] {
                 json axes = json::object();
                 for (const auto& [axis, value] : r.axes) axes[axis] = value;
                 return axes;
               }()},
              {"expectation", model::to_string(r.expectation)},
              {"file", row.file},
              {"line", row.line},
              {"expect", litmus::name_of(row.expect)},
              {"condition", model::ptx::to_string(row.condition)},
              {"source", row.source},  // the row's own test: the template's holes filled
              {"model", litmus::answer_of(row, v)},
              {"matches", v.matches},
              {"vacuous", v.vacuous},
              {"explanation", v.explanation}};
}

}  // namespace

json list_document(const model::CaseTable& table, const std::vector<const model::Case*>& selected,
                   const std::vector<litmus::Row>& rows, const std::vector<litmus::RowVerdict>& verdicts) {
  json cases = json::array();
  std::set<std::string> families;
  for (const model::Case* c : selected) {
    cases.push_back({{"name", c->name},
                     {"family", c->family},
                     {"pattern", std::string(c->pattern().name)},
                     {"axes", axes_of(*c)},
                     {"expectation", model::to_string(c->verdict.expectation)},
                     {"outcomes", c->verdict.outcomes},
                     {"labels", c->labels},
                     {"rule", c->verdict.rule},
                     {"citation", c->verdict.citation},
                     {"why", c->verdict.why},
                     {"derivation", derivation_of(*c)},
                     {"shape", shape_of(*c)}});
    families.insert(c->family);
  }
  json family_list = json::array();
  for (const model::Family& f : table.families)
    if (families.count(f.name)) family_list.push_back(family_json(f));
  json litmus_rows = json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) litmus_rows.push_back(row_json(rows[i], verdicts[i]));
  return json{{"schema", "vmmcheck-list/1"},
              {"schema_version", run::kSchemaVersion},
              {"families", family_list},
              {"cases", cases},
              {"litmus_rows", litmus_rows}};
}

}  // namespace vmmcheck::cli
