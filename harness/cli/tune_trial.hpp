#pragma once
// What `vmmcheck tune` measures of one draw of the stress knobs, how two draws compare, and which draws
// its confirmation measures again (cli/tune.cpp; docs/design.md, "Stress"). No GPU here: the search
// measures, these decide.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/records/stress_params.hpp"

namespace vmmcheck::cli {

// One target's count under a draw: a row's instances showing the outcome its question is about (a
// control's forbidden outcome, a permit row's weak one).
struct Measured {
  std::string name;
  std::uint64_t weak = 0, instances = 0;
  double gpu_seconds = 0;
  bool per_instance = false;  // tune --per instance
  double per_gpu_second() const;
  // What a draw is scored by: weak outcomes per GPU second, or per million instances (so that the log
  // tells rates of a few per million apart, as it does rates per second).
  double rate() const;
};

struct Trial {
  run::StressParams params;
  std::vector<Measured> targets;
  std::string rejected;  // the assert row that did not pass under the draw, if any
  // The mean over targets of log10(1 + outcomes shown per GPU second, or per million instances).
  double score() const;
  std::size_t racing() const;
  // A draw under which more targets race is better; among equals, the higher score: power first (each
  // racing control is an assert row that can be told apart), then speed. An inadmissible draw loses.
  bool better_than(const Trial& other) const;
  double weak_per_gpu_second() const;
};

// The draws a confirmation measures again: the `k` best admissible trials, best first, each set of knobs
// once (a refinement can come back to a draw already tried). The best of many noisy measurements
// overstates the draw it picks (the winner's curse: docs/litmus.md, "Beside cuda-litmus"); a second
// measurement of the few best, which no selection has favoured, tells them apart honestly.
std::vector<std::size_t> confirm_candidates(const std::vector<Trial>& trials, std::size_t k);

// What a search's trial i (from 0) draws. The first two are fixed: the default (no stress, the baseline
// every draw is compared with) and the default with contiguous words; then the --start files' knobs,
// earlier picks the search keeps unless a draw beats them (a search started where the last one ended,
// rather than from nothing); then random draws; the last `refinements` each redraw one knob of the best
// so far.
enum class Draw { Default, ContiguousWords, Start, Random, Refined };
struct DrawPlan {
  static constexpr std::uint32_t kFixed = 2;  // the default and contiguous words
  std::uint32_t trials = 0, starts = 0, refinements = 0;
  Draw at(std::uint32_t i) const;
  // Which --start file trial i draws (at(i) == Draw::Start).
  std::size_t start_index(std::uint32_t i) const { return i - kFixed; }
  // Whether trial i runs whatever --seconds says: the fixed draws and the starts, so that a search cut
  // short still measured the picks it was given.
  bool always_runs(std::uint32_t i) const { return i < kFixed + starts; }
};
// The plan of --trials, --refine (unset: a third of the trials) and the --start files: the refinements
// never take the fixed draws' or the starts' places. An InputError if the trials cannot hold the starts.
DrawPlan plan_draws(std::uint32_t trials, std::optional<std::uint32_t> refine, std::size_t starts);

// Of the candidates' second measurements (in confirm_candidates' order), the index of the best admissible
// one by that measurement alone; none if every one was rejected the second time.
std::optional<std::size_t> confirmed_best(const std::vector<Trial>& again);

}  // namespace vmmcheck::cli
