#include "sim/backends/mc_mpi.h"

#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "sim/backends/beside_executable.h"
#include "sim/backends/mpi_transport.h"
#include "sim/outcome_pack.h"

namespace gpuplan {
namespace {

//! A positive count from an environment variable, or 0.
uint32_t env_count(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return 0;
  const long n = std::strtol(v, nullptr, 10);
  return n > 0 && n < long(UINT32_MAX) ? static_cast<uint32_t>(n) : 0;
}

//! The transport of the loaded MPI module; null until an MpiSession loads it.
const GpuplanMpiTransport* loaded = nullptr;

//! Loads libgpuplan_mpi.so from the folder of the running executable (the build puts it there
//! where OpenMPI is installed); the transport, or null with `why` set for the `launched` processes.
//! NOTE: a file looked for at run time, not a compile-time definition, so installing OpenMPI
//! after a build recompiles no engine object.
const GpuplanMpiTransport* load_transport(uint32_t launched, std::string& why) {
  const std::filesystem::path module = beside_executable("libgpuplan_mpi.so");
  std::error_code ec;
  if (!std::filesystem::exists(module, ec)) {
    why = "gpuplan was built without MPI, so it cannot split replicas across the " +
          std::to_string(launched) +
          " processes the launcher started; rebuild it where libopenmpi-dev is installed "
          "(tools/setup.sh), or run it without mpirun";
    return nullptr;
  }
  // NOTE: RTLD_GLOBAL: Open MPI's own plugins look up libmpi's symbols globally.
  void* handle = ::dlopen(module.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    why = std::string("cannot load gpuplan's MPI module (") + ::dlerror() +
          "); the build puts libgpuplan_mpi.so beside gpuplan: copy it along, or run without "
          "mpirun";
    return nullptr;
  }
  using Entry = const GpuplanMpiTransport* (*)();
  const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "gpuplan_mpi_transport"));
  const GpuplanMpiTransport* t = entry != nullptr ? entry() : nullptr;
  if (t == nullptr || t->abi != GPUPLAN_MPI_ABI) {
    why = module.string() + " is not this gpuplan's MPI module (rebuild gpuplan)";
    return nullptr;
  }
  return t;
}

//! The transport for a group of several processes (an MpiSession loaded it).
const GpuplanMpiTransport& transport() {
  if (loaded == nullptr) throw std::logic_error("several processes without the MPI module loaded");
  return *loaded;
}

//! A byte or element count MPI can take (it counts in int).
int mpi_count(std::size_t n) {
  if (n > std::size_t(INT_MAX))
    throw std::runtime_error(
        "a message between MPI processes would exceed 2 GiB; lower --batch so rounds are smaller");
  return static_cast<int>(n);
}

//! Overwrites bytes[0..n) on every process of `g` with rank 0's.
void broadcast_bytes(const ProcessGroup& g, void* bytes, std::size_t n) {
  if (g.size == 1) return;
  transport().broadcast(bytes, uint64_t(mpi_count(n)));
}

}  // namespace

uint32_t launcher_process_count() {
  if (const uint32_t n = env_count("OMPI_COMM_WORLD_SIZE")) return n;
  if (const uint32_t n = env_count("PMI_SIZE")) return n;
  return std::getenv("PMIX_RANK") != nullptr ? 1 : 0;
}

ProcessGroup mpi_world() {
  if (loaded == nullptr) return {};
  ProcessGroup g;
  loaded->world(&g.rank, &g.size);
  return g;
}

MpiSession::MpiSession() {
  const uint32_t launched = launcher_process_count();
  if (launched == 0 || loaded != nullptr) return;
  std::string why;
  loaded = load_transport(launched, why);
  if (loaded == nullptr) {
    if (launched > 1) error_ = why;
    return;
  }
  started_ = loaded->initialize() != 0;
}

MpiSession::~MpiSession() {
  if (!started_) return;
  // NOTE: a process that fails mid-study would leave the others waiting in a collective forever.
  loaded->finalize(std::uncaught_exceptions() > 0 ? 1 : 0);
}

bool all_true(const ProcessGroup& g, bool ok) {
  if (g.size == 1) return ok;
  return transport().all_true(ok ? 1 : 0) == 1;
}

void broadcast_from_root(const ProcessGroup& g, uint32_t* values, std::size_t n) {
  broadcast_bytes(g, values, n * sizeof *values);
}

void broadcast_from_root(const ProcessGroup& g, double* values, std::size_t n) {
  broadcast_bytes(g, values, n * sizeof *values);
}

void broadcast_from_root(const ProcessGroup& g, std::string& text) {
  if (g.size == 1) return;
  uint64_t n = text.size();
  broadcast_bytes(g, &n, sizeof n);
  text.resize(n);
  broadcast_bytes(g, text.data(), n);
}

std::vector<uint32_t> gather_to_root(const ProcessGroup& g, uint32_t value) {
  if (g.size == 1) return {value};
  std::vector<uint32_t> all(g.root() ? g.size : 0);
  transport().gather_u32(value, all.data());
  return all;
}

void sum_to_root(const ProcessGroup& g, std::vector<uint64_t>& values) {
  if (g.size == 1) return;
  transport().sum_u64_to_root(values.data(), uint64_t(mpi_count(values.size())));
}

void gather_round(const ProcessGroup& g, uint32_t n, const ReplicaOutcome* mine,
                  ReplicaOutcome* round) {
  if (g.size == 1) return;
  const auto slice = [&](uint32_t r) {
    return std::pair{slice_begin(n, r, g.size), slice_begin(n, r + 1, g.size)};
  };
  std::vector<std::byte> packed;
  if (!g.root()) {
    const auto [lo, hi] = slice(g.rank);
    pack_outcomes(mine, hi - lo, packed);
  }
  const std::vector<uint32_t> sizes = gather_to_root(g, uint32_t(mpi_count(packed.size())));
  std::vector<int> counts(sizes.size()), offsets(sizes.size());
  std::vector<std::byte> all;
  if (g.root()) {
    std::size_t total = 0;
    for (uint32_t r = 0; r < g.size; ++r) {
      counts[r] = int(sizes[r]);
      offsets[r] = mpi_count(total);
      total += sizes[r];
    }
    mpi_count(total);
    all.resize(total);
  }
  transport().gather_bytes(packed.data(), int(packed.size()), all.data(), counts.data(),
                           offsets.data());
  if (!g.root()) return;
  for (uint32_t r = 1; r < g.size; ++r) {
    const auto [lo, hi] = slice(r);
    unpack_outcomes(all.data() + offsets[r], std::size_t(counts[r]), round + lo, hi - lo);
  }
}

}  // namespace gpuplan
