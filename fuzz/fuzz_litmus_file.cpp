// Fuzzes the litmus-file parser and the kernel generator: any bytes must either parse or be refused with
// ParseError (exit 2 in the CLI), and every row that parses must either be generated or be refused
// with a reason. Any other exception, a crash, a hang or a sanitizer report is a bug. (The model is not
// run: deciding a large test is exponential by design, not a bug a fuzzer should report.)
#include <cstddef>
#include <cstdint>
#include <string>

#include "codegen/generator.hpp"
#include "litmus/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto file = vmmcheck::litmus::parse_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz.test");
    for (const auto& row : file.rows)
      if (vmmcheck::codegen::why_not_generated(row.test).empty()) vmmcheck::codegen::generate(row.test);
  } catch (const vmmcheck::litmus::ParseError&) {
  }
  return 0;
}
