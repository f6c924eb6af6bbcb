#pragma once
// MPI, as much of it as vmmcheck needs: ranks, a barrier, bytes broadcast and gathered. Built only where
// an MPI is found (VMMCHECK_WITH_MPI); `vmmcheck run --mpi` is the only user (cli/mpi_run.hpp).
#include <string>
#include <vector>

namespace vmmcheck::mpi {

class World {
 public:
  World();   // MPI_Init; the node-local rank from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)
  ~World();  // MPI_Finalize
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // among the ranks of this node

  void barrier() const;
  // Rank 0's `text`, on every rank.
  std::string broadcast(const std::string& text) const;
  // Every rank's `text`, in rank order, on every rank.
  std::vector<std::string> allgather(const std::string& text) const;
  // Whether every rank passed `ok` true.
  bool all(bool ok) const;

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0;
};

}  // namespace vmmcheck::mpi
