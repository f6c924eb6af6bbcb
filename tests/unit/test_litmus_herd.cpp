// herd-style PTX litmus files (harness/litmus/herd.hpp): translated into the language, then read by the one
// parser. The files of tests/litmus/herd/ are ours, written in the format Dat3M's PTX corpus uses.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "litmus/folder.hpp"
#include "litmus/herd.hpp"
#include "litmus/parser.hpp"
#include "litmus/rows.hpp"
#include "model/ptx_model.hpp"

namespace vmmcheck::litmus {
namespace {

namespace fs = std::filesystem;
namespace lt = patterns::litmus;

fs::path herd_dir() { return fs::path(VMMCHECK_SOURCE_DIR) / "tests" / "litmus" / "herd"; }

File herd(const std::string& text) { return parse_herd_text(text, "t.litmus"); }

std::string mp(const std::string& writer_fence, const std::string& assertion) {
  return "PTX t\n\"a description\"\n{\nx = 0;\ny @ generic aliases x;\nflag = 0;\n}\n"
         " P0@cta 0,gpu 0        | P1@cta 1,gpu 0          ;\n"
         " st.weak x, 1          | ld.acquire.gpu r0, flag ;\n"
         " " + writer_fence + "  | ld.weak r1, y           ;\n"
         " st.release.gpu flag, 1|                         ;\n" + assertion + "\n";
}

TEST(HerdFiles, EveryFileOfTheFolderIsReadAndDecidedAsItSays) {
  const std::vector<File> files = parse_paths({herd_dir()});
  ASSERT_EQ(files.size(), 5u);
  for (const File& f : files) {
    ASSERT_EQ(f.rows.size(), 1u) << f.path;
    const RowVerdict v = model_verdict(f.rows[0]);
    EXPECT_TRUE(v.matches) << f.rows[0].name << ": " << v.explanation;
  }
}

TEST(HerdFiles, TheQuantifierIsTheCommand) {
  const File exists = herd(mp("fence.proxy.alias", "exists\n(P1:r0 == 1 /\\ P1:r1 != 1)"));
  ASSERT_EQ(exists.rows.size(), 1u);
  EXPECT_EQ(exists.rows[0].name, "t.exists");
  EXPECT_EQ(exists.rows[0].expect, Expect::Check);
  const File never = herd(mp("fence.proxy.alias", "~exists\n(P1:r0 == 1 /\\ P1:r1 != 1)"));
  EXPECT_EQ(never.rows[0].name, "t.not_exists");
  EXPECT_EQ(never.rows[0].expect, Expect::Assert);
  EXPECT_EQ(never.rows[0].condition.kind, lt::Expr::Kind::Not);
  const File always = herd(mp("fence.proxy.alias", "forall\n(P1:r0 == 0 \\/ P1:r1 == 1)"));
  EXPECT_EQ(always.rows[0].name, "t.forall");
  EXPECT_EQ(always.rows[0].condition.kind, lt::Expr::Kind::Or);
  // The model: with the writer's proxy fence the stale read is forbidden; without it, allowed.
  EXPECT_FALSE(model_verdict(never.rows[0]).isa_allows);
  EXPECT_FALSE(model_verdict(always.rows[0]).isa_allows);
  const File unfenced = herd(mp("                 ", "exists\n(P1:r0 == 1 /\\ P1:r1 != 1)"));
  EXPECT_TRUE(model_verdict(unfenced.rows[0]).isa_allows);
}

TEST(HerdFiles, ThreadsAreLanesOfTheirCtaAndRegistersTheirOwn) {
  const File f = herd(
      "PTX t\n{ x = 0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 1 ;\n"
      " ld.weak r0, x  | ld.weak r0, x  | st.weak x, 1   ;\n"
      "exists (P0:r0 == 1 /\\ P1:r0 == 0)\n");
  const lt::Litmus& t = f.rows[0].test;
  ASSERT_EQ(t.threads.size(), 3u);
  EXPECT_EQ(t.threads[0].name, "d0.b0.t0");
  EXPECT_EQ(t.threads[1].name, "d0.b0.t1");
  EXPECT_EQ(t.threads[2].name, "d1.b1.t0");
  EXPECT_NE(t.threads[0].ops[0].reg, t.threads[1].ops[0].reg);  // P0:r0 and P1:r0 are two registers
  // Its translation says which is which.
  const HerdTranslation h = translate_herd(
      "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld.weak r0, x | ld.weak r0, x ;\nexists (P1:r0 == 1)\n",
      "t.litmus");
  EXPECT_NE(h.text.find("// r0 is P0:r0"), std::string::npos) << h.text;
  EXPECT_NE(h.text.find("// r1 is P1:r0"), std::string::npos) << h.text;
}

TEST(HerdFiles, AMoveIsItsValueWhereTheRegisterIsUsed) {
  const File f = herd("PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld r0, 7 | ld.weak r1, x ;\n"
                      " st.weak x, r0 | ;\nexists (P1:r1 == 7 /\\ P0:r0 == 7)\n");
  const lt::Litmus& t = f.rows[0].test;
  ASSERT_EQ(t.threads[0].ops.size(), 1u);  // the move is no instruction
  EXPECT_EQ(t.threads[0].ops[0].value, 7u);
  EXPECT_TRUE(t.threads[0].ops[0].value_reg.empty());
  EXPECT_TRUE(model_verdict(f.rows[0]).isa_allows);
}

TEST(HerdFiles, ProxyAliasesAreTheLanguagesDeclarations) {
  const HerdTranslation h = translate_herd(
      "PTX t\n{\ny @ generic aliases x;\nx = 0;\ns @ surface aliases y;\nt @ texture aliases x;\nc @ constant aliases x;\n}\n"
      " P0@cta 0,gpu 0 ;\n sust.weak s, 1 ;\n tld.weak r0, t ;\n cold.weak r1, c ;\n ld.weak r2, y ;\n"
      "exists (P0:r0 == 1 /\\ x == 1)\n",
      "t.litmus");
  for (const char* line : {".global x;", ".global y physically aliases x;", ".surfref s virtually aliases y;",
                           ".texref t virtually aliases x;", "sust.weak [s], 1;", "tld.weak r0, [t];", "ldc.weak r1, [x];",
                           "ld.weak r2, [y];", "check (r0 == 1 && [x] == 1) as exists;"})
    EXPECT_NE(h.text.find(line), std::string::npos) << line << " in\n" << h.text;
  EXPECT_EQ(h.text.find("c "), std::string::npos) << "a constant alias declares nothing:\n" << h.text;
  EXPECT_NO_THROW(parse_herd_text(
      "PTX t\n{\ny @ generic aliases x;\nx = 0;\ns @ surface aliases y;\nt @ texture aliases x;\nc @ constant aliases x;\n}\n"
      " P0@cta 0,gpu 0 ;\n sust.weak s, 1 ;\n tld.weak r0, t ;\n cold.weak r1, c ;\n ld.weak r2, y ;\n"
      "exists (P0:r0 == 1 /\\ x == 1)\n",
      "t.litmus"));
}

// Dat3M's SB+bar-const-equal and SB+bar-diff-cta: a CTA barrier of one id between each thread's store and
// load forbids store buffering in one CTA; in two CTAs it orders nothing.
TEST(HerdFiles, ABarrierIsTheLanguagesBarCtaSync) {
  const auto sb = [](int cta1) {
    return "PTX t\n{\nx=0;\ny=0;\n}\n P0@cta 0,gpu 0 | P1@cta " + std::to_string(cta1) +
           ",gpu 0 ;\n st.weak x, 1   | st.weak y, 1   ;\n bar.cta.sync 1 | bar.sync 1     ;\n"
           " ld.weak r0, y  | ld.weak r1, x  ;\nforall\n(P0:r0 == 1 \\/ P1:r1 == 1)\n";
  };
  const HerdTranslation h = translate_herd(sb(0), "t.litmus");
  EXPECT_NE(h.text.find("bar.cta.sync 1;"), std::string::npos) << h.text;
  const File one = herd(sb(0));
  ASSERT_EQ(one.rows.size(), 1u);
  EXPECT_EQ(one.rows[0].test.threads[1].ops[1].kind, lt::OpKind::Barrier);
  EXPECT_TRUE(model_verdict(one.rows[0]).matches) << "one CTA: the assertion holds";
  const RowVerdict two = model_verdict(herd(sb(1)).rows[0]);
  EXPECT_FALSE(two.matches) << "two CTAs: the forall is violable, as Dat3M expects";
}

// Dat3M's LB+RMW-b: a thread with no instruction orders nothing and is left out; the others keep theirs.
TEST(HerdFiles, AThreadWithNoInstructionIsLeftOut) {
  const std::string text =
      "PTX t\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
      " ld.acquire.gpu r0, y | | ld.relaxed.gpu r2, x ;\n st.weak x, 1 | | st.release.gpu y, 1 ;\n"
      "exists (P0:r0 == 1 /\\ P2:r2 == 1)\n";
  const HerdTranslation h = translate_herd(text, "t.litmus");
  EXPECT_NE(h.text.find("// d0.b0.t1: no instruction, left out"), std::string::npos) << h.text;
  const File f = herd(text);
  ASSERT_EQ(f.rows.size(), 1u);
  EXPECT_EQ(f.rows[0].test.threads.size(), 2u);
  EXPECT_FALSE(model_verdict(f.rows[0]).matches) << "load buffering through a release and an acquire: not reachable, as Dat3M expects";
}

// Dat3M's Atom-minus-location_: a location's initial value is the language's `.global x = 2;`.
TEST(HerdFiles, ALocationsInitialValueIsTheLanguages) {
  const std::string text = "PTX t\n{\nx=2;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                           " atom.acq_rel.sys.sub r0, x, 1 | atom.acq_rel.sys.sub r0, x, 1 ;\nforall\n(x == 0)\n";
  EXPECT_NE(translate_herd(text, "t.litmus").text.find(".global x = 2;"), std::string::npos);
  const File f = herd(text);
  ASSERT_EQ(f.rows.size(), 1u);
  EXPECT_EQ(f.rows[0].test.addresses[0].initial, 2u);
  EXPECT_TRUE(model_verdict(f.rows[0]).matches) << "2 - 1 - 1 is 0 in every execution";
}

// Dat3M's named barriers (SB+named-bar-*): `bar.cta.sync 1, R` is the language's `bar.cta.sync 1, id R`;
// a register's initial value stands where the register is read before any instruction sets it.
TEST(HerdFiles, NamedBarriersMeetOnTheirLogicalId) {
  const auto sb = [](const std::string& id0, const std::string& id1) {
    return "PTX t\n{\nx=0; y=0;\nP0:r2=1; P1:r3=2;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n"
           " bar.cta.sync 1, " + id0 + " | bar.cta.sync 1, " + id1 + " ;\n ld.weak r0, y | ld.weak r1, x ;\n"
           "forall\n(P0:r0 == 1 \\/ P1:r1 == 1)\n";
  };
  const HerdTranslation h = translate_herd(sb("r2", "r3"), "t.litmus");
  EXPECT_NE(h.text.find("bar.cta.sync 1, id 1;"), std::string::npos) << h.text;
  EXPECT_NE(h.text.find("bar.cta.sync 1, id 2;"), std::string::npos) << h.text;
  EXPECT_FALSE(model_verdict(herd(sb("r2", "r3")).rows[0]).matches) << "ids 1 and 2 do not meet: store buffering is allowed";
  EXPECT_TRUE(model_verdict(herd(sb("r2", "1")).rows[0]).matches) << "ids 1 and 1 meet";
  EXPECT_TRUE(model_verdict(herd(sb("0", "r4")).rows[0]).matches) << "an unset register is 0: ids 0 and 0 meet";
}

// Dat3M's quorum tests: `bar.cta.sync 1, 1, Q` lets threads on once Q of them meet; fewer than Q threads
// never complete it, so no execution reaches the condition.
TEST(HerdFiles, AQuorumIsTheFewestThatMustMeet) {
  const auto quorum = [](int q) {
    return "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
           " st.weak x, 1 | bar.cta.sync 1, 1, " + std::to_string(q) + " | bar.cta.sync 1, 1, " + std::to_string(q) +
           " ;\n bar.cta.sync 1, 1, " + std::to_string(q) + " | ld.weak r0, x | ;\nexists (P1:r0 == 0)\n";
  };
  EXPECT_TRUE(model::ptx::decide(herd(quorum(2)).rows[0].test, herd(quorum(2)).rows[0].condition, model::ptx::Reading::Isa).allowed)
      << "two of three may meet without the writer";
  for (int q : {3, 4}) {
    const File f = herd(quorum(q));
    EXPECT_FALSE(model::ptx::decide(f.rows[0].test, f.rows[0].condition, model::ptx::Reading::Isa).allowed) << "quorum " << q;
  }
}

// atom.cas and atom.exch (Dat3M's LB-dlb and SL-*): a cas writes only when it reads what it compares with;
// a spin loop on a cas's failure (`bne r, expected, L`) is its last iteration.
TEST(HerdFiles, CasExchAndLoopsAreTheLanguages) {
  const std::string lock =
      "PTX t\n{\nx=0; m=1;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | LC00: ;\n"
      " atom.release.gpu.exch r0, m, 0 | atom.acquire.gpu.cas r1, m, 0, 1 ;\n | bne r1, 0, LC00 ;\n | ld.weak r2, x ;\n"
      "~exists (P1:r2 == 0)\n";
  const HerdTranslation h = translate_herd(lock, "t.litmus");
  for (const char* line : {"atom.exch.release.gpu r0, [m], 0;", "atom.cas.acquire.gpu r1, [m], 0, 1;", "LC00:\n", "bne r1, 0, LC00;"})
    EXPECT_NE(h.text.find(line), std::string::npos) << line << " in\n" << h.text;
  EXPECT_TRUE(model_verdict(herd(lock).rows[0]).matches) << "taking the lock acquires its release";
  std::string relaxed = lock;
  relaxed.replace(relaxed.find("atom.acquire.gpu.cas"), 20, "atom.relaxed.gpu.cas");
  EXPECT_FALSE(model_verdict(herd(relaxed).rows[0]).matches) << "a relaxed cas acquires nothing";
}

// Dat3M's MP-dlb: a forward branch skips what it jumps over; `add r, r, 1` is a sum a store writes.
TEST(HerdFiles, AForwardBranchAndASum) {
  const std::string text =
      "PTX t\n{\nt=0; d=0;\nP1:r3=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu d, 1 | ld.weak r0, t ;\n"
      " fence.sc.gpu | beq r0, r3, LC00 ;\n ld.weak r2, t | fence.sc.gpu ;\n add r2, r2, 1 | ld.relaxed.gpu r1, d ;\n"
      " st.weak t, r2 | LC00: ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
  const HerdTranslation h = translate_herd(text, "t.litmus");
  for (const char* line : {"beq r", ", 0, LC00;", "st.weak [t], r", " + 1;"}) EXPECT_NE(h.text.find(line), std::string::npos) << line << " in\n" << h.text;
  const File f = herd(text);
  EXPECT_FALSE(model::ptx::decide(f.rows[0].test, f.rows[0].condition, model::ptx::Reading::Isa).allowed)
      << "the branch is not taken only when r0 is 1, and then the fences order d before r1";
}

// herd's filter: only executions satisfying it count. Message passing through a release and an acquire,
// judged only where the reader saw the flag: then it sees the data.
TEST(HerdFiles, AFilterIsTheLanguagesFilter) {
  const std::string text =
      "PTX t\n{\nx=0; f=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, f ;\n"
      " st.release.gpu f, 1 | ld.weak r1, x ;\nfilter (P1:r0 == 1)\nforall (P1:r1 == 1)\n";
  const HerdTranslation h = translate_herd(text, "t.litmus");
  EXPECT_NE(h.text.find("filter (r0 == 1);"), std::string::npos) << h.text;
  const File f = herd(text);
  ASSERT_EQ(f.rows.size(), 1u);
  ASSERT_EQ(f.rows[0].test.filter.size(), 1u);
  EXPECT_TRUE(model_verdict(f.rows[0]).matches) << "with the filter the forall holds";
  File unfiltered = f;
  unfiltered.rows[0].test.filter.clear();
  EXPECT_FALSE(model_verdict(unfiltered.rows[0]).matches) << "without it, a reader that missed the flag may miss the data";
}

// Dat3M's PC-bar-sync-arrive and red.acq_rel: bar.cta.arrive waits for nothing; red.acq_rel (not PTX) is
// read as Dat3M reads it, an atom that sets no register.
TEST(HerdFiles, ArriveAndRedAcqRel) {
  const std::string arrive =
      "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld.weak r0, x | bar.cta.arrive 1 ;\n"
      " bar.cta.sync 0 | st.weak x, 1 ;\n bar.cta.arrive 1 | bar.cta.sync 0 ;\nexists (P0:r0 == 1)\n";
  const File a = herd(arrive);
  EXPECT_TRUE(model::ptx::decide(a.rows[0].test, a.rows[0].condition, model::ptx::Reading::Isa).allowed);
  const std::string red = "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n red.acq_rel.sys.add x, 1 | red.acq_rel.sys.add x, 1 ;\n"
                          "forall (x == 2)\n";
  EXPECT_TRUE(model_verdict(herd(red).rows[0]).matches) << "both updates land";
}

struct Refused {
  const char* name;
  const char* text;
  bool unsupported;  // a construct the language lacks, not a malformed file
  int line;
  const char* words;
};

void PrintTo(const Refused& r, std::ostream* os) { *os << r.name; }

class HerdRefused : public testing::TestWithParam<Refused> {};

TEST_P(HerdRefused, SaysWhatAndWhere) {
  const Refused& r = GetParam();
  try {
    herd(r.text);
    FAIL() << "read without complaint";
  } catch (const UnsupportedConstruct& e) {
    EXPECT_TRUE(r.unsupported) << e.what();
    EXPECT_EQ(e.line(), r.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(r.words), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not in vmmcheck's litmus language yet"), std::string::npos) << e.what();
  } catch (const ParseError& e) {
    EXPECT_FALSE(r.unsupported) << e.what();
    EXPECT_EQ(e.line(), r.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(r.words), std::string::npos) << e.what();
  }
}

const Refused kRefused[] = {
    {"BarrierQuorumInMemory", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r2, x ;\n bar.cta.sync 1, 1, r2 ;\nexists (x == 1)\n",
     true, 5, "with a quorum read from memory"},
    {"BarrierInstanceInRegister", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n bar.cta.sync r2 ;\nexists (x == 1)\n", true,
     5, "with its instance in a register"},
    {"BarrierReduction", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n bar.cta.red.popc.u32 1 ;\nexists (x == 1)\n", true, 5,
     "bar.cta.sync and bar.cta.arrive are"},
    {"WarpBarrier", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n bar.warp.sync 1 ;\nexists (x == 1)\n", true, 5,
     "bar.cta.sync and bar.cta.arrive are"},
    {"MoveInABranchyThread",
     "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n beq r0, 0, LC00 ;\n ld r1, 7 ;\n LC00: ;\n st.weak x, r1 ;\nexists (x == 7)\n",
     true, 6, "a move or add of registers in a thread with branches"},
    {"SetInitialRegisterInABranchyThread",
     "PTX t\n{\nx = 0;\nP0:r1 = 5;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n beq r0, 0, LC00 ;\n ld.weak r1, x ;\n LC00: ;\n"
     "exists (P0:r1 == 5)\n",
     true, 8, "the initial value of P0:r1, which an instruction of its thread sets"},
    {"BadLabel", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n LC 00: ;\n st.weak x, 1 ;\nexists (x == 1)\n", false, 4, "unknown instruction 'LC 00:'"},
    {"NoSuchLabel", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n goto LC00 ;\nexists (x == 1)\n", false, 5,
     "no label 'LC00:'"},
    {"BranchLessThan", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n blt r0, 1, LC00 ;\n LC00: ;\nexists (x == 1)\n",
     true, 5, "beq, bne and goto are"},
    {"CasWithARegister",
     "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r1, x ;\n atom.relaxed.gpu.cas r0, x, r1, 1 ;\nexists (x == 1)\n", true, 5,
     "atom.cas comparing with a register"},
    {"SumInACondition", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r1, x ;\n add r2, r1, 1 ;\nexists (P0:r2 == 1)\n", true, 6,
     "a condition on a register set by add"},
    {"SumOfRegisters", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r1, x ;\n add r2, r1, r1 ;\nexists (x == 1)\n", true, 5,
     "add of a register and an integer is"},
    {"NoHeader", "{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n", false, 1, "expected 'PTX NAME'"},
    {"BadThread", "PTX t\n{ x = 0; }\n P0@cta 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n", false, 3, "expected 'P0@cta C,gpu G'"},
    {"RowWithoutSemicolon", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1\nexists (x == 1)\n", false, 4, "must end with ';'"},
    {"UnknownInstruction", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n frob x ;\nexists (x == 1)\n", false, 4, "unknown instruction 'frob x'"},
    {"UnclosedComment", "PTX t\n(* no end\n{ x = 0; }\n", false, 2, "never closed"},
    {"NoQuantifier", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n", false, 4, "expected the assertion"},
    // Found by the fuzzer: numbers past any integer type, and a file that starts with blank lines.
    {"HugeInitialValue", "PTX t\n{\nx = 888888888888888888888888888888888888888888;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n",
     true, 3, "(values are 32-bit)"},
    {"HugeCta", "PTX t\n{ x = 0; }\n P0@cta 99999999999999999999,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n", false, 3,
     "CTA 999999999999... is too large"},
    {"HugeThreadInTheCondition", "\n\nPTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (P99999999999999999999:r0 == 1)\n",
     false, 7, "thread 999999999999... is too large"},
    // A line the language refuses in the translation: the herd line it came from, and how it read.
    {"RelaxedWithoutScope", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.relaxed x, 1 ;\nexists (x == 1)\n", false, 4,
     "translated as 'st.relaxed [x], 1;'"},
};

INSTANTIATE_TEST_SUITE_P(HerdFiles, HerdRefused, testing::ValuesIn(kRefused),
                         [](const testing::TestParamInfo<Refused>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace vmmcheck::litmus
