#include "litmus/grammar.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace vmmcheck::litmus::syntax {
namespace {

namespace lt = patterns::litmus;
using lt::Level;
using lt::OpKind;
using lt::Proxy;
using lt::Sem;

// The memory orders each instruction takes (PTX ISA, ld/st/atom/red): loads .weak, .volatile,
// .relaxed, .acquire; stores .weak, .volatile, .relaxed, .release; tld and ldc only .weak (and no
// scope); atom and red .relaxed, .acquire, .release, .acq_rel. ld also takes .nc (ld.global.nc, the
// non-coherent read-only path: a weak read through the texture proxy, Op::nc).
using Sems = std::vector<std::string>;
const Sems kGenericLoadSems = {"weak", "volatile", "relaxed", "acquire", "nc"};
const Sems kLoadSems = {"weak", "volatile", "relaxed", "acquire"};
const Sems kStoreSems = {"weak", "volatile", "relaxed", "release"};
const Sems kWeakOnly = {"weak"};
const Sems kAtomicSems = {"relaxed", "acquire", "release", "acq_rel"};

// The shape of an instruction's operands (the grammar's load, store, atom, red and fence rules).
enum class Form { Load, Store, Atom, Red, Fence, Barrier };

struct Opcode {
  const char* name;
  Form form;
  Proxy proxy;  // the proxy a memory operation goes through
  const Sems* sems;
};

const Opcode kOpcodes[] = {
    {"ld", Form::Load, Proxy::Generic, &kGenericLoadSems},      {"tld", Form::Load, Proxy::Texture, &kWeakOnly},
    {"suld", Form::Load, Proxy::Surface, &kLoadSems},    {"ldc", Form::Load, Proxy::Constant, &kWeakOnly},
    {"st", Form::Store, Proxy::Generic, &kStoreSems},    {"sust", Form::Store, Proxy::Surface, &kStoreSems},
    {"atom", Form::Atom, Proxy::Generic, &kAtomicSems},  {"suatom", Form::Atom, Proxy::Surface, &kAtomicSems},
    {"red", Form::Red, Proxy::Generic, &kAtomicSems},    {"sured", Form::Red, Proxy::Surface, &kAtomicSems},
    {"fence", Form::Fence, Proxy::Generic, nullptr},     {"bar", Form::Barrier, Proxy::Generic, nullptr},
};

const Opcode* opcode_named(const std::string& word) {
  for (const Opcode& code : kOpcodes)
    if (word == code.name) return &code;
  return nullptr;
}

bool is_word(const Token& t, const char* word) { return t.kind == TokenKind::Word && t.text == word; }

// A word made of `letter` and digits: d<N>, b<N>, t<N> of a thread, r<N> of a register.
bool numbered(const Token& t, char letter) {
  if (t.kind != TokenKind::Word || t.text.size() < 2 || t.text[0] != letter) return false;
  return t.text.find_first_not_of("0123456789", 1) == std::string::npos;
}

bool starts_command(const Token& t) { return is_word(t, "permit") || is_word(t, "assert") || is_word(t, "check"); }

// Decimal digits as a number, or nothing when it exceeds `limit` (checked digit by digit: no overflow).
std::optional<std::uint64_t> decimal(const std::string& digits, std::uint64_t limit) {
  std::uint64_t v = 0;
  for (char c : digits) {
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
    if (v > limit) return std::nullopt;
  }
  return v;
}

std::optional<Level> level_named(const Token& t) {
  if (is_word(t, "cta")) return Level::Cta;
  if (is_word(t, "gpu")) return Level::Gpu;
  if (is_word(t, "sys")) return Level::Sys;
  return std::nullopt;
}

Sem sem_named(const std::string& word) {
  if (word == "acquire") return Sem::Acquire;
  if (word == "release") return Sem::Release;
  if (word == "acq_rel") return Sem::AcqRel;
  return Sem::Relaxed;
}

std::string one_of(const Sems& sems) {
  std::string out = sems.size() > 1 ? "one of " : "";
  for (std::size_t i = 0; i < sems.size(); ++i) out += (i ? ", ." : ".") + sems[i];
  return out;
}

lt::Expr joined(lt::Expr::Kind kind, lt::Expr lhs, lt::Expr rhs) {
  lt::Expr e;
  e.kind = kind;
  e.operands.reserve(2);
  e.operands.push_back(std::move(lhs));
  e.operands.push_back(std::move(rhs));
  return e;
}

// `not` and parentheses nest by recursion; a bound keeps hostile input from exhausting the stack.
constexpr int kMaxNesting = 100;

// An instruction's .sem and .scope as written (the grammar's `sem scope`), kept as tokens so that a
// rule they break is reported where they stand.
struct Qualifiers {
  std::optional<Token> sem, scope;
};

struct Order {
  Sem sem;
  Level scope;
};

class Parser {
 public:
  explicit Parser(const Source& source) : src_(source), tokens_(tokenize(source)) {}
  Test run();

 private:
  const Token& peek(std::size_t ahead = 0) const;
  Token take();
  bool at_symbol(const char* symbol) const;
  bool accept(const char* symbol);
  void expect(const char* symbol);
  void expect_keyword(const char* word);
  Token expect_word(const std::string& what);
  [[noreturn]] void fail_expected(const Token& found, const std::string& what) const;
  std::string described(const Token& t) const;
  int index_in(const Token& numbered_word) const;
  std::uint32_t integer(const Token& number) const;

  void address_declaration();
  void memory_declaration();
  lt::Address virtual_alias(const std::string& name, Proxy proxy);
  lt::Address physical(const std::string& name, bool shared);
  int known_address(const Token& name) const;

  void thread();
  int thread_part(char letter);
  lt::Op instruction();
  lt::Op load(const Opcode& code);
  lt::Op store(const Opcode& code);
  lt::Op atomic(const Opcode& code);
  lt::Op fence();
  lt::Op proxy_fence();
  lt::Op barrier();
  lt::Op branch(const Token& opcode);
  lt::Term branch_operand();
  Qualifiers qualifiers(const std::string& op, const Sems& sems);
  Order access_order(const Qualifiers& q) const;
  Level scope_after(const std::string& what);
  Level scope_word();
  int address();
  Token register_token();
  std::string register_name(const Token& reg) const;
  std::string sets(const Token& reg);
  std::string read_register(const Token& reg);
  void value(lt::Op& op);
  std::int64_t must_read();

  void command();
  lt::Expr disjunction(int depth);
  lt::Expr conjunction(int depth);
  lt::Expr unary(int depth);
  lt::Expr comparison();
  lt::Term term();

  const Source& src_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  Test test_;
  std::map<std::string, int> addresses_;
  int locations_ = 0;
  bool memory_declared_ = false;
  std::set<std::string> threads_;
  std::set<std::string> registers_;         // set by some load or atom so far
  std::set<std::string> thread_registers_;  // ... of the thread being read
  std::map<std::string, std::size_t> labels_, targets_;  // of the thread being read: name -> where
  std::set<std::string> command_names_;
  int events_ = 0;  // of the test so far (lt::events_of)
};

// --- Tokens ---

const Token& Parser::peek(std::size_t ahead) const { return tokens_[std::min(next_ + ahead, tokens_.size() - 1)]; }

Token Parser::take() {
  Token t = peek();
  if (next_ + 1 < tokens_.size()) ++next_;
  return t;
}

bool Parser::at_symbol(const char* symbol) const {
  const Token& t = peek();
  return t.kind == TokenKind::Symbol && t.text == symbol;
}

bool Parser::accept(const char* symbol) {
  if (!at_symbol(symbol)) return false;
  take();
  return true;
}

void Parser::expect(const char* symbol) {
  if (!accept(symbol)) fail_expected(peek(), std::string("'") + symbol + "'");
}

void Parser::expect_keyword(const char* word) {
  if (!is_word(peek(), word)) fail_expected(peek(), std::string("'") + word + "'");
  take();
}

Token Parser::expect_word(const std::string& what) {
  if (peek().kind != TokenKind::Word) fail_expected(peek(), what);
  return take();
}

void Parser::fail_expected(const Token& found, const std::string& what) const {
  src_.fail(found.at, "expected " + what + ", found " + described(found));
}

std::string Parser::described(const Token& t) const {
  if (t.kind == TokenKind::End) return src_.instance >= 0 ? "the end of the template" : "the end of the file";
  constexpr std::size_t kShown = 32;  // enough to recognise a token; a fuzzer's megabyte word is cut
  return "'" + (t.text.size() > kShown ? t.text.substr(0, kShown) + "..." : t.text) + "'";
}

// The N of d<N>, b<N>, t<N> or r<N>.
int Parser::index_in(const Token& word) const {
  const auto n = decimal(word.text.substr(1), INT_MAX);
  if (!n)
    src_.fail(word.at, "number too big in '" + word.text.substr(0, 32) + "' (at most " + std::to_string(INT_MAX) + ")");
  return static_cast<int>(*n);
}

// Values are the 32-bit words the test's loads and stores move.
std::uint32_t Parser::integer(const Token& number) const {
  const auto n = decimal(number.text, UINT32_MAX);
  if (!n) src_.fail(number.at, "integer too big for 32 bits (at most " + std::to_string(UINT32_MAX) + ")");
  return static_cast<std::uint32_t>(*n);
}

// --- The test: addresses, then threads, then commands (the grammar's `start`) ---

Test Parser::run() {
  while (at_symbol(".")) address_declaration();
  if (!numbered(peek(), 'd'))
    fail_expected(peek(), "an address declaration (.global, .shared, .texref, .surfref, .memory) or a thread dD.bB.tT");
  while (numbered(peek(), 'd')) thread();
  // filter (COND);  -- herd's: only executions whose outcome satisfies COND count, as a precondition does.
  if (is_word(peek(), "filter")) {
    const Token word = take();
    expect("(");
    test_.litmus.filter = {disjunction(0)};
    if (!accept(")")) fail_expected(peek(), "'&&', '||' or ')'");
    expect(";");
    if (is_word(peek(), "filter")) src_.fail(peek().at, "a second filter (a test has one; join them with &&)");
    (void)word;
  }
  if (!starts_command(peek())) fail_expected(peek(), "a thread dD.bB.tT, a filter or a command (permit, assert, check)");
  while (starts_command(peek())) command();
  if (peek().kind != TokenKind::End)
    fail_expected(peek(), "a command (permit, assert, check) or " + described(Token{}));
  return std::move(test_);
}

// --- Addresses ---

// .global x;  .shared x;  .global y physically aliases x;  .global y physically aliases x offset;
// .texref t virtually aliases x;  .surfref s virtually aliases x;
void Parser::address_declaration() {
  take();  // '.'
  const Token space = peek();
  if (is_word(space, "memory")) return memory_declaration();
  const bool synonym = is_word(space, "texref") || is_word(space, "surfref");
  if (!synonym && !is_word(space, "global") && !is_word(space, "shared"))
    fail_expected(space, "one of .global, .shared, .texref, .surfref, .memory");
  take();
  const Token name = expect_word("an address name");
  if (addresses_.count(name.text)) src_.fail(name.at, "address '" + name.text + "' is declared twice");
  if (addresses_.size() == static_cast<std::size_t>(lt::kMostAddresses))
    src_.fail(name.at, "more than " + std::to_string(lt::kMostAddresses) + " addresses in the test");
  lt::Address a = synonym ? virtual_alias(name.text, space.text == "texref" ? Proxy::Texture : Proxy::Surface)
                          : physical(name.text, space.text == "shared");
  expect(";");
  addresses_[name.text] = static_cast<int>(test_.litmus.addresses.size());
  test_.litmus.addresses.push_back(std::move(a));
}

// .memory compressible;  -- the kind of physical memory every global location is made of (our extension:
// docs/litmus.md, "Addresses"): device (the default), compressible, host_numa. Once a test.
void Parser::memory_declaration() {
  const Token word = take();  // 'memory'
  if (memory_declared_) src_.fail(word.at, "a second .memory (a test's locations are of one kind of memory)");
  memory_declared_ = true;
  const Token kind = expect_word("a kind of memory (device, compressible, host_numa)");
  const std::optional<patterns::Memory> memory = patterns::from_token<patterns::Memory>(kind.text);
  if (!memory) src_.fail(kind.at, "unknown kind of memory '" + kind.text.substr(0, 32) + "' (device, compressible, host_numa)");
  test_.litmus.memory = *memory;
  expect(";");
}

// A synonym: the very virtual address of another, named for the texture or surface proxy -- so its
// location and its space (.global or .shared) are that address's.
lt::Address Parser::virtual_alias(const std::string& name, Proxy proxy) {
  expect_keyword("virtually");
  expect_keyword("aliases");
  const int of = known_address(expect_word("an address name"));
  lt::Address a = test_.litmus.addresses[static_cast<std::size_t>(of)];
  a.name = name;
  a.same_as = of;
  a.declared = proxy;
  return a;
}

// A virtual address of its own: on a new physical location, or on the location of the address it
// physically aliases.
lt::Address Parser::physical(const std::string& name, bool shared) {
  lt::Address a;
  a.name = name;
  a.shared = shared;
  if (accept("=")) {  // a location of its own with an initial value: ".global x = 2;"
    if (peek().kind != TokenKind::Number) fail_expected(peek(), "an integer (the location's initial value)");
    a.initial = integer(take());
    a.location = locations_++;
    return a;
  }
  if (at_symbol(";")) {
    a.location = locations_++;
    return a;
  }
  if (!is_word(peek(), "physically")) fail_expected(peek(), "';', '= VALUE' or 'physically aliases'");
  take();
  expect_keyword("aliases");
  const int of = known_address(expect_word("an address name"));
  a.location = test_.litmus.addresses[static_cast<std::size_t>(of)].location;
  a.initial = test_.litmus.addresses[static_cast<std::size_t>(of)].initial;
  if (is_word(peek(), "offset")) {  // its mapping one granularity into a wider reserved range
    const Token word = take();
    if (shared) src_.fail(word.at, "a .shared address is no mapping: it has no 'offset'");
    a.offset_view = true;
  }
  return a;
}

int Parser::known_address(const Token& name) const {
  auto it = addresses_.find(name.text);
  if (it == addresses_.end()) src_.fail(name.at, "unknown address '" + name.text + "'");
  return it->second;
}

// --- Threads ---

// dD.bB.tT { instruction+ }
void Parser::thread() {
  const Token d = take();
  lt::Thread th;
  th.gpu = index_in(d);
  th.cta = thread_part('b');
  th.lane = thread_part('t');
  th.name = "d" + std::to_string(th.gpu) + ".b" + std::to_string(th.cta) + ".t" + std::to_string(th.lane);
  if (!threads_.insert(th.name).second) src_.fail(d.at, "thread " + th.name + " appears twice");
  expect("{");
  if (at_symbol("}")) fail_expected(peek(), "an instruction");
  thread_registers_.clear();
  labels_.clear();
  targets_.clear();
  while (!accept("}")) th.ops.push_back(instruction());
  for (const auto& [label, at] : targets_)
    if (!labels_.count(label)) src_.fail(at, "no label '" + label + ":' in this thread");
  test_.litmus.threads.push_back(std::move(th));
}

// ".b<N>", then ".t<N>": a thread is placed by all three parts of dD.bB.tT.
int Parser::thread_part(char letter) {
  const std::string what = std::string(".") + letter + "<N> (a thread is dD.bB.tT)";
  if (!at_symbol(".")) fail_expected(peek(), what);
  if (!numbered(peek(1), letter)) fail_expected(peek(1), what);
  take();
  return index_in(take());
}

lt::Op Parser::instruction() {
  // L:  -- a label, the target of branches of its thread.
  if (peek().kind == TokenKind::Word && peek(1).kind == TokenKind::Symbol && peek(1).text == ":") {
    const Token name = take();
    take();
    if (!labels_.emplace(name.text, name.at).second) src_.fail(name.at, "label '" + name.text + "' appears twice in the thread");
    lt::Op o;
    o.kind = OpKind::Label;
    o.label = name.text;
    return o;
  }
  if (is_word(peek(), "beq") || is_word(peek(), "bne") || is_word(peek(), "goto")) return branch(take());
  const Opcode* code = peek().kind == TokenKind::Word ? opcode_named(peek().text) : nullptr;
  if (!code)
    fail_expected(peek(), "an instruction (ld, tld, suld, ldc, st, sust, atom, suatom, red, sured, fence, bar, beq, bne, "
                          "goto), a label 'L:' or '}'");
  const Token at = take();
  lt::Op op = code->form == Form::Load    ? load(*code)
              : code->form == Form::Store ? store(*code)
              : code->form == Form::Fence ? fence()
              : code->form == Form::Barrier ? barrier()
                                          : atomic(*code);
  // The test's size, checked as it is read: a file of ten thousand threads is refused at the instruction
  // past the limit, before any command does any work with it.
  events_ += lt::events_of(op);
  if (events_ > lt::kMostEvents)
    src_.fail(at.at, "more than " + std::to_string(lt::kMostEvents) +
                         " events in the test (an instruction is one, an atom or red two): the model decides at most " +
                         std::to_string(lt::kMostEvents));
  return op;
}

// ld|tld|suld|ldc[.sem][.scope] rN, [address] (== INT | until INT)?;
lt::Op Parser::load(const Opcode& code) {
  lt::Op o;
  o.kind = OpKind::Load;
  o.proxy = code.proxy;
  const Qualifiers q = qualifiers(code.name, *code.sems);
  const Order order = access_order(q);
  o.sem = order.sem;
  o.scope = order.scope;
  if (q.sem && q.sem->text == "nc") {
    o.proxy = Proxy::Texture;
    o.nc = true;
  }
  const Token reg = register_token();
  expect(",");
  o.address = address();
  if (is_word(peek(), "until")) {
    // A spin: the load repeats until it reads the value (the reader's flag of message passing).
    const Token until = take();
    if (o.proxy != Proxy::Generic)
      src_.fail(until.at, std::string("'until' spins on a generic load (ld); ") + (o.nc ? "ld.nc" : code.name) + " cannot spin");
    if (peek().kind != TokenKind::Number) fail_expected(peek(), "an integer (the value the spin waits for)");
    o.must_read = integer(take());
    o.spin = true;
  } else {
    o.must_read = must_read();
  }
  expect(";");
  o.reg = sets(reg);
  return o;
}

// st|sust[.sem][.scope] [address], VALUE;
lt::Op Parser::store(const Opcode& code) {
  lt::Op o;
  o.kind = OpKind::Store;
  o.proxy = code.proxy;
  const Order order = access_order(qualifiers(code.name, *code.sems));
  o.sem = order.sem;
  o.scope = order.scope;
  o.address = address();
  expect(",");
  value(o);
  expect(";");
  return o;
}

// atom|suatom.add[.sem][.scope] rD, [address], VALUE (== INT)?;   red|sured.add[.sem][.scope] [address], VALUE;
// atom.exch[.sem][.scope] rD, [address], VALUE;   atom.cas[.sem][.scope] rD, [address], INT, VALUE;
// No sem is .relaxed and no scope .gpu: the PTX ISA's defaults for atom and red.
lt::Op Parser::atomic(const Opcode& code) {
  const bool atom = code.form == Form::Atom && code.proxy == Proxy::Generic;
  const char* operations = atom ? ".add, .exch or .cas (atom's operations)" : ".add (the one operation of red, suatom and sured)";
  if (!at_symbol(".")) fail_expected(peek(), operations);
  const Token operation = peek(1);
  const lt::Rmw rmw = is_word(operation, "add")           ? lt::Rmw::Add
                      : atom && is_word(operation, "exch") ? lt::Rmw::Exch
                      : atom && is_word(operation, "cas")  ? lt::Rmw::Cas
                                                           : (fail_expected(operation, operations), lt::Rmw::Add);
  const std::string op = std::string(code.name) + "." + operation.text;
  take();
  take();
  const Qualifiers q = qualifiers(op, kAtomicSems);
  lt::Op o;
  o.kind = OpKind::AtomAdd;
  o.rmw = rmw;
  o.proxy = code.proxy;
  o.sem = q.sem ? sem_named(q.sem->text) : Sem::Relaxed;
  o.scope = q.scope ? *level_named(*q.scope) : Level::Gpu;
  std::optional<Token> reg;
  if (code.form == Form::Atom) {
    reg = register_token();
    expect(",");
  }
  o.address = address();
  expect(",");
  if (rmw == lt::Rmw::Cas) {  // the value it compares with, then the one it writes if they match
    if (peek().kind != TokenKind::Number) fail_expected(peek(), "the integer atom.cas compares with");
    o.expected = integer(take());
    expect(",");
  }
  value(o);
  if (reg && rmw != lt::Rmw::Cas) o.must_read = must_read();
  expect(";");
  if (reg) o.reg = sets(*reg);
  return o;
}

// beq A, B, L;  bne A, B, L;  goto L;  -- A and B integers or registers an earlier instruction of the
// thread sets; L a label of the thread (docs/litmus.md, "Branches and loops").
lt::Op Parser::branch(const Token& opcode) {
  lt::Op o;
  o.kind = OpKind::Branch;
  if (opcode.text == "goto") {
    o.branch_always = true;
  } else {
    o.branch_equal = opcode.text == "beq";
    o.lhs = branch_operand();
    expect(",");
    o.rhs = branch_operand();
    expect(",");
  }
  const Token label = expect_word("a label");
  o.label = label.text;
  targets_.emplace(label.text, label.at);
  expect(";");
  return o;
}

lt::Term Parser::branch_operand() {
  const Token t = peek();
  if (t.kind == TokenKind::Number) return lt::Term{"", integer(take())};
  if (!numbered(t, 'r')) fail_expected(t, "an integer or a register r<N>");
  take();
  return lt::Term{read_register(t), 0};
}

// fence.sc.<scope>;  fence.acq_rel.<scope>;  fence.proxy.<proxy>;  fence.alias;
lt::Op Parser::fence() {
  const char* kinds = "one of .sc, .acq_rel, .proxy, .alias after 'fence'";
  if (!at_symbol(".")) fail_expected(peek(), kinds);
  take();
  const Token kind = peek();
  lt::Op o;
  if (is_word(kind, "sc") || is_word(kind, "acq_rel")) {
    take();
    o = lt::fence(kind.text == "sc" ? OpKind::FenceSc : OpKind::FenceAcqRel, scope_after("fence." + kind.text));
  } else if (is_word(kind, "proxy")) {
    take();
    o = proxy_fence();
  } else if (is_word(kind, "alias")) {
    take();
    o = lt::alias_fence();
  } else {
    fail_expected(kind, kinds);
  }
  expect(";");
  return o;
}

// bar.cta.sync ID;  bar.sync ID;  -- a CTA barrier (PTX's barriers 0..15), every thread of the CTA taking
// part: PTX's thread-count operand is not in the language. bar.cta.arrive ID: one that does not wait.
// bar.cta.sync ID, id R (, quorum Q)?;  -- a named barrier (Dat3M's): ID is its instance, R (an integer
// or a register an earlier load of the thread sets) the logical barrier it meets others on, Q the fewest
// threads that must meet (docs/litmus.md, "Barriers").
lt::Op Parser::barrier() {
  if (!accept(".")) fail_expected(peek(), ".cta.sync or .sync after 'bar'");
  if (is_word(peek(), "cta")) {
    take();
    if (!accept(".")) fail_expected(peek(), ".sync after 'bar.cta'");
  }
  if (!is_word(peek(), "sync") && !is_word(peek(), "arrive")) fail_expected(peek(), ".sync or .arrive (bar.cta.sync ID, bar.cta.arrive ID)");
  const bool arrive = take().text == "arrive";
  if (peek().kind != TokenKind::Number) fail_expected(peek(), "the barrier's id (an integer 0..15)");
  const Token id = take();
  const std::uint32_t value = integer(id);
  if (value > 15) src_.fail(id.at, "a CTA barrier's id is 0..15 (PTX has 16 named barriers), not " + id.text);
  lt::Op o = lt::barrier(value);
  o.arrive = arrive;
  if (accept(",")) {
    if (!is_word(peek(), "id"))
      src_.fail(peek().at, "expected 'id R' (a named barrier's logical id) after 'bar.cta.sync " + id.text +
                               ",': PTX's thread-count operand is not in vmmcheck's litmus language");
    take();
    const Token r = peek();
    if (r.kind == TokenKind::Number) {
      o.resource = integer(take());
    } else {
      if (!numbered(r, 'r')) fail_expected(r, "the barrier's logical id (an integer or a register r<N>)");
      take();
      o.resource_reg = read_register(r);
    }
    if (accept(",")) {
      if (!is_word(peek(), "quorum")) fail_expected(peek(), "'quorum Q' (the fewest threads that must meet)");
      take();
      if (peek().kind != TokenKind::Number) fail_expected(peek(), "the quorum (an integer 1..64)");
      const Token n = take();
      o.quorum = integer(n);
      if (o.quorum < 1 || o.quorum > 64) src_.fail(n.at, "a quorum is 1..64 threads, not " + n.text);
    }
  }
  expect(";");
  return o;
}

// fence.proxy.alias is the alias fence (as fence.alias); the other kinds fence one proxy.
lt::Op Parser::proxy_fence() {
  static const std::map<std::string, Proxy> kProxies = {
      {"texture", Proxy::Texture},
      {"surface", Proxy::Surface},
      {"constant", Proxy::Constant},
      {"generic", Proxy::Generic}};
  const char* kinds = "one of .alias, .texture, .surface, .constant, .generic after 'fence.proxy'";
  if (!at_symbol(".")) fail_expected(peek(), kinds);
  take();
  const Token kind = peek();
  if (is_word(kind, "alias")) {
    take();
    return lt::alias_fence();
  }
  auto it = kind.kind == TokenKind::Word ? kProxies.find(kind.text) : kProxies.end();
  if (it == kProxies.end()) fail_expected(kind, kinds);
  take();
  lt::Op o = lt::fence(OpKind::ProxyFence);
  o.proxy = it->second;
  return o;
}

// The optional .sem (one of `sems`) and optional .scope after `op`.
Qualifiers Parser::qualifiers(const std::string& op, const Sems& sems) {
  Qualifiers q;
  if (!at_symbol(".")) return q;
  take();
  if (level_named(peek())) {
    q.scope = take();
    return q;
  }
  const Token& sem = peek();
  bool known = false;
  for (const std::string& s : sems) known = known || is_word(sem, s.c_str());
  if (!known) fail_expected(sem, one_of(sems) + " after '" + op + "'");
  q.sem = take();
  if (accept(".")) {
    if (!level_named(peek())) fail_expected(peek(), "one of .cta, .gpu, .sys");
    q.scope = take();
  }
  return q;
}

// A load or store: no sem is .weak; .weak and .volatile take no scope (.volatile is .relaxed at .sys,
// PTX ISA "Volatile operations"); .relaxed, .acquire and .release need one.
Order Parser::access_order(const Qualifiers& q) const {
  const std::string sem = q.sem ? q.sem->text : "weak";
  if (sem == "weak" || sem == "volatile" || sem == "nc") {
    if (q.scope) src_.fail(q.scope->at, "illegal: ." + sem + " accesses have no scope");
    return sem == "volatile" ? Order{Sem::Relaxed, Level::Sys} : Order{Sem::Weak, Level::Thread};
  }
  if (!q.scope) fail_expected(peek(), ".cta, .gpu or .sys (." + sem + " needs a scope)");
  return {sem_named(sem), *level_named(*q.scope)};
}

// The scope a fence must name: ".cta", ".gpu" or ".sys" after `what`.
Level Parser::scope_after(const std::string& what) {
  if (!accept(".")) fail_expected(peek(), ".cta, .gpu or .sys (" + what + " needs a scope)");
  return scope_word();
}

Level Parser::scope_word() {
  const auto level = level_named(peek());
  if (!level) fail_expected(peek(), "one of .cta, .gpu, .sys");
  take();
  return *level;
}

// [name]: a declared address.
int Parser::address() {
  if (!accept("[")) fail_expected(peek(), "an address in brackets");
  const int index = known_address(expect_word("an address name"));
  expect("]");
  return index;
}

Token Parser::register_token() {
  if (!numbered(peek(), 'r')) fail_expected(peek(), "a register r<N>");
  return take();
}

// A register by its number, as the artifact reads it (r01 is r1).
std::string Parser::register_name(const Token& reg) const { return "r" + std::to_string(index_in(reg)); }

// Records that a load or atom sets `reg`: each register holds one value read, so it is set once.
std::string Parser::sets(const Token& reg) {
  std::string name = register_name(reg);
  if (!registers_.insert(name).second) src_.fail(reg.at, "register " + name + " is set twice");
  thread_registers_.insert(name);
  return name;
}

// A register an operation reads: one an earlier load or atom of the same thread set (a register of another
// thread is no value this thread has).
std::string Parser::read_register(const Token& reg) {
  std::string name = register_name(reg);
  if (!thread_registers_.count(name)) src_.fail(reg.at, "register " + name + " is read but no earlier load or atom of this thread sets it");
  return name;
}

// A store's or atomic's operand: an integer, or a register an earlier load or atom of the same thread
// set (a data dependency: a register of another thread is no value this thread has).
void Parser::value(lt::Op& op) {
  const Token t = peek();
  if (t.kind == TokenKind::Number) {
    op.value = integer(take());
    return;
  }
  if (!numbered(t, 'r')) fail_expected(t, "a value (an integer or a register r<N>)");
  take();
  op.value_reg = read_register(t);
  if (accept("+")) {  // r0 + 1: the register's value plus an integer
    if (peek().kind != TokenKind::Number) fail_expected(peek(), "an integer after '+'");
    op.value = integer(take());
  }
}

// "== INT" after a load or atom: the value it must read.
std::int64_t Parser::must_read() {
  if (!accept("==")) return -1;
  if (peek().kind != TokenKind::Number) fail_expected(peek(), "an integer");
  return integer(take());
}

// --- Commands ---

// Each command is a row, and each row keeps its test and its file's text (what `list --json` and the
// handbook show): a bound keeps a file of many thousand commands from taking gigabytes. No shipped test
// has more than a dozen; a template's rows are counted apart.
constexpr std::size_t kMostCommands = 1000;

// permit|assert|check (condition) as name (case dotted.name)? (control name)?;
void Parser::command() {
  const Token keyword = take();
  if (test_.commands.size() == kMostCommands)
    src_.fail(keyword.at, "more than " + std::to_string(kMostCommands) + " commands in one test (each is a row: split the file)");
  Command c;
  c.at = keyword.at;
  c.expect = keyword.text == "permit" ? Expect::Permit : keyword.text == "assert" ? Expect::Assert : Expect::Check;
  expect("(");
  c.condition = disjunction(0);
  if (!accept(")")) fail_expected(peek(), "'&&', '||' or ')'");
  expect_keyword("as");
  const Token name = expect_word("a name for the command");
  if (!command_names_.insert(name.text).second) src_.fail(name.at, "command name '" + name.text + "' is used twice");
  c.name = name.text;
  if (is_word(peek(), "case")) {
    c.case_at = take().at;
    for (;;) {
      const Token part = take();
      if (part.kind != TokenKind::Word && part.kind != TokenKind::Number)
        src_.fail(part.at, "expected the case's dotted name (family.axis...), found " + (part.text.empty() ? std::string("the end") : "'" + part.text + "'"));
      for (char ch : part.text)
        if ((ch < 'a' || ch > 'z') && (ch < '0' || ch > '9') && ch != '_')
          src_.fail(part.at, "a case name is lowercase letters, digits and '_' between dots ('" + part.text + "')");
      c.case_name += (c.case_name.empty() ? "" : ".") + part.text;
      if (!accept(".")) break;
    }
    if (c.case_name.find('.') == std::string::npos || c.case_name.rfind("litmus.", 0) == 0)
      src_.fail(c.case_at, "a case name has a family and an axis at least, and is not a litmus row's name ('" + c.case_name + "')");
  }
  if (is_word(peek(), "control")) {
    const Token word = take();
    if (c.expect != Expect::Assert) src_.fail(word.at, "only an assert row has a control (a permit row is one)");
    const Token control = expect_word("the name of the permit command that is this row's control");
    c.control = control.text;
    c.control_at = control.at;
  }
  expect(";");
  test_.commands.push_back(std::move(c));
}

// condition := and ('||' and)*;  and := unary ('&&' unary)*;  unary := 'not' unary | '(' condition ')'
// | comparison. So && binds tighter than ||, and `not` takes the one comparison
// (or parenthesised condition) after it. Parentheses inside a condition are our extension: the
// artifact's grammar has none.
// A chain of one operator is one node of many operands (the operators are associative), not a tree as
// deep as the chain is long: every reader of a condition recurses over it, and a file of 50,000 `||`
// must not exhaust their stack.
lt::Expr Parser::disjunction(int depth) {
  lt::Expr e = conjunction(depth);
  if (!accept("||")) return e;
  e = joined(lt::Expr::Kind::Or, std::move(e), conjunction(depth));
  while (accept("||")) e.operands.push_back(conjunction(depth));
  return e;
}

lt::Expr Parser::conjunction(int depth) {
  lt::Expr e = unary(depth);
  if (!accept("&&")) return e;
  e = joined(lt::Expr::Kind::And, std::move(e), unary(depth));
  while (accept("&&")) e.operands.push_back(unary(depth));
  return e;
}

lt::Expr Parser::unary(int depth) {
  if (depth > kMaxNesting)
    src_.fail(peek().at, "condition nested too deeply (at most " + std::to_string(kMaxNesting) +
                             " levels of not and parentheses)");
  if (is_word(peek(), "not")) {
    take();
    lt::Expr e;
    e.kind = lt::Expr::Kind::Not;
    e.operands.push_back(unary(depth + 1));
    return e;
  }
  if (accept("(")) {
    lt::Expr e = disjunction(depth + 1);
    if (!accept(")")) fail_expected(peek(), "'&&', '||' or ')'");
    return e;
  }
  return comparison();
}

// VALUE == VALUE or VALUE != VALUE
lt::Expr Parser::comparison() {
  lt::Expr e;
  e.lhs = term();
  if (accept("=="))
    e.kind = lt::Expr::Kind::Eq;
  else if (accept("!="))
    e.kind = lt::Expr::Kind::Ne;
  else
    fail_expected(peek(), "'==' or '!='");
  e.rhs = term();
  return e;
}

// An integer, a register some load or atom of the test sets (all threads precede the commands), or
// [x]: the final value of global address x (Litmus::finals), which the test then observes.
lt::Term Parser::term() {
  const Token t = peek();
  lt::Term term;
  if (t.kind == TokenKind::Number) {
    term.value = integer(take());
    return term;
  }
  if (at_symbol("[")) {
    const int a = address();
    const lt::Address& addr = test_.litmus.addresses[static_cast<std::size_t>(a)];
    if (addr.shared) src_.fail(t.at, "[" + addr.name + "]: a .shared address has no one final value (each CTA has its own)");
    term.reg = lt::final_register(addr.name);
    std::vector<int>& finals = test_.litmus.finals;
    if (std::find(finals.begin(), finals.end(), a) == finals.end()) finals.push_back(a);
    return term;
  }
  if (!numbered(t, 'r')) fail_expected(t, "a register r<N>, a final value [x] or an integer");
  take();
  term.reg = register_name(t);
  if (!registers_.count(term.reg)) src_.fail(t.at, "register " + term.reg + " is read but no load or atom sets it");
  return term;
}

}  // namespace

Test parse_test(const Source& source) { return Parser(source).run(); }

}  // namespace vmmcheck::litmus::syntax
