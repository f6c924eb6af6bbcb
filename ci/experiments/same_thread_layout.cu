// Where alias.same_thread's stale reads come from (docs/litmus.md, "Beside the hand-written kernels"):
// one thread reads a word through view B, writes it through view A, reads it through B again (A and B two
// mappings of one allocation), every thread its own word, values growing by round -- for each load
// flavour, generic or .global addressing, CTAs per SM, threads per CTA, and the words scattered (a
// co-prime stride) or contiguous (a warp's 32 in one line); with "distance", whether the virtual distance
// between the two views bears on it (docs/litmus.md, "Running a row", Memory). Prints the stale share of
// each. Not part of the build (its outputs on the H200: ci/results/experiments/nvidia-h200_driver-580.159.04.
// same-thread-layout.txt and .alias-view-distance.txt):
//   nvcc -O3 -arch=sm_90 -o same_thread_layout ci/experiments/same_thread_layout.cu -lcuda
//   ./same_thread_layout            # the layouts
//   ./same_thread_layout distance   # the views' distance
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <string>

#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", #x, s); exit(1);} } while (0)
#define RK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

enum { WEAK, VOL, RGPU, AGPU, RSYS };

template <int L, bool G>
__device__ __forceinline__ unsigned ld(const unsigned* p) {
  unsigned v;
  if (G) {
    if (L == WEAK) asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == VOL) asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == RGPU) asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == AGPU) asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == RSYS) asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else {
    if (L == WEAK) asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == VOL) asm volatile("ld.volatile.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == RGPU) asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == AGPU) asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (L == RSYS) asm volatile("ld.relaxed.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  }
  return v;
}
template <bool G>
__device__ __forceinline__ void st(unsigned* p, unsigned v) {
  if (G) asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else asm volatile("st.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// out: per round results (mode 1) or counters (mode 0)
template <int L, bool G, bool OUT>
__global__ void k(unsigned* A, const unsigned* B, unsigned n, unsigned stride, unsigned rounds, unsigned* res,
                  unsigned long long* stale) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w = (unsigned)(((unsigned long long)t * stride) % n);
  unsigned s = 0, keep = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    unsigned v = r + 1;
    unsigned r0 = ld<L, G>(B + w);
    st<G>(A + w, v);
    unsigned r1 = ld<L, G>(B + w);
    if (OUT) {
      res[((unsigned long long)r * n + t) * 2] = r0;
      res[((unsigned long long)r * n + t) * 2 + 1] = r1;
    } else {
      s += r1 != v;
      keep ^= r0;
    }
  }
  if (!OUT) {
    atomicAdd(stale, (unsigned long long)s);
    if (keep == 0xFFFFFFFFu) res[0] = keep;
  }
}

// Mode "layout": load flavour x addressing x CTAs per SM x threads per CTA x scattered or contiguous words.
int layout() {
  RK(cudaFree(0));
  CUdevice dev; CK(cuCtxGetDevice(&dev));
  int sms; RK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t gran; CK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  const unsigned maxn = 8 * 1024 * 1024;
  size_t bytes = ((maxn * 4 + gran - 1) / gran) * gran;
  CUmemGenericAllocationHandle h; CK(cuMemCreate(&h, bytes, &prop, 0));
  CUdeviceptr va, vb; CK(cuMemAddressReserve(&va, bytes, 0, 0, 0)); CK(cuMemAddressReserve(&vb, bytes, 0, 0, 0));
  CK(cuMemMap(va, bytes, 0, h, 0)); CK(cuMemMap(vb, bytes, 0, h, 0));
  CUmemAccessDesc ad = {}; ad.location = prop.location; ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CK(cuMemSetAccess(va, bytes, &ad, 1)); CK(cuMemSetAccess(vb, bytes, &ad, 1));
  unsigned* A = (unsigned*)va; unsigned* B = (unsigned*)vb;
  unsigned long long* stale; RK(cudaMalloc(&stale, 8));
  unsigned* res; RK(cudaMalloc(&res, 8));
  const char* names[] = {"weak", "volatile", "relaxed.gpu", "acquire.gpu", "relaxed.sys"};
  using K = void (*)(unsigned*, const unsigned*, unsigned, unsigned, unsigned, unsigned*, unsigned long long*);
  K ks[5][2] = {{k<WEAK, false, false>, k<WEAK, true, false>}, {k<VOL, false, false>, k<VOL, true, false>},
                {k<RGPU, false, false>, k<RGPU, true, false>}, {k<AGPU, false, false>, k<AGPU, true, false>},
                {k<RSYS, false, false>, k<RSYS, true, false>}};
  int ctas_list[] = {2, 8};
  unsigned tpb_list[] = {256, 16, 1024};
  unsigned stride_kind[] = {0, 1};  // 0: scattered (co-prime), 1: contiguous
  printf("load space ctas/sm tpb stride rounds instances stale pct ms\n");
  for (int L = 0; L < 5; ++L)
    for (int G = 0; G < 2; ++G)
      for (int cps : ctas_list)
        for (unsigned tpb : tpb_list)
          for (unsigned sk : stride_kind) {
            if (tpb * cps > 2048) continue;
            unsigned n = (unsigned)sms * cps * tpb;
            unsigned stride = sk ? 1 : 0x9E3779B1u % n;
            while (true) { unsigned a = stride, b = n; while (b) { unsigned t = a % b; a = b; b = t; } if (a == 1) break; stride += 2; }
            unsigned rounds = (unsigned)(10800000ull / n) + 1;
            RK(cudaMemset(A, 0, (size_t)n * 4));
            RK(cudaMemset(stale, 0, 8));
            cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
            cudaEventRecord(e0);
            ks[L][G]<<<sms * cps, tpb>>>(A, B, n, stride, rounds, res, stale);
            cudaEventRecord(e1);
            RK(cudaDeviceSynchronize());
            float ms; cudaEventElapsedTime(&ms, e0, e1);
            unsigned long long s; RK(cudaMemcpy(&s, stale, 8, cudaMemcpyDeviceToHost));
            unsigned long long inst = (unsigned long long)n * rounds;
            printf("%s %s %d %u %s %u %llu %llu %.4f%% %.2f\n", names[L], G ? "global" : "generic", cps, tpb,
                   sk ? "contig" : "scatter", rounds, inst, s, 100.0 * s / inst, ms);
          }
  return 0;
}

// Mode "distance": view A at the start of one 64 GiB reservation (or 2 MiB in), view B 16 MiB to 32 GiB
// further on, 2 CTAs of 256 per SM.
int distance() {
  RK(cudaFree(0));
  int sms; RK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t gran; CK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  const unsigned maxn = 4 * 1024 * 1024;
  size_t bytes = ((maxn * 4 + gran - 1) / gran) * gran;
  CUmemGenericAllocationHandle h; CK(cuMemCreate(&h, bytes, &prop, 0));
  unsigned long long* stale; RK(cudaMalloc(&stale, 8));
  unsigned* res; RK(cudaMalloc(&res, 8));
  printf("gran %zu bytes %zu\n", gran, bytes);
  // One big reservation; A at 0, B at distance d.
  const size_t big = (size_t)64 << 30;
  CUdeviceptr base; CK(cuMemAddressReserve(&base, big, (size_t)1 << 30, 0, 0));
  printf("base %llx\n", (unsigned long long)base);
  size_t ds[] = {bytes, bytes + gran, 2 * bytes, (size_t)1 << 25, (size_t)1 << 26, (size_t)1 << 27, (size_t)1 << 28, (size_t)1 << 29, (size_t)1 << 30, ((size_t)1 << 30) + gran, (size_t)1 << 31, (size_t)1 << 32, ((size_t)1 << 32) + ((size_t)1 << 21), (size_t)1 << 33, (size_t)1 << 34, ((size_t)1 << 34) + ((size_t)3 << 21), (size_t)1 << 35};
  using K = void (*)(unsigned*, const unsigned*, unsigned, unsigned, unsigned, unsigned*, unsigned long long*);
  K ks[3] = {k<VOL, false, false>, k<RGPU, false, false>, k<WEAK, false, false>};
  const char* names[] = {"volatile", "relaxed.gpu", "weak"};
  for (size_t aoff : {(size_t)0, (size_t)1 << 21})
  for (size_t d : ds) {
    if (aoff + d + bytes > big) continue;
    CUdeviceptr va = base + aoff, vb = base + aoff + d;
    CK(cuMemMap(va, bytes, 0, h, 0)); CK(cuMemMap(vb, bytes, 0, h, 0));
    CUmemAccessDesc ad = {}; ad.location = prop.location; ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CK(cuMemSetAccess(va, bytes, &ad, 1)); CK(cuMemSetAccess(vb, bytes, &ad, 1));
    unsigned* A = (unsigned*)va; unsigned* B = (unsigned*)vb;
    for (int L = 0; L < 3; ++L)
      for (unsigned sk : {0u, 1u}) {
        const int cps = 2; const unsigned tpb = 256;
        unsigned n = (unsigned)sms * cps * tpb;
        unsigned stride = sk ? 1 : 0x9E3779B1u % n;
        while (true) { unsigned a = stride, b = n; while (b) { unsigned t = a % b; a = b; b = t; } if (a == 1) break; stride += 2; }
        unsigned rounds = (unsigned)(10800000ull / n) + 1;
        RK(cudaMemset(A, 0, (size_t)n * 4));
        RK(cudaMemset(stale, 0, 8));
        ks[L]<<<sms * cps, tpb>>>(A, B, n, stride, rounds, res, stale);
        RK(cudaDeviceSynchronize());
        unsigned long long s; RK(cudaMemcpy(&s, stale, 8, cudaMemcpyDeviceToHost));
        unsigned long long inst = (unsigned long long)n * rounds;
        printf("aoff %zx d %zx (%s) %s %s stale %.4f%%\n", aoff, d, d >= (1ull<<30) ? "GiB+" : "small", names[L], sk ? "contig" : "scatter", 100.0 * s / inst);
      }
    CK(cuMemUnmap(va, bytes)); CK(cuMemUnmap(vb, bytes));
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "distance") return distance();
  return layout();
}
