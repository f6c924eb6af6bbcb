/* Memory stress around in-kernel rounds, in plain CUDA C (docs/design.md, "Stress";
 * run/records/stress_params.hpp says what each knob does): pre-stress accesses before each round, a CTA
 * barrier, and the memory-stress CTAs that hammer scratch lines while the testing CTAs run. NVRTC's
 * generated litmus kernels include it as "stress_ops.h" (harness/codegen); the host sees the struct
 * only (kernels/in_kernel.hpp). No standard library: NVRTC compiles it without one. */
#ifndef VMMCHECK_STRESS_OPS_H
#define VMMCHECK_STRESS_OPS_H

/* kernels::StressPattern's values (kernels/in_kernel.hpp checks that they agree). */
#define VMMCHECK_STRESS_STORE_STORE 0u
#define VMMCHECK_STRESS_STORE_LOAD 1u
#define VMMCHECK_STRESS_LOAD_STORE 2u
#define VMMCHECK_STRESS_LOAD_LOAD 3u

/* The stress of one launch, as a kernel sees it (kernels::Stress, in C). The last stress_blocks CTAs
 * of the grid run no instances. */
struct VmmcheckStress {
  unsigned int* scratch; /* null: no stress of any kind */
  unsigned int line_words;
  unsigned int lines;
  unsigned int pattern; /* VMMCHECK_STRESS_* */
  unsigned int pre_accesses;
  unsigned int barrier;
  unsigned int stress_blocks;
  unsigned int stress_accesses;
  unsigned int* done; /* testing CTAs count themselves done here; zeroed before each launch */
};

#ifdef __CUDACC__

/* A 64-to-32-bit finaliser (murmur3's fmix64): lines, partners. */
static __device__ __forceinline__ unsigned int vmmcheck_mix32(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return (unsigned int)x;
}

/* One stress access: two operations on a word of a scratch line, in the order of the pattern. Lanes of a
 * warp land on different words of one line, so a warp's accesses contend for that line. */
static __device__ __forceinline__ void vmmcheck_stress_access(const struct VmmcheckStress* s, unsigned int line,
                                                              unsigned int* keep) {
  volatile unsigned int* const p = s->scratch + line * s->line_words + threadIdx.x % s->line_words;
  switch (s->pattern) {
    case VMMCHECK_STRESS_STORE_LOAD: *p = *keep + 1u; *keep ^= *p; break;
    case VMMCHECK_STRESS_LOAD_STORE: *keep ^= *p; *p = *keep + 1u; break;
    case VMMCHECK_STRESS_LOAD_LOAD: *keep ^= *p; *keep ^= *p; break;
    default: *p = *keep + 1u; *p = *keep + 2u; break; /* store-store */
  }
}

static __device__ __forceinline__ unsigned int vmmcheck_stress_line(const struct VmmcheckStress* s, unsigned int t,
                                                                    unsigned int round, unsigned int a) {
  return vmmcheck_mix32(((unsigned long long)round << 40) ^ ((unsigned long long)a << 32) ^ t) % s->lines;
}

/* Before each round of testing thread t: the CTA barrier (every thread of a testing CTA calls this), then
 * the pre-stress accesses. */
static __device__ __forceinline__ void vmmcheck_stress_round(const struct VmmcheckStress* s, unsigned int t,
                                                             unsigned int round, unsigned int* keep) {
  if (s->scratch == 0) return;
  if (s->barrier) __syncthreads();
  for (unsigned int a = 0; a < s->pre_accesses; ++a) vmmcheck_stress_access(s, vmmcheck_stress_line(s, t, round, a), keep);
}

static __device__ __forceinline__ unsigned long long vmmcheck_now_ns(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* The whole life of a memory-stress CTA: accesses to the scratch lines until all `testing` CTAs are
 * done, or -- should one never count itself done -- 60 s of GPU time have passed. */
static __device__ __forceinline__ void vmmcheck_memory_stress(const struct VmmcheckStress* s, unsigned int testing) {
  const unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long start = vmmcheck_now_ns();
  unsigned int keep = 0u;
  for (unsigned int i = 0;; ++i) {
    unsigned int done;
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(done) : "l"(s->done) : "memory");
    if (done >= testing || vmmcheck_now_ns() - start >= 60000000000ull) break;
    for (unsigned int a = 0; a < s->stress_accesses; ++a) vmmcheck_stress_access(s, vmmcheck_stress_line(s, t, i, a), &keep);
  }
  if (keep == 0xFFFFFFFFu) s->scratch[0] = keep; /* the loads must happen */
}

/* The end of a testing CTA (every thread of it calls this): counts itself done, which lets the
 * memory-stress CTAs stop. */
static __device__ __forceinline__ void vmmcheck_testing_done(const struct VmmcheckStress* s) {
  if (s->done == 0) return;
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(s->done, 1u); /* relaxed, device scope */
}

#endif /* __CUDACC__ */
#endif /* VMMCHECK_STRESS_OPS_H */
