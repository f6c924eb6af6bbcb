// Run under `mpirun -np 2` (ctest label mpi), on the CPU, with a fake driver: the exchange `run --mpi`
// rests on. Rank 0 "exports" allocation 42 as a POSIX file descriptor and allocation 77 as a fabric
// handle; the descriptor crosses to rank 1 as SCM_RIGHTS over the job's rendezvous socket, the fabric
// handle as bytes over MPI; rank 1 imports both through the VMM owners and must get 42 and 77 back.
// The fake export writes the handle into a memfd (or the fabric bytes), the fake import reads it back,
// so only a descriptor for the same file, or the same bytes, can pass.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "common/driver.hpp"
#include "ipc/rendezvous.hpp"
#include "ipc/transport.hpp"
#include "mpi/mpi_world.hpp"
#include "vmm/owners.hpp"

namespace {

using namespace vmmcheck;
using namespace std::chrono_literals;

CUresult fake_export(void* out, CUmemGenericAllocationHandle h, CUmemAllocationHandleType type, unsigned long long) {
  if (type == CU_MEM_HANDLE_TYPE_FABRIC) {
    std::memcpy(static_cast<CUmemFabricHandle*>(out)->data, &h, sizeof h);
    return CUDA_SUCCESS;
  }
  const int fd = memfd_create("fake-allocation", MFD_CLOEXEC);
  if (fd < 0 || pwrite(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h)) return CUDA_ERROR_OUT_OF_MEMORY;
  *static_cast<int*>(out) = fd;
  return CUDA_SUCCESS;
}

CUresult fake_import(CUmemGenericAllocationHandle* h, void* shareable, CUmemAllocationHandleType type) {
  if (type == CU_MEM_HANDLE_TYPE_FABRIC) {
    std::memcpy(h, static_cast<CUmemFabricHandle*>(shareable)->data, sizeof *h);
    return CUDA_SUCCESS;
  }
  const int fd = static_cast<int>(reinterpret_cast<std::uintptr_t>(shareable));
  return pread(fd, h, sizeof *h, 0) == static_cast<ssize_t>(sizeof *h) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult fake_release(CUmemGenericAllocationHandle) { return CUDA_SUCCESS; }

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) ++failures;
  std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
}

}  // namespace

int main() {
  mpi::World w;
  DriverApi api;
  api.cuMemExportToShareableHandle = fake_export;
  api.cuMemImportFromShareableHandle = fake_import;
  api.cuMemRelease = fake_release;
  set_driver_for_testing(&api);
  try {
    expect(w.size() == 2, "two ranks (run this under mpirun -np 2)");
    const std::string job = "test-" + w.broadcast(std::to_string(getpid()));

    // The fabric handle: plain bytes, any transport; here MPI.
    CUmemFabricHandle fabric{};
    if (w.rank() == 0) fake_export(&fabric, 77, CU_MEM_HANDLE_TYPE_FABRIC, 0);
    const std::string bytes = w.broadcast(w.rank() == 0 ? ipc::to_hex(&fabric, sizeof fabric) : std::string());
    if (w.rank() == 1) {
      ipc::from_hex(bytes, &fabric, sizeof fabric);
      const auto a = vmm::PhysicalAllocation::imported(&fabric, CU_MEM_HANDLE_TYPE_FABRIC, 2u << 20, 0);
      expect(a.handle() == 77, "rank 1 imported the fabric handle rank 0 exported (77), got " + std::to_string(a.handle()));
    }

    // The descriptor: SCM_RIGHTS over the rendezvous socket of the job.
    if (w.rank() == 1) {
      const UniqueFd listener = ipc::listen_at(job + "-1");
      w.barrier();
      const UniqueFd session = ipc::accept_one(listener.get(), 30s);
      ipc::Message m = ipc::receive_message(session.get(), 30s);
      expect(m.text == R"({"op":"import"})" && m.fd.held(), "rank 1 received the request with a descriptor attached");
      const auto a = vmm::PhysicalAllocation::imported(reinterpret_cast<void*>(static_cast<std::uintptr_t>(m.fd.get())),
                                                       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 2u << 20, 0);
      expect(a.handle() == 42, "rank 1 imported the descriptor rank 0 exported (42), got " + std::to_string(a.handle()));
      ipc::send_message(session.get(), std::to_string(a.handle()));
    } else {
      w.barrier();
      const UniqueFd session = ipc::connect_to(job + "-1", 30s);
      int fd = -1;
      fake_export(&fd, 42, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
      const UniqueFd exported(fd);
      ipc::send_message(session.get(), R"({"op":"import"})", exported.get());
      expect(ipc::receive_message(session.get(), 30s).text == "42", "rank 0 heard back that rank 1 imported 42");
    }
  } catch (const std::exception& e) {
    expect(false, std::string("rank ") + std::to_string(w.rank()) + ": " + e.what());
  }
  set_driver_for_testing(nullptr);
  const bool all = w.all(failures == 0);
  if (w.rank() == 0) std::cout << (all ? "exchange ok on every rank\n" : "exchange FAILED on some rank\n");
  return all ? 0 : 1;
}
