//! libgpuplan_mpi.so: the MPI transport (sim/backends/mpi_transport.h), the one binary that links
//! MPI. Built as a module beside gpuplan; sim/backends/mc_mpi.cpp loads it on demand.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "sim/backends/mpi_transport.h"

namespace {

bool running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

int initialize() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return 0;
  // NOTE: only the thread that called MPI_Init talks to MPI; OpenMP workers never do.
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  return 1;
}

void finalize(int abort_all) {
  if (abort_all) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
}

void world(uint32_t* rank, uint32_t* size) {
  int r = 0, n = 1;
  if (running()) {
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
  }
  *rank = static_cast<uint32_t>(r);
  *size = static_cast<uint32_t>(n);
}

int all_true(int ok) {
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

void broadcast(void* bytes, uint64_t n) {
  MPI_Bcast(bytes, static_cast<int>(n), MPI_BYTE, 0, MPI_COMM_WORLD);
}

void gather_u32(uint32_t value, uint32_t* all) {
  MPI_Gather(&value, 1, MPI_UINT32_T, all, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
}

void sum_u64_to_root(uint64_t* values, uint64_t n) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int count = static_cast<int>(n);
  if (rank == 0)
    MPI_Reduce(MPI_IN_PLACE, values, count, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(values, nullptr, count, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
}

void gather_bytes(const void* mine, int n, void* all, const int* counts, const int* offsets) {
  MPI_Gatherv(mine, n, MPI_BYTE, all, counts, offsets, MPI_BYTE, 0, MPI_COMM_WORLD);
}

constexpr GpuplanMpiTransport TRANSPORT = {GPUPLAN_MPI_ABI, initialize,      finalize,
                                           world,           all_true,        broadcast,
                                           gather_u32,      sum_u64_to_root, gather_bytes};

}  // namespace

extern "C" __attribute__((visibility("default"))) const GpuplanMpiTransport* gpuplan_mpi_transport(
    void) {
  return &TRANSPORT;
}
