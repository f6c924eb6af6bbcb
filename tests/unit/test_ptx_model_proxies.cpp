// The PTX proxy model (harness/model/ptx_model.cpp) on the whole litmus language: the texture, surface and
// constant proxies, proxy fences, virtual synonyms, fence-based release and acquire patterns, register
// operands and condition trees. The artifact's template rows (NVlabs/mixedproxy tests/*.test, commit
// 0807da2) are transcribed verbatim, each with the artifact's own permit/assert as the expected value;
// the model's departures from the artifact (docs/litmus-model.md) are checked against the PTX ISA.
#include <gtest/gtest.h>

#include <iterator>
#include <sstream>
#include <stdexcept>

#include "model/ptx_model.hpp"

namespace vmmcheck::model::ptx {
namespace {

using namespace patterns::litmus;

Thread thread(const std::string& name, int cta, std::vector<Op> ops) { return {name, 0, cta, std::move(ops)}; }

Op through(Op op, Proxy proxy) {
  op.proxy = proxy;
  return op;
}
Op proxy_fence(Proxy proxy) { return through(fence(OpKind::ProxyFence), proxy); }
Op store_of(int address, const std::string& reg, Sem sem = Sem::Weak, Level scope = Level::Thread) {
  Op op = store(address, 0, sem, scope);
  op.value_reg = reg;
  return op;
}
Op red_add(int address, std::uint32_t operand, Sem sem, Level scope) { return atom_add("", address, operand, sem, scope); }

Address synonym(const std::string& name, int of, Proxy declared) {
  Address a{name, 0};
  a.same_as = of;
  a.declared = declared;
  return a;
}

// Conditions, as a litmus file's `permit (...)` / `assert (...)` writes them.
Expr compare(Expr::Kind kind, const std::string& reg, std::uint32_t value) {
  Expr e;
  e.kind = kind;
  e.lhs = Term{reg, 0};
  e.rhs = Term{"", value};
  return e;
}
Expr eq(const std::string& reg, std::uint32_t value) { return compare(Expr::Kind::Eq, reg, value); }
Expr ne(const std::string& reg, std::uint32_t value) { return compare(Expr::Kind::Ne, reg, value); }
Expr combine(Expr::Kind kind, std::vector<Expr> operands) {
  Expr e;
  e.kind = kind;
  e.operands = std::move(operands);
  return e;
}
Expr both(Expr a, Expr b) { return combine(Expr::Kind::And, {std::move(a), std::move(b)}); }
Expr either(Expr a, Expr b) { return combine(Expr::Kind::Or, {std::move(a), std::move(b)}); }
Expr negation(Expr a) { return combine(Expr::Kind::Not, {std::move(a)}); }

// The artifact's commands: permit -- some allowed execution satisfies it; assert -- every one does.
bool permitted(const Litmus& l, const Expr& c) { return decide(l, c).allowed; }
bool asserted(const Litmus& l, const Expr& c) { return !decide(l, negation(c)).allowed; }

// --- The artifact's template rows ------------------------------------------------------------------

enum Expect { Permit, Assert };
struct TemplateRow {
  const char* writer;          // $0: "st [x]" or "sust [s]" (the value is the template's)
  const char* writer_fences;   // $1
  const char* reader_fences;   // $2 (CoWR: none)
  const char* reader;          // $3 $4: "ld [x]", "suld [s]", "tld [t]"
  Expect expect;               // $5, with $6: permit (r != v) or assert (r == v)
};

int address_named(const Litmus& l, const std::string& name) {
  for (std::size_t a = 0; a < l.addresses.size(); ++a)
    if (l.addresses[a].name == name) return static_cast<int>(a);
  throw std::invalid_argument("no address " + name);
}

// "sust [s]" -> sust through s: the mnemonic gives the proxy, the brackets the address.
Op access(const Litmus& l, const std::string& text, std::uint32_t value, const std::string& reg) {
  std::istringstream in(text);
  std::string mnemonic, bracketed;
  in >> mnemonic >> bracketed;
  const int a = address_named(l, bracketed.substr(1, bracketed.size() - 2));
  if (mnemonic == "st") return store(a, value);
  if (mnemonic == "sust") return through(store(a, value), Proxy::Surface);
  if (mnemonic == "ld") return load(reg, a);
  if (mnemonic == "suld") return through(load(reg, a), Proxy::Surface);
  if (mnemonic == "tld") return through(load(reg, a), Proxy::Texture);
  throw std::invalid_argument("no mnemonic " + mnemonic);
}

// "fence.proxy.surface; fence.proxy.alias;" -> the fences, in order.
std::vector<Op> fences(const std::string& text) {
  std::vector<Op> out;
  std::istringstream in(text);
  for (std::string f; std::getline(in >> std::ws, f, ';');) {
    if (f == "fence.proxy.alias") out.push_back(alias_fence());
    else if (f == "fence.proxy.surface") out.push_back(proxy_fence(Proxy::Surface));
    else if (f == "fence.proxy.texture") out.push_back(proxy_fence(Proxy::Texture));
    else throw std::invalid_argument("no fence " + f);
  }
  return out;
}

// MP_cta.test, MP_gpu.test and their _synonym variants:
//   d0.b0.t0    { $0, 2; $1 st.release.<scope> [flag], 1; }
//   d0.b?.t?    { ld.acquire.<scope> r0, [flag] == 1; $2 $3 r1, $4; }     (b0.t1 for cta, b1.t0 for gpu)
Litmus message_passing(const std::vector<Address>& addresses, Level scope, const TemplateRow& row) {
  Litmus l;
  l.addresses = addresses;
  const int flag = address_named(l, "flag");
  std::vector<Op> w{access(l, row.writer, 2, "")};
  for (const Op& f : fences(row.writer_fences)) w.push_back(f);
  w.push_back(store(flag, 1, Sem::Release, scope));
  std::vector<Op> r{load("r0", flag, Sem::Acquire, scope, 1)};
  for (const Op& f : fences(row.reader_fences)) r.push_back(f);
  r.push_back(access(l, row.reader, 0, "r1"));
  l.threads = {thread("t0", 0, w), thread(scope == Level::Cta ? "b0.t1" : "b1.t0", scope == Level::Cta ? 0 : 1, r)};
  return l;
}

// CoWR.test: d0.b0.t0 { $0, 1; $1 $2 r0, $3; }
Litmus cowr(const std::vector<Address>& addresses, const TemplateRow& row) {
  Litmus l;
  l.addresses = addresses;
  std::vector<Op> ops{access(l, row.writer, 1, "")};
  for (const Op& f : fences(row.writer_fences)) ops.push_back(f);
  ops.push_back(access(l, row.reader, 0, "r0"));
  l.threads = {thread("t0", 0, ops)};
  return l;
}

// $5(reg $6 value): permit (reg != value) or assert (reg == value).
void expect_as_the_artifact(const Litmus& l, const TemplateRow& row, const std::string& reg, std::uint32_t value) {
  SCOPED_TRACE(std::string(row.writer) + " | " + row.writer_fences + " | " + row.reader_fences + " | " + row.reader);
  if (row.expect == Permit) EXPECT_TRUE(permitted(l, ne(reg, value))) << decide(l, ne(reg, value)).reason;
  else EXPECT_TRUE(asserted(l, eq(reg, value))) << decide(l, negation(eq(reg, value))).reason;
}

// .global x; .texref t virtually aliases x; .surfref s virtually aliases x; .global flag;
const std::vector<Address> kOneAddress = {{"x", 0}, synonym("t", 0, Proxy::Texture), synonym("s", 0, Proxy::Surface), {"flag", 1}};
// .global x; .global y physically aliases x; .surfref c virtually aliases x; .surfref s virtually aliases y;
// .texref t virtually aliases y; .global flag;
const std::vector<Address> kSynonyms = {{"x", 0},
                                        {"y", 0},
                                        synonym("c", 0, Proxy::Surface),
                                        synonym("s", 1, Proxy::Surface),
                                        synonym("t", 1, Proxy::Texture),
                                        {"flag", 1}};

// tests/MP_cta.test, the rows after $$.
const TemplateRow kMpCtaRows[] = {
    {"st [x]", "", "", "ld [x]", Assert},
    {"st [x]", "", "", "suld [s]", Permit},
    {"sust [s]", "", "", "ld [x]", Permit},
    {"sust [s]", "", "", "suld [s]", Assert},
    {"st [x]", "fence.proxy.surface;", "", "suld [s]", Assert},
    {"sust [s]", "fence.proxy.surface;", "", "ld [x]", Assert},
    {"sust [s]", "fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.texture; fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.surface; fence.proxy.texture;", "", "tld [t]", Assert},
    {"sust [s]", "fence.proxy.texture;", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.surface;", "fence.proxy.texture;", "tld [t]", Assert},
    {"st [x]", "", "fence.proxy.surface;", "suld [s]", Assert},
    {"sust [s]", "", "fence.proxy.surface;", "ld [x]", Assert},
    {"sust [s]", "", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [s]", "", "fence.proxy.texture;", "tld [t]", Permit},
    {"sust [s]", "", "fence.proxy.texture; fence.proxy.surface;", "tld [t]", Permit},
    {"sust [s]", "", "fence.proxy.surface; fence.proxy.texture;", "tld [t]", Assert},
};

// tests/MP_gpu.test, the rows after $$.
const TemplateRow kMpGpuRows[] = {
    {"st [x]", "", "", "ld [x]", Assert},
    {"st [x]", "", "", "suld [s]", Permit},
    {"sust [s]", "", "", "ld [x]", Permit},
    {"sust [s]", "", "", "suld [s]", Permit},
    {"st [x]", "fence.proxy.surface;", "", "suld [s]", Permit},
    {"sust [s]", "fence.proxy.surface;", "", "ld [x]", Assert},
    {"sust [s]", "fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.texture; fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.surface; fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.texture;", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.surface;", "fence.proxy.texture;", "tld [t]", Assert},
    {"st [x]", "", "fence.proxy.surface;", "suld [s]", Assert},
    {"sust [s]", "", "fence.proxy.surface;", "ld [x]", Permit},
    {"sust [s]", "", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [s]", "", "fence.proxy.texture;", "tld [t]", Permit},
    {"sust [s]", "", "fence.proxy.texture; fence.proxy.surface;", "tld [t]", Permit},
    {"sust [s]", "", "fence.proxy.surface; fence.proxy.texture;", "tld [t]", Permit},
};

// tests/MP_cta_synonym.test, the rows after $$.
const TemplateRow kMpCtaSynonymRows[] = {
    {"st [x]", "", "", "ld [y]", Permit},
    {"st [x]", "", "", "suld [s]", Permit},
    {"sust [c]", "", "", "ld [y]", Permit},
    {"sust [c]", "", "", "suld [s]", Permit},
    {"st [x]", "fence.proxy.surface;", "", "suld [s]", Permit},
    {"sust [c]", "fence.proxy.surface;", "", "ld [y]", Permit},
    {"sust [c]", "fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.texture; fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.texture;", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.texture;", "tld [t]", Permit},
    {"st [x]", "", "fence.proxy.surface;", "suld [s]", Permit},
    {"sust [c]", "", "fence.proxy.surface;", "ld [y]", Permit},
    {"sust [c]", "", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.texture;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.texture; fence.proxy.surface;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.surface; fence.proxy.texture;", "tld [t]", Permit},
    {"st [x]", "fence.proxy.alias;", "", "ld [y]", Assert},
    {"st [x]", "", "fence.proxy.alias;", "ld [y]", Assert},
    {"sust [c]", "fence.proxy.alias;", "", "suld [s]", Permit},
    {"sust [c]", "", "fence.proxy.alias;", "suld [s]", Permit},
    {"st [x]", "fence.proxy.alias; fence.proxy.surface;", "", "suld [s]", Assert},
    {"st [x]", "fence.proxy.surface; fence.proxy.alias;", "", "suld [s]", Permit},
    {"st [x]", "fence.proxy.surface;", "fence.proxy.alias;", "suld [s]", Permit},
    {"sust [c]", "fence.proxy.alias; fence.proxy.surface;", "", "ld [y]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.alias;", "", "ld [y]", Assert},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.alias;", "ld [y]", Assert},
    {"sust [c]", "fence.proxy.alias; fence.proxy.surface; fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.alias; fence.proxy.texture;", "", "tld [t]", Assert},
    {"sust [c]", "fence.proxy.surface; fence.proxy.texture; fence.proxy.alias;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.texture;", "fence.proxy.alias;", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.alias; fence.proxy.surface;", "fence.proxy.texture;", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.alias;", "fence.proxy.texture;", "tld [t]", Assert},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.alias; fence.proxy.texture;", "tld [t]", Assert},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.texture; fence.proxy.alias;", "tld [t]", Permit},
    {"st [x]", "fence.proxy.alias;", "fence.proxy.surface;", "suld [s]", Assert},
    {"st [x]", "", "fence.proxy.alias; fence.proxy.surface;", "suld [s]", Assert},
    {"st [x]", "", "fence.proxy.surface; fence.proxy.alias;", "suld [s]", Permit},
    {"sust [c]", "fence.proxy.alias;", "fence.proxy.surface;", "ld [y]", Permit},
    {"sust [c]", "", "fence.proxy.alias; fence.proxy.surface;", "ld [y]", Permit},
    {"sust [c]", "", "fence.proxy.surface; fence.proxy.alias;", "ld [y]", Assert},
    {"sust [c]", "fence.proxy.alias;", "fence.proxy.surface; fence.proxy.texture;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.alias; fence.proxy.surface; fence.proxy.texture;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.surface; fence.proxy.alias; fence.proxy.texture;", "tld [t]", Assert},
    {"sust [c]", "", "fence.proxy.surface; fence.proxy.texture; fence.proxy.alias;", "tld [t]", Permit},
};

// tests/MP_gpu_synonym.test, the rows after $$.
const TemplateRow kMpGpuSynonymRows[] = {
    {"st [x]", "", "", "ld [y]", Permit},
    {"st [x]", "", "", "suld [s]", Permit},
    {"sust [c]", "", "", "ld [y]", Permit},
    {"sust [c]", "", "", "suld [s]", Permit},
    {"st [x]", "fence.proxy.surface;", "", "suld [s]", Permit},
    {"sust [c]", "fence.proxy.surface;", "", "ld [y]", Permit},
    {"sust [c]", "fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.texture; fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.texture;", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.texture;", "tld [t]", Permit},
    {"st [x]", "", "fence.proxy.surface;", "suld [s]", Permit},
    {"sust [c]", "", "fence.proxy.surface;", "ld [y]", Permit},
    {"sust [c]", "", "fence.proxy.surface;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.texture;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.texture; fence.proxy.surface;", "tld [t]", Permit},
    {"sust [c]", "", "fence.proxy.surface; fence.proxy.texture;", "tld [t]", Permit},
    {"st [x]", "fence.proxy.alias;", "", "ld [y]", Assert},
    {"st [x]", "", "fence.proxy.alias;", "ld [y]", Assert},
    {"sust [c]", "fence.proxy.alias; fence.proxy.surface;", "", "ld [y]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.alias;", "", "ld [y]", Assert},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.alias;", "ld [y]", Assert},
    {"sust [c]", "fence.proxy.alias; fence.proxy.surface;", "fence.proxy.texture;", "tld [t]", Permit},
    {"sust [c]", "fence.proxy.surface; fence.proxy.alias;", "fence.proxy.texture;", "tld [t]", Assert},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.alias; fence.proxy.texture;", "tld [t]", Assert},
    {"sust [c]", "fence.proxy.surface;", "fence.proxy.texture; fence.proxy.alias;", "tld [t]", Permit},
    {"st [x]", "fence.proxy.alias;", "fence.proxy.surface;", "suld [s]", Assert},
    {"st [x]", "", "fence.proxy.alias; fence.proxy.surface;", "suld [s]", Assert},
    {"st [x]", "", "fence.proxy.surface; fence.proxy.alias;", "suld [s]", Permit},
};

// tests/CoWR.test, the rows after $$.
const TemplateRow kCowrRows[] = {
    {"st [x]", "", "", "ld [x]", Assert},
    {"st [x]", "", "", "suld [s]", Permit},
    {"st [x]", "fence.proxy.surface;", "", "suld [s]", Assert},
    {"sust [s]", "", "", "ld [x]", Permit},
    {"sust [s]", "fence.proxy.surface;", "", "ld [x]", Assert},
    {"sust [s]", "", "", "suld [s]", Assert},
    {"sust [s]", "fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.texture;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.texture; fence.proxy.surface;", "", "tld [t]", Permit},
    {"sust [s]", "fence.proxy.surface; fence.proxy.texture;", "", "tld [t]", Assert},
};
TEST(PtxModelProxiesArtifact, MpCta) {
  static_assert(std::size(kMpCtaRows) == 18);
  for (const TemplateRow& row : kMpCtaRows) expect_as_the_artifact(message_passing(kOneAddress, Level::Cta, row), row, "r1", 2);
}

TEST(PtxModelProxiesArtifact, MpGpu) {
  static_assert(std::size(kMpGpuRows) == 18);
  for (const TemplateRow& row : kMpGpuRows) expect_as_the_artifact(message_passing(kOneAddress, Level::Gpu, row), row, "r1", 2);
}

TEST(PtxModelProxiesArtifact, MpCtaSynonym) {
  static_assert(std::size(kMpCtaSynonymRows) == 46);
  for (const TemplateRow& row : kMpCtaSynonymRows) expect_as_the_artifact(message_passing(kSynonyms, Level::Cta, row), row, "r1", 2);
}

TEST(PtxModelProxiesArtifact, MpGpuSynonym) {
  static_assert(std::size(kMpGpuSynonymRows) == 30);
  for (const TemplateRow& row : kMpGpuSynonymRows) expect_as_the_artifact(message_passing(kSynonyms, Level::Gpu, row), row, "r1", 2);
}

TEST(PtxModelProxiesArtifact, CoWR) {
  static_assert(std::size(kCowrRows) == 10);
  for (const TemplateRow& row : kCowrRows) expect_as_the_artifact(cowr(kOneAddress, row), row, "r0", 1);
}

// --- Proxies ------------------------------------------------------------------------------------------

// t0 { st [x], 1; <fence> <load> r0, [a]; }: a generic store seen by a read through another proxy.
Litmus store_then_read(Op read) {
  Litmus l;
  l.addresses = kOneAddress;
  l.threads = {thread("t0", 0, {store(0, 1), std::move(read)})};
  return l;
}

TEST(PtxModelProxies, ATextureFetchSeesAGenericStoreOnlyAfterFenceProxyTexture) {
  Litmus l = store_then_read(through(load("r0", 1), Proxy::Texture));  // tld r0, [t]
  EXPECT_TRUE(permitted(l, ne("r0", 1)));
  l.threads[0].ops.insert(l.threads[0].ops.begin() + 1, proxy_fence(Proxy::Texture));
  EXPECT_TRUE(asserted(l, eq("r0", 1)));
  l.threads[0].ops[1] = proxy_fence(Proxy::Surface);  // a fence of another proxy does not do
  EXPECT_TRUE(permitted(l, ne("r0", 1)));
}

// ld.nc (ld.global.nc) is a texture-proxy read of the address it names: its own address, with or
// without fence.proxy.alias, never sees the thread's generic store for sure; unwritten, it reads 0.
TEST(PtxModelProxies, AnNcLoadIsATextureProxyReadOfItsOwnAddress) {
  Op nc = through(load("r0", 0), Proxy::Texture);  // ld.nc r0, [x]
  nc.nc = true;
  Litmus l = store_then_read(nc);
  EXPECT_TRUE(permitted(l, ne("r0", 1)));
  l.threads[0].ops.insert(l.threads[0].ops.begin() + 1, alias_fence());
  EXPECT_TRUE(permitted(l, ne("r0", 1)));  // the alias fence orders generic accesses only
  l.threads[0].ops[1] = proxy_fence(Proxy::Texture);
  EXPECT_TRUE(asserted(l, eq("r0", 1)));  // the model's texture fence would (PTX has none)
  Litmus read_only = store_then_read(nc);
  read_only.threads[0].ops.erase(read_only.threads[0].ops.begin());
  EXPECT_TRUE(asserted(read_only, eq("r0", 0)));
  EXPECT_EQ(instruction_text(l, nc), "ld.nc r0, [x]");
}

// Barriers (Dat3M's sync_barrier): the k-th bar.cta.sync of an id in each thread of a CTA meet, and order
// what comes before them in one thread before what comes after them in the other.
TEST(PtxModelBarriers, StoreBufferingAcrossABarrierOfOneCta) {
  Litmus l;
  l.name = "SB+bar";
  l.addresses = {Address{"x", 0}, Address{"y", 1}};
  l.threads = {thread("t0", 0, {store(0, 1), barrier(1), load("r0", 1)}), thread("t1", 0, {store(1, 1), barrier(1), load("r1", 0)})};
  EXPECT_TRUE(asserted(l, either(eq("r0", 1), eq("r1", 1))));
  Litmus other_ids = l;
  other_ids.threads[1].ops[1] = barrier(2);  // different barriers never meet
  EXPECT_TRUE(permitted(other_ids, both(eq("r0", 0), eq("r1", 0))));
  Litmus two_ctas = l;
  two_ctas.threads[1].cta = 1;  // a CTA barrier orders nothing across CTAs
  EXPECT_TRUE(permitted(two_ctas, both(eq("r0", 0), eq("r1", 0))));
  Litmus one_sided = l;
  one_sided.threads[0].ops.erase(one_sided.threads[0].ops.begin() + 1);
  EXPECT_TRUE(permitted(one_sided, both(eq("r0", 0), eq("r1", 0))));
  EXPECT_EQ(instruction_text(l, barrier(1)), "bar.cta.sync 1");
}

TEST(PtxModelBarriers, TheKthBarrierOfAnIdMeetsTheOthersKth) {
  // t0: bar 1; st x; bar 1.   t1: bar 1; bar 1; ld x.  t0's store is between its two barriers, so only
  // t1's second barrier comes after it: the load must see it.
  Litmus l;
  l.name = "phases";
  l.addresses = {Address{"x", 0}};
  l.threads = {thread("t0", 0, {barrier(1), store(0, 1), barrier(1)}), thread("t1", 0, {barrier(1), barrier(1), load("r0", 0)})};
  EXPECT_TRUE(asserted(l, eq("r0", 1)));
  // A load between t1's two barriers meets t0's first only: the store may come after it.
  Litmus between = l;
  between.threads[1].ops = {barrier(1), load("r0", 0), barrier(1)};
  EXPECT_TRUE(permitted(between, eq("r0", 0)));
  EXPECT_TRUE(asserted(between, eq("r0", 0)) == false);
}

// Barriers passed in crossed orders (bar 1; bar 2 against bar 2; bar 1) wait for each other forever: no
// execution ends, so nothing is permitted and every assertion holds vacuously, with no candidate at all.
TEST(PtxModelBarriers, CrossedBarriersLeaveNoExecution) {
  Litmus l;
  l.name = "crossed";
  l.addresses = {Address{"x", 0}};
  l.threads = {thread("t0", 0, {store(0, 1), barrier(1), barrier(2)}), thread("t1", 0, {barrier(2), barrier(1), load("r0", 0)})};
  const Decision d = decide(l, eq("r0", 0), Reading::Isa);
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.candidates, 0u);
  EXPECT_FALSE(permitted(l, eq("r0", 1)));
  Litmus aligned = l;
  aligned.threads[1].ops = {barrier(1), barrier(2), load("r0", 0)};
  EXPECT_TRUE(asserted(aligned, eq("r0", 1)));
  EXPECT_GT(decide(aligned, eq("r0", 1), Reading::Isa).candidates, 0u);
}

// Waiting is what deadlocks: bar.cta.arrive waits for no one, and with quorum 1 each barrier completes by
// itself, so neither crossing leaves the threads stuck.
TEST(PtxModelBarriers, ArrivalsAndQuorumsOfOneDoNotDeadlock) {
  Litmus l;
  l.name = "arrive";
  l.addresses = {Address{"x", 0}};
  Op arrive = barrier(1);
  arrive.arrive = true;
  l.threads = {thread("t0", 0, {store(0, 1), arrive, barrier(2)}), thread("t1", 0, {barrier(2), barrier(1), load("r0", 0)})};
  EXPECT_TRUE(asserted(l, eq("r0", 1)));  // t0's store is before its arrival, which t1's barrier 1 waits for
  EXPECT_GT(decide(l, eq("r0", 1), Reading::Isa).candidates, 0u);
  const auto alone = [](std::uint32_t instance) {
    Op b = barrier(instance);
    b.resource = 0;
    b.quorum = 1;
    return b;
  };
  Litmus q;
  q.name = "quorum1";
  q.addresses = {Address{"x", 0}};
  q.threads = {thread("t0", 0, {store(0, 1), alone(1), alone(2)}), thread("t1", 0, {alone(2), alone(1), load("r0", 0)})};
  EXPECT_TRUE(permitted(q, eq("r0", 0)));
  EXPECT_TRUE(permitted(q, eq("r0", 1)));
}

// A loop entered at its test (goto COND; BODY: ld; COND: bne r0, 1, BODY) passes its test's label twice
// in one iteration; only coming back to the loop's head ends a path.
TEST(PtxModelBranches, ALoopEnteredAtItsTest) {
  Op to_cond;
  to_cond.kind = OpKind::Branch;
  to_cond.branch_always = true;
  to_cond.label = "COND";
  Op body, cond;
  body.kind = cond.kind = OpKind::Label;
  body.label = "BODY";
  cond.label = "COND";
  Op back;
  back.kind = OpKind::Branch;
  back.label = "BODY";
  back.branch_equal = false;
  back.lhs = Term{"r0", 0};
  back.rhs = Term{"", 1};
  Litmus l;
  l.name = "rotated";
  l.addresses = {Address{"x", 0}};
  l.threads = {thread("t0", 0, {store(0, 1)}), thread("t1", 1, {to_cond, body, load("r0", 0), cond, back})};
  EXPECT_TRUE(asserted(l, eq("r0", 1)));  // it leaves only having read 1
  EXPECT_GT(decide(l, eq("r0", 1), Reading::Isa).candidates, 0u);
}

// atom.cas writes only when it reads what it compares with: of two cas(0 -> 1) on one word, at most one
// succeeds; atom.exch writes its operand whatever it read.
TEST(PtxModelAtomics, CasSucceedsOnceExchAlwaysWrites) {
  Op cas0 = atom_add("r0", 0, 1, Sem::Relaxed, Level::Gpu);
  cas0.rmw = Rmw::Cas;
  cas0.expected = 0;
  Op cas1 = cas0;
  cas1.reg = "r1";
  Litmus l;
  l.name = "cas";
  l.addresses = {Address{"x", 0}};
  l.threads = {thread("t0", 0, {cas0}), thread("t1", 1, {cas1})};
  EXPECT_TRUE(asserted(l, either(ne("r0", 0), ne("r1", 0))));  // not both read 0
  EXPECT_TRUE(permitted(l, both(eq("r0", 0), eq("r1", 1))));
  EXPECT_EQ(instruction_text(l, cas0), "atom.cas.relaxed.gpu r0, [x], 0, 1");
  Litmus exch = l;
  exch.threads[0].ops[0].rmw = Rmw::Exch;
  exch.threads[0].ops[0].value = 5;
  exch.threads[1].ops[0].rmw = Rmw::Exch;
  exch.threads[1].ops[0].value = 7;
  EXPECT_TRUE(asserted(exch, either(eq("r0", 7), eq("r1", 5))));  // the second reads the first's
  EXPECT_TRUE(asserted(exch, either(eq("r0", 0), eq("r1", 0))));
}

TEST(PtxModelProxies, AConstantLoadSeesAGenericStoreOnlyAfterFenceProxyConstant) {
  Litmus l = store_then_read(through(load("r0", 0), Proxy::Constant));  // ldc r0, [x]
  EXPECT_TRUE(permitted(l, ne("r0", 1)));
  l.threads[0].ops.insert(l.threads[0].ops.begin() + 1, proxy_fence(Proxy::Constant));
  EXPECT_TRUE(asserted(l, eq("r0", 1)));
  l.threads[0].ops[1] = proxy_fence(Proxy::Texture);
  EXPECT_TRUE(permitted(l, ne("r0", 1)));
}

TEST(PtxModelProxies, MorallyStrongOperationsUseOneProxy) {
  // b0 { st [x], 1; sust.release.gpu [sf], 1; }   b1 { ld.acquire.gpu r0, [flag] == 1; ld r1, [x]; }
  // sf names flag, but the release goes through the surface proxy and the acquire through the generic
  // one: not morally strong (strong_r: proxy.~proxy), so they do not synchronize.
  Litmus l;
  l.addresses = {{"x", 0}, {"flag", 1}, synonym("sf", 1, Proxy::Surface)};
  l.threads = {thread("b0", 0, {store(0, 1), through(store(2, 1, Sem::Release, Level::Gpu), Proxy::Surface)}),
               thread("b1", 1, {load("r0", 1, Sem::Acquire, Level::Gpu, 1), load("r1", 0)})};
  EXPECT_TRUE(permitted(l, ne("r1", 1)));
  l.threads[0].ops[1] = store(1, 1, Sem::Release, Level::Gpu);
  EXPECT_TRUE(asserted(l, eq("r1", 1)));
}

TEST(PtxModelProxies, CoherenceOrderIsPerProxy) {
  // Two strong writes to one virtual address through two proxies, read back in opposite orders:
  //   b0 { st.relaxed.gpu [x], 1; }   b1 { sust.relaxed.gpu [s], 2; }
  //   b2 { ld.relaxed.gpu a0, [x]; ld.relaxed.gpu a1, [x]; }   b3 { suld.relaxed.gpu b0, [s]; suld.relaxed.gpu b1, [s]; }
  // fact co is total per (address, scope, proxy): the writes need not be ordered, and each reader may see
  // its own order. Through one proxy they are ordered, and one of the readers contradicts it.
  Litmus l;
  l.addresses = kOneAddress;
  const auto strong = [](Op op) {
    op.sem = Sem::Relaxed;
    op.scope = Level::Gpu;
    return op;
  };
  l.threads = {thread("b0", 0, {strong(store(0, 1))}), thread("b1", 1, {strong(through(store(2, 2), Proxy::Surface))}),
               thread("b2", 2, {strong(load("a0", 0)), strong(load("a1", 0))}),
               thread("b3", 3, {strong(through(load("b0", 2), Proxy::Surface)), strong(through(load("b1", 2), Proxy::Surface))})};
  const Expr opposite = both(both(eq("a0", 1), eq("a1", 2)), both(eq("b0", 2), eq("b1", 1)));
  EXPECT_TRUE(permitted(l, opposite));
  l.threads[1].ops[0] = strong(store(0, 2));
  l.threads[3].ops = {strong(load("b0", 0)), strong(load("b1", 0))};
  EXPECT_FALSE(permitted(l, opposite));
}

TEST(PtxModelProxies, ASynonymIsTheAddressItNames) {
  // u names s, which names x: one virtual address, so a generic load through u sees the generic store to x
  // with no fence (same_alias), where the physical alias y needs fence.proxy.alias.
  Litmus l;
  l.addresses = {{"x", 0}, synonym("s", 0, Proxy::Surface), synonym("u", 1, Proxy::Generic), {"y", 0}};
  l.threads = {thread("t0", 0, {store(0, 1), load("r0", 2)})};
  EXPECT_TRUE(asserted(l, eq("r0", 1)));
  l.addresses[2].location = 7;  // a synonym's own location is not read: it is its target's
  EXPECT_TRUE(asserted(l, eq("r0", 1)));
  l.threads[0].ops[1] = load("r0", 3);
  EXPECT_TRUE(permitted(l, ne("r0", 1)));
  l.addresses[2].same_as = 9;
  EXPECT_THROW(decide(l, eq("r0", 1)), std::invalid_argument);
  l.addresses[2].same_as = 2;  // a cycle
  EXPECT_THROW(decide(l, eq("r0", 1)), std::invalid_argument);
}

TEST(PtxModelProxies, SharedMemoryHasOneInstancePerCta) {
  Address shared{"sh", 0};
  shared.shared = true;
  Litmus l;
  l.addresses = {shared};
  l.threads = {thread("b0.t0", 0, {store(0, 1, Sem::Relaxed, Level::Gpu)}), thread("b1.t0", 1, {load("r0", 0, Sem::Relaxed, Level::Gpu)})};
  EXPECT_TRUE(asserted(l, eq("r0", 0)));  // another CTA's variable: nothing writes it
  l.threads[1].cta = 0;
  EXPECT_TRUE(permitted(l, eq("r0", 1)));
  l.addresses.push_back({"g", 0});  // a global address cannot be the same location
  EXPECT_THROW(decide(l, eq("r0", 1)), std::invalid_argument);
}

TEST(PtxModelProxies, ShapesOutsideTheModelAreRefused) {
  const auto refused = [](std::vector<Op> ops) {
    Litmus l;
    l.addresses = kOneAddress;
    l.threads = {thread("t0", 0, std::move(ops))};
    return [l] { (void)decide(l, eq("r0", 0)); };
  };
  EXPECT_THROW(refused({through(store(1, 1), Proxy::Texture), load("r0", 0)})(), std::invalid_argument);
  EXPECT_THROW(refused({through(store(0, 1), Proxy::Constant), load("r0", 0)})(), std::invalid_argument);
  Op exchange_red = red_add(0, 1, Sem::Relaxed, Level::Gpu);
  exchange_red.rmw = Rmw::Exch;
  EXPECT_THROW(refused({exchange_red, load("r0", 0)})(), std::invalid_argument);
  EXPECT_THROW(refused({store_of(0, "r0"), load("r0", 0)})(), std::invalid_argument);  // r0 is loaded after
  Op load_with_operand = load("r0", 0);
  load_with_operand.value_reg = "r0";
  EXPECT_THROW(refused({load_with_operand})(), std::invalid_argument);
  EXPECT_THROW(refused({load("r1", 0)})(), std::invalid_argument);  // the condition names r0

  // Operation boundaries stand for alias fences; with another proxy the model would say too little.
  Litmus l;
  l.addresses = kOneAddress;
  l.threads = {thread("writer", 0, {through(store(2, 1), Proxy::Surface)}), thread("reader", 1, {load("r0", 0)})};
  l.boundaries = {{0, 1}};
  EXPECT_THROW(decide(l, eq("r0", 0)), std::invalid_argument);
  l.threads[0].ops = {store(0, 1)};
  EXPECT_FALSE(permitted(l, eq("r0", 0)));
  l.threads[0].ops.push_back(load("r0", 0));  // r0 set by two threads
  EXPECT_THROW(decide(l, eq("r0", 0)), std::invalid_argument);
}

// --- Fence-based release and acquire patterns (departure (a)) -------------------------------------------

// The ISA's MP (8.10.6, "Causality"), fences and flag scoped apart, the reader in CTA reader_cta:
//   b0.t0 { st [x], 1; <fence>.<fence_scope>; st.relaxed.<flag_scope> [flag], 1; }
//   b?.t? { ld.relaxed.<flag_scope> r0, [flag] == 1; <fence>.<fence_scope>; ld r1, [x]; }
Litmus fence_mp(OpKind kind, Level fence_scope, Level flag_scope, int reader_cta) {
  Litmus l;
  l.addresses = {{"x", 0}, {"flag", 1}};
  l.threads = {thread("writer", 0, {store(0, 1), fence(kind, fence_scope), store(1, 1, Sem::Relaxed, flag_scope)}),
               thread("reader", reader_cta, {load("r0", 1, Sem::Relaxed, flag_scope, 1), fence(kind, fence_scope), load("r1", 0)})};
  return l;
}

TEST(PtxModelProxiesFencePatterns, FencesSynchronizeWhenTheirScopesIncludeEachOther) {
  for (OpKind kind : {OpKind::FenceAcqRel, OpKind::FenceSc}) {
    SCOPED_TRACE(kind == OpKind::FenceSc ? "fence.sc" : "fence.acq_rel");
    EXPECT_TRUE(asserted(fence_mp(kind, Level::Cta, Level::Cta, 0), eq("r1", 1)));  // one CTA
    EXPECT_TRUE(asserted(fence_mp(kind, Level::Gpu, Level::Gpu, 0), eq("r1", 1)));
    EXPECT_TRUE(asserted(fence_mp(kind, Level::Gpu, Level::Gpu, 1), eq("r1", 1)));  // two CTAs
    EXPECT_TRUE(asserted(fence_mp(kind, Level::Sys, Level::Gpu, 1), eq("r1", 1)));
    // cta fences in two CTAs: neither's scope includes the other's thread, so they are not morally strong
    EXPECT_TRUE(permitted(fence_mp(kind, Level::Cta, Level::Gpu, 1), ne("r1", 1)));
  }
  // cta flag accesses in two CTAs: no observation order between them, so fence.acq_rel does not order x;
  // fence.sc does all the same -- the Fence-SC order relates the two fences either way, and the reader's
  // fence before the writer's would put the flag's read before the write it read in causality order.
  EXPECT_TRUE(permitted(fence_mp(OpKind::FenceAcqRel, Level::Gpu, Level::Cta, 1), ne("r1", 1)));
  EXPECT_TRUE(asserted(fence_mp(OpKind::FenceSc, Level::Gpu, Level::Cta, 1), eq("r1", 1)));
}

TEST(PtxModelProxiesFencePatterns, AFenceAndAnAcquireOrReleaseOperationSynchronize) {
  Litmus l = fence_mp(OpKind::FenceAcqRel, Level::Gpu, Level::Gpu, 1);
  // release pattern fence; st.relaxed  ->  acquire operation ld.acquire
  l.threads[1].ops = {load("r0", 1, Sem::Acquire, Level::Gpu, 1), load("r1", 0)};
  EXPECT_TRUE(asserted(l, eq("r1", 1)));
  // release operation st.release  ->  acquire pattern ld.relaxed; fence
  l = fence_mp(OpKind::FenceAcqRel, Level::Gpu, Level::Gpu, 1);
  l.threads[0].ops = {store(0, 1), store(1, 1, Sem::Release, Level::Gpu)};
  EXPECT_TRUE(asserted(l, eq("r1", 1)));
  // and with no fence on either side, nothing synchronizes
  l.threads[1].ops = {load("r0", 1, Sem::Relaxed, Level::Gpu, 1), load("r1", 0)};
  EXPECT_TRUE(permitted(l, ne("r1", 1)));
}

TEST(PtxModelProxiesFencePatterns, AWeakWriteAfterTheFenceDoesNotRelease) {
  // "a release or acquire-release memory fence followed by a strong write": st [flag] is weak.
  Litmus l = fence_mp(OpKind::FenceAcqRel, Level::Gpu, Level::Gpu, 1);
  l.threads[0].ops[2] = store(1, 1);
  EXPECT_TRUE(permitted(l, ne("r1", 1)));
  // nor a weak read before the fence acquire
  l = fence_mp(OpKind::FenceAcqRel, Level::Gpu, Level::Gpu, 1);
  l.threads[1].ops[0] = load("r0", 1, Sem::Weak, Level::Thread, 1);
  EXPECT_TRUE(permitted(l, ne("r1", 1)));
}

TEST(PtxModelProxiesFencePatterns, AReductionFormsNoAcquirePattern) {
  // PTX ISA 8.11.1, "Message Passing with a Red Instruction": %r1 == 0 AND flag == 2 is possible.
  //   T1 { st [x], 42; st.release.gpu [flag], 1; }  T2 { red.sys.add [flag], 1 (reads 1); fence.acq_rel.gpu; ld r1, [x]; }
  Litmus l;
  l.addresses = {{"x", 0}, {"flag", 1}};
  Op red = red_add(1, 1, Sem::Relaxed, Level::Sys);
  red.must_read = 1;
  l.threads = {thread("T1", 0, {store(0, 42), store(1, 1, Sem::Release, Level::Gpu)}),
               thread("T2", 1, {red, fence(OpKind::FenceAcqRel, Level::Gpu), load("r1", 0)})};
  EXPECT_TRUE(permitted(l, eq("r1", 0)));
  // "Using the atom instruction instead of red forbids this outcome."
  Op atom = atom_add("r0", 1, 1, Sem::Relaxed, Level::Sys);
  atom.must_read = 1;
  l.threads[1].ops[0] = atom;
  EXPECT_FALSE(permitted(l, eq("r1", 0)));
}

// --- The departures change the artifact's own verdicts ------------------------------------------------

TEST(PtxModelProxiesDepartures, TheArtifactsReleaseAcquirePatternIsForbidden) {
  // tests/Release_acquire_pattern.test: the artifact permits (r1 == 2 && r3 == 0). In the ISA
  // "st.release [x]; st.relaxed [x]" is a release pattern and "ld.relaxed [x]; fence.acq_rel" an acquire
  // pattern, at sys scope both: they synchronize when r1 reads 2, and r3 must read 1.
  Litmus l;
  l.addresses = {{"x", 0}, {"y", 1}};
  l.threads = {thread("b0", 0, {store(1, 1), store(0, 1, Sem::Release, Level::Sys), store(0, 2, Sem::Relaxed, Level::Sys)}),
               thread("b1", 1, {load("r1", 0, Sem::Relaxed, Level::Sys), fence(OpKind::FenceAcqRel, Level::Sys), load("r3", 1)})};
  const Decision d = decide(l, both(eq("r1", 2), eq("r3", 0)));
  EXPECT_FALSE(d.allowed) << d.reason;
  EXPECT_GT(d.ruled_out.at(Axiom::Causality), 0u);
  EXPECT_NE(d.reason.find("r1 == 2 && r3 == 0"), std::string::npos) << d.reason;
  EXPECT_TRUE(permitted(l, both(eq("r1", 0), eq("r3", 0))));  // x not observed: nothing orders y
}

TEST(PtxModelProxiesDepartures, AtomicityUsesTheTransitiveCoherenceOrder) {
  // b1 { st.relaxed.gpu [x], 1; st.relaxed.gpu [x], 2; st [x], 3; ld r1, [x]; }   b2 { atom.add.relaxed.gpu r0, [x], 10; }
  // r0 == 1 && r1 == 11: the atom reads 1 and its write (11) is read after st [x], 3, so the writes 2 and 3
  // come between them in coherence order. The write of 2 is morally strong with the atom: atomicity
  // forbids it over the transitive order (2 co 11). Over the immediate-successor relation (2 co 3 co 11,
  // and 3, a weak write of another thread, is not morally strong with the atom) nothing would.
  Litmus l;
  l.addresses = {{"x", 0}};
  l.threads = {thread("b1", 1, {store(0, 1, Sem::Relaxed, Level::Gpu), store(0, 2, Sem::Relaxed, Level::Gpu), store(0, 3), load("r1", 0)}),
               thread("b2", 2, {atom_add("r0", 0, 10, Sem::Relaxed, Level::Gpu)})};
  const Decision d = decide(l, both(eq("r0", 1), eq("r1", 11)));
  EXPECT_FALSE(d.allowed) << d.reason;
  EXPECT_GT(d.ruled_out.count(Axiom::Atomicity), 0u) << d.reason;
  EXPECT_TRUE(permitted(l, both(eq("r0", 2), eq("r1", 12))));  // reading the last strong write is fine
}

// --- Register operands -----------------------------------------------------------------------------------

// PTX ISA 8.10.4, "Load Buffering with true dependencies":  t0 { ld r0, [x]; st [y], r0; }  t1 { ld r1, [y]; st [x], r1; }
Litmus load_buffering(bool dependencies) {
  Litmus l;
  l.addresses = {{"x", 0}, {"y", 1}};
  l.threads = {thread("t0", 0, {load("r0", 0), dependencies ? store_of(1, "r0") : store(1, 1)}),
               thread("t1", 1, {load("r1", 1), dependencies ? store_of(0, "r1") : store(0, 1)})};
  return l;
}

TEST(PtxModelProxiesRegisters, LoadBufferingWithDataDependenciesHasNoValueOutOfThinAir) {
  const Litmus l = load_buffering(true);
  const Decision d = decide(l, both(eq("r0", 1), eq("r1", 1)));
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.showing, 0u) << d.reason;
  EXPECT_EQ(d.consistent, d.candidates - 1);  // each load reading the other's store: a cycle in rf + dep
  EXPECT_TRUE(asserted(l, both(eq("r0", 0), eq("r1", 0))));
  // "Load Buffering without dependencies": x == 1 AND y == 1 is permitted.
  EXPECT_TRUE(permitted(load_buffering(false), both(eq("r0", 1), eq("r1", 1))));
}

TEST(PtxModelProxiesRegisters, AStoreWritesWhatItsRegisterRead) {
  // b0 { st.relaxed.gpu [x], 5; }   b1 { ld.relaxed.gpu r0, [x]; st [y], r0; ld r1, [y]; }
  Litmus l;
  l.addresses = {{"x", 0}, {"y", 1}};
  l.threads = {thread("b0", 0, {store(0, 5, Sem::Relaxed, Level::Gpu)}),
               thread("b1", 1, {load("r0", 0, Sem::Relaxed, Level::Gpu), store_of(1, "r0"), load("r1", 1)})};
  EXPECT_TRUE(asserted(l, either(both(eq("r0", 0), eq("r1", 0)), both(eq("r0", 5), eq("r1", 5)))));
  EXPECT_TRUE(permitted(l, eq("r1", 5)));
}

TEST(PtxModelProxiesRegisters, AnAtomAddsItsRegisterOperand) {
  // b0 { st.relaxed.gpu [y], 5; }   b1 { ld.relaxed.gpu r0, [y]; atom.add.relaxed.gpu r1, [x], r0; }
  // b2 { ld.relaxed.gpu r2, [x]; }
  Litmus l;
  l.addresses = {{"x", 0}, {"y", 1}};
  Op atom = atom_add("r1", 0, 0, Sem::Relaxed, Level::Gpu);
  atom.value_reg = "r0";
  l.threads = {thread("b0", 0, {store(1, 5, Sem::Relaxed, Level::Gpu)}),
               thread("b1", 1, {load("r0", 1, Sem::Relaxed, Level::Gpu), atom}),
               thread("b2", 2, {load("r2", 0, Sem::Relaxed, Level::Gpu)})};
  EXPECT_TRUE(permitted(l, eq("r2", 5)));
  EXPECT_FALSE(permitted(l, both(eq("r0", 0), eq("r2", 5))));
  EXPECT_TRUE(asserted(l, either(eq("r2", 0), eq("r2", 5))));
}

// --- Conditions -------------------------------------------------------------------------------------------

TEST(PtxModelProxiesConditions, NotOrAndEvaluate) {
  const std::vector<std::string> regs{"r0", "r1"};
  const std::vector<std::uint32_t> values{1, 2};
  EXPECT_TRUE(holds(both(eq("r0", 1), ne("r1", 1)), regs, values));
  EXPECT_FALSE(holds(both(eq("r0", 1), eq("r1", 1)), regs, values));
  EXPECT_TRUE(holds(either(eq("r0", 0), eq("r1", 2)), regs, values));
  EXPECT_FALSE(holds(either(eq("r0", 0), eq("r1", 0)), regs, values));
  EXPECT_TRUE(holds(negation(eq("r0", 0)), regs, values));
  EXPECT_FALSE(holds(negation(either(eq("r0", 0), eq("r1", 2))), regs, values));
  Expr registers_compared;  // r0 == r1
  registers_compared.lhs = Term{"r0", 0};
  registers_compared.rhs = Term{"r1", 0};
  EXPECT_FALSE(holds(registers_compared, regs, values));
  EXPECT_TRUE(holds(combine(Expr::Kind::And, {}), regs, values));
  EXPECT_FALSE(holds(combine(Expr::Kind::Or, {}), regs, values));
  // An unknown register is refused even where the answer would not need it.
  EXPECT_THROW(holds(either(eq("r0", 1), eq("r9", 0)), regs, values), std::invalid_argument);
  EXPECT_THROW(holds(combine(Expr::Kind::Not, {}), regs, values), std::invalid_argument);
}

TEST(PtxModelProxiesConditions, TheirText) {
  EXPECT_EQ(to_string(both(eq("r0", 1), either(ne("r1", 2), negation(eq("r0", 0))))), "r0 == 1 && (r1 != 2 || not (r0 == 0))");
  EXPECT_EQ(to_string(either(both(eq("r0", 1), eq("r1", 1)), eq("r2", 0))), "r0 == 1 && r1 == 1 || r2 == 0");
}

TEST(PtxModelProxiesConditions, TheModelDecidesConditionTrees) {
  // tests/SB_cta.test: assert (r0 == 2 || r1 == 1)
  Litmus l;
  l.addresses = {{"x", 0}, {"y", 1}};
  l.threads = {thread("t0", 0, {store(0, 1), fence(OpKind::FenceSc, Level::Cta), load("r0", 1)}),
               thread("t1", 0, {store(1, 2), fence(OpKind::FenceSc, Level::Cta), load("r1", 0)})};
  EXPECT_TRUE(asserted(l, either(eq("r0", 2), eq("r1", 1))));
  EXPECT_FALSE(permitted(l, negation(either(eq("r0", 2), eq("r1", 1)))));
  EXPECT_TRUE(permitted(l, both(eq("r0", 2), eq("r1", 1))));
  EXPECT_TRUE(permitted(l, both(eq("r0", 2), negation(eq("r1", 1)))));
  EXPECT_THROW(decide(l, eq("r7", 0)), std::invalid_argument);
  // decide(shape) asks the conjunction shape.weak; permits and asserts are conjunction and disjunction.
  l.weak = {equal("r0", 0), equal("r1", 0)};
  const Decision d = decide(l);
  EXPECT_FALSE(d.allowed);
  EXPECT_NE(d.reason.find("r0 == 0 && r1 == 0"), std::string::npos) << d.reason;
  EXPECT_FALSE(permits(l, {equal("r0", 0), equal("r1", 0)}));
  EXPECT_TRUE(asserts(l, {equal("r0", 2), equal("r1", 1)}));
}

}  // namespace
}  // namespace vmmcheck::model::ptx
