#pragma once
//! The MPI calls gpuplan makes, behind a C interface: sim/backends/mpi_module.cpp implements it
//! in libgpuplan_mpi.so, the only binary linked to MPI, and sim/backends/mc_mpi.cpp loads that
//! module only in a process an MPI launcher started. A plain `gpuplan run` or `mc` therefore
//! never loads MPI's libraries (about 4 ms of every start on our machines).
#include <cstdint>

extern "C" {

//! Bumped whenever the table below changes, so a stale module is refused, not called.
#define GPUPLAN_MPI_ABI 1

//! Every call but `initialize` is made only between initialize and finalize; collectives are
//! made by every process of MPI_COMM_WORLD in the same order, from the thread that initialized.
struct GpuplanMpiTransport {
  uint32_t abi;  //!< GPUPLAN_MPI_ABI of the module
  //! MPI_Init_thread (funneled) unless MPI is initialized already; 1 when this call started it.
  int (*initialize)(void);
  //! MPI_Finalize, after MPI_Abort of every process when `abort_all`.
  void (*finalize)(int abort_all);
  //! This process's rank and the world's size; {0, 1} outside initialize..finalize.
  void (*world)(uint32_t* rank, uint32_t* size);
  //! 1 on every process when `ok` is 1 on every process.
  int (*all_true)(int ok);
  //! Overwrites bytes[0..n) on every process with rank 0's; n <= INT_MAX.
  void (*broadcast)(void* bytes, uint64_t n);
  //! Every process's `value` into all[0..size) on rank 0 (`all` is unused elsewhere).
  void (*gather_u32)(uint32_t value, uint32_t* all);
  //! Sums values[0..n) element-wise into rank 0's; n <= INT_MAX.
  void (*sum_u64_to_root)(uint64_t* values, uint64_t n);
  //! Gathers each process's `n` bytes at `mine` into `all` on rank 0, process r's at
  //! offsets[r] (counts and offsets are read on rank 0 only).
  void (*gather_bytes)(const void* mine, int n, void* all, const int* counts, const int* offsets);
};

//! The module's entry point: its table.
const GpuplanMpiTransport* gpuplan_mpi_transport(void);

}  // extern "C"
