#include "litmus/test_text.hpp"

#include <sstream>

#include "model/ptx_model.hpp"

namespace vmmcheck::litmus {

namespace lt = patterns::litmus;

std::string op_text(const lt::Litmus& test, const lt::Op& op) {
  std::string text = model::ptx::instruction_text(test, op);
  // A precondition ("== 1") is part of the operation as the file writes it; a spin's is already there.
  if (op.must_read >= 0 && !op.spin && (op.kind == lt::OpKind::Load || op.kind == lt::OpKind::AtomAdd))
    text += " == " + std::to_string(op.must_read);
  return text;
}

namespace {

void declare(std::ostringstream& o, const lt::Litmus& test, std::size_t a) {
  const lt::Address& addr = test.addresses[a];
  if (addr.same_as >= 0) {
    const char* kind = addr.declared == lt::Proxy::Surface ? ".surfref" : ".texref";
    o << kind << " " << addr.name << " virtually aliases " << test.addresses[static_cast<std::size_t>(addr.same_as)].name << ";\n";
    return;
  }
  o << (addr.shared ? ".shared " : ".global ") << addr.name;
  bool alias = false;
  for (std::size_t b = 0; b < a; ++b) {  // the first address of its location is the one it aliases
    const lt::Address& earlier = test.addresses[b];
    if (earlier.same_as < 0 && earlier.shared == addr.shared && earlier.location == addr.location) {
      o << " physically aliases " << earlier.name << (addr.offset_view ? " offset" : "");
      alias = true;
      break;
    }
  }
  if (!alias && addr.initial != 0) o << " = " << addr.initial;
  o << ";\n";
}

}  // namespace

std::string test_text(const Row& row) {
  const lt::Litmus& test = row.test;
  std::ostringstream o;
  if (test.memory != patterns::Memory::Device) o << ".memory " << patterns::token(test.memory) << ";\n";
  for (std::size_t a = 0; a < test.addresses.size(); ++a) declare(o, test, a);
  for (const lt::Thread& th : test.threads) {
    o << "\nd" << th.gpu << ".b" << th.cta << ".t" << th.lane << " {\n";
    for (const lt::Op& op : th.ops) o << "  " << op_text(test, op) << (op.kind == lt::OpKind::Label ? "\n" : ";\n");
    o << "}\n";
  }
  for (const lt::Expr& f : test.filter) o << "\nfilter (" << model::ptx::to_string(f) << ");\n";
  const std::size_t dot = row.name.rfind('.');
  o << "\n" << name_of(row.expect) << " (" << model::ptx::to_string(row.condition) << ") as "
    << (dot == std::string::npos ? row.name : row.name.substr(dot + 1)) << ";\n";
  return o.str();
}

}  // namespace vmmcheck::litmus
