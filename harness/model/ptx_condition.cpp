// Conditions of litmus files (vocabulary/shape.hpp, Expr): their text and their value (ptx_model.hpp).
#include <stdexcept>

#include "model/ptx_model.hpp"

namespace vmmcheck::model::ptx {
namespace {

using patterns::litmus::Expr;
using patterns::litmus::Term;

std::string term_text(const Term& t) { return t.reg.empty() ? std::to_string(t.value) : t.reg; }

std::uint32_t term_value(const Term& t, const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
  if (t.reg.empty()) return t.value;
  for (std::size_t k = 0; k < registers.size(); ++k)
    if (registers[k] == t.reg) return values.at(k);
  throw std::invalid_argument("the condition names register " + t.reg + ", which no load sets");
}

void check_arity(const Expr& e) {
  if (e.kind == Expr::Kind::Not && e.operands.size() != 1) throw std::invalid_argument("a `not` takes one condition");
}

}  // namespace

std::string to_string(const Expr& e) {
  check_arity(e);
  switch (e.kind) {
    case Expr::Kind::Eq: return term_text(e.lhs) + " == " + term_text(e.rhs);
    case Expr::Kind::Ne: return term_text(e.lhs) + " != " + term_text(e.rhs);
    case Expr::Kind::Not: return "not (" + to_string(e.operands.front()) + ")";
    case Expr::Kind::And:
    case Expr::Kind::Or: {
      const bool conjunction = e.kind == Expr::Kind::And;
      if (e.operands.empty()) return conjunction ? "true" : "false";
      std::string out;
      for (const Expr& o : e.operands) {
        // && binds tighter than ||: a disjunction inside a conjunction keeps its parentheses.
        const bool parenthesise = conjunction && o.kind == Expr::Kind::Or && o.operands.size() > 1;
        const std::string text = parenthesise ? "(" + to_string(o) + ")" : to_string(o);
        out += (out.empty() ? "" : (conjunction ? " && " : " || ")) + text;
      }
      return out;
    }
  }
  return "?";
}

bool holds(const Expr& e, const std::vector<std::string>& registers, const std::vector<std::uint32_t>& values) {
  check_arity(e);
  switch (e.kind) {
    case Expr::Kind::Eq: return term_value(e.lhs, registers, values) == term_value(e.rhs, registers, values);
    case Expr::Kind::Ne: return term_value(e.lhs, registers, values) != term_value(e.rhs, registers, values);
    case Expr::Kind::Not: return !holds(e.operands.front(), registers, values);
    case Expr::Kind::And:
    case Expr::Kind::Or: {
      bool all = true, any = false;
      for (const Expr& o : e.operands) {
        const bool h = holds(o, registers, values);  // first, so that no operand goes unchecked
        all = all && h;
        any = any || h;
      }
      return e.kind == Expr::Kind::And ? all : any;
    }
  }
  return false;
}

}  // namespace vmmcheck::model::ptx
