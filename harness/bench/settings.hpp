#pragma once
// What a `vmmcheck bench` run is asked for (docs/bench.md): the command line fills it, the plan and the
// run read it. Header-only, so the command line's parser (and its fuzzer) need nothing else of bench.
#include <string>

#include "bench/sampler.hpp"

namespace vmmcheck::bench {

struct Settings {
  bool quick = false;
  Policy policy;
  double confidence = 0.95;
  std::string filter;               // globs over benchmark names (or ids); empty: every benchmark
  int device = 0;
  unsigned long long max_size = 0;  // the largest allocation a benchmark makes; 0: the plan's default
  // Rounds, each a process of its own whose samples are pooled: a driver call's cost can shift between
  // processes by more than it spreads within one, and only samples from several processes show that
  // (docs/bench.md, "Rounds").
  unsigned rounds = 3;
  int round = -1;  // this process is that round of a parent's run (internal)
};

// The settings of a full run, or of a --quick one (fewer samples, shorter points).
inline Settings default_settings(bool quick) {
  Settings s;
  s.quick = quick;
  if (quick) {
    s.policy = Policy{1, 5, 30, 0.1};
    s.rounds = 1;
  }
  return s;
}

}  // namespace vmmcheck::bench
