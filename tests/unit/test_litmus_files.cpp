// LitmusFiles: the project's own litmus files. Every file of cases/litmus (the rows `vmmcheck run`
// runs on the GPU) and of tests/litmus/grammar (model-only tests of every construct of the language)
// parses; the PTX proxy model agrees with every row's permit/assert; every cases/litmus row stays
// within what the GPU runner runs, and its generated kernel compiles with NVRTC for sm_90 (no GPU
// needed). A disagreement names the row (file:line, row name) and the model's reason.
#include <gtest/gtest.h>

#include "codegen/kernel_abi.h"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "codegen/compile_ahead.hpp"
#include "codegen/generator.hpp"
#include "litmus/file.hpp"
#include "codegen/nvrtc.hpp"
#include "litmus/parser.hpp"
#include "model/ptx_model.hpp"
#include "vocabulary/op_kinds.hpp"
#include "vocabulary/shape.hpp"

namespace {

namespace fs = std::filesystem;
namespace lt = vmmcheck::patterns::litmus;
using vmmcheck::litmus::Expect;
using vmmcheck::litmus::File;
using vmmcheck::litmus::Row;

const fs::path& source_dir() {
  static const fs::path dir = VMMCHECK_SOURCE_DIR;
  return dir;
}
fs::path shipped_dir() { return source_dir() / "cases" / "litmus"; }
fs::path grammar_dir() { return source_dir() / "tests" / "litmus" / "grammar"; }

std::vector<fs::path> test_files(const fs::path& folder) {
  std::vector<fs::path> out;
  if (!fs::is_directory(folder)) return out;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().extension() == ".test") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder's files, parsed once for all the tests: those that parsed, and the errors of the others.
struct Parsed {
  std::vector<File> files;
  std::vector<std::string> errors;
  std::size_t rows() const {
    std::size_t n = 0;
    for (const File& f : files) n += f.rows.size();
    return n;
  }
};

const Parsed& parsed(const fs::path& folder) {
  static std::map<std::string, Parsed> cache;
  const auto found = cache.find(folder.string());
  if (found != cache.end()) return found->second;
  Parsed p;
  for (const fs::path& path : test_files(folder)) {
    try {
      p.files.push_back(vmmcheck::litmus::parse_file(path.string()));
    } catch (const std::exception& e) {
      p.errors.push_back(e.what());
    }
  }
  return cache.emplace(folder.string(), std::move(p)).first->second;
}

// "cases/litmus/MP.test:42" for messages.
std::string where(const Row& row) {
  return fs::path(row.file).lexically_relative(source_dir()).string() + ":" + std::to_string(row.line);
}

std::string term_text(const lt::Term& t) { return t.reg.empty() ? std::to_string(t.value) : t.reg; }

std::string expr_text(const lt::Expr& e) {
  using K = lt::Expr::Kind;
  switch (e.kind) {
    case K::Eq: return term_text(e.lhs) + " == " + term_text(e.rhs);
    case K::Ne: return term_text(e.lhs) + " != " + term_text(e.rhs);
    case K::Not: return "not (" + (e.operands.empty() ? std::string("?") : expr_text(e.operands[0])) + ")";
    case K::And:
    case K::Or: {
      std::string out = "(";
      for (std::size_t i = 0; i < e.operands.size(); ++i)
        out += (i ? (e.kind == K::And ? " && " : " || ") : "") + expr_text(e.operands[i]);
      return out + ")";
    }
  }
  return "?";
}

// What the model is asked for a row: permit/check -- is an execution showing the condition allowed?
// assert -- is an execution violating it allowed? The file and the model agree when the answer is
// yes for permit/check and no for assert.
lt::Expr question_of(const Row& row) {
  if (row.expect != Expect::Assert) return row.condition;
  lt::Expr negation;
  negation.kind = lt::Expr::Kind::Not;
  negation.operands = {row.condition};
  return negation;
}

void check_model_agrees(const fs::path& folder) {
  const Parsed& p = parsed(folder);
  std::size_t checked = 0, disagreeing = 0;
  for (const File& f : p.files)
    for (const Row& row : f.rows) {
      ++checked;
      try {
        // An assert row holds when the artifact's reading holds it (it is `model` where only that one
        // does); a permit row's outcome must be one the ISA's reading allows (docs/litmus-model.md).
        const auto both = vmmcheck::model::ptx::decide_readings(row.test, question_of(row));
        const bool assert_row = row.expect == Expect::Assert;
        const auto& d = assert_row ? both.artifact : both.isa;
        const bool agrees = assert_row ? !d.allowed : d.allowed;
        if (agrees) continue;
        ++disagreeing;
        std::ostringstream msg;
        msg << where(row) << ": " << row.name << ": the file says " << vmmcheck::litmus::name_of(row.expect) << " ("
            << expr_text(row.condition) << "), but the model "
            << (row.expect == Expect::Assert ? "allows an execution that violates it"
                                             : "allows no execution that shows it")
            << ".\n  model: " << d.reason;
        for (const std::string& line : d.witness) msg << "\n    " << line;
        ADD_FAILURE_AT(row.file.c_str(), row.line) << msg.str();
      } catch (const std::exception& e) {
        ++disagreeing;
        ADD_FAILURE_AT(row.file.c_str(), row.line) << where(row) << ": " << row.name
                                                   << ": the model refused the row: " << e.what();
      }
    }
  std::cout << "[ LitmusFiles ] " << folder.lexically_relative(source_dir()).string() << ": " << checked
            << " rows decided, " << disagreeing << " disagreeing with their file\n";
}

bool is_memory(const lt::Op& op) {
  return op.kind == lt::OpKind::Load || op.kind == lt::OpKind::Store || op.kind == lt::OpKind::AtomAdd;
}

const char* level_name(lt::Level l) {
  switch (l) {
    case lt::Level::Thread: return "thread";
    case lt::Level::Cta: return "cta";
    case lt::Level::Gpu: return "gpu";
    case lt::Level::Sys: return "sys";
  }
  return "?";
}

const char* sem_name(lt::Sem s) {
  switch (s) {
    case lt::Sem::Weak: return "weak";
    case lt::Sem::Relaxed: return "relaxed";
    case lt::Sem::Acquire: return "acquire";
    case lt::Sem::Release: return "release";
    case lt::Sem::AcqRel: return "acq_rel";
  }
  return "?";
}


// The instruction an op stands for, by its kind and proxy (ld, tld, suld, ldc, st, sust, atom, red,
// suatom, sured, fence.sc, fence.acq_rel, fence.proxy.alias, fence.proxy.<proxy>).
std::string instruction_of(const lt::Op& op) {
  const bool surface = op.proxy == lt::Proxy::Surface;
  switch (op.kind) {
    case lt::OpKind::Load:
      if (op.nc) return "ld.nc";
      switch (op.proxy) {
        case lt::Proxy::Generic: return "ld";
        case lt::Proxy::Texture: return "tld";
        case lt::Proxy::Surface: return "suld";
        case lt::Proxy::Constant: return "ldc";
      }
      return "?";
    case lt::OpKind::Store: return surface ? "sust" : "st";
    case lt::OpKind::AtomAdd:
      if (op.rmw == lt::Rmw::Exch) return "atom.exch";
      if (op.rmw == lt::Rmw::Cas) return "atom.cas";
      return op.reg.empty() ? (surface ? "sured" : "red") : (surface ? "suatom" : "atom");
    case lt::OpKind::FenceSc: return "fence.sc";
    case lt::OpKind::FenceAcqRel: return "fence.acq_rel";
    case lt::OpKind::AliasFence: return "fence.proxy.alias";
    case lt::OpKind::ProxyFence: return std::string("fence.proxy.") + lt::name_of(op.proxy);
    case lt::OpKind::Barrier:
      if (op.arrive) return "bar.cta.arrive";
      return lt::is_named_barrier(op) ? (op.quorum >= 0 ? "bar.cta.sync id quorum" : "bar.cta.sync id") : "bar.cta.sync";
    case lt::OpKind::Label: return "label";
    case lt::OpKind::Branch: return op.branch_always ? "goto" : op.branch_equal ? "beq" : "bne";
  }
  return "?";
}

void collect_expr(const lt::Expr& e, std::set<std::string>& seen) {
  using K = lt::Expr::Kind;
  static const std::map<K, const char*> names = {
      {K::Eq, "=="}, {K::Ne, "!="}, {K::And, "&&"}, {K::Or, "||"}, {K::Not, "not"}};
  seen.insert(std::string("condition ") + names.at(e.kind));
  if ((e.kind == K::Eq || e.kind == K::Ne) && !e.lhs.reg.empty() && !e.rhs.reg.empty())
    seen.insert("condition register == register");
  if ((e.kind == K::Eq || e.kind == K::Ne) && e.lhs.reg.empty()) seen.insert("condition integer on the left");
  for (const lt::Expr& o : e.operands) collect_expr(o, seen);
}

}  // namespace

TEST(LitmusFiles, FoldersHoldTestFiles) {
  EXPECT_FALSE(test_files(shipped_dir()).empty()) << shipped_dir() << " holds no *.test file";
  EXPECT_FALSE(test_files(grammar_dir()).empty()) << grammar_dir() << " holds no *.test file";
}

TEST(LitmusFiles, EveryShippedFileParses) {
  const Parsed& p = parsed(shipped_dir());
  for (const std::string& e : p.errors) ADD_FAILURE() << e;
  for (const File& f : p.files) EXPECT_FALSE(f.rows.empty()) << f.path << ": no rows";
  std::cout << "[ LitmusFiles ] cases/litmus: " << p.files.size() << " files parsed, " << p.rows() << " rows\n";
}

TEST(LitmusFiles, EveryGrammarFileParses) {
  const Parsed& p = parsed(grammar_dir());
  for (const std::string& e : p.errors) ADD_FAILURE() << e;
  for (const File& f : p.files) EXPECT_FALSE(f.rows.empty()) << f.path << ": no rows";
  std::cout << "[ LitmusFiles ] tests/litmus/grammar: " << p.files.size() << " files parsed, " << p.rows()
            << " rows\n";
}

TEST(LitmusFiles, RowNamesAreUnique) {
  std::map<std::string, std::string> first;
  for (const fs::path& folder : {shipped_dir(), grammar_dir()})
    for (const File& f : parsed(folder).files)
      for (const Row& row : f.rows) {
        const auto [it, fresh] = first.emplace(row.name, where(row));
        EXPECT_TRUE(fresh) << where(row) << ": row name " << row.name << " is also " << it->second;
      }
}

TEST(LitmusFiles, ModelAgreesWithEveryShippedRow) { check_model_agrees(shipped_dir()); }

TEST(LitmusFiles, ModelAgreesWithEveryGrammarRow) { check_model_agrees(grammar_dir()); }

// The shipped files are for the GPU runner: one GPU, the generic proxy plus texture reads and surface
// loads and stores, fences sc/acq_rel/proxy.alias, global memory, and small tests (at most 4 threads of at most 6
// operations, at most as many addresses as a generated kernel's launch takes).
TEST(LitmusFiles, ShippedRowsKeepToWhatTheGpuRunnerRuns) {
  for (const File& f : parsed(shipped_dir()).files)
    for (const Row& row : f.rows) {
      const lt::Litmus& t = row.test;
      std::vector<std::string> problems;
      if (t.threads.size() > 4) problems.push_back(std::to_string(t.threads.size()) + " threads (at most 4)");
      if (t.addresses.size() > VMMCHECK_LITMUS_MAX_ADDRESSES)
        problems.push_back(std::to_string(t.addresses.size()) + " addresses (at most " +
                           std::to_string(VMMCHECK_LITMUS_MAX_ADDRESSES) + ")");
      for (const lt::Address& a : t.addresses) {
        if (a.shared) problems.push_back("the .shared address " + a.name);
        if (a.declared == lt::Proxy::Constant)
          problems.push_back("the address " + a.name + " of the " + lt::name_of(a.declared) + " proxy");
      }
      for (const lt::Thread& th : t.threads) {
        if (th.gpu != 0) problems.push_back("thread " + th.name + " on GPU " + std::to_string(th.gpu));
        if (th.ops.size() > 6)
          problems.push_back("thread " + th.name + " with " + std::to_string(th.ops.size()) + " operations (at most 6)");
        for (const lt::Op& op : th.ops) {
          const std::string ins = instruction_of(op);
          const bool allowed = ins == "ld" || ins == "st" || ins == "atom" || ins == "red" || ins == "tld" ||
                               ins == "suld" || ins == "sust" || ins == "fence.sc" || ins == "fence.acq_rel" || ins == "fence.proxy.alias" ||
                               ins == "bar.cta.sync" || ins == "ld.nc";
          if (!allowed) problems.push_back("thread " + th.name + " uses " + ins);
        }
      }
      for (const std::string& p : problems) ADD_FAILURE_AT(row.file.c_str(), row.line) << where(row) << ": " << row.name << ": " << p;
    }
}

// Each shipped file says what it asks, in a // comment block at its top; and a file with assert rows
// also has permit rows (the controls: the same setup with the ordering removed).
TEST(LitmusFiles, ShippedFilesStartWithACommentAndHaveControls) {
  for (const fs::path& path : test_files(shipped_dir())) {
    const std::string text = read_text(path);
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    EXPECT_TRUE(start != std::string::npos && text.compare(start, 2, "//") == 0)
        << path << " does not start with a // comment block";
  }
  for (const File& f : parsed(shipped_dir()).files) {
    std::size_t asserts = 0, permits = 0;
    for (const Row& row : f.rows) (row.expect == Expect::Assert ? asserts : permits) += 1;
    EXPECT_TRUE(asserts == 0 || permits > 0) << f.path << ": " << asserts << " assert rows and no permit (control) row";
  }
}

// tests/litmus/grammar covers every construct of the language: each kind of address declaration,
// every instruction, semantics and scope, fences, a second GPU, preconditions, register operands,
// the three commands, every condition operator, and templates with two-digit holes.
TEST(LitmusFiles, GrammarTestsCoverEveryConstruct) {
  std::set<std::string> seen;
  for (const File& f : parsed(grammar_dir()).files)
    for (const Row& row : f.rows) {
      const lt::Litmus& t = row.test;
      seen.insert(std::string("command ") + vmmcheck::litmus::name_of(row.expect));
      if (!t.filter.empty()) seen.insert("filter");
      collect_expr(row.condition, seen);
      for (std::size_t i = 0; i < t.addresses.size(); ++i) {
        const lt::Address& a = t.addresses[i];
        if (a.shared) seen.insert("address .shared");
        if (a.initial != 0) seen.insert("address with an initial value");
        if (a.same_as >= 0 && a.declared == lt::Proxy::Texture) seen.insert("address .texref");
        if (a.same_as >= 0 && a.declared == lt::Proxy::Surface) seen.insert("address .surfref");
        if (a.same_as < 0)
          for (std::size_t j = 0; j < i; ++j)
            if (t.addresses[j].same_as < 0 && t.addresses[j].location == a.location)
              seen.insert(a.offset_view ? "address physically aliases offset" : "address physically aliases");
      }
      for (const lt::Thread& th : t.threads) {
        if (th.gpu == 1) seen.insert("thread on d1");
        for (const lt::Op& op : th.ops) {
          const std::string ins = instruction_of(op);
          seen.insert("instruction " + ins);
          if (op.kind == lt::OpKind::FenceSc || op.kind == lt::OpKind::FenceAcqRel)
            seen.insert(ins + "." + level_name(op.scope));
          if (is_memory(op) && op.proxy == lt::Proxy::Generic) {
            seen.insert(ins + " " + sem_name(op.sem) + (op.scope == lt::Level::Thread ? "" : std::string(".") + level_name(op.scope)));
          }
          if (is_memory(op) && op.must_read >= 0) seen.insert("precondition on " + ins);
          if (is_memory(op) && !op.value_reg.empty()) seen.insert("register operand of " + ins);
          if (is_memory(op) && !op.value_reg.empty() && op.value != 0) seen.insert("register plus integer");
          if (!op.resource_reg.empty()) seen.insert("barrier id in a register");
          if (op.kind == lt::OpKind::Branch && (!op.lhs.reg.empty() && !op.rhs.reg.empty())) seen.insert("branch on two registers");
        }
      }
    }
  std::string text;
  for (const fs::path& path : test_files(grammar_dir())) text += read_text(path);
  for (const char* word : {"fence.alias;", "ld.weak", "st.weak", "ld.volatile", "st.volatile", "$10", "bar.sync"})
    if (text.find(word) != std::string::npos) seen.insert(std::string("text ") + word);

  std::vector<std::string> required = {
      "address .shared", "address .texref", "address .surfref", "address physically aliases",
      "address physically aliases offset", "thread on d1",
      "command permit", "command assert", "command check", "condition ==", "condition !=", "condition &&",
      "condition ||", "condition not", "condition register == register", "condition integer on the left",
      "instruction ld", "instruction st", "instruction atom", "instruction red", "instruction tld",
      "instruction suld", "instruction sust", "instruction ldc", "instruction suatom", "instruction sured",
      "instruction fence.sc", "instruction fence.acq_rel", "instruction fence.proxy.alias",
      "instruction fence.proxy.texture", "instruction fence.proxy.surface", "instruction fence.proxy.constant",
      "precondition on ld", "precondition on tld", "precondition on suld", "precondition on ldc",
      "precondition on atom", "precondition on suatom", "register operand of st", "register operand of atom",
      "register operand of red", "register operand of sust", "instruction ld.nc", "instruction bar.cta.sync",
      "address with an initial value", "text bar.sync", "text fence.alias;", "text ld.weak", "text st.weak",
      "text ld.volatile", "text st.volatile", "text $10", "ld weak", "st weak", "instruction atom.exch",
      "instruction atom.cas", "instruction bar.cta.arrive", "instruction bar.cta.sync id", "instruction bar.cta.sync id quorum",
      "instruction label", "instruction beq", "instruction bne", "instruction goto", "register plus integer",
      "barrier id in a register", "branch on two registers", "filter"};
  for (const char* scope : {"cta", "gpu", "sys"}) {
    const std::string s = scope;
    for (const char* x : {"fence.sc.", "fence.acq_rel.", "ld relaxed.", "ld acquire.", "st relaxed.", "st release.",
                          "atom relaxed.", "atom acquire.", "atom release.", "atom acq_rel.", "red release."})
      required.push_back(x + s);
  }
  for (const std::string& r : required) EXPECT_TRUE(seen.count(r)) << "no grammar test has " << r;
}

// Every shipped row can be generated as a kernel, and each distinct kernel compiles with NVRTC for
// sm_90 (once: rows of one template instance share their kernel).
// Every shipped row generates, and every distinct kernel compiles with NVRTC for sm_90 -- as a run
// compiles them: ahead, on every core, several kernels a program (codegen/compile_ahead.hpp) -- with
// ptxas at -O0: that the kernels assemble is the point here, and what ptxas -O3 makes of them is the
// toolchain's to check (ctest toolchain.matrix).
TEST(LitmusFiles, EveryShippedRowGeneratesAndCompiles) {
  struct Generated {
    vmmcheck::codegen::Kernel kernel;
    const Row* row;
  };
  std::map<std::string, Generated> kernels;  // kernel source -> the kernel and the first row that generated it
  std::size_t rows = 0;
  const auto& files = parsed(shipped_dir()).files;
  for (const File& f : files)
    for (const Row& row : f.rows) {
      ++rows;
      const std::string why = vmmcheck::codegen::why_not_generated(row.test);
      if (!why.empty()) {
        ADD_FAILURE_AT(row.file.c_str(), row.line) << where(row) << ": " << row.name << ": cannot be generated: " << why;
        continue;
      }
      try {
        vmmcheck::codegen::Kernel kernel = vmmcheck::codegen::generate(row.test);
        const std::string source = kernel.source;
        kernels.emplace(source, Generated{std::move(kernel), &row});
      } catch (const std::exception& e) {
        ADD_FAILURE_AT(row.file.c_str(), row.line) << where(row) << ": " << row.name << ": generate threw: " << e.what();
      }
    }
  vmmcheck::codegen::CompileAhead ahead(90);
  constexpr int kPtxasLevel = 0;
  for (const auto& [source, g] : kernels) ahead.start(g.kernel, kPtxasLevel);
  for (const auto& [source, g] : kernels) {
    const Row& row = *g.row;
    try {
      (void)ahead.get(g.kernel, kPtxasLevel);
    } catch (const vmmcheck::codegen::CompileError& e) {
      ADD_FAILURE_AT(row.file.c_str(), row.line) << where(row) << ": " << row.name << ": NVRTC refused kernel " << g.kernel.name
                                                 << ": " << e.what() << "\n" << e.log();
    } catch (const std::exception& e) {
      ADD_FAILURE_AT(row.file.c_str(), row.line) << where(row) << ": " << row.name << ": compile threw: " << e.what();
    }
  }
  std::cout << "[ LitmusFiles ] cases/litmus: " << rows << " rows, " << kernels.size() << " distinct kernels compiled\n";
}
