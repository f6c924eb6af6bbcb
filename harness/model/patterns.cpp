#include "model/patterns.hpp"

namespace vmmcheck::model {

const PatternAxis* Pattern::find_axis(std::string_view axis) const {
  for (const PatternAxis& a : axes)
    if (a.name == axis) return &a;
  return nullptr;
}

int Pattern::outcome_index(std::string_view outcome) const {
  for (std::size_t i = 0; i < outcomes.size(); ++i)
    if (outcomes[i].name == outcome) return static_cast<int>(i);
  return -1;
}

bool Pattern::accepts_outcome(std::string_view outcome) const {
  if (outcome_index(outcome) >= 0) return true;
  if (!driver_status_outcomes || outcome.rfind("CUDA_", 0) != 0 || outcome.size() < 6) return false;
  return outcome.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string_view::npos;
}

// The order of `outcomes` is the order of the histogram bins the kernels fill (kernels/outcomes.hpp).
const std::vector<Pattern>& patterns() {
  static const std::vector<Pattern> table = {
      {"same_thread",
       true,
       {{"view", {"same", "alias", "offset"}},
        {"load", {"weak", "volatile", "relaxed_gpu", "acquire_gpu", "nc"}},
        {"fence", {"none", "proxy_alias"}}},
       {{"new", false, "the second read returned the value this thread just wrote"},
        {"stale", true, "the second read returned an older value"}}},
      {"message_passing",
       true,
       {{"data", {"same", "alias", "offset"}},
        {"flag", {"same", "alias"}},
        {"fence", {"none", "writer", "reader", "both"}},
        {"scope", {"cta", "gpu", "sys"}}},
       {{"new", false, "flag seen, data read returned the value written before the flag"},
        {"stale", true, "flag seen, data read returned an older value"},
        {"timeout", true, "the bounded spin on the flag gave up before the flag was seen"}}},
      {"kernel_pair",
       false,
       {{"writer", {"kernel", "memcpy", "memset"}},
        {"reader", {"kernel", "kernel_nc", "memcpy"}},
        {"order", {"stream", "event", "host", "graph", "none"}},
        {"view", {"same", "alias", "offset"}}},
       {{"new", false, "the reader saw the writer's value"},
        {"old", true, "the reader saw the value from before the writer"},
        {"other", true, "the reader saw neither value"}}},
      {"resident",
       false,
       {{"view", {"same", "alias", "offset"}},
        {"load", {"weak", "volatile", "nc"}},
        {"signal", {"kernel", "host"}}},
       {{"new", false, "the resident reader saw the writer's value"},
        {"old", true, "the resident reader saw the value from before the writer"},
        {"other", true, "the resident reader saw neither value"},
        {"timeout", true, "the resident reader never saw the signal within its bound"}}},
      // VMM contract cases (access rights, lifecycle, driver statuses): one instance per check.
      {"access",
       false,
       {{"grant", {"none", "read", "readwrite", "read_after_rw", "subrange_inside", "subrange_outside"}},
        {"op", {"read", "write"}}},
       {{"completed", false, "the access completed with the right value"},
        {"fault", false, "the kernel making the access faulted (a sticky error ended its context)"},
        {"wrong", true, "the access completed but moved the wrong value (a dropped write, a read of other data)"}}},
      {"lifecycle",
       false,
       {{"scenario", {"release_before_unmap", "remap_same_va", "remap_new_va", "seam", "grow"}}},
       {{"intact", false, "the word held the value written to the physical memory"},
        {"corrupt", true, "the word held something else"}}},
      {"unmap_in_use",
       false,
       {{"kernel", {"queued", "running"}}},
       {{"completed", false, "the kernel finished and read the data the mapping held"},
        {"wrong", true, "the kernel finished but read other data"},
        {"fault", true, "the kernel faulted (a sticky error ended the context)"},
        {"unmap_refused", true, "cuMemUnmap returned an error; the kernel ran with the mapping in place"}}},
      {"api",
       false,
       {{"call", {"size_not_granular", "map_over_mapped", "free_mapped_range", "set_access_unmapped",
                  "export_without_type", "import_invalid_fd", "double_release", "granularity"}}},
       {{"CUDA_SUCCESS", false, "the call succeeded"},
        {"CUDA_ERROR_INVALID_VALUE", false, "the driver rejected an argument"}},
       true,
       true},
      // Self-test of isolation: cases planted to crash or hang (tests/planted/, never in cases/).
      {"planted_host",
       false,
       {{"behaviour", {"ok", "crash", "hang"}}},
       {{"done", false, "the case ran to its end"}},
       false},
      {"planted_gpu",
       false,
       {{"behaviour", {"ok", "crash", "hang"}}},
       {{"done", false, "the kernel ran to its end"}}},
  };
  return table;
}

const Pattern* find_pattern(std::string_view name) {
  for (const Pattern& p : patterns())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace vmmcheck::model
