// The litmus kernel generator (harness/codegen/generator.hpp) and its NVRTC compiler (harness/codegen/nvrtc.hpp):
// hand-built shapes become sources with the exact PTX each operation asks for, every one compiles for sm_90
// with no GPU, the tests a kernel cannot run say why, and a second compile comes from the cache.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "codegen/compile_ahead.hpp"
#include "codegen/generator.hpp"
#include "codegen/kernel_abi.h"
#include "codegen/nvrtc.hpp"
#include "litmus/parser.hpp"

namespace {

namespace fs = std::filesystem;
using namespace vmmcheck::patterns::litmus;
using vmmcheck::codegen::compile;
using vmmcheck::codegen::CompileError;
using vmmcheck::codegen::Compiled;
using vmmcheck::codegen::Build;
using vmmcheck::codegen::generate;
using vmmcheck::codegen::Kernel;
using vmmcheck::codegen::key_of;
using vmmcheck::codegen::why_not_generated;

constexpr int kArch = 90;

// Sets an environment variable for one scope and puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value->c_str(), 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh directory under the system temp dir, removed at the end of the scope.
class TempDir {
 public:
  TempDir() {
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    path_ = fs::temp_directory_path() / ("vmmcheck-codegen-" + std::to_string(::getpid()) + "-" + std::to_string(stamp));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// A name no other compile of this process has used: the in-process cache cannot answer for it.
std::string unique_name(const std::string& stem) {
  static int counter = 0;
  return stem + "_" + std::to_string(::getpid()) + "_" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
         "_" + std::to_string(counter++);
}

Thread thread(std::string name, int cta, int lane, std::vector<Op> ops) {
  Thread t;
  t.name = std::move(name);
  t.cta = cta;
  t.lane = lane;
  t.ops = std::move(ops);
  return t;
}

Address global(std::string name, int location) {
  Address a;
  a.name = std::move(name);
  a.location = location;
  return a;
}

Op stored_from(int address, std::string reg, Sem sem, Level scope) {
  Op o = store(address, 0, sem, scope);
  o.value_reg = std::move(reg);
  return o;
}

Op red(int address, std::uint32_t operand, Sem sem, Level scope) { return atom_add("", address, operand, sem, scope); }

Op proxy_load(std::string reg, int address, Proxy proxy) {
  Op o = load(std::move(reg), address);
  o.proxy = proxy;
  return o;
}

Op proxy_fence(Proxy proxy) {
  Op o = fence(OpKind::ProxyFence);
  o.proxy = proxy;
  return o;
}

// MP: writer (b0) st data; st.release.gpu flag | reader (b1) ld.acquire.gpu flag; ld data.
Litmus message_passing() {
  Litmus l;
  l.name = "MP.release_acquire";
  l.addresses = {global("data", 0), global("flag", 1)};
  l.threads = {thread("writer", 0, 0, {store(0, 1), store(1, 1, Sem::Release, Level::Gpu)}),
               thread("reader", 1, 0, {load("r0", 1, Sem::Acquire, Level::Gpu, 1), load("r1", 0)})};
  l.weak = {equal("r0", 1), equal("r1", 0)};
  return l;
}

// SB: each thread stores its location, fence.sc.gpu, loads the other's.
Litmus store_buffering() {
  Litmus l;
  l.name = "SB.fence_sc";
  l.addresses = {global("x", 0), global("y", 1)};
  l.threads = {thread("t0", 0, 0, {store(0, 1, Sem::Relaxed, Level::Gpu), fence(OpKind::FenceSc, Level::Gpu), load("r0", 1, Sem::Relaxed, Level::Gpu)}),
               thread("t1", 1, 0, {store(1, 1, Sem::Relaxed, Level::Gpu), fence(OpKind::FenceSc, Level::Gpu), load("r1", 0, Sem::Relaxed, Level::Gpu)})};
  l.weak = {equal("r0", 0), equal("r1", 0)};
  return l;
}

// IRIW: two writers in b0, two readers in b1 (declared reader first, so the lanes decide t).
Litmus iriw() {
  Litmus l;
  l.name = "IRIW.acquire";
  l.addresses = {global("x", 0), global("y", 1)};
  l.threads = {thread("w0", 0, 0, {store(0, 1, Sem::Relaxed, Level::Sys)}),
               thread("r1", 1, 1, {load("b", 1, Sem::Acquire, Level::Sys), load("c", 0, Sem::Acquire, Level::Sys)}),
               thread("w1", 0, 1, {store(1, 1, Sem::Relaxed, Level::Sys)}),
               thread("r0", 1, 0, {load("a", 0, Sem::Acquire, Level::Sys), load("d", 1, Sem::Acquire, Level::Sys)})};
  return l;
}

// LB with data dependencies: each thread loads one location and stores what it read to the other.
Litmus load_buffering() {
  Litmus l;
  l.name = "LB+deps";
  l.addresses = {global("x", 0), global("y", 1)};
  l.threads = {thread("t0", 0, 0, {load("r0", 0, Sem::Relaxed, Level::Gpu), stored_from(1, "r0", Sem::Relaxed, Level::Gpu)}),
               thread("t1", 1, 0, {load("r1", 1, Sem::Relaxed, Level::Gpu), stored_from(0, "r1", Sem::Relaxed, Level::Gpu)})};
  return l;
}

// CoRR through two virtual aliases of one location, with fence.proxy.alias between the reads.
Litmus corr_alias() {
  Litmus l;
  l.name = "CoRR.alias";
  l.addresses = {global("x", 0), global("x_alias", 0)};
  l.threads = {thread("writer", 0, 0, {store(0, 1, Sem::Relaxed, Level::Gpu)}),
               thread("reader", 1, 0, {load("r0", 0, Sem::Relaxed, Level::Gpu), alias_fence(), load("r1", 1, Sem::Relaxed, Level::Gpu)})};
  return l;
}

Litmus atoms() {
  Litmus l;
  l.name = "atom+red";
  l.addresses = {global("counter", 0)};
  l.threads = {thread("adder", 0, 0, {atom_add("r0", 0, 2, Sem::AcqRel, Level::Gpu)}),
               thread("reducer", 0, 1, {red(0, 5, Sem::Release, Level::Cta), red(0, 1, Sem::Relaxed, Level::Sys)})};
  return l;
}

// A texture read of a .texref synonym of x, after a generic store through the synonym itself.
Litmus texture_read() {
  Litmus l;
  l.name = "tex.synonym";
  Address t = global("t", 0);
  t.same_as = 0;
  t.declared = Proxy::Texture;
  l.addresses = {global("x", 0), t};
  l.threads = {thread("writer", 0, 0, {store(1, 7), alias_fence(), proxy_load("r0", 1, Proxy::Texture)})};
  return l;
}

// MP inside one CTA through .shared memory.
Litmus shared_mp() {
  Litmus l;
  l.name = "MP.shared";
  Address data = global("data", 0), flag = global("flag", 1);
  data.shared = flag.shared = true;
  l.addresses = {data, flag};
  l.threads = {thread("writer", 0, 0, {store(0, 1), store(1, 1, Sem::Release, Level::Cta)}),
               thread("reader", 0, 1, {load("r0", 1, Sem::Acquire, Level::Cta), load("r1", 0)})};
  return l;
}

void expect_contains(const std::string& source, const std::string& text) {
  EXPECT_NE(source.find(text), std::string::npos) << "missing: " << text << "\n--- source ---\n" << source;
}

bool is_elf(const std::string& cubin) { return cubin.size() > 4 && cubin.compare(0, 4, "\x7f" "ELF") == 0; }

void expect_compiles(const Kernel& k) {
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));  // a real compile, nothing left in $HOME
  try {
    const Compiled c = compile(k, kArch);
    EXPECT_TRUE(is_elf(c.cubin)) << k.name;
    EXPECT_EQ(c.log.find("warning"), std::string::npos) << c.log << "\n--- source ---\n" << k.source;
  } catch (const CompileError& e) {
    ADD_FAILURE() << e.what() << "\n" << e.log() << "\n--- source ---\n" << k.source;
  }
}

// The kernel as it was built before every role ran in every thread: one role a thread, the weak loads
// warmed, a fresh word every round.
const Build kOneRole{false, Build::Warm::Weak, false};

// --- The sources ---

TEST(LitmusCodegen, MessagePassingReleaseAcquire) {
  const Litmus l = message_passing();
  ASSERT_EQ(why_not_generated(l), "");
  const Kernel k = generate(l, kOneRole);
  EXPECT_EQ(k.name.rfind("vmmcheck_litmus_MP_release_acquire_", 0), 0u) << k.name;
  expect_contains(k.source, "#include \"litmus_abi.h\"");
  expect_contains(k.source, "extern \"C\" __global__ void " + k.name + "(VmmcheckLitmusLaunch p)");
  expect_contains(k.source, "\"st.u32 [%0], %1;\"");
  expect_contains(k.source, "\"st.release.gpu.u32 [%0], %1;\"");
  expect_contains(k.source, "\"ld.acquire.gpu.u32 %0, [%1];\"");
  expect_contains(k.source, "\"ld.u32 %0, [%1];\"");
  expect_contains(k.source, "// ld.acquire.gpu r0, [flag] == 1");
  expect_contains(k.source, "p.view[1] + (1ull * p.region_words + word)");
  EXPECT_EQ(k.source.find("#include <"), std::string::npos) << "NVRTC has no standard headers here";
  EXPECT_EQ(k.source.find(".global"), std::string::npos) << "generic addressing only";
  EXPECT_EQ(k.registers, (std::vector<std::string>{"r0", "r1"}));
  EXPECT_EQ(k.file_ctas, 2u);
  EXPECT_EQ(k.threads_per_file_cta, 1u);
  EXPECT_EQ(k.locations, 2u);
  expect_compiles(k);
}

// Every role in every thread (the default): each GPU thread writes one instance's data and flag and then
// reads another's, whose writer is in another CTA -- the shape of the hand-written kernels and of
// cuda-litmus; the flag and data keep one word across rounds with values tagged by round, and the
// reader's data line is warmed before the writer's stores.
TEST(LitmusCodegen, MessagePassingEveryRoleInEveryThread) {
  const Kernel k = generate(message_passing());
  EXPECT_TRUE(k.all_roles);
  EXPECT_EQ(k.role_order, (std::vector<int>{0, 1}));
  EXPECT_EQ(k.reused_locations, (std::vector<bool>{true, true}));
  expect_contains(k.source, "// Every GPU thread runs every role, each for an instance of its own, in the order: T0 T1");
  expect_contains(k.source, "p.instances == p.ctas * p.block_threads");
  expect_contains(k.source, "const unsigned int m0 = ((q + p.ctas - 0u % p.ctas) % p.ctas) * p.block_threads + u0;");
  expect_contains(k.source, "const unsigned int m1 = ((q + p.ctas - 1u % p.ctas) % p.ctas) * p.block_threads + u1;");
  expect_contains(k.source, "vmmcheck_keep ^= vmmcheck_warm(p.view[0] + (0ull * p.region_words + column1));  // T1's data");
  expect_contains(k.source, "const unsigned int tag = (r + 1u) << VMMCHECK_LITMUS_VALUE_BITS;");
  expect_contains(k.source, "w0 = tag | 1u;");
  expect_contains(k.source, "\"st.release.gpu.u32 [%0], %1;\" :: \"l\"(a1), \"r\"(w1)");
  expect_contains(k.source, "v0 = vmmcheck_value(w0, tag);");
  expect_contains(k.source, "unsigned int* const out = p.registers + ((unsigned long long)r * p.instances + m1) * p.register_count;");
  EXPECT_EQ(k.source.find("switch (who)"), std::string::npos);
  // The warming precedes the first role: the writer's stores come between it and the reader's load.
  EXPECT_LT(k.source.find("vmmcheck_warm(p.view[0]"), k.source.find("// st [data], 1"));
  ASSERT_EQ(k.sites.size(), 4u);
  EXPECT_EQ(k.sites[2].thread, 1u);
  EXPECT_EQ(k.sites[2].text, "ld.acquire.gpu r0, [flag] == 1");
  expect_compiles(k);
  // Each knob alone changes the kernel, and each kernel compiles.
  for (const Build& b : {Build{true, Build::Warm::None, true}, Build{true, Build::Warm::All, false}, Build{false, Build::Warm::All, true}}) {
    const Kernel other = generate(message_passing(), b);
    EXPECT_NE(other.name, k.name);
    expect_compiles(other);
  }
}

// A thread that spins runs after the threads whose stores it waits for, whatever the file's order; two
// threads that wait for each other cannot share a GPU thread, so the test runs one role a thread.
TEST(LitmusCodegen, SpinningRolesComeAfterTheirWriters) {
  Litmus wrc;
  wrc.name = "WRC.spin";
  wrc.addresses = {global("x", 0), global("y", 1)};
  Op spin_y = load("r1", 1, Sem::Acquire, Level::Gpu, 1);
  spin_y.spin = true;
  Op spin_x = load("r0", 0, Sem::Acquire, Level::Gpu, 1);
  spin_x.spin = true;
  wrc.threads = {thread("reader", 2, 0, {spin_y, load("r2", 0)}),
                 thread("relay", 1, 0, {spin_x, store(1, 1, Sem::Release, Level::Gpu)}),
                 thread("writer", 0, 0, {store(0, 1)})};
  const Kernel k = generate(wrc);
  EXPECT_EQ(k.role_order, (std::vector<int>{2, 1, 0}));
  expect_contains(k.source, "in the order: T2 T1 T0");
  expect_compiles(k);

  Litmus handshake = wrc;
  handshake.name = "handshake";
  Op spin_back = load("r3", 1, Sem::Acquire, Level::Gpu, 1);
  spin_back.spin = true;
  handshake.threads = {thread("a", 0, 0, {spin_back, store(0, 1, Sem::Release, Level::Gpu)}),
                       thread("b", 1, 0, {spin_x, store(1, 1, Sem::Release, Level::Gpu)})};
  const Kernel h = generate(handshake);
  EXPECT_FALSE(h.all_roles);
  EXPECT_TRUE(h.role_order.empty());
  expect_contains(h.source, "// One role a GPU thread.");
  expect_contains(h.source, "switch (who)");
  expect_compiles(h);
}

// Values by round only where one plain store a round, of a value that fits beside the tag, is all that
// writes a location: two writers, two stores of one writer (a later round's first value would read as
// older than this round's second: SB with two fence.sc a thread "failed" on the H200 so), an atom or a
// large value keep a fresh word every round.
TEST(LitmusCodegen, ValuesByRoundOnlyForOneWritersPlainStores) {
  Litmus l;
  l.name = "reuse";
  l.addresses = {global("one_writer", 0), global("two_writers", 1), global("atom", 2), global("large", 3),
                 global("twice", 4)};
  l.threads = {thread("t0", 0, 0, {store(0, 1), store(1, 1), red(2, 1, Sem::Relaxed, Level::Gpu), store(3, 300), store(4, 1),
                                   store(4, 2)}),
               thread("t1", 1, 0, {store(1, 2), load("r0", 0), load("r1", 1), load("r2", 2), load("r3", 3), load("r4", 4)})};
  const Kernel k = generate(l);
  EXPECT_EQ(k.reused_locations, (std::vector<bool>{true, false, false, false, false}));
  expect_contains(k.source, "p.view[0] + (0ull * p.region_words + column0);  // one_writer: location L0, one word every round");
  expect_contains(k.source, "p.view[1] + (1ull * p.region_words + word0);  // two_writers: location L1");
  expect_contains(k.source, "p.view[3] + (3ull * p.region_words + word0);  // large: location L3");
  expect_compiles(k);
  EXPECT_EQ(generate(l, Build{true, Build::Warm::All, false}).reused_locations, (std::vector<bool>(5, false)));
}

// Build::loads_before_stores: a plain store's address depends on the role's earlier loads through the
// launch's runtime zero, so the hardware returns them first; a store no load precedes is left as it is,
// and so is a role with branches (a path may skip a load). Off by default.
TEST(LitmusCodegen, StoresWaitForEarlierLoadsOnlyWhenAsked) {
  Litmus l = load_buffering();  // each thread: a load, then a store of what it read
  l.threads.push_back(thread("t2", 2, 0, {store(0, 2)}));
  EXPECT_EQ(generate(l).source.find("p.zero"), std::string::npos);
  Build after;
  after.loads_before_stores = true;
  const Kernel k = generate(l, after);
  expect_contains(k.source, "\"l\"(a1 + ((v0) & p.zero))");
  expect_contains(k.source, "\"l\"(a0 + ((w0) & p.zero))");  // t1 reads y, a word of values by round, into w0
  expect_contains(k.source, "\"l\"(a0), \"r\"(");  // t2 loads nothing before its store
  expect_compiles(k);
  // The build is part of the kernel's key: a row under the knob is another kernel.
  EXPECT_NE(generate(l).source, k.source);
  // An atom's returned value is waited for too, and two earlier values are joined with `|` (a merged
  // pair of loads gives one word twice, which `^` would cancel).
  Litmus a;
  a.name = "atom_then_store";
  a.addresses = {global("x", 0), global("y", 1)};
  a.threads = {thread("t0", 0, 0, {load("r0", 1), atom_add("r1", 0, 1, Sem::Relaxed, Level::Gpu), store(1, 2)}),
               thread("t1", 1, 0, {store(1, 1)})};
  const Kernel ka = generate(a, after);
  expect_contains(ka.source, " | v1) & p.zero))");
  expect_compiles(ka);
  // A role that branches is left as it is: a path may skip the load a store would wait for.
  const vmmcheck::litmus::File f =
      vmmcheck::litmus::parse_file((std::filesystem::path(VMMCHECK_SOURCE_DIR) / "tests/litmus/grammar/control_flow.test").string());
  Build one_role_after = kOneRole;
  one_role_after.loads_before_stores = true;
  const Kernel kb = generate(f.rows.at(0).test, one_role_after);
  EXPECT_EQ(kb.source.find("p.zero"), std::string::npos) << "t1 branches (its cas loop) before its store";
  expect_compiles(kb);
}

// Build::distinct_addresses (on by default): a store after a store of the same address, and a weak load
// after an access of it, reach it through p.zero times a number of their own -- a load after a load also
// waiting for that load's value -- so that ptxas can neither drop the first store nor merge, forward or
// swap the loads (the row then tests what it asks: vmmcheck toolchain). Left as they are: a first access,
// a strong load, and pairs with something between that keeps ptxas from that anyway (a store between
// loads, a load between stores, of any address; an atomic; a fence) or that the model orders them around
// (an acquire before a load, a release before a store: ptxas breaking that must stay visible). Off, every one.
TEST(LitmusCodegen, RepeatedAddressesGoThroughOffsetsPtxasCannotSeeThrough) {
  Litmus l;
  l.name = "repeats";
  l.addresses = {global("x", 0), global("y", 1), global("z", 2)};
  l.threads = {
      thread("t0", 0, 0, {store(0, 1), store(0, 2), load("r5", 2), store(0, 3), store(2, 1, Sem::Release, Level::Gpu), store(0, 4)}),
      thread("t1", 1, 0, {load("r0", 0), load("r1", 0), load("r2", 0, Sem::Relaxed, Level::Gpu), store(2, 2), load("r6", 0),
                          load("r7", 1, Sem::Acquire, Level::Gpu), load("r8", 0)}),
      thread("t2", 2, 0, {store(1, 1), fence(OpKind::FenceSc, Level::Gpu), load("r3", 1), load("r4", 1),
                          atom_add("r9", 2, 1, Sem::Relaxed, Level::Gpu), load("r10", 1)})};
  const Kernel k = generate(l);
  const std::string offset = "(unsigned long long)(p.zero * ";
  // t0: its second store, after a store of x; not the fourth (a load of z between: ptxas must keep the
  // second store for it) nor the sixth (a release between)
  expect_contains(k.source, "\"l\"((a0 + " + offset + "2u))), ");
  EXPECT_EQ(k.source.find("(a0 + " + offset + "4u))"), std::string::npos);
  EXPECT_EQ(k.source.find("(a0 + " + offset + "6u))"), std::string::npos);
  // t1: its second load waits for the first; the relaxed load is ptxas's to keep; the load after the store
  // of z, and the one after the acquire, are left as they are
  const std::size_t second = k.source.find("(a0 + " + offset + "2u + (");
  ASSERT_NE(second, std::string::npos) << k.source;
  EXPECT_NE(k.source.find(" & p.zero)))", second), std::string::npos);
  for (const char* n : {"3u", "5u", "7u"}) EXPECT_EQ(k.source.find("(a0 + " + offset + n), std::string::npos) << n;
  // t2: the fence keeps ptxas from merging its store and first load of y; the second load is a repeat
  // (of a load: it waits for it); the one after the atomic is left as it is
  EXPECT_EQ(k.source.find("(a1 + " + offset + "3u"), std::string::npos);
  expect_contains(k.source, "(a1 + " + offset + "4u + (");
  EXPECT_EQ(k.source.find("(a1 + " + offset + "6u"), std::string::npos);
  expect_compiles(k);
  // With loads_before_stores too, a store's address has both terms.
  Build both;
  both.loads_before_stores = true;
  expect_compiles(generate(l, both));
  Build off;
  off.distinct_addresses = false;
  EXPECT_EQ(generate(l, off).source.find("p.zero"), std::string::npos);
}

// A store then a weak load of it: the load reaches the word through an offset (no value to wait for); an
// ld.nc reload is left to ptxas, which may move a read-only load past a fence.
TEST(LitmusCodegen, AReadBackGoesThroughAnOffsetAnNcReloadDoesNot) {
  Litmus l;
  l.name = "read_back";
  l.addresses = {global("x", 0)};
  Op nc1 = proxy_load("r1", 0, Proxy::Texture), nc2 = proxy_load("r2", 0, Proxy::Texture);
  nc1.nc = nc2.nc = true;  // ld.nc: the texture proxy's read at the generic address
  l.threads = {thread("t0", 0, 0, {store(0, 1), load("r0", 0), nc1, nc2})};
  const Kernel k = generate(l);
  expect_contains(k.source, "\"l\"((a0 + (unsigned long long)(p.zero * 2u)))");
  EXPECT_EQ(k.source.find("p.zero * 3u"), std::string::npos);
  EXPECT_EQ(k.source.find("p.zero * 4u"), std::string::npos);
  expect_compiles(k);
}

// Final values are registers the kernel leaves for the host (Kernel::finals), after the loads' own; their
// location keeps a word per round; a final value of a surface's memory is not generated.
TEST(LitmusCodegen, FinalValuesAreReadBackByTheHost) {
  Litmus l;
  l.name = "finals";
  l.addresses = {global("x", 0), global("y", 1)};
  l.threads = {thread("t0", 0, 0, {store(0, 1), store(1, 2)}), thread("t1", 1, 0, {store(1, 1), load("r0", 0)})};
  l.finals = {1};
  const Kernel k = generate(l);
  EXPECT_EQ(k.registers, (std::vector<std::string>{"r0", "[y]"}));
  ASSERT_EQ(k.finals.size(), 1u);
  EXPECT_EQ(k.finals[0].reg, 1u);
  EXPECT_EQ(k.finals[0].view, 1);
  EXPECT_EQ(k.finals[0].location, 1);
  EXPECT_EQ(k.reused_locations, (std::vector<bool>{true, false}));  // x: one writer; y: read back per round
  expect_contains(k.source, "// Final values (the host reads them back after the launch): [y]");
  EXPECT_EQ(k.source.find("v1"), std::string::npos);  // no code writes the final's register
  expect_compiles(k);

  Litmus surface = l;
  Address s = global("s", 1);
  s.same_as = 1;
  s.declared = Proxy::Surface;
  surface.addresses.push_back(s);
  EXPECT_NE(why_not_generated(surface).find("final values of texels"), std::string::npos) << why_not_generated(surface);
}

TEST(LitmusCodegen, StoreBufferingFenceSc) {
  const Kernel k = generate(store_buffering());
  expect_contains(k.source, "\"st.relaxed.gpu.u32 [%0], %1;\"");
  expect_contains(k.source, "\"fence.sc.gpu;\"");
  expect_contains(k.source, "\"ld.relaxed.gpu.u32 %0, [%1];\"");
  // The stress of every in-kernel test (kernels/stress_ops.h): memory-stress CTAs, the round's
  // barrier and pre-stress, and the testing CTAs counting themselves done.
  expect_contains(k.source, "if (blockIdx.x >= p.ctas) {");
  expect_contains(k.source, "vmmcheck_memory_stress(&p.stress, p.ctas);");
  expect_contains(k.source, "vmmcheck_stress_round(&p.stress,");
  expect_contains(k.source, "vmmcheck_testing_done(&p.stress);");
  expect_compiles(k);
}

TEST(LitmusCodegen, IriwPlacesFourThreadsInTwoCtas) {
  const Kernel k = generate(iriw(), kOneRole);
  EXPECT_EQ(k.file_ctas, 2u);
  EXPECT_EQ(k.threads_per_file_cta, 2u);
  EXPECT_EQ(k.registers, (std::vector<std::string>{"b", "c", "a", "d"}));  // thread order, program order
  expect_contains(k.source, "\"ld.acquire.sys.u32 %0, [%1];\"");
  expect_contains(k.source, "\"st.relaxed.sys.u32 [%0], %1;\"");
  // b * kThreadsPerFileCta + t: r0 (lane 0) is t = 0 of b1, r1 (lane 1) t = 1.
  expect_contains(k.source, "case 2u: who = 3;");
  expect_contains(k.source, "case 3u: who = 1;");
  expect_contains(k.source, "case 1u: who = 2;");
  expect_contains(k.source, "out[0] = v0;");
  expect_compiles(k);
  // Every role in every thread: the two threads of a file CTA half a block apart.
  const Kernel all = generate(iriw());
  EXPECT_EQ(all.role_order, (std::vector<int>{0, 1, 2, 3}));
  expect_contains(all.source, "const unsigned int u2 = (y + p.block_threads - (1u * lane_step) % p.block_threads) % p.block_threads;");
  expect_contains(all.source, "const unsigned int lane_step = p.block_threads / kThreadsPerFileCta;");
  expect_compiles(all);
}

TEST(LitmusCodegen, LoadBufferingStoresWhatItRead) {
  const Kernel k = generate(load_buffering(), kOneRole);
  // The store's operand is the load's register: a real data dependency.
  expect_contains(k.source, "\"st.relaxed.gpu.u32 [%0], %1;\" :: \"l\"(a1), \"r\"(v0)");
  expect_contains(k.source, "// st.relaxed.gpu [y], r0");
  expect_compiles(k);
  // Values by round: the register holds the value read, and the store tags it with this round.
  const Kernel tagged = generate(load_buffering());
  expect_contains(tagged.source, "v0 = vmmcheck_value(w0, tag);");
  expect_contains(tagged.source, "w1 = tag | v0;");
  expect_compiles(tagged);
}

TEST(LitmusCodegen, CoRRThroughAliasesWithAliasFence) {
  const Kernel k = generate(corr_alias(), kOneRole);
  EXPECT_EQ(k.locations, 1u);
  expect_contains(k.source, "\"fence.proxy.alias;\"");
  expect_contains(k.source, "p.view[0] + (0ull * p.region_words + word)");
  expect_contains(k.source, "p.view[1] + (0ull * p.region_words + word)");  // its own mapping, same word
  expect_compiles(k);
}

TEST(LitmusCodegen, AtomAndRed) {
  const Kernel k = generate(atoms());
  EXPECT_EQ(k.registers, (std::vector<std::string>{"r0"}));  // red sets none
  expect_contains(k.source, "\"atom.acq_rel.gpu.add.u32 %0, [%1], %2;\"");
  expect_contains(k.source, "\"red.release.cta.add.u32 [%0], %1;\"");
  expect_contains(k.source, "\"red.relaxed.sys.add.u32 [%0], %1;\"");
  expect_compiles(k);
}

// Branches are gotos, a loop is bounded as a spin is, atom.cas and atom.exch are PTX's, a register sum is
// summed (tests/litmus/grammar/control_flow.test: a lock taken with a cas loop, freed with an exch).
TEST(LitmusCodegen, BranchesLoopsCasAndExch) {
  const vmmcheck::litmus::File f =
      vmmcheck::litmus::parse_file((std::filesystem::path(VMMCHECK_SOURCE_DIR) / "tests/litmus/grammar/control_flow.test").string());
  const Kernel k = generate(f.rows.at(0).test, kOneRole);
  expect_contains(k.source, "\"atom.acquire.gpu.cas.b32 %0, [%1], %2, %3;\"");
  expect_contains(k.source, "\"atom.release.gpu.exch.b32 %0, [%1], %2;\"");
  expect_contains(k.source, "if (v1 != 0u) {");  // bne r1, 0, LC00: back to the loop, bounded
  expect_contains(k.source, "<= p.spin_timeout_ns) goto vmmcheck_L");
  expect_contains(k.source, "v1 = 4294967295u;  // the bound reached");
  expect_contains(k.source, "if (v3 == v4) goto vmmcheck_L");  // beq r3, r4, SAME: forward
  expect_contains(k.source, "\"r\"((v2 + 1u))");                 // st [y], r2 + 1
  expect_compiles(k);
  // A loop whose body sets nothing: its bound marks the register its branch compares. Labels alike in
  // their first 40 characters stay two labels.
  const std::string label(48, 'L');
  const vmmcheck::litmus::File waits = vmmcheck::litmus::parse_text(
      ".global x;\n.global y;\nd0.b0.t0 { st [x], 1; }\nd0.b1.t0 {\n  ld.relaxed.gpu r0, [x];\n" + label +
          "a:\n  bne r0, 1, " + label + "a;\n  beq r0, 1, " + label + "b;\n" + label + "b:\n}\npermit (r0 == 1) as leaves;\n",
      "waits.test");
  const Kernel w = generate(waits.rows.at(0).test, kOneRole);
  expect_contains(w.source, "v0 = 4294967295u;  // the bound reached");
  expect_compiles(w);
}

TEST(LitmusCodegen, TextureReadOfTexrefSynonym) {
  const Kernel k = generate(texture_read(), kOneRole);
  EXPECT_EQ(k.locations, 1u);
  expect_contains(k.source, "tex.1d.v4.u32.s32 {%0, tld_y, tld_z, tld_w}, [%1, {%2}];");
  expect_contains(k.source, "\"l\"(p.texture[1])");
  // The generic store through the .texref name goes to the synonym's target view.
  expect_contains(k.source, "unsigned int* const a1 = p.view[0] + (0ull * p.region_words + word);");
  expect_compiles(k);
}

TEST(LitmusCodegen, SharedMessagePassingInOneCta) {
  const Kernel k = generate(shared_mp(), kOneRole);
  EXPECT_EQ(k.locations, 0u);
  EXPECT_EQ(k.file_ctas, 1u);
  EXPECT_EQ(k.threads_per_file_cta, 2u);
  expect_contains(k.source, "__shared__ unsigned int vmmcheck_shared[1024];");
  expect_contains(k.source, "&vmmcheck_shared[slot * 2u + 1u]");
  expect_contains(k.source, "vmmcheck_shared[i] = 0u;");
  expect_contains(k.source, "\"st.release.cta.u32 [%0], %1;\"");
  EXPECT_EQ(k.source.find("if (p.round_barrier)"), std::string::npos) << "shared memory always has its barriers";
  expect_compiles(k);
  // Every role in every thread: one word per lane and shared location.
  const Kernel all = generate(shared_mp());
  expect_contains(all.source, "__shared__ unsigned int vmmcheck_shared[2048];  // [lane][shared location]");
  expect_contains(all.source, "&vmmcheck_shared[u1 * 2u + 1u]");
  expect_compiles(all);
}

TEST(LitmusCodegen, NamesAreStablePerTestAndDifferAcrossTests) {
  EXPECT_EQ(generate(message_passing()).name, generate(message_passing()).name);
  EXPECT_EQ(generate(message_passing()).source, generate(message_passing()).source);
  Litmus other = message_passing();
  other.threads[1].ops[1].sem = Sem::Relaxed;
  other.threads[1].ops[1].scope = Level::Gpu;
  EXPECT_NE(generate(other).name, generate(message_passing()).name);
  Litmus renamed = message_passing();
  renamed.name = "MP.release_acquire.2";
  EXPECT_NE(generate(renamed).name, generate(message_passing()).name);
}

// --- What is not generated, and why ---

std::string reason_for(Litmus l) {
  const std::string why = why_not_generated(l);
  EXPECT_THROW(generate(l), std::invalid_argument);
  return why;
}

TEST(LitmusCodegenNotSupported, SecondGpu) {
  Litmus l = message_passing();
  l.threads[1].gpu = 1;
  EXPECT_EQ(reason_for(l), "needs a second GPU: generated kernels run on one GPU in this version");
}

TEST(LitmusCodegenNotSupported, ConstantProxy) {
  Litmus l = message_passing();
  l.threads[1].ops[1] = proxy_load("r1", 0, Proxy::Constant);
  EXPECT_EQ(reason_for(l), "ldc: the constant state space cannot view global (VMM) memory");
}

TEST(LitmusCodegenNotSupported, SurfaceOperationsNeedASurfrefAndAreWeak) {
  Litmus op = message_passing();
  op.threads[1].ops[1] = proxy_load("r1", 0, Proxy::Surface);  // suld of x, which is no .surfref
  EXPECT_NE(reason_for(op).find("surface objects are made for .surfref addresses only"), std::string::npos);

  Litmus address = message_passing();
  Address s = global("s", 0);
  s.same_as = 0;
  s.declared = Proxy::Surface;
  address.addresses.push_back(s);
  address.threads[1].ops[1] = proxy_load("r1", 2, Proxy::Surface);
  EXPECT_EQ(why_not_generated(address), "");
  address.threads[1].ops[1].sem = Sem::Relaxed;
  address.threads[1].ops[1].scope = Level::Gpu;
  EXPECT_NE(reason_for(address).find("suld and sust are weak"), std::string::npos);

  Litmus offset = address;  // an offset view of the surface's memory
  offset.threads[1].ops[1] = load("r1", 3);
  offset.addresses.push_back(global("xo", 0));
  offset.addresses.back().offset_view = true;
  EXPECT_EQ(reason_for(offset), "address xo is an offset view of the memory of .surfref s: offset views of a surface's memory are not in this version");
}

// Dat3M's Proxy-MP-cta-synonym shapes: x's memory is a surface's, y a physical alias of x (another
// linear mapping of the surface's allocation), t a .texref of y (the texture object over the surface's
// array): sust [s], 2; st.release [flag] / ld.acquire [flag]; tld r1, [t] and ld r2, [y].
TEST(LitmusCodegen, ATextureAndAPhysicalAliasOfASurfacesMemory) {
  Litmus l = message_passing();  // x = 0, flag = 1
  Address s = global("s", 0), t = global("t", 0);
  s.same_as = 0;
  s.declared = Proxy::Surface;
  t.same_as = 3;
  t.declared = Proxy::Texture;
  l.addresses.push_back(s);              // 2
  l.addresses.push_back(global("y", 0)); // 3: physically aliases x
  l.addresses.push_back(t);              // 4
  l.threads[0].ops[0].proxy = Proxy::Surface;
  l.threads[0].ops[0].address = 2;
  l.threads[1].ops[1] = proxy_load("r1", 4, Proxy::Texture);
  l.threads[1].ops.push_back(load("r2", 3));
  EXPECT_EQ(why_not_generated(l), "");
  const Kernel k = generate(l);
  expect_contains(k.source, "tex.2d.v4.u32.s32 {%0, tld_y, tld_z, tld_w}, [%1, {%2, %3}];");
  expect_contains(k.source, "\"l\"(p.texture[4]), \"r\"((int)(word1 % p.surface_width)), \"r\"((int)(word1 / p.surface_width))");
  expect_contains(k.source, "p.view[3] + p.texel_word[0][word1]");  // y: its own mapping, the same texel's word
  EXPECT_EQ(k.surface_locations, (std::vector<bool>{true, false}));
  expect_compiles(k);
}

TEST(LitmusCodegen, SurfaceLoadsAndStoresGoThroughTheSurfaceObjectAtTheTexel) {
  Litmus l = message_passing();
  Address s = global("s", 0);
  s.same_as = 0;
  s.declared = Proxy::Surface;
  l.addresses.push_back(s);
  l.threads[0].ops[0].proxy = Proxy::Surface;
  l.threads[0].ops[0].address = 2;                          // sust [s], 1
  l.threads[1].ops[1] = load("r1", 0);                      // ld r1, [x]: x's texel word
  const Kernel k = generate(l);
  EXPECT_NE(k.source.find("sust.b.2d.b32.trap [%0, {%1, %2}], {%3};"), std::string::npos) << k.source;
  EXPECT_NE(k.source.find("p.texel_word[0][word1]"), std::string::npos) << k.source;  // the reader's instance's texel
  EXPECT_EQ(k.surface_locations, (std::vector<bool>{true, false}));
  EXPECT_EQ(k.reused_locations, (std::vector<bool>{false, true})) << "a surface's words are texels, one each round";
  const Compiled c = compile(k, 90);
  EXPECT_FALSE(c.cubin.empty());
}

TEST(LitmusCodegenNotSupported, ProxyFencesPtxDoesNotHave) {
  for (const auto& [proxy, name] : {std::pair{Proxy::Texture, "texture"}, std::pair{Proxy::Surface, "surface"},
                                    std::pair{Proxy::Constant, "constant"}, std::pair{Proxy::Generic, "generic"}}) {
    Litmus l = texture_read();
    l.threads[0].ops[1] = proxy_fence(proxy);
    EXPECT_EQ(reason_for(l), std::string("PTX has no fence.proxy.") + name + " instruction");
  }
}

TEST(LitmusCodegenNotSupported, StrongTextureRead) {
  Litmus l = texture_read();
  l.threads[0].ops[2].sem = Sem::Acquire;
  l.threads[0].ops[2].scope = Level::Gpu;
  EXPECT_EQ(reason_for(l), "tld is a weak read: PTX has no .acquire texture fetch");
}

TEST(LitmusCodegenNotSupported, TextureReadOfAnAddressThatIsNoTexref) {
  Litmus l = texture_read();
  l.threads[0].ops[2].address = 0;
  EXPECT_NE(reason_for(l).find("not a .texref"), std::string::npos);
}

TEST(LitmusCodegenNotSupported, AcquiringRed) {
  for (Sem sem : {Sem::Acquire, Sem::AcqRel}) {
    Litmus l = atoms();
    l.threads[1].ops[0].sem = sem;
    EXPECT_NE(reason_for(l).find("PTX red takes .relaxed or .release only"), std::string::npos);
  }
}

TEST(LitmusCodegenNotSupported, TooManyAddresses) {
  Litmus l = message_passing();
  while (l.addresses.size() <= VMMCHECK_LITMUS_MAX_ADDRESSES)
    l.addresses.push_back(global("extra" + std::to_string(l.addresses.size()), 0));
  EXPECT_NE(reason_for(l).find("the kernel ABI has room for 8"), std::string::npos);
}

TEST(LitmusCodegenNotSupported, MoreThan1024ThreadsInOneCta) {
  Litmus l = message_passing();
  for (int lane = 1; lane <= 1024; ++lane) l.threads.push_back(thread("t" + std::to_string(lane), 1, lane, {}));
  EXPECT_NE(reason_for(l).find("more than 1024 threads"), std::string::npos);
  l.threads.pop_back();  // 1024 in b1: fine
  EXPECT_EQ(why_not_generated(l), "");
}

TEST(LitmusCodegenNotSupported, HarnessExtensions) {
  Litmus resident = message_passing();
  resident.threads[1].resident = true;
  EXPECT_NE(reason_for(resident).find("resident threads"), std::string::npos);
  Litmus ordered = message_passing();
  ordered.boundaries = {{0, 1}};
  EXPECT_NE(reason_for(ordered).find("operation boundaries"), std::string::npos);
}

TEST(LitmusCodegenNotSupported, NoThreads) {
  Litmus l = message_passing();
  l.threads.clear();
  EXPECT_EQ(reason_for(l), "the test has no threads");
}

TEST(LitmusCodegenNotSupported, SharedAddressAcrossCtas) {
  Litmus l = shared_mp();
  l.threads[1].cta = 1;
  EXPECT_NE(reason_for(l).find("touched by threads of two CTAs"), std::string::npos);
}

TEST(LitmusCodegenNotSupported, RegistersOfOneThreadEach) {
  Litmus twice = message_passing();
  twice.threads[0].ops.push_back(load("r1", 0));
  EXPECT_NE(reason_for(twice).find("register r1 is set by two threads"), std::string::npos);
  Litmus unset = load_buffering();
  unset.threads[0].ops[1].value_reg = "r1";  // t1's register
  EXPECT_NE(reason_for(unset).find("which no earlier operation of the thread sets"), std::string::npos);
}

TEST(LitmusCodegenNotSupported, MissingScopesAndSemsPtxLacks) {
  Litmus unscoped = message_passing();
  unscoped.threads[0].ops[1].scope = Level::Thread;
  EXPECT_NE(reason_for(unscoped).find("a strong access needs a scope"), std::string::npos);
  Litmus fence_without_scope = store_buffering();
  fence_without_scope.threads[0].ops[1].scope = Level::Thread;
  EXPECT_NE(reason_for(fence_without_scope).find("a fence needs a scope"), std::string::npos);
  Litmus acquiring_store = message_passing();
  acquiring_store.threads[0].ops[1].sem = Sem::Acquire;
  EXPECT_NE(reason_for(acquiring_store).find("PTX st has no .acquire"), std::string::npos);
}

// --- NVRTC ---

TEST(LitmusCodegenNvrtc, AbiTextIsTheHeader) {
  ASSERT_EQ(vmmcheck::codegen::kernel_headers().size(), 2u);
  EXPECT_NE(std::string(vmmcheck::codegen::kernel_headers()[0].text).find("struct VmmcheckLitmusLaunch"), std::string::npos);
  EXPECT_NE(std::string(vmmcheck::codegen::kernel_headers()[1].text).find("vmmcheck_memory_stress"), std::string::npos);
}

// The PTX alone (what vmmcheck toolchain gives another ptxas) is the PTX of a full compile, with no CUBIN.
TEST(LitmusCodegenNvrtc, ThePtxAloneIsTheFullCompilesPtx) {
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));
  const Kernel k = generate(message_passing());
  const Compiled full = compile(k, kArch);
  const Compiled ptx_only = compile(k, kArch, vmmcheck::codegen::kPtxOnly);
  EXPECT_TRUE(ptx_only.cubin.empty());
  EXPECT_FALSE(full.cubin.empty());
  EXPECT_EQ(ptx_only.ptx, full.ptx);
}

TEST(LitmusCodegenNvrtc, SecondCompileComesFromTheCache) {
  TempDir dir;
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", dir.path().string());
  Litmus l = message_passing();
  l.name = unique_name("cache");
  const Kernel k = generate(l);
  const Compiled first = compile(k, kArch);
  EXPECT_FALSE(first.from_cache);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(entry.path().extension(), ".cubin") << entry.path() << ": no temporary file left behind";
  }
  EXPECT_EQ(files, 1);
  const Compiled second = compile(k, kArch);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.cubin, first.cubin);
}

// A fresh process (this binary, one test) finds the CUBIN the first one left on disk.
TEST(LitmusCodegenNvrtc, DiskCacheServesAnotherProcess) {
  TempDir dir;
  const std::string name = unique_name("disk");
  {
    const ScopedEnv env("VMMCHECK_NVRTC_CACHE", dir.path().string());
    Litmus l = message_passing();
    l.name = name;
    ASSERT_FALSE(compile(generate(l), kArch).from_cache);
  }
  const fs::path self = fs::read_symlink("/proc/self/exe");
  const fs::path log = dir.path() / "child.log";
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", dir.path().string());
  const ScopedEnv child("VMMCHECK_TEST_CACHED_KERNEL", name);
  const std::string command =
      "'" + self.string() + "' --gtest_filter=LitmusCodegenNvrtcChild.CompilesFromDisk > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(status, 0) << text.str();
  EXPECT_NE(text.str().find("[  PASSED  ] 1 test"), std::string::npos) << text.str();
}

// Runs only as the child of DiskCacheServesAnotherProcess.
TEST(LitmusCodegenNvrtcChild, CompilesFromDisk) {
  const char* name = std::getenv("VMMCHECK_TEST_CACHED_KERNEL");
  if (!name) GTEST_SKIP() << "the child of LitmusCodegenNvrtc.DiskCacheServesAnotherProcess";
  Litmus l = message_passing();
  l.name = name;
  const Compiled c = compile(generate(l), kArch);
  EXPECT_TRUE(c.from_cache);
  EXPECT_TRUE(is_elf(c.cubin));
}

TEST(LitmusCodegenNvrtc, UnwritableCacheDirStillCompiles) {
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("/proc/vmmcheck-no-such-dir/nvrtc"));
  Litmus l = store_buffering();
  l.name = unique_name("unwritable");
  const Compiled c = compile(generate(l), kArch);
  EXPECT_FALSE(c.from_cache);
  EXPECT_TRUE(is_elf(c.cubin));
}

TEST(LitmusCodegenNvrtc, CacheOffWritesNothing) {
  TempDir home;
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));
  const ScopedEnv xdg("XDG_CACHE_HOME", home.path().string());
  Litmus l = store_buffering();
  l.name = unique_name("off");
  EXPECT_FALSE(compile(generate(l), kArch).from_cache);
  EXPECT_FALSE(fs::exists(home.path() / "vmmcheck")) << "VMMCHECK_NVRTC_CACHE=off: no disk cache";
}

TEST(LitmusCodegenNvrtc, XdgCacheHomeIsTheDefault) {
  TempDir home;
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::nullopt);
  const ScopedEnv xdg("XDG_CACHE_HOME", home.path().string());
  Litmus l = store_buffering();
  l.name = unique_name("xdg");
  EXPECT_FALSE(compile(generate(l), kArch).from_cache);
  EXPECT_FALSE(fs::is_empty(home.path() / "vmmcheck" / "nvrtc"));
}

TEST(LitmusCodegenNvrtc, BrokenSourceGivesCompileErrorWithLog) {
  Kernel k;
  k.name = unique_name("broken");
  k.source = "#include \"litmus_abi.h\"\nextern \"C\" __global__ void " + k.name + "(VmmcheckLitmusLaunch p) { this is not C++; }\n";
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));
  try {
    compile(k, kArch);
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_FALSE(e.log().empty());
    EXPECT_NE(std::string(e.what()).find("NVRTC_ERROR_COMPILATION"), std::string::npos) << e.what();
  }
}

TEST(LitmusCodegenNvrtc, BadPtxGivesCompileError) {
  // ptxas refuses what PTX does not have, e.g. the texture proxy fence why_not_generated rules out.
  Kernel k;
  k.name = unique_name("bad_ptx");
  k.source = "extern \"C\" __global__ void " + k.name + "() { asm volatile(\"fence.proxy.texture;\" ::: \"memory\"); }\n";
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));
  EXPECT_THROW(compile(k, kArch), CompileError);
}

}  // namespace

namespace {

// Several kernels as one NVRTC program (codegen/nvrtc.hpp, compile_together): each gets a CUBIN that
// holds its own function; a kernel that does not compile is that kernel's error alone.
TEST(LitmusCodegenNvrtc, KernelsCompiledTogetherEachGetTheirFunction) {
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));
  const Kernel a = generate(message_passing()), b = generate(store_buffering()), c = generate(iriw());
  const std::vector<vmmcheck::codegen::Outcome> out = vmmcheck::codegen::compile_together({&a, &b, &c}, 90);
  ASSERT_EQ(out.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const Kernel& k = i == 0 ? a : i == 1 ? b : c;
    ASSERT_FALSE(out[i].error) << k.name;
    EXPECT_EQ(out[i].compiled.cubin.compare(0, 4, "\x7f" "ELF"), 0);
    EXPECT_NE(out[i].compiled.cubin.find(k.name), std::string::npos) << k.name << " is in its CUBIN";
  }
}

TEST(LitmusCodegenNvrtc, ABrokenKernelIsItsOwnErrorWhenCompiledTogether) {
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));
  // Tests of their own (new names): no earlier test of this process left them in the in-process cache.
  const auto renamed = [](Litmus l) {
    l.name += "_broken_batch";
    return l;
  };
  const Kernel a = generate(renamed(message_passing())), c = generate(renamed(iriw()));
  Kernel broken = generate(renamed(store_buffering()));
  broken.source.insert(broken.source.size() - 2, "  this is not CUDA;\n");
  const std::vector<vmmcheck::codegen::Outcome> out = vmmcheck::codegen::compile_together({&a, &broken, &c}, 90);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FALSE(out[0].error);
  EXPECT_FALSE(out[2].error);
  ASSERT_TRUE(out[1].error);
  try {
    std::rethrow_exception(out[1].error);
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find(broken.name), std::string::npos) << e.what();
    EXPECT_NE(e.log().find("this"), std::string::npos) << e.log();
  }
  EXPECT_NE(out[0].compiled.cubin.find(a.name), std::string::npos);
  EXPECT_EQ(out[0].compiled.cubin.find(c.name), std::string::npos) << "compiled again alone";
}

// The pool: every kernel started comes back, whatever order they are asked for in.
TEST(LitmusCodegenNvrtc, CompileAheadGivesEachKernelItsOwn) {
  const ScopedEnv env("VMMCHECK_NVRTC_CACHE", std::string("off"));
  const std::vector<Kernel> kernels{generate(message_passing()), generate(store_buffering()), generate(iriw()),
                                    generate(load_buffering()), generate(atoms()), generate(corr_alias())};
  vmmcheck::codegen::CompileAhead pool(90, 2);
  for (const Kernel& k : kernels) pool.start(k);
  for (auto k = kernels.rbegin(); k != kernels.rend(); ++k)
    EXPECT_NE(pool.get(*k).cubin.find(k->name), std::string::npos) << k->name;
  EXPECT_EQ(pool.threads(), 2u);
}

// SB with a barrier in one CTA: one role a thread, litmus barrier k as hardware barrier k + 1 (not
// .aligned), and idle lanes pass their file CTA's barriers.
TEST(LitmusCodegen, BarriersRunOneRoleAThreadAndIdleLanesPassThem) {
  Litmus l = store_buffering();
  l.threads[1].cta = l.threads[0].cta;
  for (Thread& th : l.threads) th.ops.insert(th.ops.begin() + 1, barrier(3));
  EXPECT_EQ(why_not_generated(l), "");
  const Kernel k = generate(l);
  EXPECT_FALSE(k.all_roles) << "a barrier meets every thread of the CTA at one phase";
  expect_contains(k.source, "asm volatile(\"barrier.cta.sync 4;\" ::: \"memory\");");
  expect_contains(k.source, "switch (file_cta) {  // an idle lane passes its file CTA's barriers");
  EXPECT_EQ(k.source.find("barrier.cta.sync.aligned"), std::string::npos);
  expect_compiles(k);
}

TEST(LitmusCodegenNotSupported, BarriersAThreadOfTheCtaDoesNotPass) {
  Litmus l = store_buffering();
  l.threads[1].cta = l.threads[0].cta;
  l.threads[0].ops.insert(l.threads[0].ops.begin() + 1, barrier(1));
  EXPECT_NE(reason_for(l).find("pass different CTA barriers in one CTA"), std::string::npos);
  l.threads[1].ops.insert(l.threads[1].ops.begin() + 1, barrier(2));
  EXPECT_NE(reason_for(l).find("pass different CTA barriers in one CTA"), std::string::npos);
  l.threads[1].ops[1] = barrier(1);
  EXPECT_EQ(why_not_generated(l), "");
  l.threads[0].ops[1] = l.threads[1].ops[1] = barrier(15);
  EXPECT_NE(reason_for(l).find("litmus barrier k is hardware barrier k + 1"), std::string::npos);
}

// A location's initial value: written into its words before each launch, so it keeps a word a round
// (values by round would read an earlier round's word as 0); global locations only.
TEST(LitmusCodegen, AnInitialValueIsTheLocationsAndNotReused) {
  Litmus l = message_passing();
  l.addresses[0].initial = 5;
  EXPECT_EQ(why_not_generated(l), "");
  const Kernel k = generate(l);
  EXPECT_EQ(k.initial_values, (std::vector<std::uint32_t>{5u, 0u}));
  EXPECT_FALSE(k.reused_locations[0]);
  expect_compiles(k);
  Litmus shared = shared_mp();
  shared.addresses[0].initial = 5;
  EXPECT_NE(reason_for(shared).find("a .shared word is zeroed each round"), std::string::npos);
}

TEST(LitmusCodegen, AnNcLoadReadsItsViewThroughTheReadOnlyPath) {
  Litmus l = texture_read();
  Op nc = proxy_load("r0", 0, Proxy::Texture);  // ld.nc r0, [x]: x's own view, no texture object
  nc.nc = true;
  l.threads[0].ops.back() = nc;
  EXPECT_EQ(why_not_generated(l), "");
  const Kernel k = generate(l, kOneRole);
  expect_contains(k.source, "\"ld.global.nc.u32 %0, [%1];\"");
  expect_contains(k.source, "// ld.nc r0, [x]");
  EXPECT_EQ(k.source.find("tex.1d"), std::string::npos);
  expect_compiles(k);
  l.addresses[0].shared = l.addresses[1].shared = true;
  EXPECT_EQ(reason_for(l), "ld.nc r0, [x]: ld.global.nc reads global memory only, not .shared");
}

// The engine's cache of generated kernels is keyed by key_of(Build): builds that differ in any one field
// must not share a key (the kernel of one would run under the other's knobs), equal builds must.
TEST(LitmusCodegen, EveryBuildFieldTellsKernelsApart) {
  const Build base;
  std::vector<Build> changed(5, base);
  changed[0].all_roles = !base.all_roles;
  changed[1].warm = Build::Warm::Weak;
  changed[2].reuse_words = !base.reuse_words;
  changed[3].loads_before_stores = !base.loads_before_stores;
  changed[4].distinct_addresses = !base.distinct_addresses;
  std::set<std::string> keys{key_of(base)};
  for (const Build& b : changed) EXPECT_TRUE(keys.insert(key_of(b)).second) << key_of(b);
  EXPECT_EQ(key_of(Build{}), key_of(base));
}

}  // namespace
