#include "mpi/mpi_world.hpp"

#include <mpi.h>

#include <stdexcept>

namespace vmmcheck::mpi {
namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + ": " + std::string(text, static_cast<std::size_t>(length)));
}

}  // namespace

World::World() {
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  // Errors come back as codes (then exceptions), not as an abort of the whole job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  check(MPI_Comm_rank(node, &local_rank_), "MPI_Comm_rank");
  MPI_Comm_free(&node);
}

World::~World() { MPI_Finalize(); }

void World::barrier() const { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

std::string World::broadcast(const std::string& text) const {
  int length = static_cast<int>(text.size());
  check(MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string out = rank_ == 0 ? text : std::string(static_cast<std::size_t>(length), '\0');
  check(MPI_Bcast(out.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return out;
}

std::vector<std::string> World::allgather(const std::string& text) const {
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) offsets[i] = total, total += lengths[i];
  std::string all(static_cast<std::size_t>(total), '\0');
  check(MPI_Allgatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i) out.push_back(all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  return out;
}

bool World::all(bool ok) const {
  int mine = ok ? 1 : 0, every = 0;
  check(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  return every == 1;
}

}  // namespace vmmcheck::mpi
