// The experiment behind kernels-per-program in codegen/nvrtc.hpp: the shipped rows' kernels compiled with
// NVRTC one to a program, then N to a program, on T threads. Not part of the build; on a machine with
// the toolkit, after building build/:
//   g++ -std=c++17 -O2 -I harness -I . -I /usr/local/cuda/include ci/experiments/nvrtc_batching.cpp \
//     build/harness/libvmmcheck_codegen.a build/harness/libvmmcheck_litmus.a build/harness/libvmmcheck_model.a \
//     build/harness/libvmmcheck_common.a -L/usr/local/cuda/lib64 -lnvrtc -lpthread -ldl -o nvrtc-batch
//   ./nvrtc-batch THREADS [MAX_KERNELS]      (ci/results/engine/nvrtc-batch.txt at ce0a56a, in git history:
//                                            the H200 host, 16 threads)
#include <nvrtc.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>
#include "codegen/generator.hpp"
#include "litmus/folder.hpp"
using namespace vmmcheck;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static void compile(const std::string& src) {
  std::vector<const char*> h, n;
  for (auto& x : codegen::kernel_headers()) { h.push_back(x.text); n.push_back(x.name); }
  nvrtcProgram p; nvrtcCreateProgram(&p, src.c_str(), "k.cu", (int)h.size(), h.data(), n.data());
  const char* o[] = {"--gpu-architecture=sm_90", "-std=c++17"};
  if (nvrtcCompileProgram(p, 2, o) != NVRTC_SUCCESS) { size_t s; nvrtcGetProgramLogSize(p,&s); std::string l(s,0); nvrtcGetProgramLog(p,l.data()); fprintf(stderr,"%s\n",l.substr(0,2000).c_str()); }
  size_t s; nvrtcGetCUBINSize(p, &s); nvrtcDestroyProgram(&p);
}
int main(int argc, char** argv) {
  const unsigned threads = argc > 1 ? atoi(argv[1]) : 2;
  const unsigned limit = argc > 2 ? atoi(argv[2]) : 64;
  auto rows = litmus::rows_of(litmus::parse_paths({"cases/litmus"}));
  std::vector<std::string> sources; std::set<std::string> names;
  for (auto& r : rows) { if (!codegen::why_not_generated(r.test).empty()) continue; auto k = codegen::generate(r.test); if (names.insert(k.name).second) sources.push_back(k.source); if (sources.size() >= limit) break; }
  auto run = [&](const std::vector<std::string>& progs) {
    double t = now(); std::vector<std::thread> ws; std::atomic<size_t> next{0};
    for (unsigned i = 0; i < threads; ++i) ws.emplace_back([&] { for (size_t j; (j = next++) < progs.size();) compile(progs[j]); });
    for (auto& w : ws) w.join(); return now() - t; };
  // batches: one program per thread, holding its share of kernels (helpers once: the text before the kernel)
  auto batched = [&](unsigned per) { std::vector<std::string> progs; for (size_t i = 0; i < sources.size(); i += per) {
      std::string s; for (size_t j = i; j < sources.size() && j < i + per; ++j) { const auto& src = sources[j]; s += j == i ? src : src.substr(src.find("extern \"C\"")); } progs.push_back(s);} return progs; };
  printf("%zu kernels, %u threads\n", sources.size(), threads);
  printf("one kernel a program: %.2f s\n", run(sources));
  for (unsigned per : {4u, 16u, (unsigned)((sources.size() + threads - 1) / threads)}) printf("%u kernels a program: %.2f s\n", per, run(batched(per)));
}
