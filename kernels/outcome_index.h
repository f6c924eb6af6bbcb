/* Outcomes of generated litmus kernels counted on the GPU (docs/litmus.md, "Counting on the GPU"): an
 * instance's register values map to one bin of a dense histogram, by a table of the values each register
 * can hold (the model's outcome space, model/ptx_model.hpp). The tally kernel (kernels/outcome_tally.cu)
 * indexes on the GPU and the host decodes the bins back to values with these same functions; a CPU
 * test checks that the two agree on every shipped row's outcome space. */
#ifndef VMMCHECK_OUTCOME_INDEX_H
#define VMMCHECK_OUTCOME_INDEX_H

#ifdef __CUDACC__
#define VMMCHECK_HOST_DEVICE __host__ __device__
#else
#define VMMCHECK_HOST_DEVICE
#endif

#define VMMCHECK_OUTCOME_MAX_REGISTERS 16
#define VMMCHECK_OUTCOME_MAX_VALUES 8 /* per register */
#define VMMCHECK_OUTCOME_MAX_BINS 4096

/* Bin of values (v_0, ..., v_{n-1}) with v_k = values[k][j_k]:  ((j_0 * count_1 + j_1) * count_2 + j_2) ...
 * (mixed radix, the last register fastest). `bins` is the product of the counts; bin `bins` holds every
 * instance with a value outside its register's list (the tally keeps their values aside). */
struct VmmcheckOutcomeTable {
  unsigned int registers;
  unsigned int bins;
  unsigned int count[VMMCHECK_OUTCOME_MAX_REGISTERS];
  unsigned int values[VMMCHECK_OUTCOME_MAX_REGISTERS][VMMCHECK_OUTCOME_MAX_VALUES];
};

/* The bin of one instance's registers (words[k]: register k), or t->bins when one is outside its list. */
static inline VMMCHECK_HOST_DEVICE unsigned int vmmcheck_outcome_bin(const struct VmmcheckOutcomeTable* t,
                                                                      const unsigned int* words) {
  unsigned int bin = 0;
  for (unsigned int k = 0; k < t->registers; ++k) {
    unsigned int j = 0;
    while (j < t->count[k] && t->values[k][j] != words[k]) ++j;
    if (j == t->count[k]) return t->bins;
    bin = bin * t->count[k] + j;
  }
  return bin;
}

/* The register values of bin (< t->bins), into words[0 .. registers - 1]. */
static inline VMMCHECK_HOST_DEVICE void vmmcheck_outcome_values(const struct VmmcheckOutcomeTable* t, unsigned int bin,
                                                                unsigned int* words) {
  for (unsigned int k = t->registers; k-- > 0;) {
    words[k] = t->values[k][bin % t->count[k]];
    bin /= t->count[k];
  }
}

#endif /* VMMCHECK_OUTCOME_INDEX_H */
