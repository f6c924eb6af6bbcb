#include "run/litmus/row_result.hpp"

#include <cctype>
#include <sstream>

#include "model/ptx_model.hpp"

namespace vmmcheck::run {
namespace {

using patterns::litmus::Expr;
using patterns::litmus::Term;

std::string stem_of(const litmus::Row& row) {
  const std::string& n = row.name;
  return n.substr(0, n.find('.'));
}

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

std::string command_of(const litmus::Row& row) { return row.name.substr(row.name.rfind('.') + 1); }

// The file as results cite it: a shipped file by its place in the repository (cases/litmus/MP.test),
// whatever folder it was read from; any other as given.
std::string cited_path(const std::string& file) {
  const std::string shipped = "/cases/litmus/";
  const std::size_t at = file.rfind(shipped);
  return at == std::string::npos ? file : file.substr(at + 1);
}

// The outcome "every register holds what it held in this instance", for the model.
Expr exactly(const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
  Expr all;
  for (std::size_t k = 0; k < registers.size(); ++k) {
    Expr eq;
    eq.kind = Expr::Kind::Eq;
    eq.lhs = Term{registers[k], 0};
    eq.rhs = Term{"", values[k]};
    if (k == 0) {
      all = eq;
    } else {
      Expr both;
      both.kind = Expr::Kind::And;
      both.operands = {all, eq};
      all = both;
    }
  }
  return all;
}

std::string outcome_text(const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
  std::string s;
  for (std::size_t k = 0; k < registers.size(); ++k) s += (k ? " " : "") + registers[k] + "=" + std::to_string(values[k]);
  return s;
}

// The preconditions of a file ("ld.acquire r0, [flag] == 1"): instances where a load read another value
// answer no question the file asks, so they are counted but not judged.
bool preconditions_met(const litmus::Row& row, const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
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

RowVerdict model_verdict(const litmus::Row& row) {
  // permit/check: is an execution satisfying the condition allowed? assert: is one violating it allowed?
  Expr asked = row.condition;
  if (row.expect == litmus::Expect::Assert) {
    Expr negated;
    negated.kind = Expr::Kind::Not;
    negated.operands = {row.condition};
    asked = negated;
  }
  const model::ptx::Decision d = model::ptx::decide(row.test, asked);
  RowVerdict v;
  v.model_allows = d.allowed;
  v.matches = row.expect == litmus::Expect::Assert ? !d.allowed : d.allowed;
  std::string lines = d.reason;
  for (const std::string& w : d.witness) lines += "\n  " + w;
  v.explanation = lines;
  return v;
}

std::string answer_of(const litmus::Row& row, const RowVerdict& v) {
  if (row.expect == litmus::Expect::Assert) return v.model_allows ? "violable" : "holds";
  return v.model_allows ? "allowed" : "forbidden";
}

std::string case_name_of(const litmus::Row& row) {
  std::string name = "litmus." + token(stem_of(row));
  if (row.instance >= 0) name += "." + std::to_string(row.instance);
  return name + "." + token(command_of(row));
}

CaseResult begin_row_result(const litmus::Row& row) {
  CaseResult r;
  r.name = case_name_of(row);
  r.family = "litmus." + token(stem_of(row));
  r.pattern = "litmus";
  r.axes = {{"file", token(stem_of(row))},
            {"instance", row.instance < 0 ? std::string("none") : std::to_string(row.instance)},
            {"command", token(command_of(row))},
            {"expect", litmus::name_of(row.expect)}};
  r.expectation = model::Expectation::Required;
  r.rule = "every outcome the GPU shows must be one the PTX proxy model allows; the file asks whether " +
           model::ptx::to_string(row.condition) + " is " +
           (row.expect == litmus::Expect::Assert ? "always the case" : "possible");
  r.citation = "PTX ISA, Memory Consistency Model; " + cited_path(row.file) + ":" + std::to_string(row.line) + "; docs/litmus-model.md";
  return r;
}

void judge_row(const litmus::Row& row, const RowOutcomes& seen, CaseResult& r) {
  r.histogram.clear();
  r.instances = seen.instances;
  r.gpu_seconds = seen.gpu_seconds;
  std::uint64_t judged = 0, unmet = 0, asked = 0, forbidden = 0;
  std::string forbidden_list;
  for (const auto& [values, count] : seen.counts) {
    const std::string text = outcome_text(seen.registers, values);
    r.histogram.emplace_back(text, count);
    if (!preconditions_met(row, seen.registers, values)) {
      unmet += count;
      continue;
    }
    judged += count;
    if (!model::ptx::decide(row.test, exactly(seen.registers, values)).allowed) {
      forbidden += count;
      forbidden_list += (forbidden_list.empty() ? "" : ", ") + text + " (" + std::to_string(count) + ")";
    }
    if (model::ptx::holds(row.condition, seen.registers, values) != (row.expect == litmus::Expect::Assert)) asked += count;
  }
  r.weak = asked;
  r.judged = judged;
  const RowVerdict v = model_verdict(row);
  std::ostringstream o;
  o << litmus::name_of(row.expect) << " (" << model::ptx::to_string(row.condition) << "): the model "
    << (v.model_allows ? "allows" : "forbids") << " "
    << (row.expect == litmus::Expect::Assert ? "a violation" : "it")
    << (v.matches ? " as the file says" : ", AGAINST the file's " + std::string(litmus::name_of(row.expect))) << "; seen "
    << rate_text(asked, judged) << " of the instances meeting the preconditions";
  if (unmet > 0) o << "; " << unmet << " instances did not meet them";
  if (forbidden > 0) {
    r.status = Status::Fail;
    o << "; outcomes the model forbids: " << forbidden_list;
  } else if (seen.instances == 0) {
    r.status = Status::Error;
    o << "; no instance ran";
  } else {
    r.status = Status::Pass;
  }
  r.reason = o.str();
}

void attribute_failure(const litmus::Row& row, const RowOutcomes& unoptimized, CaseResult& r) {
  if (r.status != Status::Fail) return;
  CaseResult again = begin_row_result(row);
  judge_row(row, unoptimized, again);
  std::uint64_t forbidden = 0;
  for (const auto& [values, count] : unoptimized.counts)
    if (preconditions_met(row, unoptimized.registers, values) &&
        !model::ptx::decide(row.test, exactly(unoptimized.registers, values)).allowed)
      forbidden += count;
  if (again.status == Status::Pass && forbidden == 0) {
    r.status = Status::Warning;
    r.reason += "; compiled with ptxas -O0 the same row showed none of them in " + std::to_string(unoptimized.instances) +
                " instances: the optimising compiler is implicated, the GPU ran the unoptimised kernel as the model says "
                "(a toolchain finding: read the SASS of `vmmcheck model --kernels`; docs/litmus.md)";
  } else {
    r.reason += "; compiled with ptxas -O0 it showed " + std::to_string(forbidden) + " too: the GPU";
  }
}

}  // namespace vmmcheck::run
