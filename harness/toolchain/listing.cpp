#include "toolchain/listing.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <regex>
#include <sstream>

namespace vmmcheck::toolchain {
namespace {

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r") + 1 - a);
}

}  // namespace

std::string Instruction::text() const {
  char at[16];
  std::snprintf(at, sizeof at, "/*%04x*/", offset);
  std::string s = std::string(at) + " ";
  if (!predicate.empty()) s += predicate + " ";
  s += opcode;
  if (!operands.empty()) s += " " + operands;
  return s + " ;";
}

std::vector<Function> read_sass(const std::string& listing) {
  // nvdisasm's forms: a section header ".section .text.<name>,...", a line-table entry
  // ("//## File "x.cu", line 91" with -g; "... inlined at ..." after it with -gi: the first file and
  // line are the instruction's own), and "/*0730*/  @!P0 LD.E R19, desc[UR10][R18.64] ;" (cuobjdump
  // appends "/* 0x... */": ignored). Read by hand: a listing of many kernels has 10^5 lines.
  std::vector<Function> out;
  std::string file;
  int line = 0;
  std::size_t at = 0;
  while (at < listing.size()) {
    std::size_t end = listing.find('\n', at);
    if (end == std::string::npos) end = listing.size();
    const std::string_view text(listing.data() + at, end - at);
    at = end + 1;
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    const std::string_view t = text.substr(first);
    if (t.rfind(".section", 0) == 0) {
      const std::size_t name = t.find(".text.");
      if (name == std::string_view::npos) continue;
      const std::size_t stop = t.find_first_of(", \t", name);
      out.push_back(Function{std::string(t.substr(name + 6, stop == std::string_view::npos ? std::string_view::npos : stop - name - 6)), {}});
      file.clear();
      line = 0;
    } else if (t.rfind("//## File \"", 0) == 0) {
      const std::size_t close = t.find('"', 11);
      const std::size_t number = close == std::string_view::npos ? close : t.find("line ", close);
      if (number == std::string_view::npos) continue;
      file = std::string(t.substr(11, close - 11));
      line = std::atoi(std::string(t.substr(number + 5, 12)).c_str());
    } else if (!out.empty() && t.rfind("/*", 0) == 0) {
      const std::size_t close = t.find("*/");
      const std::size_t semicolon = t.find(';');
      if (close == std::string_view::npos || semicolon == std::string_view::npos || close > semicolon) continue;
      const std::string offset(t.substr(2, close - 2));
      if (offset.empty() || offset.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) continue;
      std::string body = trim(std::string(t.substr(close + 2, semicolon - close - 2)));
      Instruction i;
      i.offset = static_cast<std::uint32_t>(std::stoul(offset, nullptr, 16));
      if (!body.empty() && body[0] == '@') {
        const std::size_t space = body.find_first_of(" \t");
        i.predicate = body.substr(0, space);
        body = trim(space == std::string::npos ? std::string() : body.substr(space));
      }
      const std::size_t space = body.find_first_of(" \t");
      i.opcode = body.substr(0, space);
      i.operands = space == std::string::npos ? std::string() : trim(body.substr(space));
      if (i.opcode.empty() || !(i.opcode[0] >= 'A' && i.opcode[0] <= 'Z')) continue;
      i.file = file;
      i.line = line;
      out.back().code.push_back(std::move(i));
    }
  }
  return out;
}

std::vector<PtxInstruction> read_ptx(const std::string& ptx) {
  static const std::regex loc(R"re(^\s*\.loc\s+\d+\s+(\d+))re");
  std::vector<PtxInstruction> out;
  std::istringstream in(ptx);
  std::string text;
  int number = 0, source_line = 0;
  std::smatch m;
  while (std::getline(in, text)) {
    ++number;
    if (std::regex_search(text, m, loc)) {
      source_line = std::stoi(m[1].str());
      continue;
    }
    std::string t = trim(text);
    const std::size_t comment = t.find("//");
    if (comment != std::string::npos) t = trim(t.substr(0, comment));
    // A statement: not a directive (.reg, .param ...), not a lone brace. An inline-asm block on one
    // line ("{ .reg .b32 y; tex.1d... ; }") is kept whole.
    if (t.empty() || t[0] == '.' || t == "{" || t == "}" || t.back() == ':') continue;
    if (t.back() == ';') t.pop_back();
    out.push_back(PtxInstruction{number, source_line, trim(t)});
  }
  return out;
}

}  // namespace vmmcheck::toolchain
