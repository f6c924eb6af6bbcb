// herd-style PTX litmus files, translated into the artifact's language (docs/litmus.md, "herd-style
// files"). The grammar followed is the one Dat3M reads (its LitmusPTX); what this reader decides:
// - `PTX NAME`, then any quoted lines (comments), then `{ ... }`: locations (`x = 0`), proxy aliases
//   (`y @ generic|texture|surface|constant aliases x`) and register values (`P0:r1 = 0`); a location's
//   value is its initial value (`.global x = 2;`); a register's is put where the register is used
//   before an instruction of its thread sets it (any register starts at 0, as in herd). A
//   location the program names but the block does not is a location of its own, starting at 0, as herd
//   has it.
// - The program: a header row `P0@cta C,gpu G | ...;`, then rows of `|`-separated instructions, each row
//   ending in `;`. Thread Pn runs on GPU G in CTA C, as the next lane of that CTA in P order. A thread
//   with no instruction orders nothing and is left out (a comment in the translation says so).
// - Registers are the thread's own in herd (P0:r1 and P1:r1 differ): each (thread, register) becomes one
//   r<k> of the language, k counted in order of first appearance; the translation's comments say which.
// - `generic aliases` is `physically aliases` (another virtual address of the memory); `texture` and
//   `surface aliases` are .texref and .surfref synonyms; a `constant` alias names its target's address,
//   read by `cold` as ldc.
// - `exists C` is `check (C)`, `~exists C` is `assert (not (C))`, `forall C` is `assert (C)`; /\ is &&, \/
//   is ||, ~ is not; a location in a condition is its final value ([x]). `filter C` before it is the
//   language's `filter (C);`.
// - `bar.cta.sync ID` (or bar.sync, barrier.sync): the language's CTA barrier; Dat3M's named barrier
//   `bar.cta.sync ID, R` and `bar.cta.sync ID, R, Q` (instance ID, logical barrier R, quorum Q) the
//   language's `bar.cta.sync ID, id R, quorum Q`; bar.cta.arrive the language's.
// - atom.exch and atom.cas are the language's (`atom.cas r, [x], expected, new`).
// - `ld r1, 1` (no qualifier, an integer) moves a value into a register: no instruction of its own, its
//   value is put where the register is used, until the register is set again.
// - A condition's register is P1:r0, or 1:r0.
// - (* ... *) comments are blanks.
#include "litmus/herd.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "common/text.hpp"
#include "litmus/ascii.hpp"
#include "litmus/parser.hpp"

namespace vmmcheck::litmus {
namespace {


// User text in a message: at most 40 characters of it, printable.
std::string shown(const std::string& s) { return one_printable_line(s, 40); }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// Names ([A-Za-z_][A-Za-z0-9_]*) and integers ([0-9]+) are matched by hand: std::regex's matcher recurses
// once a character, and a name of some 50,000 characters overflowed the stack.
bool is_name(const std::string& s) {
  return !s.empty() && syntax::is_word_start(s[0]) && std::all_of(s.begin(), s.end(), syntax::is_word_char);
}
bool is_digits(const std::string& s) { return !s.empty() && std::all_of(s.begin(), s.end(), syntax::is_digit); }

// "P3 : r0" is P3:r0: the blanks around a ':' after a number go (by hand, for the same reason).
std::string joined_at_colons(const std::string& t) {
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == ':') {
      std::size_t k = out.size();
      while (k > 0 && std::isspace(static_cast<unsigned char>(out[k - 1]))) --k;
      if (k > 0 && std::isdigit(static_cast<unsigned char>(out[k - 1]))) {
        out.resize(k);
        out += ':';
        while (i + 1 < t.size() && std::isspace(static_cast<unsigned char>(t[i + 1]))) ++i;
        continue;
      }
    }
    out += t[i];
  }
  return out;
}
// A keyword at the start of `s`, as a word: "exists (" and "exists x", not "existsx" (a location).
bool starts_with_word(const std::string& s, const std::string& word) {
  return starts_with(s, word) &&
         (s.size() == word.size() || !(std::isalnum(static_cast<unsigned char>(s[word.size()])) || s[word.size()] == '_'));
}

// The text with (* ... *) comments turned to blanks (newlines kept, so lines keep their numbers).
std::string without_comments(const std::string& text, const std::string& path) {
  std::string out = text;
  int line = 1, opened_at = 0;
  bool inside = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\n') {
      ++line;
      continue;
    }
    if (!inside && out[i] == '(' && i + 1 < out.size() && out[i + 1] == '*') {
      inside = true;
      opened_at = line;
      out[i] = out[i + 1] = ' ';
      ++i;
    } else if (inside && out[i] == '*' && i + 1 < out.size() && out[i + 1] == ')') {
      inside = false;
      out[i] = out[i + 1] = ' ';
      ++i;
    } else if (inside) {
      out[i] = ' ';
    }
  }
  if (inside) throw ParseError(path, opened_at, 1, "a (* comment is never closed");
  return out;
}

struct Translator {
  std::string path;
  std::vector<std::string> lines;  // the file's lines, comments blanked
  std::size_t at = 0;              // the next line to read (0-based)
  std::string name;                // the test's, after PTX

  // What the file declares and uses.
  struct Declared {
    std::string name;
    enum class Kind { Location, Generic, Texture, Surface, Constant } kind = Kind::Location;
    std::string of;  // an alias's target
    int line = 0;
    std::string initial = "0";  // a location's value before the test
  };
  std::vector<Declared> declared;
  std::map<std::string, std::size_t> by_name;
  std::vector<std::string> used;  // locations named by the program or the condition, in order

  struct ThreadOut {
    std::string head;  // dD.bB.tT
    int line = 0;
    std::vector<std::pair<std::string, int>> ops;  // language text, herd line
  };
  std::vector<ThreadOut> threads;
  std::map<std::string, std::string> registers;  // "P0:r1" -> "r0"
  std::map<std::string, std::string> constants;  // "P0:r1" -> "1": set by `ld r1, 1` (a move), not yet overwritten
  std::map<std::string, std::string> initial_registers;  // "P0:r1" -> "1": the init block's values
  struct Given {
    int line, thread;
  };
  std::map<std::string, Given> given_registers;           // every register the init block names: its line, its thread
  std::set<std::string> set_registers;                    // "P0:r1": set by an instruction of the program
  std::map<std::string, std::string> sums;                // "P0:r2" -> "r0 + 1": set by `add r2, r1, 1`
  // Per thread, the first line of a branch or label, and of a move or add: values put in by text order
  // hold on every path only in a thread without branches.
  std::map<int, int> branch_line, move_line;
  std::vector<std::pair<std::string, std::string>> register_order;

  [[noreturn]] void malformed(int line, const std::string& what) const { throw ParseError(path, line, 1, what); }
  [[noreturn]] void unsupported(int line, const std::string& what) const {
    throw UnsupportedConstruct(path, line, 1, what + ": not in vmmcheck's litmus language yet");
  }
  // What the declaration, header and condition patterns (std::regex) match is bounded, for is_name's reason.
  static constexpr std::size_t kMostMatched = 1000;
  void not_too_long(const std::string& text, int line) const {
    if (text.size() > kMostMatched) malformed(line, "'" + shown(text) + "' is longer than " + std::to_string(kMostMatched) + " characters");
  }

  // A thread, CTA or GPU number: at most nine digits (a larger one is no test's).
  int small_number(const std::string& digits, int line, const std::string& what) const {
    if (digits.size() > 9) malformed(line, what + " " + digits.substr(0, 12) + (digits.size() > 12 ? "..." : "") + " is too large");
    return std::stoi(digits);
  }
  static bool is_zero(const std::string& integer) {
    return integer.find_first_not_of("-0") == std::string::npos;
  }

  bool blank(std::size_t i) const { return trimmed(lines[i]).empty(); }
  int number(std::size_t i) const { return static_cast<int>(i) + 1; }
  void skip_blanks() {
    while (at < lines.size() && blank(at)) ++at;
  }

  // A register operand as written: a name, as herd's registers are (not "", not "5 6 7").
  std::string register_operand(const std::string& text, int line) const {
    const std::string name = trimmed(text);
    if (!is_name(name)) malformed(line, "expected a register, found '" + shown(name) + "'");
    return name;
  }

  // The language's register for thread `thread`'s herd register `reg`.
  std::string reg(int thread, const std::string& name) {
    const std::string key = "P" + std::to_string(thread) + ":" + name;
    auto it = registers.find(key);
    if (it != registers.end()) return it->second;
    const std::string mine = "r" + std::to_string(registers.size());
    registers.emplace(key, mine);
    register_order.emplace_back(key, mine);
    return mine;
  }

  void use(const std::string& location) {
    if (std::find(used.begin(), used.end(), location) == used.end()) used.push_back(location);
  }

  // An address operand: a name the language can read (a constant alias is its target's address).
  std::string address(const std::string& text, int line) {
    const std::string name = trimmed(text);
    if (!is_name(name)) malformed(line, "expected a location name, found '" + shown(name) + "'");
    use(name);
    auto it = by_name.find(name);
    if (it != by_name.end() && declared[it->second].kind == Declared::Kind::Constant) return declared[it->second].of;
    return name;
  }

  // A value operand: an integer (0 to 2^32 - 1) or one of the thread's registers.
  std::string value(const std::string& text, int thread, int line) {
    const std::string v = trimmed(text);
    if (is_digits(v)) {
      if (v.size() > 10 || std::stoull(v) > 0xFFFFFFFFull) unsupported(line, "the value " + shown(v) + " (values are 32-bit)");
      return v;
    }
    if (v.size() > 1 && v[0] == '-' && is_digits(v.substr(1))) unsupported(line, "the negative value " + shown(v));
    if (is_name(v)) {
      const std::string key = "P" + std::to_string(thread) + ":" + v;
      auto c = constants.find(key);
      if (c != constants.end()) return c->second;
      if (auto sum = sums.find(key); sum != sums.end()) return sum->second;
      if (!set_registers.count(key)) {  // not set yet: its initial value
        auto i = initial_registers.find(key);
        return i == initial_registers.end() ? "0" : i->second;
      }
      return reg(thread, v);
    }
    malformed(line, "expected an integer or a register, found '" + shown(v) + "'");
  }

  // A branch's operand: an integer or a register, not a sum.
  std::string compared(const std::string& text, int thread, int line) {
    const std::string v = value(text, thread, line);
    if (v.find('+') != std::string::npos) unsupported(line, "a branch on a register set by add ('" + shown(text) + "')");
    return v;
  }

  void header() {
    skip_blanks();
    if (at == lines.size()) malformed(number(at == 0 ? 0 : at - 1), "expected 'PTX NAME' (a herd-style PTX litmus file), found the end of the file");
    const std::string first = trimmed(lines[at]);
    if (!starts_with(first, "PTX") || (first.size() > 3 && !std::isspace(static_cast<unsigned char>(first[3]))) || trimmed(first.substr(3)).empty())
      malformed(number(at), "expected 'PTX NAME' (a herd-style PTX litmus file), found '" + shown(first) + "'");
    name = trimmed(first.substr(3));
    ++at;
    // Quoted text, perhaps over several lines: the test's description.
    for (skip_blanks(); at < lines.size() && trimmed(lines[at])[0] == '"'; skip_blanks()) {
      const int opened = number(at);
      std::size_t quotes = 0;
      do {
        quotes += static_cast<std::size_t>(std::count(lines[at].begin(), lines[at].end(), '"'));
        ++at;
      } while (quotes % 2 == 1 && at < lines.size());
      if (quotes % 2 == 1) malformed(opened, "a quoted description is never closed");
    }
  }

  void init_block() {
    skip_blanks();
    if (at == lines.size() || trimmed(lines[at])[0] != '{') malformed(number(std::min(at, lines.size() - 1)), "expected '{' (the initial state)");
    // The block's text, each character with its line, up to the matching '}'.
    std::string text;
    std::vector<int> line_of;
    std::size_t col = lines[at].find('{') + 1;
    bool closed = false;
    for (; at < lines.size() && !closed; ++at, col = 0) {
      for (; col < lines[at].size(); ++col) {
        if (lines[at][col] == '}') {
          closed = true;
          const std::string rest = trimmed(lines[at].substr(col + 1));
          if (!rest.empty() && rest != ";") malformed(number(at), "unexpected '" + shown(rest) + "' after the initial state");
          break;
        }
        text += lines[at][col];
        line_of.push_back(number(at));
      }
      text += '\n';
      line_of.push_back(number(at));
    }
    if (!closed) malformed(number(lines.size() - 1), "the initial state's '{' is never closed");
    static const std::regex location_re(R"(([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?[0-9]+))");
    static const std::regex register_re(R"(P([0-9]+)\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?[0-9]+))");
    static const std::regex alias_re(R"(([A-Za-z_][A-Za-z0-9_]*)\s*@\s*([a-z]+)\s+aliases\s+([A-Za-z_][A-Za-z0-9_]*))");
    static const std::regex pointer_re(R"((P[0-9]+\s*:\s*)?[A-Za-z_][A-Za-z0-9_]*\s*=\s*&?\s*[A-Za-z_][A-Za-z0-9_]*)");
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size() && text[i] != ';' && text[i] != '\n') continue;
      const std::string decl = trimmed(text.substr(start, i - start));
      const int line = line_of.empty() ? 1 : line_of[std::min(start, line_of.size() - 1)];
      start = i + 1;
      if (decl.empty()) continue;
      not_too_long(decl, line);
      std::smatch m;
      if (std::regex_match(decl, m, register_re)) {
        const int thread = small_number(m[1].str(), line, "thread");
        const std::string key = "P" + std::to_string(thread) + ":" + m[2].str();
        if (!given_registers.emplace(key, Given{line, thread}).second) malformed(line, key + " is given an initial value twice");
        if (!is_zero(m[3].str())) initial_registers[key] = value(m[3].str(), 0, line);
      } else if (std::regex_match(decl, m, location_re)) {
        Declared d{m[1].str(), Declared::Kind::Location, "", line};
        if (!is_zero(m[2].str())) d.initial = value(m[2].str(), 0, line);  // 32-bit, not negative
        declare(d);
      } else if (std::regex_match(decl, m, alias_re)) {
        const std::string kind = m[2].str();
        Declared d{m[1].str(), Declared::Kind::Generic, m[3].str(), line};
        if (kind == "generic") d.kind = Declared::Kind::Generic;
        else if (kind == "texture") d.kind = Declared::Kind::Texture;
        else if (kind == "surface") d.kind = Declared::Kind::Surface;
        else if (kind == "constant") d.kind = Declared::Kind::Constant;
        else malformed(line, "unknown proxy '" + shown(kind) + "' (generic, texture, surface or constant)");
        declare(d);
      } else if (std::regex_match(decl, pointer_re)) {
        unsupported(line, "an address as a value (" + shown(decl) + ")");
      } else {
        malformed(line, "expected 'x = 0', 'y @ generic aliases x' or 'P0:r1 = 0', found '" + shown(decl) + "'");
      }
    }
  }

  void declare(const Declared& d) {
    if (by_name.count(d.name)) malformed(d.line, "location '" + shown(d.name) + "' is declared twice");
    by_name[d.name] = declared.size();
    declared.push_back(d);
  }

  static bool is_assertion_start(const std::string& line) {
    const std::string t = trimmed(line);
    for (const char* k : {"exists", "~exists", "~ exists", "forall", "filter", "locations"})
      if (starts_with_word(t, k)) return true;
    return false;
  }

  void program() {
    skip_blanks();
    if (at == lines.size()) malformed(number(lines.size() - 1), "expected the threads' header 'P0@cta 0,gpu 0 | ...;'");
    // Header row.
    const int header_line = number(at);
    std::string head = trimmed(lines[at]);
    ++at;
    if (head.empty() || head.back() != ';') malformed(header_line, "the threads' header must end with ';'");
    head.pop_back();
    static const std::regex thread_re(R"(P([0-9]+)\s*@\s*cta\s+([0-9]+)\s*,\s*gpu\s+([0-9]+))");
    std::map<std::pair<int, int>, int> lanes;
    const std::vector<std::string> cells = split(head, '|');
    for (std::size_t i = 0; i < cells.size(); ++i) {
      std::smatch m;
      const std::string cell = trimmed(cells[i]);
      not_too_long(cell, header_line);
      if (!std::regex_match(cell, m, thread_re))
        malformed(header_line, "expected 'P" + std::to_string(i) + "@cta C,gpu G', found '" + shown(cell) + "'");
      if (m[1].str() != std::to_string(i))
        malformed(header_line, "thread " + shown(cell) + " in column " + std::to_string(i) + " (P" + std::to_string(i) + " expected)");
      const int cta = small_number(m[2].str(), header_line, "CTA"), gpu = small_number(m[3].str(), header_line, "GPU");
      const int lane = lanes[{gpu, cta}]++;
      threads.push_back({"d" + std::to_string(gpu) + ".b" + std::to_string(cta) + ".t" + std::to_string(lane), header_line, {}});
    }
    // Instruction rows, up to the assertion.
    for (; at < lines.size() && !is_assertion_start(lines[at]); ++at) {
      if (blank(at)) continue;
      const int line = number(at);
      std::string row = trimmed(lines[at]);
      if (row.back() != ';') malformed(line, "an instruction row must end with ';'");
      row.pop_back();
      const std::vector<std::string> ops = split(row, '|');
      if (ops.size() > threads.size())
        malformed(line, std::to_string(ops.size()) + " columns, for " + std::to_string(threads.size()) + " threads");
      for (std::size_t t = 0; t < ops.size(); ++t) {
        const std::string op = trimmed(ops[t]);
        if (op.empty()) continue;
        std::string mine = instruction(op, static_cast<int>(t), line);
        if (!mine.empty()) threads[t].ops.emplace_back(std::move(mine), line);
      }
    }
    // A move, an add or a register's initial value is put in where the register is used, by the text's order;
    // with branches the path decides which value a use sees, and the language has no such value.
    for (const auto& [t, line] : branch_line) {
      if (const auto m = move_line.find(t); m != move_line.end())
        unsupported(m->second, "a move or add of registers in a thread with branches (P" + std::to_string(t) + ")");
      for (const auto& [key, value] : initial_registers)
        if (key.rfind("P" + std::to_string(t) + ":", 0) == 0 && set_registers.count(key))
          unsupported(line, "the initial value of " + key + ", which an instruction of its thread sets, in a thread with branches");
    }
    // An initial value for a thread the test does not have is a typo (P9:r1 in a test of two threads).
    for (const auto& [key, given] : given_registers)
      if (given.thread >= static_cast<int>(threads.size()))
        malformed(given.line, "the initial state gives " + key + " a value, but the test has no thread P" + std::to_string(given.thread));
    bool any = false;
    for (const ThreadOut& th : threads) any = any || !th.ops.empty();
    if (!any) unsupported(threads.empty() ? 1 : threads[0].line, "a test whose threads have no instruction");
  }

  // One herd instruction of thread `t` as the language writes it.
  std::string instruction(const std::string& text, int t, int line) {
    const std::size_t space = text.find_first_of(" \t");
    const std::string opcode = text.substr(0, space);
    const std::vector<std::string> operands = space == std::string::npos ? std::vector<std::string>{} : split(text.substr(space + 1), ',');
    const std::vector<std::string> parts = split(opcode, '.');
    const std::string& op = parts[0];
    const auto need = [&](std::size_t n) {
      if (operands.size() != n)
        malformed(line, "'" + shown(opcode) + "' takes " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") + ", found '" + shown(text) + "'");
    };
    // sem.scope as the language spells them: weak without a scope.
    const auto qualifiers = [&](std::size_t from, std::size_t to) {
      std::string q;
      for (std::size_t i = from; i < to && i < parts.size(); ++i) q += "." + parts[i];
      return q;
    };
    if (!opcode.empty() && opcode.back() == ':') {
      if (!is_name(opcode.substr(0, opcode.size() - 1)) || !operands.empty()) malformed(line, "expected a label 'L:', found '" + shown(text) + "'");
      branch_line.emplace(t, line);
      return opcode;
    }
    if (op == "goto" || op == "beq" || op == "bne") branch_line.emplace(t, line);
    const auto label = [&](const std::string& l) {
      const std::string name = trimmed(l);
      if (!is_name(name)) malformed(line, "expected a label, found '" + shown(name) + "'");
      return name;
    };
    if (op == "goto") {
      need(1);
      return "goto " + label(operands[0]);
    }
    if (op == "beq" || op == "bne") {
      need(3);
      return op + " " + compared(operands[0], t, line) + ", " + compared(operands[1], t, line) + ", " + label(operands[2]);
    }
    if (op == "bra" || op == "bgt" || op == "blt" || op == "bge" || op == "ble" || op == "jmp")
      unsupported(line, "the branch '" + shown(text) + "' (beq, bne and goto are)");
    if (op == "add" && operands.size() == 3) {
      // add rD, rS, k: rD is rS's value plus k, put where rD is used (a store's operand), until it is set again.
      const std::string key = "P" + std::to_string(t) + ":" + trimmed(operands[0]);
      const std::string from = value(operands[1], t, line), amount = value(operands[2], t, line);
      if (amount.empty() || amount[0] == 'r' || from.find('+') != std::string::npos)
        unsupported(line, "register arithmetic ('" + shown(text) + "'; add of a register and an integer is)");
      constants.erase(key);
      sums.erase(key);
      set_registers.insert(key);
      move_line.emplace(t, line);
      if (from[0] == 'r') sums[key] = from + " + " + amount;
      else constants[key] = std::to_string((std::stoull(from) + std::stoull(amount)) & 0xFFFFFFFFull);
      return {};
    }
    if (op == "add" || op == "sub" || op == "mul" || op == "div" || op == "mov" || op == "and" || op == "or" || op == "xor")
      unsupported(line, "register arithmetic ('" + shown(text) + "')");
    if (op == "bar" || op == "barrier") {
      // bar.cta.sync ID (bar.sync, barrier.sync, barrier.cta.sync): every thread of the CTA; Dat3M's
      // bar.cta.sync ID, R(, Q): a named barrier; bar.cta.arrive likewise. bar.red is not in the language.
      const bool sync = std::find(parts.begin(), parts.end(), "sync") != parts.end();
      const bool arrive = std::find(parts.begin(), parts.end(), "arrive") != parts.end();
      const bool cta_only = std::all_of(parts.begin() + 1, parts.end(), [](const std::string& p) {
        return p == "cta" || p == "sync" || p == "arrive" || p == "aligned";
      });  // bar.warp.sync and bar.red are no CTA barrier of the language's
      if ((!sync && !arrive) || !cta_only)
        unsupported(line, "the barrier '" + shown(text) + "' (bar.cta.sync and bar.cta.arrive are)");
      if (operands.empty() || operands.size() > 3) malformed(line, "'" + shown(opcode) + "' takes an id, then perhaps a logical id and a quorum");
      const std::string id = trimmed(operands[0]);
      if (!is_digits(id)) unsupported(line, "the CTA barrier '" + shown(text) + "' with its instance in a register");
      std::string out = (arrive ? "bar.cta.arrive " : "bar.cta.sync ") + id;
      if (operands.size() >= 2) out += ", id " + value(operands[1], t, line);
      if (operands.size() == 3) {
        const std::string quorum = value(operands[2], t, line);
        if (quorum.empty() || quorum[0] == 'r') unsupported(line, "the CTA barrier '" + shown(text) + "' with a quorum read from memory");
        out += ", quorum " + quorum;
      }
      return out;
    }
    if (op == "ld" && parts.size() == 1 && operands.size() == 2 && is_digits(trimmed(operands[1]))) {
      move_line.emplace(t, line);
      constants["P" + std::to_string(t) + ":" + trimmed(operands[0])] = value(operands[1], t, line);  // ld r, 1: a move
      return {};
    }
    // Any other instruction that sets a register ends its move's value (and its initial value).
    const bool sets_register = !operands.empty() && (op == "ld" || op == "suld" || op == "tld" || op == "cold" || op == "atom");
    const std::string set_key = sets_register ? "P" + std::to_string(t) + ":" + trimmed(operands[0]) : "";
    if (sets_register) {
      constants.erase(set_key);
      sums.erase(set_key);
    }
    // Read its operands first: `atom r0, x, r0` reads r0 before it sets it.
    struct MarkSet {
      std::set<std::string>& set;
      const std::string& key;
      ~MarkSet() {
        if (!key.empty()) set.insert(key);
      }
    } mark_set{set_registers, set_key};
    if (op == "ld") {
      need(2);
      return "ld" + qualifiers(1, parts.size()) + " " + reg(t, register_operand(operands[0], line)) + ", [" + address(operands[1], line) + "]";
    }
    if (op == "st") {
      need(2);
      return "st" + qualifiers(1, parts.size()) + " [" + address(operands[0], line) + "], " + value(operands[1], t, line);
    }
    if (op == "suld" || op == "tld" || op == "cold") {
      need(2);
      const std::string mine = op == "cold" ? "ldc" : op;
      return mine + qualifiers(1, parts.size()) + " " + reg(t, register_operand(operands[0], line)) + ", [" + address(operands[1], line) + "]";
    }
    if (op == "sust") {
      need(2);
      return "sust" + qualifiers(1, parts.size()) + " [" + address(operands[0], line) + "], " + value(operands[1], t, line);
    }
    if (op == "atom" || op == "red") {
      // atom.<sem>.<scope>.<operation>: the operation last.
      if (parts.size() < 2) malformed(line, "'" + shown(opcode) + "' names no operation");
      const std::string operation = parts.back();
      const bool atom = op == "atom";
      const std::string q = qualifiers(1, parts.size() - 1);
      if (atom && (operation == "exch" || operation == "cas")) {
        need(operation == "cas" ? 4 : 3);
        const std::string target = reg(t, register_operand(operands[0], line)), where = address(operands[1], line);
        std::string compared;
        if (operation == "cas") {
          compared = value(operands[2], t, line);
          if (compared.empty() || compared[0] == 'r') unsupported(line, "atom.cas comparing with a register ('" + shown(text) + "')");
          compared += ", ";
        }
        return "atom." + operation + q + " " + target + ", [" + where + "], " + compared + value(operands.back(), t, line);
      }
      if (operation != "add" && operation != "sub")
        unsupported(line, op + "." + shown(operation) + " ('" + shown(text) + "'; the language's read-modify-writes are add, exch and cas)");
      need(atom ? 3 : 2);
      std::string amount = value(operands[atom ? 2 : 1], t, line);
      if (operation == "sub") {  // x - v is x + (2^32 - v) in 32-bit arithmetic
        if (!amount.empty() && amount[0] == 'r') unsupported(line, op + ".sub of a register ('" + shown(text) + "')");
        amount = std::to_string((0x100000000ull - std::stoull(amount)) & 0xFFFFFFFFull);
      }
      if (atom)
        return "atom.add" + q + " " + reg(t, register_operand(operands[0], line)) + ", [" + address(operands[1], line) + "], " + amount;
      return "red.add" + q + " [" + address(operands[0], line) + "], " + amount;
    }
    if (op == "fence") {
      need(0);
      return opcode;
    }
    malformed(line, "unknown instruction '" + shown(text) + "'");
  }

  // The assertion: `exists`, `~exists` or `forall`, then a condition, perhaps over several lines.
  struct Assertion {
    std::string quantifier, condition, filter;
    int line = 0;
  };
  Assertion assertion() {
    skip_blanks();
    if (at == lines.size()) malformed(number(lines.size() - 1), "expected the assertion (exists, ~exists or forall)");
    std::string text;
    const int line = number(at);
    for (; at < lines.size(); ++at) text += lines[at] + " ";
    std::string t = trimmed(text);
    if (starts_with_word(t, "locations")) {  // locations [...]: what herd prints; nothing to decide
      const std::size_t end = t.find(']');
      if (end == std::string::npos) malformed(line, "'locations [' is never closed");
      t = trimmed(t.substr(end + 1));
    }
    t = joined_at_colons(t);  // "P3: r0" is P3:r0
    Assertion a;
    a.line = line;
    if (starts_with_word(t, "filter")) {  // filter C: only executions satisfying C count (the language's filter)
      std::size_t i = std::string("filter").size();
      a.filter = disjunction(t, i, line);
      t = trimmed(t.substr(i));
    }
    for (const char* q : {"~exists", "~ exists", "exists", "forall"})
      if (starts_with_word(t, q)) {
        a.quantifier = q == std::string("~ exists") ? "~exists" : q;
        t = trimmed(t.substr(std::string(q).size()));
        break;
      }
    if (a.quantifier.empty()) malformed(line, "expected exists, ~exists or forall, found '" + shown(t.substr(0, 30)) + "'");
    std::size_t i = 0;
    a.condition = disjunction(t, i, line);
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
    if (i != t.size()) malformed(line, "unexpected '" + shown(t.substr(i, 20)) + "' after the condition");
    return a;
  }

  void blanks(const std::string& t, std::size_t& i) const {
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  }
  // A chain of one operator, translated as one parenthesised list (the language reads it as one node):
  // no nesting as deep as the chain, and no text copied once per operator.
  std::string disjunction(const std::string& t, std::size_t& i, int line) {
    std::string out = conjunction(t, i, line);
    bool chain = false;
    for (blanks(t, i); t.compare(i, 2, "\\/") == 0; blanks(t, i)) {
      i += 2;
      out += " || " + conjunction(t, i, line);
      chain = true;
    }
    return chain ? "(" + out + ")" : out;
  }
  std::string conjunction(const std::string& t, std::size_t& i, int line) {
    std::string out = unary(t, i, line);
    bool chain = false;
    for (blanks(t, i); t.compare(i, 2, "/\\") == 0; blanks(t, i)) {
      i += 2;
      out += " && " + unary(t, i, line);
      chain = true;
    }
    return chain ? "(" + out + ")" : out;
  }
  int depth = 0;  // of ~ and parentheses in the condition
  std::string unary(const std::string& t, std::size_t& i, int line) {
    blanks(t, i);
    struct Deeper {
      int& d;
      explicit Deeper(int& depth) : d(depth) { ++d; }
      ~Deeper() { --d; }
    } deeper(depth);
    if (depth > 100) malformed(line, "more than 100 levels of ~ and parentheses in the condition");
    if (i < t.size() && t[i] == '~') {
      ++i;
      return "not " + parenthesised(unary(t, i, line));
    }
    if (i < t.size() && t[i] == '(') {
      ++i;
      const std::string inner = disjunction(t, i, line);
      blanks(t, i);
      if (i == t.size() || t[i] != ')') malformed(line, "a '(' in the condition is never closed");
      ++i;
      return parenthesised(inner);
    }
    const std::string lhs = term(t, i, line);
    blanks(t, i);
    std::string cmp;
    if (t.compare(i, 2, "==") == 0) cmp = "==";
    else if (t.compare(i, 2, "!=") == 0) cmp = "!=";
    else if (i < t.size() && t[i] == '=') cmp = "=";
    else malformed(line, "expected == or != after '" + shown(lhs) + "' in the condition");
    i += cmp.size();
    return lhs + (cmp == "=" ? " ==" : " " + cmp) + " " + term(t, i, line);
  }
  static std::string parenthesised(const std::string& s) { return s.front() == '(' ? s : "(" + s + ")"; }
  std::string term(const std::string& t, std::size_t& i, int line) {
    blanks(t, i);
    std::size_t j = i;
    while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_' || t[j] == ':')) ++j;
    const std::string word = t.substr(i, j - i);
    i = j;
    static const std::regex reg_re(R"(P?([0-9]+):([A-Za-z_][A-Za-z0-9_]*))");
    std::smatch m;
    const bool has_colon = word.find(':') != std::string::npos;
    if (has_colon) not_too_long(word, line);
    if (has_colon && std::regex_match(word, m, reg_re)) {
      const int thread = small_number(m[1].str(), line, "thread");
      if (thread >= static_cast<int>(threads.size())) malformed(line, "the condition names " + shown(word) + ", a thread the test does not have");
      const std::string key = "P" + std::to_string(thread) + ":" + m[2].str();
      auto c = constants.find(key);
      if (c != constants.end()) return c->second;
      if (sums.count(key)) unsupported(line, "a condition on a register set by add (" + shown(word) + ")");
      if (!set_registers.count(key)) {  // no instruction sets it: its initial value throughout
        auto i = initial_registers.find(key);
        return i == initial_registers.end() ? "0" : i->second;
      }
      return reg(thread, m[2].str());
    }
    if (is_digits(word)) {
      if (word.size() > 10 || std::stoull(word) > 0xFFFFFFFFull) unsupported(line, "the value " + shown(word) + " (values are 32-bit)");
      return word;
    }
    if (is_name(word)) return "[" + address(word, line) + "]";  // a location: its final value
    malformed(line, "expected a register (P0:r1), a location or an integer in the condition, found '" + shown(t.substr(i, 20)) + "'");
  }

  HerdTranslation emit(const std::string& name, const Assertion& a) {
    HerdTranslation out;
    std::ostringstream text;
    const auto put = [&](const std::string& s, int line) {
      text << s << "\n";
      out.origin.push_back(line);
    };
    put("// " + name + ": a herd-style PTX litmus file, translated (docs/litmus.md, \"herd-style files\").", 1);
    for (const auto& [herd, mine] : register_order) put("// " + mine + " is " + herd, 1);
    // Locations first (those the block names, then those only the program does), then their aliases.
    for (const Declared& d : declared)
      if (d.kind == Declared::Kind::Location) put(".global " + d.name + (d.initial == "0" ? "" : " = " + d.initial) + ";", d.line);
    for (const std::string& u : used)
      if (!by_name.count(u)) put(".global " + u + ";", threads.empty() ? 1 : threads[0].line);
    std::set<std::string> done;
    for (const Declared& d : declared)
      if (d.kind == Declared::Kind::Location) done.insert(d.name);
    for (const std::string& u : used)
      if (!by_name.count(u)) done.insert(u);
    for (bool progress = true; progress;) {
      progress = false;
      for (const Declared& d : declared) {
        if (done.count(d.name) || !done.count(d.of)) continue;
        done.insert(d.name);
        progress = true;
        if (d.kind == Declared::Kind::Generic) put(".global " + d.name + " physically aliases " + d.of + ";", d.line);
        else if (d.kind == Declared::Kind::Texture) put(".texref " + d.name + " virtually aliases " + d.of + ";", d.line);
        else if (d.kind == Declared::Kind::Surface) put(".surfref " + d.name + " virtually aliases " + d.of + ";", d.line);
        // a constant alias declares nothing: cold reads its target through the constant proxy (ldc)
      }
    }
    for (const Declared& d : declared)
      if (!done.count(d.name))
        malformed(d.line, "'" + shown(d.name) + "' aliases '" + shown(d.of) + "', " +
                              (by_name.count(d.of) ? std::string("and the aliases go round in a cycle: one of them must name a location")
                                                   : std::string("which is no location of the test")));
    for (const ThreadOut& th : threads) {
      if (th.ops.empty()) {  // a thread with nothing to do (Dat3M's LB+RMW-b) is left out: it orders nothing
        put("// " + th.head + ": no instruction, left out", th.line);
        continue;
      }
      put(th.head + " {", th.line);
      for (const auto& [op, line] : th.ops) put("  " + op + (op.back() == ':' ? "" : ";"), line);
      put("}", th.line);
    }
    if (!a.filter.empty()) put("filter " + parenthesised(a.filter) + ";", a.line);
    if (a.quantifier == "exists") put("check " + parenthesised(a.condition) + " as exists;", a.line);
    else if (a.quantifier == "~exists") put("assert (not " + parenthesised(a.condition) + ") as not_exists;", a.line);
    else put("assert " + parenthesised(a.condition) + " as forall;", a.line);
    out.text = text.str();
    return out;
  }
};

}  // namespace

bool is_herd_path(const std::string& path) {
  const std::string suffix = ".litmus";
  return path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

HerdTranslation translate_herd(const std::string& text, const std::string& path) {
  Translator t;
  t.path = path;
  std::istringstream in(without_comments(text, path));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    t.lines.push_back(line);
  }
  if (t.lines.empty()) t.lines.push_back("");
  t.header();
  t.init_block();
  t.program();
  const Translator::Assertion a = t.assertion();
  return t.emit(shown(t.name), a);
}

File parse_herd_text(const std::string& text, const std::string& path) {
  const HerdTranslation h = translate_herd(text, path);
  const auto herd_line = [&](int line) { return line >= 1 && line <= static_cast<int>(h.origin.size()) ? h.origin[static_cast<std::size_t>(line - 1)] : 1; };
  try {
    File f = parse_text(h.text, path);
    for (Row& r : f.rows) r.line = herd_line(r.line);
    return f;
  } catch (const ParseError& e) {
    // Where the language refused the translation: the herd line it came from, and the translated text.
    const std::string prefix = e.path() + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": ";
    std::string message = e.what();
    if (starts_with(message, prefix)) message = message.substr(prefix.size());
    std::istringstream lines(h.text);
    std::string translated;
    for (int i = 0; i < e.line() && std::getline(lines, translated);) ++i;
    throw ParseError(path, herd_line(e.line()), 1, message + " (translated as '" + shown(trimmed(translated)) + "')");
  }
}

}  // namespace vmmcheck::litmus
