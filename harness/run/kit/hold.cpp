#include "run/kit/hold.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "common/error.hpp"
#include "kernels/operations.hpp"

namespace vmmcheck::run {
namespace {

constexpr std::size_t kPageBytes = 4096;

std::string system_error(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

void Hold::before_earlier(cudaStream_t stream, std::uint32_t token, std::uint64_t then_ns) {
  kernels::launch_latch(latch_, token, static_cast<std::uint64_t>(bound_.count()), then_ns, stream);
}

void Hold::before_later(cudaStream_t stream, std::uint32_t token) const { kernels::launch_mark(latch_, token, stream); }

bool Hold::raised(std::uint32_t token) const {
  return __atomic_load_n(latch_ + 1, __ATOMIC_ACQUIRE) == token;
}

void Hold::count(std::uint32_t token) {
  ++repetitions_;
  if (raised(token)) ++started_while_held_;
}

std::string Hold::summary(const std::string& earlier, const std::string& later) const {
  const long long us = std::chrono::duration_cast<std::chrono::microseconds>(bound_).count();
  return "the " + later + " began during the hold on the " + earlier + " in " + std::to_string(started_while_held_) +
         " of " + std::to_string(repetitions_) + " repetitions (else the hold ran out after " + std::to_string(us) + " us)";
}

SharedHostPage SharedHostPage::create() {
  UniqueFd fd(memfd_create("vmmcheck-latch", MFD_CLOEXEC));
  if (!fd.held()) throw std::runtime_error(system_error("memfd_create"));
  if (ftruncate(fd.get(), kPageBytes) != 0) throw std::runtime_error(system_error("ftruncate of the latch page"));
  return attach(std::move(fd));
}

SharedHostPage SharedHostPage::attach(UniqueFd fd) {
  SharedHostPage page;
  page.fd_ = std::move(fd);
  page.memory_ = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, page.fd_.get(), 0);
  if (page.memory_ == MAP_FAILED) {
    page.memory_ = nullptr;
    throw std::runtime_error(system_error("mmap of the shared latch page"));
  }
  // Pinned and mapped for every context of this process: a kernel reaches it through its host address.
  CUDA_CHECK(cudaHostRegister(page.memory_, kPageBytes, cudaHostRegisterMapped | cudaHostRegisterPortable));
  page.registered_ = true;
  return page;
}

SharedHostPage::SharedHostPage(SharedHostPage&& o) noexcept
    : fd_(std::move(o.fd_)), memory_(std::exchange(o.memory_, nullptr)), registered_(std::exchange(o.registered_, false)) {}

SharedHostPage& SharedHostPage::operator=(SharedHostPage&& o) noexcept {
  if (this != &o) {
    release();
    fd_ = std::move(o.fd_);
    memory_ = std::exchange(o.memory_, nullptr);
    registered_ = std::exchange(o.registered_, false);
  }
  return *this;
}

SharedHostPage::~SharedHostPage() { release(); }

void SharedHostPage::release() noexcept {
  if (registered_) (void)cudaHostUnregister(memory_);
  if (memory_) munmap(memory_, kPageBytes);
  memory_ = nullptr;
  registered_ = false;
}

}  // namespace vmmcheck::run
