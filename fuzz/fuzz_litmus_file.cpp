// Fuzzes the litmus-file parsers (the artifact's language, and herd-style files through their
// translation) and the kernel generator: any bytes must either parse or be refused with ParseError (exit 2
// in the CLI; a herd construct the language lacks is one), and every row that parses must either be generated or be refused
// with a reason. Any other exception, a crash, a hang or a sanitizer report is a bug. (The model is not
// run: deciding a large test is exponential by design, not a bug a fuzzer should report.)
#include <cstddef>
#include <cstdint>
#include <string>

#include "codegen/generator.hpp"
#include "litmus/herd.hpp"
#include "litmus/parser.hpp"

namespace {

void generate_rows(const vmmcheck::litmus::File& file) {
  for (const auto& row : file.rows)
    if (vmmcheck::codegen::why_not_generated(row.test).empty()) vmmcheck::codegen::generate(row.test);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    generate_rows(vmmcheck::litmus::parse_text(text, "fuzz.test"));
  } catch (const vmmcheck::litmus::ParseError&) {
  }
  try {
    generate_rows(vmmcheck::litmus::parse_herd_text(text, "fuzz.litmus"));
  } catch (const vmmcheck::litmus::ParseError&) {
  }
  return 0;
}
