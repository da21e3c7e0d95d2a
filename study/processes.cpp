#include "study/processes.h"

#include <iostream>
#include <string>

namespace gpuplan::study {

bool Processes::ready(std::string_view command) const {
  if (session_.error().empty()) return true;
  std::cerr << "gpuplan " << command << ": " << session_.error() << "\n";
  return false;
}

AgreedInputCheck::AgreedInputCheck() : g_(mpi_world()) {
  if (!g_.root()) cerr_ = std::cerr.rdbuf(held_.rdbuf());
}

AgreedInputCheck::~AgreedInputCheck() {
  release();
}

void AgreedInputCheck::release() {
  if (cerr_ != nullptr) std::cerr.rdbuf(cerr_);
  cerr_ = nullptr;
}

bool AgreedInputCheck::agree(bool ok) {
  const bool all_ok = all_true(g_, ok);
  uint32_t root_ok = ok ? 1 : 0;
  broadcast_from_root(g_, &root_ok, 1);
  release();
  if (all_ok || root_ok == 0) return all_ok;
  // Rank 0 accepted the input, so its reason is local to this machine: say it here.
  if (g_.root()) {
    std::cerr << "gpuplan: another MPI process rejected the input (see its [rank N] lines)\n";
  } else if (!ok) {
    std::istringstream lines(held_.str());
    for (std::string line; std::getline(lines, line);)
      std::cerr << "[rank " << g_.rank << "] " << line << "\n";
  }
  return false;
}

}  // namespace gpuplan::study
