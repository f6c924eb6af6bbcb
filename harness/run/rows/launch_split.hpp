#pragma once
// How a litmus row's rounds fall into launches (run/rows/engine.cpp, RowEngine::plan): its instance-rounds
// kept, each launch holding at most a given number of rounds.
#include <cstdint>

namespace vmmcheck::run {

struct RoundsAndLaunches {
  std::uint32_t rounds = 1;    // per launch
  std::uint64_t launches = 1;
};

// `r` with at most `most` rounds a launch (0: no limit): as many rounds in all or more, over more launches.
inline RoundsAndLaunches at_most(RoundsAndLaunches r, std::uint32_t most) {
  if (most == 0 || r.rounds <= most) return r;
  const std::uint64_t total = static_cast<std::uint64_t>(r.rounds) * r.launches;
  return {most, (total + most - 1) / most};
}

}  // namespace vmmcheck::run
