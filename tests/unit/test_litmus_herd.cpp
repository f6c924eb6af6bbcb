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
    {"BarrierQuorum", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n bar.cta.sync 1, 1, 2 ;\nexists (x == 1)\n", true, 5,
     "with a thread count"},
    {"BarrierRegisterId", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n bar.cta.sync r2 ;\nexists (x == 1)\n", true, 5,
     "with its id in a register"},
    {"BarrierArrive", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n bar.cta.arrive 1 ;\nexists (x == 1)\n", true, 5,
     "only bar.cta.sync"},
    {"Label", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n LC00: ;\n st.weak x, 1 ;\nexists (x == 1)\n", true, 4, "label LC00:"},
    {"Branch", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n goto LC00 ;\nexists (x == 1)\n", true, 5, "branch"},
    {"Cas", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.cas r0, x, 0, 1 ;\nexists (x == 1)\n", true, 4, "atom.cas"},
    {"InitialRegisterValue", "PTX t\n{\nx = 0;\nP0:r0 = 1;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n", true, 4,
     "initial register value P0:r0 = 1"},
    {"Filter", "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nfilter (x == 1)\nexists (x == 1)\n", true, 5, "filter"},
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
