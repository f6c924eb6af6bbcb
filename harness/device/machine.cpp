#include "device/machine.hpp"

#include <regex>

// No CUDA header here: records format versions with these in the CPU-only build (-DVMMCHECK_GPU=OFF).
// describe_machine(), which asks the CUDA runtime, is in device/describe_machine.cpp.

namespace vmmcheck::device {

std::string format_version(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

std::string driver_release_from(const std::string& text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." (open modules say "Open Kernel Module")
  static const std::regex release(R"(Kernel Module[^\n]*?\s(\d+\.\d+(\.\d+)?)\s)");
  std::smatch m;
  return std::regex_search(text, m, release) ? m[1].str() : "";
}

}  // namespace vmmcheck::device
