#pragma once
// One owner template for every driver and runtime object vmmcheck holds (VMM ranges, allocations and
// mappings; streams, events, graphs, device and pinned buffers): move-only, a non-throwing release in
// the destructor, and release() on request that returns the driver's status. A moved-from owner is
// empty, so rollback after a failure half-way through building something releases exactly what was
// built, once (docs/design.md, "Owners and release order").
#include <utility>

namespace vmmcheck {

// Traits say what is held and how it goes:
//   using State = ...;                          what is held; State{} means nothing
//   using Status = ...;                         what release returns (CUresult, cudaError_t)
//   static constexpr Status kOk = ...;          success
//   static bool held(const State&) noexcept;
//   static Status release(const State&) noexcept;
template <typename Traits>
class UniqueHandle {
 public:
  using State = typename Traits::State;
  using Status = typename Traits::Status;

  UniqueHandle() = default;
  explicit UniqueHandle(State state) noexcept : state_(state) {}
  ~UniqueHandle() { release(); }  // nothing useful to do on failure

  UniqueHandle(UniqueHandle&& other) noexcept : state_(std::exchange(other.state_, State{})) {}
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::exchange(other.state_, State{});
    }
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;

  // Releases now and returns the status. On success the owner is empty; on failure it still holds what
  // it held, and its destructor tries again.
  Status release() noexcept {
    if (!Traits::held(state_)) return Traits::kOk;
    const Status status = Traits::release(state_);
    if (status == Traits::kOk) state_ = State{};
    return status;
  }

  const State& get() const noexcept { return state_; }
  bool held() const noexcept { return Traits::held(state_); }

 private:
  State state_{};
};

// Traits for an opaque handle (a pointer or an integer; Handle{} means none) that one call releases:
// the driver's and the runtime's objects alike.
template <typename Handle, typename StatusType, StatusType Ok, StatusType (*Release)(Handle)>
struct ReleasedBy {
  using State = Handle;
  using Status = StatusType;
  static constexpr Status kOk = Ok;
  static bool held(Handle h) noexcept { return h != Handle{}; }
  static Status release(Handle h) noexcept { return Release(h); }
};

}  // namespace vmmcheck
