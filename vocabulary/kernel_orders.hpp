#pragma once
// The orders of the proxy patterns (TextureOrder: proxy.texture, proxy.surface) that stand for a kernel
// boundary, what each is as an operation order, and what a control takes away from a case ordered by one.
// Shared by both patterns' definitions and by the runners' kit (harness/run/kit/operations.hpp).
#include <optional>
#include <string_view>

#include "vocabulary/mutants.hpp"
#include "vocabulary/axes.hpp"

namespace vmmcheck::patterns {

// The operation order a kernel boundary stands for (Stream, Event, Host); the others are not one.
constexpr Order kernel_order(TextureOrder o) {
  return o == TextureOrder::Stream ? Order::Stream : o == TextureOrder::Event ? Order::Event
         : o == TextureOrder::Host ? Order::Host : Order::None;
}

// What a control takes away from a case ordered across kernels (proxy.texture, proxy.surface).
constexpr std::string_view kernel_boundary(TextureOrder o) {
  switch (o) {
    case TextureOrder::Stream: return "the kernel boundary (stream order)";
    case TextureOrder::Event: return "the kernel boundary (an event)";
    case TextureOrder::Host: return "the kernel boundary (host synchronisation)";
    default: return {};
  }
}

// The mutant that takes that away: what a boundary-ordered proxy case's control runs under.
constexpr std::optional<Mutant> boundary_mutant(TextureOrder o) {
  switch (o) {
    case TextureOrder::Stream: return Mutant::NoStreamOrder;
    case TextureOrder::Event: return Mutant::NoEventWait;
    case TextureOrder::Host: return Mutant::NoHostSync;
    default: return std::nullopt;
  }
}

}  // namespace vmmcheck::patterns
