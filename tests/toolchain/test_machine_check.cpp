// The machine-code check (harness/toolchain/machine_check.hpp) on hand-made SASS listings in nvdisasm's
// --print-line-info form: each listing is what ptxas might emit for the message-passing kernel below,
// intact or with one operation lost, merged, reordered, weakened or its fence dropped.
#include <gtest/gtest.h>

#include <string>

#include "codegen/generator.hpp"
#include "toolchain/listing.hpp"
#include "toolchain/machine_check.hpp"

namespace {

using namespace vmmcheck;
using patterns::litmus::Level;
using patterns::litmus::Op;
using patterns::litmus::OpKind;
using patterns::litmus::Sem;

codegen::Site site(unsigned thread, unsigned index, unsigned line, OpKind kind, Sem sem, Level scope, int location,
                   const std::string& text, bool reads = true) {
  codegen::Site s;
  s.thread = thread;
  s.index = index;
  s.line = line;
  s.text = text;
  s.op.kind = kind;
  s.op.sem = sem;
  s.op.scope = scope;
  s.op.address = location;
  if (reads && kind != OpKind::Store) s.op.reg = "r" + std::to_string(index);
  s.location = location;
  return s;
}

// MP: T0 st x; st.release.gpu flag. T1 ld x; ld.acquire.gpu flag; ld x. (x is word 0, flag word 1.)
codegen::Kernel mp_kernel() {
  codegen::Kernel k;
  k.name = "mp";
  k.sites = {site(0, 0, 20, OpKind::Store, Sem::Weak, Level::Thread, 0, "st.weak x, 1"),
             site(0, 1, 22, OpKind::Store, Sem::Release, Level::Gpu, 1, "st.release.gpu flag, 1"),
             site(1, 0, 10, OpKind::Load, Sem::Weak, Level::Thread, 0, "ld.weak r0, x"),
             site(1, 1, 12, OpKind::Load, Sem::Acquire, Level::Gpu, 1, "ld.acquire.gpu r1, flag"),
             site(1, 2, 14, OpKind::Load, Sem::Weak, Level::Thread, 0, "ld.weak r2, x")};
  return k;
}

// One instruction a line, "<source line> <opcode and operands>", offsets counted up from 0x100.
std::string listing(const std::vector<std::pair<int, std::string>>& code, const std::string& name = "mp") {
  std::string s = "\t.section\t.text." + name + ",\"ax\",@progbits\n.text." + name + ":\n";
  unsigned offset = 0x100;
  int line = -1;
  for (const auto& [l, text] : code) {
    if (l != line) s += "\t//## File \"/tmp/mp.cu\", line " + std::to_string(l) + "\n";
    line = l;
    char at[32];
    std::snprintf(at, sizeof at, "        /*%04x*/                   ", offset);
    s += at + text + " ;\n";
    offset += 0x10;
  }
  return s;
}

const std::vector<std::pair<int, std::string>> kIntactReader = {
    {9, "IMAD.MOV.U32 R2, RZ, RZ, c[0x0][0x210]"},
    {10, "LD.E R19, desc[UR10][R18.64]"},
    {12, "LD.E.STRONG.GPU R11, desc[UR10][R10.64]"},
    {12, "CCTL.IVALL"},
    {14, "LD.E R21, desc[UR10][R18.64]"},
    {15, "STG.E desc[UR10][R16.64], R19"}};
const std::vector<std::pair<int, std::string>> kIntactWriter = {
    {20, "ST.E desc[UR10][R10.64], R19"},
    {22, "MEMBAR.ALL.GPU"},
    {22, "ERRBAR"},
    {22, "CGAERRBAR"},
    {22, "ST.E.STRONG.GPU desc[UR10][R16.64], R19"}};

std::vector<std::pair<int, std::string>> both(std::vector<std::pair<int, std::string>> reader,
                                              const std::vector<std::pair<int, std::string>>& writer = kIntactWriter) {
  reader.insert(reader.end(), writer.begin(), writer.end());
  return reader;
}

toolchain::MachineCheck check(const std::vector<std::pair<int, std::string>>& code, const codegen::Kernel& k = mp_kernel()) {
  return toolchain::check_machine_code(k, toolchain::read_sass(listing(code)), 0, ".cu");
}

TEST(MachineCheck, IntactCodeHasNoFinding) {
  const toolchain::MachineCheck c = check(both(kIntactReader));
  EXPECT_TRUE(c.function_found);
  EXPECT_TRUE(c.intact()) << (c.findings.empty() ? "" : c.findings.front().detail);
  EXPECT_EQ(c.copies, 1u);
}

TEST(MachineCheck, AnotherFunctionIsNotFound) {
  const auto c = toolchain::check_machine_code(mp_kernel(), toolchain::read_sass(listing(both(kIntactReader), "other")));
  EXPECT_FALSE(c.function_found);
  EXPECT_FALSE(c.intact());
}

TEST(MachineCheck, ADroppedReloadIsMergedWithTheEarlierLoad) {
  // ptxas 13.0 -O3 on the shipped alias_mp rows: the second load of x is gone, r2 takes r0's register.
  auto reader = kIntactReader;
  reader.erase(reader.begin() + 4);
  const toolchain::MachineCheck c = check(both(reader));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Merged);
  EXPECT_EQ(c.findings[0].site.text, "ld.weak r2, x");
  EXPECT_NE(c.findings[0].detail.find("ld.weak r0, x"), std::string::npos);
  EXPECT_FALSE(c.findings[0].context.empty());
}

TEST(MachineCheck, ADroppedStoreIsLost) {
  auto writer = kIntactWriter;
  writer.erase(writer.begin());
  const toolchain::MachineCheck c = check(both(kIntactReader, writer));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Lost);
  EXPECT_EQ(c.findings[0].site.text, "st.weak x, 1");
}

TEST(MachineCheck, AStoreMovedBelowTheReleaseIsReordered) {
  const std::vector<std::pair<int, std::string>> writer = {
      {22, "MEMBAR.ALL.GPU"}, {22, "ST.E.STRONG.GPU desc[UR10][R16.64], R19"}, {20, "ST.E desc[UR10][R10.64], R19"}};
  const toolchain::MachineCheck c = check(both(kIntactReader, writer));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Reordered);
  EXPECT_EQ(c.findings[0].site.text, "st.release.gpu flag, 1");
}

TEST(MachineCheck, ALoadHoistedAboveTheAcquireIsReordered) {
  const std::vector<std::pair<int, std::string>> reader = {{10, "LD.E R19, desc[UR10][R18.64]"},
                                                           {14, "LD.E R21, desc[UR10][R18.64]"},
                                                           {12, "LD.E.STRONG.GPU R11, desc[UR10][R10.64]"},
                                                           {12, "CCTL.IVALL"}};
  const toolchain::MachineCheck c = check(both(reader));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Reordered);
  EXPECT_EQ(c.findings[0].site.text, "ld.weak r2, x");
}

TEST(MachineCheck, TwoPlainAccessesToDifferentWordsMaySwap) {
  // The model orders neither way a weak load of x and a weak load of y: ptxas may swap them.
  codegen::Kernel k;
  k.name = "mp";
  k.sites = {site(0, 0, 10, OpKind::Load, Sem::Weak, Level::Thread, 0, "ld.weak r0, x"),
             site(0, 1, 11, OpKind::Load, Sem::Weak, Level::Thread, 1, "ld.weak r1, y")};
  const toolchain::MachineCheck c = check({{11, "LD.E R3, desc[UR4][R4.64]"}, {10, "LD.E R2, desc[UR4][R2.64]"}}, k);
  EXPECT_TRUE(c.intact());
  // The same word: coherence orders them.
  k.sites[1].location = 0;
  EXPECT_EQ(check({{11, "LD.E R3, desc[UR4][R4.64]"}, {10, "LD.E R2, desc[UR4][R2.64]"}}, k).findings.size(), 1u);
}

TEST(MachineCheck, AReleaseWithoutItsFenceIsWeakened) {
  const std::vector<std::pair<int, std::string>> writer = {{20, "ST.E desc[UR10][R10.64], R19"},
                                                           {22, "ST.E.STRONG.GPU desc[UR10][R16.64], R19"}};
  const toolchain::MachineCheck c = check(both(kIntactReader, writer));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Weakened);
  EXPECT_NE(c.findings[0].detail.find("MEMBAR"), std::string::npos);
}

TEST(MachineCheck, AnAcquireWithoutItsInvalidationIsWeakened) {
  auto reader = kIntactReader;
  reader.erase(reader.begin() + 3);  // CCTL.IVALL
  const toolchain::MachineCheck c = check(both(reader));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Weakened);
  EXPECT_NE(c.findings[0].detail.find("CCTL.IVALL"), std::string::npos);
}

TEST(MachineCheck, ANarrowerScopeIsWeakenedAndAWiderOneIsFine) {
  auto reader = kIntactReader;
  reader[2].second = "LD.E.STRONG.SM R11, desc[UR10][R10.64]";
  auto c = check(both(reader));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Weakened);
  reader[2].second = "LD.E.STRONG.SYS R11, desc[UR10][R10.64]";
  EXPECT_TRUE(check(both(reader)).intact());
  // A plain load where a strong one is needed.
  reader[2].second = "LD.E R11, desc[UR10][R10.64]";
  EXPECT_EQ(check(both(reader)).findings.at(0).problem, toolchain::Problem::Weakened);
}

TEST(MachineCheck, TheCodeIsHeldToThePtxNotToTheLitmusText) {
  // A generator that emitted st.relaxed for the file's st.release: the machine code keeps the PTX it was
  // given, so the compiler is blameless (what the GPU then shows is a Fail, the generator's).
  codegen::Kernel k = mp_kernel();
  k.sites[1].ptx = "st.relaxed.gpu.u32";
  const std::vector<std::pair<int, std::string>> writer = {{20, "ST.E desc[UR10][R10.64], R19"},
                                                           {22, "ST.E.STRONG.GPU desc[UR10][R16.64], R19"}};
  EXPECT_TRUE(check(both(kIntactReader, writer), k).intact());
  // And the PTX's release is held to its MEMBAR whatever the litmus text says.
  k.sites[1].ptx = "st.release.gpu.u32";
  k.sites[1].op.sem = Sem::Relaxed;
  EXPECT_EQ(check(both(kIntactReader, writer), k).findings.at(0).problem, toolchain::Problem::Weakened);
}

TEST(MachineCheck, AFenceDroppedIsLost) {
  codegen::Kernel k = mp_kernel();
  k.sites.insert(k.sites.begin() + 1, site(0, 1, 21, OpKind::FenceSc, Sem::Weak, Level::Gpu, -1, "fence.sc.gpu", false));
  k.sites[2].index = 2;
  auto writer = kIntactWriter;
  writer.insert(writer.begin() + 1, {{21, "MEMBAR.SC.GPU"}, {21, "CCTL.IVALL"}});
  EXPECT_TRUE(check(both(kIntactReader, writer), k).intact());
  const toolchain::MachineCheck c = check(both(kIntactReader, kIntactWriter), k);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Lost);
  EXPECT_EQ(c.findings[0].site.text, "fence.sc.gpu");
  // fence.sc needs MEMBAR.SC: a MEMBAR.ALL is weaker.
  writer[1].second = "MEMBAR.ALL.GPU";
  EXPECT_EQ(check(both(kIntactReader, writer), k).findings.at(0).problem, toolchain::Problem::Weakened);
}

TEST(MachineCheck, TheAliasFencesTwoLaidOutMembarsCountOnce) {
  // fence.proxy.alias as ptxas 13.0 emits it: MEMBAR.SC.GPU or .SYS, picked at run time, then CCTL.IVALL.
  codegen::Kernel k;
  k.name = "mp";
  k.sites = {site(0, 0, 30, OpKind::AliasFence, Sem::Weak, Level::Thread, -1, "fence.proxy.alias", false)};
  const toolchain::MachineCheck c = check({{30, "BRA.U !UP0, `(.L_x_0)"}, {30, "MEMBAR.SC.GPU"}, {30, "BRA.U UP0, `(.L_x_1)"},
                                           {30, "MEMBAR.SC.SYS"}, {30, "CCTL.IVALL"}},
                                          k);
  EXPECT_TRUE(c.intact()) << (c.findings.empty() ? "" : c.findings.front().detail);
  EXPECT_EQ(c.copies, 1u);
}

TEST(MachineCheck, UnrolledCopiesAreEachChecked) {
  auto reader = kIntactReader;
  auto twice = reader;
  twice.insert(twice.end(), reader.begin(), reader.end());
  toolchain::MachineCheck c = check(both(twice));
  EXPECT_TRUE(c.intact());
  EXPECT_EQ(c.copies, 2u);
  twice.erase(twice.begin() + 10);  // the second copy's reload
  c = check(both(twice));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Merged);
  EXPECT_NE(c.findings[0].detail.find("1 of 2 copies"), std::string::npos);
}

TEST(MachineCheck, LinesOfOtherFilesAreNotTheKernels) {
  // A header's line 14 (stress code inlined) is not the kernel's line 14.
  auto reader = kIntactReader;
  reader.erase(reader.begin() + 4);
  std::string text = listing(both(reader));
  text += "\t//## File \"/tmp/kernels/stress_ops.h\", line 14\n        /*0400*/                   LD.E R30, desc[UR10][R28.64] ;\n";
  const auto c = toolchain::check_machine_code(mp_kernel(), toolchain::read_sass(text), 0, ".cu");
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Merged);
}

TEST(MachineCheck, ALineOffsetShiftsEveryLine) {
  // The kernel compiled with others in one program, 100 lines further down.
  std::vector<std::pair<int, std::string>> code = both(kIntactReader);
  for (auto& [line, text] : code) line += 100;
  EXPECT_TRUE(toolchain::check_machine_code(mp_kernel(), toolchain::read_sass(listing(code)), 100).intact());
  EXPECT_FALSE(toolchain::check_machine_code(mp_kernel(), toolchain::read_sass(listing(code)), 0).intact());
}

// alias_same_thread's nc rows: ld.nc r0, [x]; st [x], 1; fence.proxy.alias; ld.nc r1, [x] (x is word 0).
codegen::Kernel nc_kernel() {
  codegen::Kernel k;
  k.name = "mp";
  k.sites = {site(0, 0, 10, OpKind::Load, Sem::Weak, Level::Thread, 0, "ld.nc r0, [x]"),
             site(0, 1, 12, OpKind::Store, Sem::Weak, Level::Thread, 0, "st [x], 1"),
             site(0, 2, 14, OpKind::AliasFence, Sem::Weak, Level::Thread, -1, "fence.proxy.alias", false),
             site(0, 3, 16, OpKind::Load, Sem::Weak, Level::Thread, 0, "ld.nc r1, [x]")};
  for (std::size_t s : {0u, 3u}) {
    k.sites[s].op.proxy = patterns::litmus::Proxy::Texture;
    k.sites[s].op.nc = true;
    k.sites[s].ptx = "ld.global.nc.u32";
  }
  return k;
}

const std::vector<std::pair<int, std::string>> kNcFence = {{14, "MEMBAR.SC.GPU"}, {14, "CCTL.IVALL"}};

TEST(MachineCheck, AnNcLoadIsTheReadOnlyPathOrACoherentLoad) {
  std::vector<std::pair<int, std::string>> code = {{10, "LDG.E.CONSTANT R3, desc[UR4][R2.64]"}, {12, "ST.E desc[UR4][R2.64], R9"}};
  code.insert(code.end(), kNcFence.begin(), kNcFence.end());
  code.push_back({16, "LDG.E.CONSTANT R8, desc[UR4][R2.64]"});
  EXPECT_TRUE(check(code, nc_kernel()).intact());
  code.back() = {16, "LDG.E R8, desc[UR4][R2.64]"};  // coherent: stronger than asked
  EXPECT_TRUE(check(code, nc_kernel()).intact());
}

TEST(MachineCheck, TwoNcLoadsOfOneWordMergedAcrossAStoreAndAnAliasFenceIsAnElision) {
  // ptxas 13.0 -O3 on alias_same_thread's nc rows: the second LDG.E.CONSTANT is gone. The store and the
  // alias fence between order nothing before a texture-proxy read, so the model allows r1 = r0.
  std::vector<std::pair<int, std::string>> code = {{10, "LDG.E.CONSTANT R3, desc[UR4][R2.64]"}, {12, "ST.E desc[UR4][R2.64], R9"}};
  code.insert(code.end(), kNcFence.begin(), kNcFence.end());
  const toolchain::MachineCheck c = check(code, nc_kernel());
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Elided);
  EXPECT_EQ(c.findings[0].site.text, "ld.nc r1, [x]");
  EXPECT_FALSE(c.breaks_model());
}

TEST(MachineCheck, APlainLoadOnTheReadOnlyPathIsNotALoad) {
  // A weak ld compiled to LDG.E.CONSTANT would read non-coherently: the plain load is not there.
  auto reader = kIntactReader;
  reader[1] = {10, "LDG.E.CONSTANT R19, desc[UR10][R18.64]"};
  const toolchain::MachineCheck c = check(both(reader));
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].site.text, "ld.weak r0, x");
  EXPECT_TRUE(c.breaks_model());
}

// Dat3M's Proxy-MP-sur-sur-no-proxyFence at -O3 (ptxas 13.0): the writer's SUST sinks below the
// release's MEMBAR and store. The release orders the surface store for a surface reader of its CTA.
TEST(MachineCheck, ASurfaceStoreSunkBelowARelease) {
  codegen::Kernel k;
  k.name = "mp";
  k.sites = {site(0, 0, 20, OpKind::Store, Sem::Weak, Level::Thread, 0, "sust [s], 2"),
             site(0, 1, 22, OpKind::Store, Sem::Release, Level::Cta, 1, "st.release.cta [flag], 1")};
  k.sites[0].op.proxy = patterns::litmus::Proxy::Surface;
  const std::vector<std::pair<int, std::string>> kept = {
      {20, "SUST.D.BA.2D.STRONG.SM.TRAP [R20], R26, UR4, 0x0"}, {22, "MEMBAR.ALL.CTA"}, {22, "ST.E.STRONG.SM desc[UR10][R18.64], R11"}};
  EXPECT_TRUE(check(kept, k).intact());
  const std::vector<std::pair<int, std::string>> sunk = {
      {22, "MEMBAR.ALL.CTA"}, {22, "ST.E.STRONG.SM desc[UR10][R18.64], R11"}, {20, "SUST.D.BA.2D.STRONG.SM.TRAP [R20], R26, UR4, 0x0"}};
  const toolchain::MachineCheck c = check(sunk, k);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].problem, toolchain::Problem::Reordered);
  EXPECT_TRUE(c.breaks_model());
}

// barrier.cta.sync (not .aligned): a BAR.SYNC for a converged warp and one behind WARPSYNC.COLLECTIVE for
// a diverged one, side by side -- one operation, not two copies of the thread's code.
TEST(MachineCheck, ABarriersTwoBarSyncsAreOneOperation) {
  codegen::Kernel k;
  k.name = "mp";
  k.sites = {site(0, 0, 20, OpKind::Store, Sem::Weak, Level::Thread, 0, "st [x], 1"),
             site(0, 1, 22, OpKind::Barrier, Sem::Weak, Level::Cta, -1, "bar.cta.sync 1", false)};
  const std::vector<std::pair<int, std::string>> code = {{20, "ST.E desc[UR4][R2.64], R5"},
                                                         {22, "BAR.SYNC.DEFER_BLOCKING 0x2"},
                                                         {22, "WARPSYNC.COLLECTIVE.ALL `(.L_x_2)"},
                                                         {22, "BAR.SYNC.DEFER_BLOCKING R11, R11"}};
  const toolchain::MachineCheck c = check(code, k);
  EXPECT_TRUE(c.intact()) << (c.findings.empty() ? "" : c.findings.front().detail);
  EXPECT_EQ(c.copies, 1u);
  const std::vector<std::pair<int, std::string>> sunk = {{22, "BAR.SYNC.DEFER_BLOCKING 0x2"}, {20, "ST.E desc[UR4][R2.64], R5"}};
  const toolchain::MachineCheck moved = check(sunk, k);
  ASSERT_EQ(moved.findings.size(), 1u);
  EXPECT_EQ(moved.findings[0].problem, toolchain::Problem::Reordered);
}

TEST(Listing, ReadsSectionsPredicatesAndCuobjdumpsTrailingEncoding) {
  const std::string text =
      "\t.section\t.text.k1,\"ax\",@progbits\n"
      "\t//## File \"/a/k.cu\", line 7 inlined at \"/a/k.cu\", line 9\n"
      "        /*0010*/              @!P0 LD.E.STRONG.GPU R5, desc[UR10][R4.64] ;  /* 0x000000040405c981 */\n"
      ".L_x_1:\n"
      "        /*0020*/                   EXIT ;\n"
      "\t.section\t.text.k2,\"ax\",@progbits\n"
      "        /*0000*/                   NOP ;\n";
  const auto fns = toolchain::read_sass(text);
  ASSERT_EQ(fns.size(), 2u);
  EXPECT_EQ(fns[0].name, "k1");
  ASSERT_EQ(fns[0].code.size(), 2u);
  EXPECT_EQ(fns[0].code[0].predicate, "@!P0");
  EXPECT_EQ(fns[0].code[0].opcode, "LD.E.STRONG.GPU");
  EXPECT_EQ(fns[0].code[0].operands, "R5, desc[UR10][R4.64]");
  EXPECT_EQ(fns[0].code[0].line, 7);
  EXPECT_EQ(fns[0].code[0].file, "/a/k.cu");
  EXPECT_EQ(fns[0].code[0].offset, 0x10u);
  EXPECT_EQ(fns[1].code.size(), 1u);
  EXPECT_EQ(fns[1].code[0].line, 0);
}

TEST(Listing, ReadsPtxWithItsLocLines) {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n\t.loc\t1 95 9\n\t// begin inline asm\n\tld.u32 %r422, [%rd333];\n"
      "\t// end inline asm\n\t.loc\t1 97 9\n\t{ .reg .b32 y; tex.1d.v4.u32.s32 {%r1, y, y, y}, [%rd2, {%r3}]; }\n";
  const auto p = toolchain::read_ptx(ptx);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].ptx_line, 5);
  EXPECT_EQ(p[0].source_line, 95);
  EXPECT_EQ(p[0].text, "ld.u32 %r422, [%rd333]");
  EXPECT_EQ(p[1].source_line, 97);
  codegen::Site s;
  s.line = 95;
  s.ptx = "ld.u32";
  EXPECT_EQ(toolchain::ptx_of(s, p).size(), 1u);
  s.ptx = "tex.1d.v4.u32.s32";
  s.line = 97;
  EXPECT_EQ(toolchain::ptx_of(s, p).size(), 1u);
}

}  // namespace
