#include "litmus/rows.hpp"

#include <cctype>
#include <stdexcept>

#include "common/error.hpp"
#include "model/ptx_model.hpp"

namespace vmmcheck::litmus {
namespace {

using patterns::litmus::Expr;

std::string stem_of(const Row& row) { return row.name.substr(0, row.name.find('.')); }

// Names and axis tokens of the results are [a-z0-9_] (schema/results.schema.json): file stems and
// command names are lowered, anything else becomes '_'.
std::string token(const std::string& text) {
  std::string out = text;
  for (char& ch : out) {
    const unsigned char c = static_cast<unsigned char>(ch);
    ch = std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '_';
  }
  return out.empty() ? "_" : out;
}

}  // namespace

RowVerdict model_verdict(const Row& row) {
  // permit/check: is an execution satisfying the condition allowed? assert: is one violating it allowed?
  Expr asked = row.condition;
  if (row.expect == Expect::Assert && row.condition.kind == Expr::Kind::Not && row.condition.operands.size() == 1) {
    asked = row.condition.operands.front();  // assert (not c) asks c: said without "not (not c)"
  } else if (row.expect == Expect::Assert) {
    Expr negated;
    negated.kind = Expr::Kind::Not;
    negated.operands = {row.condition};
    asked = negated;
  }
  const model::ptx::Readings d = model::ptx::decide_readings(row.test, asked);
  RowVerdict v;
  v.isa_allows = d.isa.allowed;
  v.artifact_allows = d.artifact.allowed;
  const bool assert_row = row.expect == Expect::Assert;
  v.matches = assert_row ? !v.artifact_allows : v.isa_allows;
  if (assert_row && v.isa_allows && !v.artifact_allows) v.expectation = model::Expectation::Model;
  for (const std::string& line : model::ptx::explanation(d)) v.explanation += (v.explanation.empty() ? "" : "\n") + line;
  // The coverage of what was asked: for an assert row, of the condition's negation.
  v.vacuous = d.isa.coverage != model::ptx::Coverage::Some;
  return v;
}

RowVerdict verdict_of(const Row& row) {
  try {
    return model_verdict(row);
  } catch (const std::invalid_argument& e) {
    throw InputError(row.file + ":" + std::to_string(row.line) + ": " + row.name + ": the model cannot take it: " + e.what());
  }
}

std::string answer_of(const Row& row, const RowVerdict& v) {
  const auto word = [&](bool allows) {
    return row.expect == Expect::Assert ? (allows ? "violable" : "holds") : (allows ? "allowed" : "forbidden");
  };
  if (!v.readings_differ()) return word(v.isa_allows);
  return std::string(word(v.isa_allows)) + " in the ISA, " + word(v.artifact_allows) + " in the artifact";
}

std::string file_token(const Row& row) { return token(stem_of(row)); }
std::string command_token(const Row& row) { return token(row.name.substr(row.name.rfind('.') + 1)); }
std::string family_of(const Row& row) { return "litmus." + file_token(row); }

std::string row_name_of(const Row& row) {
  std::string name = family_of(row);
  if (row.instance >= 0) name += "." + std::to_string(row.instance);
  return name + "." + command_token(row);
}

std::string case_name_of(const Row& row) { return row.case_name.empty() ? row_name_of(row) : row.case_name; }

}  // namespace vmmcheck::litmus
