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
  };
  return table;
}

const Pattern* find_pattern(std::string_view name) {
  for (const Pattern& p : patterns())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace vmmcheck::model
