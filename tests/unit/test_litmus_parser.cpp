// The litmus file parser (harness/litmus/parser.hpp): every construct of the language mapped to the
// litmus types, templates and row names, and malformed files reported at their exact line and column.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "litmus/parser.hpp"
#include "litmus/rows.hpp"
#include "litmus/test_text.hpp"

namespace vmmcheck::litmus {
namespace {

namespace lt = patterns::litmus;
using Kind = lt::Expr::Kind;

// The rows of `text`, read as the file "tests/t.test".
std::vector<Row> rows_of(const std::string& text) { return parse_text(text, "tests/t.test").rows; }

// The one row of a one-command test.
Row row_of(const std::string& text) {
  std::vector<Row> rows = rows_of(text);
  EXPECT_EQ(rows.size(), 1u);
  return rows.empty() ? Row{} : rows[0];
}

// The operations of a test whose one thread is `body`, on .global x and .global y.
std::vector<lt::Op> ops_of(const std::string& body, const std::string& condition = "1 == 1") {
  Row row = row_of(".global x;\n.global y;\nd0.b0.t0 {\n" + body + "\n}\npermit (" + condition + ") as c;\n");
  return row.test.threads.empty() ? std::vector<lt::Op>{} : row.test.threads[0].ops;
}

// The condition of a test whose one thread loads r0..r3.
lt::Expr condition_of(const std::string& condition) {
  return row_of(".global x;\nd0.b0.t0 { ld r0, [x]; ld r1, [x]; ld r2, [x]; ld r3, [x]; }\npermit (" + condition +
                ") as c;\n")
      .condition;
}

void expect_comparison(const lt::Expr& e, Kind kind, const std::string& reg, std::uint32_t value) {
  EXPECT_EQ(e.kind, kind);
  EXPECT_EQ(e.lhs.reg, reg);
  EXPECT_TRUE(e.rhs.reg.empty());
  EXPECT_EQ(e.rhs.value, value);
}

// --- Addresses and threads ---

TEST(LitmusParser, AddressDeclarationsGiveLocationsSpacesAndSynonyms) {
  Row row = row_of(R"(.global x;
.shared s;
.global y physically aliases x;
.texref t virtually aliases x;
.surfref u virtually aliases y;
.shared z physically aliases s;
.global w;
d0.b0.t0 { st [w], 1; }
permit (1 == 1) as c;
)");
  const std::vector<lt::Address>& a = row.test.addresses;
  ASSERT_EQ(a.size(), 7u);
  const char* names[] = {"x", "s", "y", "t", "u", "z", "w"};
  const int locations[] = {0, 1, 0, 0, 0, 1, 2};
  const int same_as[] = {-1, -1, -1, 0, 2, -1, -1};
  const lt::Proxy declared[] = {lt::Proxy::Generic, lt::Proxy::Generic, lt::Proxy::Generic, lt::Proxy::Texture,
                                lt::Proxy::Surface, lt::Proxy::Generic, lt::Proxy::Generic};
  const bool shared[] = {false, true, false, false, false, true, false};
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(names[i]);
    EXPECT_EQ(a[i].name, names[i]);
    EXPECT_EQ(a[i].location, locations[i]);
    EXPECT_EQ(a[i].same_as, same_as[i]);
    EXPECT_EQ(a[i].declared, declared[i]);
    EXPECT_EQ(a[i].shared, shared[i]);
  }
  EXPECT_EQ(row.test.threads[0].ops[0].address, 6);
}

TEST(LitmusParser, AnOffsetAliasIsAnotherViewOfTheSameLocation) {
  Row row = row_of(R"(.global x;
.global y physically aliases x;
.global z physically aliases x offset;
.texref t virtually aliases z;
d0.b0.t0 { st [x], 1; fence.proxy.alias; ld r0, [z]; }
assert (r0 == 1) as c;
)");
  const std::vector<lt::Address>& a = row.test.addresses;
  ASSERT_EQ(a.size(), 4u);
  EXPECT_FALSE(a[0].offset_view);
  EXPECT_FALSE(a[1].offset_view);
  EXPECT_TRUE(a[2].offset_view);
  EXPECT_TRUE(a[3].offset_view);  // a synonym is its target's very address
  EXPECT_EQ(a[2].location, a[0].location);
  // It reads back as it was written.
  const std::string text = vmmcheck::litmus::test_text(row);
  EXPECT_NE(text.find(".global z physically aliases x offset;"), std::string::npos) << text;
  EXPECT_EQ(text.find(".global y physically aliases x offset"), std::string::npos) << text;
}

// `.memory KIND;` names the physical memory of every global location (docs/litmus.md, "Addresses"):
// device by default; nothing to the model, the kind of the allocation on the GPU.
TEST(LitmusParser, AMemoryDeclarationNamesTheKindOfEveryLocation) {
  const Row device = row_of(".global x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as c;\n");
  EXPECT_EQ(device.test.memory, patterns::Memory::Device);
  EXPECT_EQ(vmmcheck::litmus::test_text(device).find(".memory"), std::string::npos);
  for (const auto& [kind, memory] : {std::pair{"host_numa", patterns::Memory::HostNuma},
                                     std::pair{"compressible", patterns::Memory::Compressible},
                                     std::pair{"device", patterns::Memory::Device}}) {
    const Row row = row_of(std::string(".global x;\n.memory ") + kind + ";\n.global y physically aliases x;\n"
                           "d0.b0.t0 { st [x], 1; ld r0, [y]; }\npermit (r0 == 0) as c;\n");
    EXPECT_EQ(row.test.memory, memory) << kind;
    EXPECT_EQ(row.test.addresses.size(), 2u);
    // It reads back as it was written (a derived control's text, its kernel's key, keeps it).
    const std::string text = vmmcheck::litmus::test_text(row);
    EXPECT_EQ(text.find(".memory " + std::string(kind) + ";\n") != std::string::npos, memory != patterns::Memory::Device) << text;
  }
}

TEST(LitmusParser, ASynonymOfSharedMemoryIsShared) {
  Row row = row_of(".shared s;\n.texref t virtually aliases s;\nd0.b0.t0 { tld r0, [t]; }\npermit (r0 == 0) as c;\n");
  EXPECT_TRUE(row.test.addresses[1].shared);
  EXPECT_EQ(row.test.addresses[1].same_as, 0);
}

TEST(LitmusParser, ThreadsArePlacedByTheirIds) {
  Row row = row_of(R"(.global x;
d0.b0.t0 { st [x], 1; }
d1.b2.t3 { st [x], 2; }
d0 . b17 . t1 { st [x], 3; }
d00.b01.t02 { st [x], 4; }
permit (1 == 1) as c;
)");
  const std::vector<lt::Thread>& t = row.test.threads;
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].name, "d0.b0.t0");
  EXPECT_EQ(t[1].name, "d1.b2.t3");
  EXPECT_EQ(t[1].gpu, 1);
  EXPECT_EQ(t[1].cta, 2);
  EXPECT_EQ(t[1].lane, 3);
  EXPECT_FALSE(t[1].resident);
  EXPECT_EQ(t[2].name, "d0.b17.t1");
  EXPECT_EQ(t[3].name, "d0.b1.t2");  // the numbers, as the artifact reads them
  EXPECT_EQ(t[3].ops[0].value, 4u);
}

// --- Instructions ---

TEST(LitmusParser, LoadsTakeTheirProxySemAndScope) {
  std::vector<lt::Op> ops = ops_of(R"(
  ld r0, [x];
  ld.weak r1, [x] == 7;
  ld.volatile r2, [x];
  ld.relaxed.cta r3, [y];
  ld.acquire.gpu r4, [x];
  suld.acquire.sys r5, [x];
  suld r6, [x];
  tld r7, [x];
  tld.weak r8, [x];
  ldc r9, [x];
  ldc.weak r10, [x] == 4294967295;)");
  ASSERT_EQ(ops.size(), 11u);
  struct Want {
    lt::Sem sem;
    lt::Level scope;
    lt::Proxy proxy;
    std::int64_t must_read;
  };
  const Want want[] = {
      {lt::Sem::Weak, lt::Level::Thread, lt::Proxy::Generic, -1},
      {lt::Sem::Weak, lt::Level::Thread, lt::Proxy::Generic, 7},
      {lt::Sem::Relaxed, lt::Level::Sys, lt::Proxy::Generic, -1},
      {lt::Sem::Relaxed, lt::Level::Cta, lt::Proxy::Generic, -1},
      {lt::Sem::Acquire, lt::Level::Gpu, lt::Proxy::Generic, -1},
      {lt::Sem::Acquire, lt::Level::Sys, lt::Proxy::Surface, -1},
      {lt::Sem::Weak, lt::Level::Thread, lt::Proxy::Surface, -1},
      {lt::Sem::Weak, lt::Level::Thread, lt::Proxy::Texture, -1},
      {lt::Sem::Weak, lt::Level::Thread, lt::Proxy::Texture, -1},
      {lt::Sem::Weak, lt::Level::Thread, lt::Proxy::Constant, -1},
      {lt::Sem::Weak, lt::Level::Thread, lt::Proxy::Constant, 4294967295},
  };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ops[i].kind, lt::OpKind::Load);
    EXPECT_EQ(ops[i].reg, "r" + std::to_string(i));
    EXPECT_EQ(ops[i].address, i == 3 ? 1 : 0);
    EXPECT_EQ(ops[i].sem, want[i].sem);
    EXPECT_EQ(ops[i].scope, want[i].scope);
    EXPECT_EQ(ops[i].proxy, want[i].proxy);
    EXPECT_EQ(ops[i].must_read, want[i].must_read);
  }
}

TEST(LitmusParser, LdNcIsAWeakTextureProxyReadOfTheAddress) {
  std::vector<lt::Op> ops = ops_of(R"(
  ld.nc r0, [x];
  ld r1, [x];)");
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_TRUE(ops[0].nc);
  EXPECT_EQ(ops[0].proxy, lt::Proxy::Texture);
  EXPECT_EQ(ops[0].sem, lt::Sem::Weak);
  EXPECT_EQ(ops[0].scope, lt::Level::Thread);
  EXPECT_EQ(ops[0].address, 0);
  EXPECT_FALSE(ops[1].nc);
  EXPECT_EQ(ops[1].proxy, lt::Proxy::Generic);
}

TEST(LitmusParser, StoresTakeAnIntegerOrARegisterTheThreadLoaded) {
  std::vector<lt::Op> ops = ops_of(R"(
  st [x], 1;
  st.weak [y], 2;
  st.volatile [x], 3;
  st.relaxed.gpu [x], 4;
  st.release.sys [x], 5;
  sust.release.cta [y], 6;
  sust [x], 0;
  ld r0, [x];
  st [y], r0;)");
  ASSERT_EQ(ops.size(), 9u);
  const lt::Sem sems[] = {lt::Sem::Weak,    lt::Sem::Weak,    lt::Sem::Relaxed, lt::Sem::Relaxed, lt::Sem::Release,
                          lt::Sem::Release, lt::Sem::Weak};
  const lt::Level scopes[] = {lt::Level::Thread, lt::Level::Thread, lt::Level::Sys,   lt::Level::Gpu,
                              lt::Level::Sys,    lt::Level::Cta,    lt::Level::Thread};
  for (std::size_t i = 0; i < 7; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ops[i].kind, lt::OpKind::Store);
    EXPECT_EQ(ops[i].value, i < 6 ? i + 1 : 0);
    EXPECT_TRUE(ops[i].value_reg.empty());
    EXPECT_TRUE(ops[i].reg.empty());
    EXPECT_EQ(ops[i].sem, sems[i]);
    EXPECT_EQ(ops[i].scope, scopes[i]);
    EXPECT_EQ(ops[i].proxy, i == 5 || i == 6 ? lt::Proxy::Surface : lt::Proxy::Generic);
  }
  EXPECT_EQ(ops[1].address, 1);
  EXPECT_EQ(ops[8].kind, lt::OpKind::Store);
  EXPECT_EQ(ops[8].value_reg, "r0");
  EXPECT_EQ(ops[8].address, 1);
}

TEST(LitmusParser, AtomicsDefaultToRelaxedAtGpuScope) {
  std::vector<lt::Op> ops = ops_of(R"(
  atom.add r0, [x], 1;
  atom.add.acq_rel.gpu r1, [x], 2 == 5;
  atom.add.acquire r2, [y], 3;
  atom.add.cta r3, [x], 4;
  suatom.add.release.sys r4, [x], r0;
  red.add [x], 6;
  red.add.release.cta [y], 7;
  sured.add.relaxed.sys [x], r1;)");
  ASSERT_EQ(ops.size(), 8u);
  struct Want {
    lt::Sem sem;
    lt::Level scope;
    lt::Proxy proxy;
    const char* reg;
  };
  const Want want[] = {
      {lt::Sem::Relaxed, lt::Level::Gpu, lt::Proxy::Generic, "r0"},
      {lt::Sem::AcqRel, lt::Level::Gpu, lt::Proxy::Generic, "r1"},
      {lt::Sem::Acquire, lt::Level::Gpu, lt::Proxy::Generic, "r2"},
      {lt::Sem::Relaxed, lt::Level::Cta, lt::Proxy::Generic, "r3"},
      {lt::Sem::Release, lt::Level::Sys, lt::Proxy::Surface, "r4"},
      {lt::Sem::Relaxed, lt::Level::Gpu, lt::Proxy::Generic, ""},
      {lt::Sem::Release, lt::Level::Cta, lt::Proxy::Generic, ""},
      {lt::Sem::Relaxed, lt::Level::Sys, lt::Proxy::Surface, ""},
  };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ops[i].kind, lt::OpKind::AtomAdd);
    EXPECT_EQ(ops[i].sem, want[i].sem);
    EXPECT_EQ(ops[i].scope, want[i].scope);
    EXPECT_EQ(ops[i].proxy, want[i].proxy);
    EXPECT_EQ(ops[i].reg, want[i].reg);
  }
  EXPECT_EQ(ops[1].value, 2u);
  EXPECT_EQ(ops[1].must_read, 5);
  EXPECT_EQ(ops[0].must_read, -1);
  EXPECT_EQ(ops[2].address, 1);
  EXPECT_EQ(ops[4].value_reg, "r0");
  EXPECT_EQ(ops[6].value, 7u);
  EXPECT_EQ(ops[7].value_reg, "r1");
}

TEST(LitmusParser, FencesAndProxyFences) {
  std::vector<lt::Op> ops = ops_of(R"(
  fence.sc.cta;
  fence.sc.sys;
  fence.acq_rel.gpu;
  fence.proxy.alias;
  fence.alias;
  fence.proxy.texture;
  fence.proxy.surface;
  fence.proxy.constant;
  fence.proxy.generic;)");
  ASSERT_EQ(ops.size(), 9u);
  EXPECT_EQ(ops[0].kind, lt::OpKind::FenceSc);
  EXPECT_EQ(ops[0].scope, lt::Level::Cta);
  EXPECT_EQ(ops[1].kind, lt::OpKind::FenceSc);
  EXPECT_EQ(ops[1].scope, lt::Level::Sys);
  EXPECT_EQ(ops[2].kind, lt::OpKind::FenceAcqRel);
  EXPECT_EQ(ops[2].scope, lt::Level::Gpu);
  EXPECT_EQ(ops[3].kind, lt::OpKind::AliasFence);
  EXPECT_EQ(ops[4].kind, lt::OpKind::AliasFence);
  const lt::Proxy proxies[] = {lt::Proxy::Texture, lt::Proxy::Surface, lt::Proxy::Constant, lt::Proxy::Generic};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ops[5 + i].kind, lt::OpKind::ProxyFence);
    EXPECT_EQ(ops[5 + i].proxy, proxies[i]);
  }
}

TEST(LitmusParser, ALocationMayStartAtAValueItsAliasesShare) {
  const File f = parse_text(R"(.global x = 7;
.global y physically aliases x;
.texref t virtually aliases x;
.global z;
d0.b0.t0 { ld r0, [y]; }
assert (r0 == 7) as a;
)", "t.test");
  ASSERT_EQ(f.rows.size(), 1u);
  const auto& a = f.rows[0].test.addresses;
  EXPECT_EQ(a[0].initial, 7u);
  EXPECT_EQ(a[1].initial, 7u);
  EXPECT_EQ(a[2].initial, 7u);
  EXPECT_EQ(a[3].initial, 0u);
  EXPECT_TRUE(model_verdict(f.rows[0]).matches) << "an unwritten location reads its initial value";
  EXPECT_NE(test_text(f.rows[0]).find(".global x = 7;\n.global y physically aliases x;"), std::string::npos) << test_text(f.rows[0]);
}

TEST(LitmusParser, BarriersTakeAnIdAndTheCtaScope) {
  std::vector<lt::Op> ops = ops_of(R"(
  bar.cta.sync 0;
  bar.sync 15;)");
  ASSERT_EQ(ops.size(), 2u);
  for (const lt::Op& op : ops) {
    EXPECT_EQ(op.kind, lt::OpKind::Barrier);
    EXPECT_EQ(op.scope, lt::Level::Cta);
  }
  EXPECT_EQ(ops[0].value, 0u);
  EXPECT_EQ(ops[1].value, 15u);
}

TEST(LitmusParser, RegistersGoByNumber) {
  std::vector<lt::Op> ops = ops_of("ld r007, [x];\nst [y], r7;", "r07 == 1");
  EXPECT_EQ(ops[0].reg, "r7");
  EXPECT_EQ(ops[1].value_reg, "r7");
}

TEST(LitmusParser, CommentsAndFreeFormWhitespace) {
  Row row = row_of(
      "// a test\n.global x; // the data\n\td0.b0.t0{st[x],1;ld r0,[x]==1;}// end\n"
      "permit(r0==1)as c;// done");
  ASSERT_EQ(row.test.threads.size(), 1u);
  EXPECT_EQ(row.test.threads[0].ops.size(), 2u);
  EXPECT_EQ(row.test.threads[0].ops[1].must_read, 1);
  EXPECT_EQ(row.line, 4);
}

// --- Conditions ---

TEST(LitmusParser, AndBindsTighterThanOr) {
  lt::Expr e = condition_of("r0 == 1 || r1 == 2 && r2 != 3");
  ASSERT_EQ(e.kind, Kind::Or);
  ASSERT_EQ(e.operands.size(), 2u);
  expect_comparison(e.operands[0], Kind::Eq, "r0", 1);
  ASSERT_EQ(e.operands[1].kind, Kind::And);
  expect_comparison(e.operands[1].operands[0], Kind::Eq, "r1", 2);
  expect_comparison(e.operands[1].operands[1], Kind::Ne, "r2", 3);
}

// A chain of one operator is one node of many operands, in order: a tree as deep as the chain is long
// crashed every reader that recurses over a condition (50,000 `||` terms: a stack overflow, exit 139).
TEST(LitmusParser, AChainOfOneOperatorIsOneNode) {
  lt::Expr e = condition_of("r0 == 1 && r1 == 2 && r2 == 3");
  ASSERT_EQ(e.kind, Kind::And);
  ASSERT_EQ(e.operands.size(), 3u);
  expect_comparison(e.operands[0], Kind::Eq, "r0", 1);
  expect_comparison(e.operands[1], Kind::Eq, "r1", 2);
  expect_comparison(e.operands[2], Kind::Eq, "r2", 3);
  std::string chain = "r0 == 0";
  for (int i = 1; i < 50'000; ++i) chain += " || r0 == " + std::to_string(i);
  const lt::Expr any = condition_of(chain);
  ASSERT_EQ(any.kind, Kind::Or);
  ASSERT_EQ(any.operands.size(), 50'000u);
  expect_comparison(any.operands.back(), Kind::Eq, "r0", 49'999);
}

TEST(LitmusParser, NotTakesTheComparisonAfterIt) {
  lt::Expr e = condition_of("not r0 == 1 && r1 == 2");
  ASSERT_EQ(e.kind, Kind::And);
  ASSERT_EQ(e.operands[0].kind, Kind::Not);
  ASSERT_EQ(e.operands[0].operands.size(), 1u);
  expect_comparison(e.operands[0].operands[0], Kind::Eq, "r0", 1);
  expect_comparison(e.operands[1], Kind::Eq, "r1", 2);
}

TEST(LitmusParser, ParenthesesGroup) {
  lt::Expr e = condition_of("not (r0 == 1 || r1 == 2) && (r2 == 3 || not not r3 != 4)");
  ASSERT_EQ(e.kind, Kind::And);
  ASSERT_EQ(e.operands[0].kind, Kind::Not);
  ASSERT_EQ(e.operands[0].operands[0].kind, Kind::Or);
  const lt::Expr& right = e.operands[1];
  ASSERT_EQ(right.kind, Kind::Or);
  expect_comparison(right.operands[0], Kind::Eq, "r2", 3);
  ASSERT_EQ(right.operands[1].kind, Kind::Not);
  ASSERT_EQ(right.operands[1].operands[0].kind, Kind::Not);
  expect_comparison(right.operands[1].operands[0].operands[0], Kind::Ne, "r3", 4);
}

TEST(LitmusParser, ComparisonsTakeRegistersOrIntegersOnEitherSide) {
  lt::Expr e = condition_of("((5 != r1)) || 2 == 2");
  ASSERT_EQ(e.kind, Kind::Or);
  const lt::Expr& left = e.operands[0];
  EXPECT_EQ(left.kind, Kind::Ne);
  EXPECT_TRUE(left.lhs.reg.empty());
  EXPECT_EQ(left.lhs.value, 5u);
  EXPECT_EQ(left.rhs.reg, "r1");
  EXPECT_EQ(e.operands[1].lhs.value, 2u);
  EXPECT_EQ(e.operands[1].rhs.value, 2u);
}

// [x] in a condition is the final value of x: a register named "[x]", and x among the test's finals,
// once each, in the order the file's conditions first name them.
TEST(LitmusParser, FinalValuesAreRegistersNamedByTheirAddress) {
  const std::vector<Row> rows = rows_of(".global x;\n.global y;\nd0.b0.t0 { st [x], 1; st [y], 2; ld r0, [x]; }\n"
                                        "permit ([y] == 2 && r0 == 1) as a;\npermit (1 == [x] || [y] != 2) as b;\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].test.finals, (std::vector<int>{1, 0}));
  EXPECT_EQ(rows[1].test.finals, (std::vector<int>{1, 0}));  // one shape for every row of the file
  EXPECT_EQ(rows[0].condition.operands[0].lhs.reg, "[y]");
  EXPECT_EQ(rows[1].condition.operands[0].rhs.reg, "[x]");
  EXPECT_EQ(rows[1].condition.operands[0].lhs.value, 1u);
}

// --- Commands and rows ---

TEST(LitmusParser, EachCommandIsARow) {
  const std::string text = R"(.global x;
.global flag;

d0.b0.t0 {
  st [x], 42;
  st.release.gpu [flag], 1;
}

d0.b1.t0 {
  ld.acquire.gpu r0, [flag] == 1;
  ld r1, [x];
}

permit (r1 == 42) as seen;
assert (r1 == 42) as always;
check (r1 != 42) as stale;
)";
  std::vector<Row> rows = parse_text(text, "some/dir/MP.test").rows;
  ASSERT_EQ(rows.size(), 3u);
  const char* names[] = {"MP.seen", "MP.always", "MP.stale"};
  const Expect expects[] = {Expect::Permit, Expect::Assert, Expect::Check};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rows[i].name, names[i]);
    EXPECT_EQ(rows[i].test.name, names[i]);
    EXPECT_EQ(rows[i].expect, expects[i]);
    EXPECT_EQ(rows[i].file, "some/dir/MP.test");
    EXPECT_EQ(rows[i].line, 14 + static_cast<int>(i));
    EXPECT_EQ(rows[i].instance, -1);
    EXPECT_EQ(rows[i].source, text);
    EXPECT_EQ(rows[i].test.threads.size(), 2u);
    EXPECT_EQ(rows[i].test.addresses.size(), 2u);
    EXPECT_TRUE(rows[i].test.boundaries.empty());
  }
  expect_comparison(rows[2].condition, Kind::Ne, "r1", 42);
  EXPECT_EQ(parse_text(text, "some/dir/MP.test").path, "some/dir/MP.test");
}

TEST(LitmusParser, TheStemDropsOnlyTheDirectoryAndTheExtension) {
  const std::string text = ".global x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as c;\n";
  EXPECT_EQ(parse_text(text, "a/b/SB.test").rows[0].name, "SB.c");
  EXPECT_EQ(parse_text(text, "SB.litmus").rows[0].name, "SB.c");  // a herd-style file's extension
  EXPECT_EQ(parse_text(text, "/x/SB").rows[0].name, "SB.c");
  // A '.' left in the stem would split the rows' names (litmus.sb.old.c is family litmus.sb): refused.
  for (const char* path : {"SB.ptx", "a/sb.old.test"}) {
    try {
      parse_text(text, path);
      FAIL() << path << " parsed";
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("a '.' in the file's name before its extension"), std::string::npos) << e.what();
    }
  }
}

// --- Templates ---

const char* kTemplate = R"(.global x;
.surfref s virtually aliases x;
.global flag;

d0.b0.t0 {
  $0, 2;
  $1
  st.release.cta [flag], 1;
}

d0.b0.t1 {
  ld.acquire.cta r0, [flag] == 1;
  $2 r1, $3;
}

$4 (r1 $5 2) as r1;
$$
# store | fence | load | address | command | comparison
st   [x] |                      | ld   | [x] | assert | ==

sust [s] | fence.proxy.surface; | ld   | [x] | permit | !=
   # an indented comment row
st   [x] | fence.proxy.alias;   | suld | [s] | check  | ==
)";

TEST(LitmusParser, TemplateRowsAreInstances) {
  std::vector<Row> rows = parse_text(kTemplate, "tests/MP_cta.test").rows;
  ASSERT_EQ(rows.size(), 3u);
  const int lines[] = {19, 21, 23};
  const Expect expects[] = {Expect::Assert, Expect::Permit, Expect::Check};
  const Kind kinds[] = {Kind::Eq, Kind::Ne, Kind::Eq};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rows[i].name, "MP_cta." + std::to_string(i) + ".r1");
    EXPECT_EQ(rows[i].test.name, rows[i].name);
    EXPECT_EQ(rows[i].instance, static_cast<int>(i));
    EXPECT_EQ(rows[i].line, lines[i]);
    EXPECT_EQ(rows[i].file, "tests/MP_cta.test");
    EXPECT_EQ(rows[i].expect, expects[i]);
    expect_comparison(rows[i].condition, kinds[i], "r1", 2);
    EXPECT_EQ(rows[i].source.find('$'), std::string::npos);
  }
  const std::vector<lt::Op>& writer0 = rows[0].test.threads[0].ops;
  ASSERT_EQ(writer0.size(), 2u);
  EXPECT_EQ(writer0[0].kind, lt::OpKind::Store);
  EXPECT_EQ(writer0[0].value, 2u);

  const std::vector<lt::Op>& writer1 = rows[1].test.threads[0].ops;
  ASSERT_EQ(writer1.size(), 3u);
  EXPECT_EQ(writer1[0].proxy, lt::Proxy::Surface);
  EXPECT_EQ(writer1[0].address, 1);
  EXPECT_EQ(writer1[1].kind, lt::OpKind::ProxyFence);
  EXPECT_EQ(writer1[1].proxy, lt::Proxy::Surface);
  EXPECT_NE(rows[1].source.find("sust [s], 2;"), std::string::npos);

  EXPECT_EQ(rows[2].test.threads[0].ops[1].kind, lt::OpKind::AliasFence);
  const lt::Op& read = rows[2].test.threads[1].ops[1];
  EXPECT_EQ(read.proxy, lt::Proxy::Surface);
  EXPECT_EQ(read.reg, "r1");
  EXPECT_EQ(read.address, 1);
}

TEST(LitmusParser, HoleNumbersAreReadWhole) {
  // With "$10" read as "$1" then '0', the store would write 1010 and the condition ask for 101100.
  Row row = row_of(R"(.global x;
d0.b0.t0 { st [x], $10; st [x], $1; ld r0, [x]; }
permit (r0 == $1$0) as c;
   $$   
100 | 101 | 102 | 103 | 104 | 105 | 106 | 107 | 108 | 109 | 110
)");
  const std::vector<lt::Op>& ops = row.test.threads[0].ops;
  EXPECT_EQ(ops[0].value, 110u);
  EXPECT_EQ(ops[1].value, 101u);
  EXPECT_EQ(row.condition.rhs.value, 101100u);
  EXPECT_EQ(row.name, "t.0.c");
  EXPECT_EQ(row.line, 5);
}

TEST(LitmusParser, ARowMayHaveUnusedParametersAndEmptyOnes) {
  std::vector<Row> rows = rows_of(R"(.global x;
d0.b0.t0 { st [x], 1; $0 ld r0, [x]; }
permit (r0 == 1) as c;
$$
| unused | also unused

fence.sc.gpu;
)");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].test.threads[0].ops.size(), 2u);
  EXPECT_EQ(rows[1].test.threads[0].ops.size(), 3u);
  EXPECT_EQ(rows[1].test.threads[0].ops[1].kind, lt::OpKind::FenceSc);
  EXPECT_EQ(rows[1].name, "t.1.c");
  EXPECT_EQ(rows[1].line, 7);
}

TEST(LitmusParser, EachInstanceIsParsedOnItsOwn) {
  // Every instance declares the same registers and command names: no "set twice" across rows.
  std::vector<Row> rows = rows_of(R"(.global x;
d0.b0.t0 { ld r0, [x]; }
permit (r0 == $0) as c;
assert (r0 != $0) as d;
$$
1
2
)");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].name, "t.0.c");
  EXPECT_EQ(rows[1].name, "t.0.d");
  EXPECT_EQ(rows[2].name, "t.1.c");
  EXPECT_EQ(rows[3].name, "t.1.d");
  EXPECT_EQ(rows[3].line, 7);
  EXPECT_EQ(rows[3].condition.rhs.value, 2u);
}

// `as NAME case FAMILY.AXES`: the row stands for a retired family's case, and its results bear that name;
// the control clause may follow.
TEST(LitmusParser, ARowMayStandForACase) {
  const auto rows = rows_of(R"(.global x;
d0.b0.t0 { atom.add.relaxed.gpu r0, [x], 1; }
d0.b1.t0 { atom.add.relaxed.gpu r1, [x], 1; }
assert ([x] == 2) as same case alias.rmw.same.gpu control plain;
permit (not ([x] == 2)) as plain;
)");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].case_name, "alias.rmw.same.gpu");
  EXPECT_EQ(case_name_of(rows[0]), "alias.rmw.same.gpu");
  EXPECT_EQ(row_name_of(rows[0]), "litmus.t.same");
  EXPECT_EQ(rows[0].control, "t.plain");
  EXPECT_TRUE(rows[1].case_name.empty());
  EXPECT_EQ(case_name_of(rows[1]), "litmus.t.plain");
}

// --- Malformed files ---

struct Malformed {
  const char* name;
  const char* text;
  int line, column;
  std::vector<std::string> words;  // in the message
};

void PrintTo(const Malformed& m, std::ostream* os) { *os << m.name; }

class LitmusParserMalformed : public testing::TestWithParam<Malformed> {};

TEST_P(LitmusParserMalformed, IsReportedWhereItIs) {
  const Malformed& m = GetParam();
  try {
    parse_text(m.text, "bad.test");
    FAIL() << "parsed";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.path(), "bad.test");
    EXPECT_EQ(std::to_string(e.line()) + ":" + std::to_string(e.column()),
              std::to_string(m.line) + ":" + std::to_string(m.column))
        << e.what();
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("bad.test:" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": ", 0), 0u);
    for (const std::string& word : m.words) EXPECT_NE(what.find(word), std::string::npos) << what << "\nlacks: " << word;
  }
}

const Malformed kMalformed[] = {
    {"EmptyFile", "", 1, 1, {"expected an address declaration", "or a thread dD.bB.tT", "found the end of the file"}},
    {"OnlyAComment", "// nothing\n  \n", 3, 1, {"expected an address declaration", "the end of the file"}},
    {"DeclarationWithoutSemicolon", R"(.global x
d0.b0.t0 { st [x], 1; }
permit (1 == 1) as a;)",
     2, 1, {"expected ';', '= VALUE' or 'physically aliases'", "found 'd0'"}},
    {"UnknownSpace", ".local x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;", 1, 2,
     {"expected one of .global, .shared, .texref, .surfref, .memory", "found 'local'"}},
    {"UnknownMemory", ".memory hbm;\n.global x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;", 1, 9,
     {"unknown kind of memory 'hbm' (device, compressible, host_numa)"}},
    {"MemoryWithoutKind", ".memory;\n.global x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;", 1, 8,
     {"expected a kind of memory (device, compressible, host_numa)", "found ';'"}},
    {"SecondMemory", ".memory host_numa;\n.global x;\n.memory device;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;", 3, 2,
     {"a second .memory"}},
    {"SynonymWithoutAlias", ".global x;\n.texref t;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;", 2, 10,
     {"expected 'virtually'", "found ';'"}},
    {"DuplicateAddress", ".global x;\n.shared x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;", 2, 9,
     {"address 'x' is declared twice"}},
    {"OffsetOfSharedMemory", ".shared s;\n.shared z physically aliases s offset;\nd0.b0.t0 { st [s], 1; }\npermit (1 == 1) as a;",
     2, 32, {"a .shared address is no mapping: it has no 'offset'"}},
    {"OffsetMisspelt", ".global x;\n.global y physically aliases x offst;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;",
     2, 32, {"expected ';'", "found 'offst'"}},
    {"AliasOfAnUndeclaredAddress", ".global y physically aliases x;\n.global x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;",
     1, 30, {"unknown address 'x'"}},
    {"UnknownAddress", ".global x;\nd0.b0.t0 { st [z], 1; }\npermit (1 == 1) as a;", 2, 16, {"unknown address 'z'"}},
    {"AddressWithoutBrackets", ".global x;\nd0.b0.t0 { ld r0, x; }\npermit (r0 == 0) as a;", 2, 19,
     {"expected an address in brackets", "found 'x'"}},
    {"InstructionWithoutSemicolon", ".global x;\nd0.b0.t0 { st [x], 1 }\npermit (1 == 1) as a;", 2, 22,
     {"expected ';'", "found '}'"}},
    {"WeakWithScope", ".global x;\nd0.b0.t0 { ld.weak.cta r0, [x]; }\npermit (r0 == 0) as a;", 2, 20,
     {"illegal: .weak accesses have no scope"}},
    {"VolatileWithScope", ".global x;\nd0.b0.t0 { st.volatile.sys [x], 1; }\npermit (1 == 1) as a;", 2, 24,
     {"illegal: .volatile accesses have no scope"}},
    {"ScopeWithoutSem", ".global x;\nd0.b0.t0 { ld.gpu r0, [x]; }\npermit (r0 == 0) as a;", 2, 15,
     {"illegal: .weak accesses have no scope"}},
    {"RelaxedWithoutScope", ".global x;\nd0.b0.t0 { st.relaxed [x], 1; }\npermit (1 == 1) as a;", 2, 23,
     {"expected .cta, .gpu or .sys", ".relaxed needs a scope", "found '['"}},
    {"UnknownScope", ".global x;\nd0.b0.t0 { ld.acquire.cluster r0, [x]; }\npermit (r0 == 0) as a;", 2, 23,
     {"expected one of .cta, .gpu, .sys", "found 'cluster'"}},
    {"LoadWithRelease", ".global x;\nd0.b0.t0 { ld.release.gpu r0, [x]; }\npermit (r0 == 0) as a;", 2, 15,
     {"expected one of .weak, .volatile, .relaxed, .acquire, .nc after 'ld'", "found 'release'"}},
    {"StoreWithAcquire", ".global x;\nd0.b0.t0 { st.acquire.gpu [x], 1; }\npermit (1 == 1) as a;", 2, 15,
     {"expected one of .weak, .volatile, .relaxed, .release after 'st'"}},
    {"NcWithScope", ".global x;\nd0.b0.t0 { ld.nc.gpu r0, [x]; }\npermit (r0 == 0) as a;", 2, 18,
     {"illegal: .nc accesses have no scope"}},
    {"NcSpins", ".global x;\nd0.b0.t0 { ld.nc r0, [x] until 1; }\npermit (r0 == 0) as a;", 2, 26,
     {"'until' spins on a generic load (ld); ld.nc cannot spin"}},
    {"SurfaceLoadNc", ".global x;\nd0.b0.t0 { suld.nc r0, [x]; }\npermit (r0 == 0) as a;", 2, 17,
     {"expected one of .weak, .volatile, .relaxed, .acquire after 'suld'", "found 'nc'"}},
    {"InitialWithoutValue", ".global x = ;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 == 0) as a;", 1, 13, {"expected an integer (the location's initial value)"}},
    {"AliasWithValue", ".global x;\n.global y physically aliases x = 2;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 == 0) as a;", 2, 32, {"expected ';'", "found '='"}},
    {"BarrierWithoutSync", ".global x;\nd0.b0.t0 { bar.cta 1; }\npermit (1 == 1) as a;", 2, 20, {"expected .sync after 'bar.cta'"}},
    {"BarrierIdTooLarge", ".global x;\nd0.b0.t0 { bar.cta.sync 16; }\npermit (1 == 1) as a;", 2, 25, {"a CTA barrier's id is 0..15"}},
    {"BarrierCount", ".global x;\nd0.b0.t0 { bar.cta.sync 1, 64; }\npermit (1 == 1) as a;", 2, 28,
     {"expected 'id R'", "thread-count operand is not in"}},
    {"BarrierQuorumZero", ".global x;\nd0.b0.t0 { bar.cta.sync 1, id 2, quorum 0; }\npermit (1 == 1) as a;", 2, 41,
     {"a quorum is 1..64 threads, not 0"}},
    {"BarrierIdUnsetRegister", ".global x;\nd0.b0.t0 { bar.cta.sync 1, id r4; }\npermit (1 == 1) as a;", 2, 31,
     {"register r4 is read but no earlier load"}},
    {"NoSuchLabel", ".global x;\nd0.b0.t0 { ld r0, [x]; beq r0, 1, L1; }\npermit (r0 == 1) as a;", 2, 35, {"no label 'L1:' in this thread"}},
    {"LabelTwice", ".global x;\nd0.b0.t0 { L1: ld r0, [x]; L1: }\npermit (r0 == 1) as a;", 2, 28, {"label 'L1' appears twice"}},
    {"BranchOnUnsetRegister", ".global x;\nd0.b0.t0 { L1: bne r0, 1, L1; ld r0, [x]; }\npermit (r0 == 1) as a;", 2, 20,
     {"register r0 is read but no earlier load"}},
    {"RedExchange", ".global x;\nd0.b0.t0 { red.exch [x], 1; }\npermit (1 == 1) as a;", 2, 16, {"expected .add (the one operation of red"}},
    {"CasWithoutNew", ".global x;\nd0.b0.t0 { atom.cas r0, [x], 1; }\npermit (1 == 1) as a;", 2, 31, {"expected ','"}},
    {"TextureLoadWithSem", ".global x;\nd0.b0.t0 { tld.acquire.gpu r0, [x]; }\npermit (r0 == 0) as a;", 2, 16,
     {"expected .weak after 'tld'", "found 'acquire'"}},
    {"ConstantLoadWithScope", ".global x;\nd0.b0.t0 { ldc.weak.sys r0, [x]; }\npermit (r0 == 0) as a;", 2, 21,
     {"illegal: .weak accesses have no scope"}},
    {"AtomVolatile", ".global x;\nd0.b0.t0 { atom.add.volatile r0, [x], 1; }\npermit (r0 == 0) as a;", 2, 21,
     {"expected one of .relaxed, .acquire, .release, .acq_rel after 'atom.add'", "found 'volatile'"}},
    {"AtomOtherOperation", ".global x;\nd0.b0.t0 { atom.min r0, [x], 1; }\npermit (r0 == 0) as a;", 2, 17,
     {"expected .add, .exch or .cas", "found 'min'"}},
    {"RedWithARegister", ".global x;\nd0.b0.t0 { red.add r0, [x], 1; }\npermit (1 == 1) as a;", 2, 20,
     {"expected an address in brackets", "found 'r0'"}},
    {"FenceWithoutScope", ".global x;\nd0.b0.t0 { fence.sc; }\npermit (1 == 1) as a;", 2, 20,
     {"expected .cta, .gpu or .sys", "fence.sc needs a scope"}},
    {"FenceOtherSem", ".global x;\nd0.b0.t0 { fence.release.gpu; }\npermit (1 == 1) as a;", 2, 18,
     {"expected one of .sc, .acq_rel, .proxy, .alias after 'fence'", "found 'release'"}},
    {"UnknownProxyFence", ".global x;\nd0.b0.t0 { fence.proxy.tensormap; }\npermit (1 == 1) as a;", 2, 24,
     {"expected one of .alias, .texture, .surface, .constant, .generic", "found 'tensormap'"}},
    {"UnknownInstruction", ".global x;\nd0.b0.t0 { mov r0, 1; }\npermit (1 == 1) as a;", 2, 12,
     {"expected an instruction (ld,", "found 'mov'"}},
    {"ThreadWithoutBlock", ".global x;\nd0 { st [x], 1; }\npermit (1 == 1) as a;", 2, 4,
     {"expected .b<N>", "dD.bB.tT", "found '{'"}},
    {"ThreadWithoutLane", ".global x;\nd0.b0 { st [x], 1; }\npermit (1 == 1) as a;", 2, 7,
     {"expected .t<N>", "found '{'"}},
    {"ThreadNumberTooBig", ".global x;\nd99999999999.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;", 2, 1,
     {"number too big", "d99999999999"}},
    {"DuplicateThread", ".global x;\nd0.b0.t0 { st [x], 1; }\nd0.b0.t0 { st [x], 2; }\npermit (1 == 1) as a;", 3, 1,
     {"thread d0.b0.t0 appears twice"}},
    {"EmptyThread", ".global x;\nd0.b0.t0 { }\npermit (1 == 1) as a;", 2, 12, {"expected an instruction", "found '}'"}},
    {"EndOfFileInAThread", ".global x;\nd0.b0.t0 {\n  st [x], 1;\n", 4, 1,
     {"expected an instruction", "or '}'", "found the end of the file"}},
    {"ExtraClosingBrace", ".global x;\nd0.b0.t0 { st [x], 1; } }\npermit (1 == 1) as a;", 2, 25,
     {"expected a thread dD.bB.tT, a filter or a command", "found '}'"}},
    {"DeclarationAfterAThread", ".global x;\nd0.b0.t0 { st [x], 1; }\n.global y;\npermit (1 == 1) as a;", 3, 1,
     {"expected a thread dD.bB.tT, a filter or a command (permit, assert, check)", "found '.'"}},
    {"StrayCharacter", ".global x;\nd0.b0.t0 { st [x], 1; @ }\npermit (1 == 1) as a;", 2, 23, {"unexpected character '@'"}},
    {"ControlCharacter", ".global x;\n\x01", 2, 1, {"unexpected character byte 0x01"}},
    {"HoleInAPlainFile", ".global x;\nd0.b0.t0 { st [x], $0; }\npermit (1 == 1) as a;", 2, 20, {"unexpected character '$'"}},
    {"IntegerTooBig", ".global x;\nd0.b0.t0 { st [x], 4294967296; }\npermit (1 == 1) as a;", 2, 20,
     {"integer too big", "4294967295"}},
    {"ExpectedValueTooBig", ".global x;\nd0.b0.t0 { ld r0, [x] == 99999999999999999999999; }\npermit (1 == 1) as a;", 2, 26,
     {"integer too big"}},
    {"RegisterSetTwice", ".global x;\nd0.b0.t0 { ld r0, [x]; }\nd0.b1.t0 { ld r0, [x]; }\npermit (r0 == 0) as a;", 3, 15,
     {"register r0 is set twice"}},
    {"AtomicReadsItsOwnResult", ".global x;\nd0.b0.t0 { atom.add r0, [x], r0; }\npermit (r0 == 0) as a;", 2, 30,
     {"register r0 is read but no earlier load or atom of this thread sets it"}},
    {"StoreOfAnotherThreadsRegister",
     ".global x;\n.global y;\nd0.b0.t0 { ld r0, [x]; }\nd0.b1.t0 { st [y], r0; }\npermit (r0 == 0) as a;", 4, 20,
     {"register r0 is read but no earlier load or atom of this thread sets it"}},
    {"ConditionOnAnUnsetRegister", ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r7 == 0) as a;", 3, 9,
     {"register r7 is read but no load or atom sets it"}},
    {"NoCommand", ".global x;\nd0.b0.t0 { st [x], 1; }\n", 3, 1,
     {"expected a thread dD.bB.tT, a filter or a command (permit, assert, check)", "found the end of the file"}},
    {"DuplicateCommandName", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;\nassert (1 == 1) as a;", 4, 20,
     {"command name 'a' is used twice"}},
    {"CommandWithoutSemicolon", ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 == 1) as a", 3, 22,
     {"expected ';'", "found the end of the file"}},
    {"CommandWithoutName", ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 == 1) as ;", 3, 21,
     {"expected a name for the command", "found ';'"}},
    {"ComparisonWithoutOperator", ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0) as a;", 3, 11,
     {"expected '==' or '!='", "found ')'"}},
    {"UnbalancedParenthesis", ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit ((r0 == 1) as a;", 3, 19,
     {"expected '&&', '||' or ')'", "found 'as'"}},
    {"SingleEquals", ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 = 1) as a;", 3, 12, {"expected '==' or '!=', found '='"}},
    {"CommandThenThread", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit (1 == 1) as a;\nd0.b1.t0 { st [x], 2; }", 4, 1,
     {"expected a command (permit, assert, check) or the end of the file", "found 'd0'"}},
    // Templates: a position in the template reports the template's place, one in a parameter the
    // parameter's place in its row; both name the row.
    {"TemplateRowLacksAParameter", R"(.global x;
d0.b0.t0 { st [x], $0; ld r0, [x]; }
permit (r0 == $1) as a;
$$
1 | 1
  2
)",
     6, 3, {"the template uses $1", "the row has 1 parameter", "(template row 1)"}},
    {"ErrorInsideATemplateParameter", R"(.global x;
d0.b0.t0 { $0 [x], 1; ld r0, [x]; }
permit (r0 == 1) as a;
$$
st
st.release.gpu
   st.acquire.gpu   | 2
)",
     7, 7, {"expected one of .weak, .volatile, .relaxed, .release after 'st'", "(template row 2)"}},
    {"TemplateParameterTooBig", R"(.global x;
d0.b0.t0 { st [x], $0; }
permit (1 == 1) as a;
$$
1
# 2
 4294967296
)",
     7, 2, {"integer too big", "(template row 1)"}},
    {"ErrorInTheTemplateText", R"(.global x;
d0.b0.t0 { st [x], $0; ld r0 [x]; }
permit (r0 == 1) as a;
$$
12345
)",
     2, 30, {"expected ','", "found '['", "(template row 0)"}},
    {"HoleInAParameterIsNotSubstituted", R"(.global x;
d0.b0.t0 { st [x], $0; }
permit (1 == 1) as a;
$$
$1 | 2
)",
     5, 1, {"unexpected character '$'", "(template row 0)"}},
    {"TemplateEndsInAThread", R"(.global x;
d0.b0.t0 { st [x], $0;
$$
1
)",
     3, 1, {"expected an instruction", "found the end of the template", "(template row 0)"}},
    {"SecondDollarLine", ".global x;\nd0.b0.t0 { st [x], $0; }\npermit (1 == 1) as a;\n$$\n1\n  $$\n2\n", 6, 3,
     {"a second $$ line"}},
    {"FinalValueOfAnUnknownAddress", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit ([z] == 1) as a;", 3, 10,
     {"unknown address 'z'"}},
    {"FinalValueOfSharedMemory", ".shared s;\nd0.b0.t0 { st [s], 1; }\npermit ([s] == 1) as a;", 3, 9,
     {"[s]: a .shared address has no one final value"}},
    {"FinalValueWithoutBracket", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit ([x == 1) as a;", 3, 12,
     {"expected ']'", "found '=='"}},
    {"TemplateWithoutRows", ".global x;\nd0.b0.t0 { st [x], $0; }\npermit (1 == 1) as a;\n$$\n# only a comment\n\n", 4, 1,
     {"expected rows", "after $$"}},
    {"CaseNameOfOnePart", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit ([x] == 1) as a case rmw;", 3, 24,
     {"a case name has a family and an axis at least"}},
    {"CaseNameOfALitmusRow", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit ([x] == 1) as a case litmus.t.a;", 3, 24,
     {"is not a litmus row's name"}},
    {"CaseNameInCapitals", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit ([x] == 1) as a case alias.Rmw;", 3, 35,
     {"lowercase letters, digits and '_'", "'Rmw'"}},
    {"CaseNameCutShort", ".global x;\nd0.b0.t0 { st [x], 1; }\npermit ([x] == 1) as a case alias.;", 3, 35,
     {"expected the case's dotted name", "found ';'"}},
};

INSTANTIATE_TEST_SUITE_P(LitmusParser, LitmusParserMalformed, testing::ValuesIn(kMalformed),
                         [](const testing::TestParamInfo<Malformed>& p) { return std::string(p.param.name); });

TEST(LitmusParser, DeepNestingIsAnErrorNotACrash) {
  std::string nots;
  for (int i = 0; i < 150; ++i) nots += "not ";
  const std::string text = ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (" + nots + "r0 == 1) as a;";
  try {
    parse_text(text, "deep.test");
    FAIL() << "parsed";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 9 + 4 * 101);  // the 102nd `not`: one past the limit of 100 levels
    EXPECT_NE(std::string(e.what()).find("nested too deeply"), std::string::npos);
  }
}

// A test larger than the model decides (64 events; an atom two) is refused at the instruction past the
// limit, whatever command reads the file: one line, file:line, no work done with it.
TEST(LitmusParser, ATestOfMoreThan64EventsIsRefusedWhereItPassesTheLimit) {
  std::string text = ".global x;\n";
  for (int t = 0; t < 40; ++t) text += "d0.b" + std::to_string(t) + ".t0 { st [x], 1; }\n";  // 40 events, lines 2-41
  text += "d0.b40.t0 {\n";
  for (int i = 0; i < 12; ++i) text += "  red.add [x], 1;\n";  // lines 43-54: 64 events in all
  text += "}\npermit (1 == 1) as a;\n";
  EXPECT_NO_THROW(parse_text(text, "big.test"));
  text.insert(text.find("}\npermit"), "  ld r0, [x];\n");  // line 55: the 65th
  try {
    parse_text(text, "big.test");
    FAIL() << "parsed";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 55) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than 64 events in the test"), std::string::npos) << e.what();
  }
}

TEST(LitmusParser, LongConditionsParse) {
  std::string condition = "r0 == 0";
  for (int i = 0; i < 2000; ++i) condition += " && r0 == 0";
  lt::Expr e = condition_of(condition);
  EXPECT_EQ(e.kind, Kind::And);
}

// --- Files ---

TEST(LitmusParser, ParseFileReadsAFile) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "litmus_parser_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "CoRR.test").string();
  {
    std::ofstream out(path);
    out << ".global x;\nd0.b0.t0 { st [x], 1; }\nd0.b1.t0 { ld r0, [x]; ld r1, [x]; }\n"
           "permit (r0 == 1 && r1 == 0) as reorder;\n";
  }
  File file = parse_file(path);
  EXPECT_EQ(file.path, path);
  ASSERT_EQ(file.rows.size(), 1u);
  EXPECT_EQ(file.rows[0].name, "CoRR.reorder");
  EXPECT_EQ(file.rows[0].file, path);
  EXPECT_EQ(file.rows[0].line, 4);
  std::filesystem::remove_all(dir);
}

TEST(LitmusParser, ParseFileOfAnUnreadablePathThrows) {
  const std::string missing = testing::TempDir() + "/no/such/dir/x.test";
  EXPECT_THROW(parse_file(missing), std::runtime_error);
  try {
    parse_file(missing);
  } catch (const ParseError&) {
    ADD_FAILURE() << "a file that cannot be read is no parse error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos);
  }
  EXPECT_THROW(parse_file(testing::TempDir()), std::runtime_error);  // a directory
}

}  // namespace
}  // namespace vmmcheck::litmus
