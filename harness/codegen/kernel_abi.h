/* What a generated litmus kernel (harness/codegen/generator.hpp) and the host that launches it share. Plain
 * C types only: NVRTC compiles this file into every generated program (as "litmus_abi.h", with
 * kernels/stress_ops.h beside it) without the standard library, and the host includes it as it is.
 *
 * Geometry (docs/litmus.md, "Running a row"): the file's CTAs (b0, b1, ...) are `file_ctas`; the launch
 * has `ctas` testing CTAs of `block_threads` threads (then stress.stress_blocks more). File CTA b is the
 * b-th distinct Thread::cta in increasing order; file thread t is the t-th thread of its CTA by (lane,
 * declaration order). cta_perm(c) = (c * cta_stride + cta_offset) % ctas; lane_perm(y) = (y *
 * lane_stride) % block_threads. The kernel inverts both itself (blockDim.x must be block_threads, the
 * grid `ctas` CTAs); a thread or CTA they do not map back to holds no instance and only joins the barriers.
 *
 * Every role in every thread (Kernel::all_roles; instances = ctas * block_threads): each GPU thread runs
 * every litmus thread's program in Kernel::role_order, each for an instance of its own, as cuda-litmus
 * and the hand-written kernels do. Instance m = q * block_threads + u (q < ctas, u < block_threads)
 * puts file thread t of file CTA b in CTA  cta_perm((q + b) % ctas)  at lane  lane_perm((u + t *
 * lane_step) % block_threads),  lane_step = block_threads / threads_per_file_cta. So the file CTAs of an
 * instance are distinct CTAs (ctas >= file_ctas) and its threads of one file CTA distinct lanes of one.
 *
 * One role a thread (otherwise; instances = ctas / file_ctas * slots): each CTA holds `slots` slots; a
 * slot is one file CTA's threads of one instance. Instance m puts file CTA b in CTA  cta_perm((m %
 * (ctas / file_ctas)) + b * (ctas / file_ctas)),  slot m / (ctas / file_ctas); its file thread t sits
 * at lane  lane_perm(t * slots + slot).
 *
 * Memory: location L's word of instance m in round r is  L * region_words + r * instances + column,
 * column = (m * memory_stride + memory_offset) % instances;  an address reaches it through
 * view[address] (its own virtual mapping of the one allocation; a synonym's generic accesses use its
 * target's view; on a surface's memory, each root address its own linear mapping of the surface's
 * allocation, at the word of the instance's texel), texture[address] (a texture object over that view
 * from its start, 32-bit unsigned elements, for a .texref; over a surface's array on its memory), or
 * shared memory (.shared, one word per instance and location in its CTA, zeroed every round).
 *
 * Initial values (Kernel::initial_values): the host writes a location's value before the test into every
 * word of its region before each launch (0 for most).
 *
 * Values by round (Kernel::reused_locations): a location written by one litmus thread's plain stores
 * keeps one word, L * region_words + column, in every round of a launch, as the hand-written kernels'
 * words do, so a reader's line still holds what an earlier round wrote. Round r stores value v as ((r +
 * 1) << VMMCHECK_LITMUS_VALUE_BITS) | v; a load that reads a word of an earlier round reads the
 * location's initial value (0), of this round or a later one (its one writer is ahead) that word's v.
 * The words are zeroed before each launch; rounds < 2^(32 - VMMCHECK_LITMUS_VALUE_BITS) - 1.
 *
 * Results: register k of instance m in round r goes to  registers[(r * instances + m) * register_count
 * + k]  (register order: harness/codegen/generator.hpp, Kernel::registers).
 *
 * Final values (Kernel::finals, "[x]" registers after the loads' own): the kernel leaves them alone;
 * after each launch the host has location L's word of instance m in round r (the memory formula above:
 * such a location keeps a word per round) copied into them (kernels/final_values.hpp). */
#ifndef VMMCHECK_LITMUS_KERNEL_ABI_H
#define VMMCHECK_LITMUS_KERNEL_ABI_H

#include "kernels/stress_ops.h"

#define VMMCHECK_LITMUS_MAX_ADDRESSES 8
#define VMMCHECK_LITMUS_VALUE_BITS 8 /* values by round: a litmus value's bits beside the round's tag */

struct VmmcheckLitmusLaunch {
  unsigned int* view[VMMCHECK_LITMUS_MAX_ADDRESSES];           /* per declared address */
  unsigned long long texture[VMMCHECK_LITMUS_MAX_ADDRESSES];   /* cudaTextureObject_t, .texref only; over a
                                                                 * surface's memory, over its array (texel (x, y)
                                                                 * as the surface's, in texels) */
  unsigned long long surface[VMMCHECK_LITMUS_MAX_ADDRESSES];   /* cudaSurfaceObject_t, .surfref only */
  /* Per location L that a .surfref aliases: its words are texels of a surface_width-wide 2D array of
   * 32-bit texels whose storage the views map; texel k (x = k % surface_width, y = k / surface_width) is
   * the word texel_word[L][k] of the view, and round r's texel of instance m is k = r * instances +
   * (m * memory_stride + memory_offset) % instances (the region formula without L * region_words).
   * Null for every other location. */
  const unsigned int* texel_word[VMMCHECK_LITMUS_MAX_ADDRESSES];
  unsigned int surface_width;
  unsigned int* registers;
  unsigned int register_count;
  unsigned int instances;      /* per round */
  unsigned int rounds;
  unsigned int region_words;   /* words per location: >= rounds * instances */
  unsigned int file_ctas;
  unsigned int ctas;
  unsigned int block_threads;
  unsigned int slots;          /* one role a thread: per CTA; slots * threads_per_file_cta <= block_threads */
  unsigned int cta_stride, cta_offset;        /* cta_stride co-prime with ctas */
  unsigned int memory_stride, memory_offset;  /* memory_stride co-prime with instances */
  unsigned int lane_stride;                   /* odd; co-prime with block_threads */
  /* Stress, as the hand-written in-kernel tests take it (kernels/stress_ops.h): the grid's last
   * stress.stress_blocks CTAs (after the `ctas` testing ones) hammer scratch lines until every testing
   * CTA is done; each round of a testing CTA starts with vmmcheck_stress_round (a barrier with
   * stress.barrier, then pre-stress accesses). */
  struct VmmcheckStress stress;
  /* A spin-until load ("ld.acquire.gpu r0, [flag] until 1") polls for at most this much globaltimer time,
   * then leaves 0xFFFFFFFF (patterns::litmus::kSpinBoundReached) in its register. */
  unsigned long long spin_timeout_ns;
  /* Nonzero (stress grid_barrier): before each round every testing CTA meets the others -- its thread 0
   * adds one to *grid_counter, zeroed before each launch, and polls it until all `ctas` have, for at most
   * spin_timeout_ns -- so that the roles of every instance start together, as cuda-litmus's barrier does. */
  unsigned int grid_barrier;
  unsigned int* grid_counter;
  /* Always 0, which the compiler cannot know: a store's address plus (its thread's earlier loads' words &
   * zero) depends on those loads, so the hardware returns them before it issues the store (stress
   * loads_before_stores); an access ptxas would merge with, or drop for, an earlier one of the same word
   * goes there through zero times a number of its own, which ptxas cannot tell from the earlier address
   * (stress distinct_addresses). A dependency orders nothing in the PTX model; the test's verdicts stay. */
  unsigned int zero;
};

#endif
