#include "sim/backends/mc_mpi.h"

#include <climits>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/outcome_pack.h"

#if defined(GPUPLAN_HAVE_MPI)
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace gpuplan {
namespace {

//! A positive count from an environment variable, or 0.
uint32_t env_count(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return 0;
  const long n = std::strtol(v, nullptr, 10);
  return n > 0 && n < long(UINT32_MAX) ? static_cast<uint32_t>(n) : 0;
}

#if defined(GPUPLAN_HAVE_MPI)
//! A byte or element count MPI can take (it counts in int).
int mpi_count(std::size_t n) {
  if (n > std::size_t(INT_MAX))
    throw std::runtime_error(
        "a message between MPI processes would exceed 2 GiB; lower --batch so rounds are smaller");
  return static_cast<int>(n);
}
#else
[[noreturn]] void no_mpi() {
  throw std::logic_error("several processes without MPI compiled in");
}
#endif

}  // namespace

bool mpi_compiled_in() {
#if defined(GPUPLAN_HAVE_MPI)
  return true;
#else
  return false;
#endif
}

uint32_t launcher_process_count() {
  if (const uint32_t n = env_count("OMPI_COMM_WORLD_SIZE")) return n;
  if (const uint32_t n = env_count("PMI_SIZE")) return n;
  return std::getenv("PMIX_RANK") != nullptr ? 1 : 0;
}

ProcessGroup mpi_world() {
#if defined(GPUPLAN_HAVE_MPI)
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return {};
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return {static_cast<uint32_t>(rank), static_cast<uint32_t>(size)};
#else
  return {};
#endif
}

MpiSession::MpiSession() {
  const uint32_t launched = launcher_process_count();
  if (launched == 0) return;
#if defined(GPUPLAN_HAVE_MPI)
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  // NOTE: only the thread that called MPI_Init talks to MPI; OpenMP workers never do.
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
#else
  if (launched > 1)
    error_ = "gpuplan was built without MPI, so it cannot split replicas across the " +
             std::to_string(launched) +
             " processes the launcher started; rebuild it where libopenmpi-dev is installed "
             "(tools/setup.sh), or run it without mpirun";
#endif
}

MpiSession::~MpiSession() {
#if defined(GPUPLAN_HAVE_MPI)
  if (!started_) return;
  // NOTE: a process that fails mid-study would leave the others waiting in a collective forever.
  if (std::uncaught_exceptions() > 0) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
#endif
}

bool all_true(const ProcessGroup& g, bool ok) {
  if (g.size == 1) return ok;
#if defined(GPUPLAN_HAVE_MPI)
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
#else
  no_mpi();
#endif
}

void broadcast_from_root(const ProcessGroup& g, uint32_t* values, std::size_t n) {
  if (g.size == 1) return;
#if defined(GPUPLAN_HAVE_MPI)
  MPI_Bcast(values, mpi_count(n), MPI_UINT32_T, 0, MPI_COMM_WORLD);
#else
  (void)values, (void)n;
  no_mpi();
#endif
}

void broadcast_from_root(const ProcessGroup& g, double* values, std::size_t n) {
  if (g.size == 1) return;
#if defined(GPUPLAN_HAVE_MPI)
  MPI_Bcast(values, mpi_count(n), MPI_DOUBLE, 0, MPI_COMM_WORLD);
#else
  (void)values, (void)n;
  no_mpi();
#endif
}

void broadcast_from_root(const ProcessGroup& g, std::string& text) {
  if (g.size == 1) return;
#if defined(GPUPLAN_HAVE_MPI)
  uint64_t n = text.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  text.resize(n);
  MPI_Bcast(text.data(), mpi_count(n), MPI_CHAR, 0, MPI_COMM_WORLD);
#else
  (void)text;
  no_mpi();
#endif
}

std::vector<uint32_t> gather_to_root(const ProcessGroup& g, uint32_t value) {
  if (g.size == 1) return {value};
#if defined(GPUPLAN_HAVE_MPI)
  std::vector<uint32_t> all(g.root() ? g.size : 0);
  MPI_Gather(&value, 1, MPI_UINT32_T, all.data(), 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
  return all;
#else
  no_mpi();
#endif
}

void sum_to_root(const ProcessGroup& g, std::vector<uint64_t>& values) {
  if (g.size == 1) return;
#if defined(GPUPLAN_HAVE_MPI)
  const int n = mpi_count(values.size());
  if (g.root())
    MPI_Reduce(MPI_IN_PLACE, values.data(), n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(values.data(), nullptr, n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
#else
  (void)values;
  no_mpi();
#endif
}

void gather_round(const ProcessGroup& g, uint32_t n, const ReplicaOutcome* mine,
                  ReplicaOutcome* round) {
  if (g.size == 1) return;
#if defined(GPUPLAN_HAVE_MPI)
  const auto slice = [&](uint32_t r) {
    return std::pair{slice_begin(n, r, g.size), slice_begin(n, r + 1, g.size)};
  };
  std::vector<std::byte> packed;
  if (!g.root()) {
    const auto [lo, hi] = slice(g.rank);
    pack_outcomes(mine, hi - lo, packed);
  }
  int n_bytes = mpi_count(packed.size());
  std::vector<int> counts(g.root() ? g.size : 0), offsets(counts.size());
  MPI_Gather(&n_bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<std::byte> all;
  if (g.root()) {
    std::size_t total = 0;
    for (uint32_t r = 0; r < g.size; ++r) {
      offsets[r] = mpi_count(total);
      total += std::size_t(counts[r]);
    }
    mpi_count(total);
    all.resize(total);
  }
  MPI_Gatherv(packed.data(), n_bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE,
              0, MPI_COMM_WORLD);
  if (!g.root()) return;
  for (uint32_t r = 1; r < g.size; ++r) {
    const auto [lo, hi] = slice(r);
    unpack_outcomes(all.data() + offsets[r], std::size_t(counts[r]), round + lo, hi - lo);
  }
#else
  (void)n, (void)mine, (void)round;
  no_mpi();
#endif
}

}  // namespace gpuplan
