#pragma once
//! The processes a command's studies run on: this process alone, or the ones an MPI launcher
//! started (sim/backends/mc_mpi.h). Studies split their replications across them by themselves; a
//! command only opens them, checks its input alike on all of them, and asks whether it is the one
//! that prints and writes.
#include <sstream>
#include <streambuf>
#include <string_view>

#include "sim/backends/mc_mpi.h"

namespace gpuplan::study {

//! The processes for the life of one command (opens and closes MPI when a launcher started it).
class Processes {
 public:
  Processes() = default;
  Processes(const Processes&) = delete;
  Processes& operator=(const Processes&) = delete;

  //! False, after saying why on stderr, when `command` cannot run as one of the processes an MPI
  //! launcher started (e.g. this gpuplan was built without MPI).
  [[nodiscard]] bool ready(std::string_view command) const;
  //! True on the process that prints and writes (MPI rank 0, or the only one).
  [[nodiscard]] static bool root() { return mpi_world().root(); }

 private:
  MpiSession session_;
};

//! Input checks that every process makes alike while only rank 0 prints: on other ranks
//! std::cerr is held back from construction until agree() (or destruction).
class AgreedInputCheck {
 public:
  AgreedInputCheck();
  ~AgreedInputCheck();
  AgreedInputCheck(const AgreedInputCheck&) = delete;
  AgreedInputCheck& operator=(const AgreedInputCheck&) = delete;

  //! True when every process passed its checks (`ok`); call it on every process. A process whose
  //! checks failed while rank 0's passed (e.g. no GPU on its machine) prints what it held back,
  //! prefixed with its rank, and rank 0 says that another process rejected the input.
  [[nodiscard]] bool agree(bool ok);

 private:
  ProcessGroup g_;
  std::ostringstream held_;
  std::streambuf* cerr_ = nullptr;  //!< std::cerr's buffer while it is held back
  void release();
};

}  // namespace gpuplan::study
