#pragma once
//! The Alibaba GPU cluster trace "openb" (alibaba/clusterdata cluster-trace-gpu-v2023; Weng et
//! al., "Beware of Fragmentation", USENIX ATC'23): nodes with their GPU model, CPU and memory,
//! and pods with CPU, memory, GPU count, milli-GPU per GPU, an optional GPU-model constraint and
//! creation/deletion times. Every bad value is reported as `file:line: column NAME: message`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/diagnostic.h"

namespace gpuplan {

//! The file names of the openb node and pod lists on the data path (models/input/data_files.h).
inline constexpr const char* OPENB_NODES_FILE = "alibaba_openb_nodes.csv";
inline constexpr const char* OPENB_PODS_FILE = "alibaba_openb_pods.csv";

//! One node of the openb cluster.
struct OpenbNode {
  std::string name;  //!< `sn`
  uint32_t cpu_milli = 0;
  uint64_t mem_mib = 0;
  uint8_t n_gpus = 0;     //!< `gpu` (0..8)
  uint8_t model_idx = 0;  //!< index into OpenbTrace::models
};

//! One pod of the openb workload, in file order.
struct OpenbPod {
  std::string name;
  uint32_t cpu_milli = 0;
  uint64_t mem_mib = 0;
  uint8_t n_gpus = 0;      //!< `num_gpu` (0..8)
  uint16_t gpu_milli = 0;  //!< `gpu_milli` per GPU: 0 with no GPU, 1..1000 for one, 1000 for more
  uint32_t gpu_types = 0;  //!< bit m: model m acceptable; all bits when `gpu_spec` is empty
  double creation_s = 0;   //!< [s] from trace start
  double deletion_s = 0;   //!< [s] from trace start (≥ creation_s)
  int line = 0;            //!< line in the pods file
};

//! The openb cluster and workload.
struct OpenbTrace {
  std::vector<std::string> models;  //!< GPU model names of the nodes, first-seen order (≤ 32)
  std::vector<OpenbNode> nodes;
  std::vector<OpenbPod> pods;
};

//! Parses the node list (`sn,cpu_milli,memory_mib,gpu,model`) from `csv`; `file` labels errors.
[[nodiscard]] std::optional<OpenbTrace> parse_openb_nodes(std::string_view csv,
                                                          const std::string& file,
                                                          Diagnostics& diags);

//! Parses the pod list (`name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...,creation_time,
//! deletion_time`) from `csv` into `trace.pods`, resolving `gpu_spec` ('|'-separated models)
//! against trace.models; false after recording every problem.
[[nodiscard]] bool parse_openb_pods(std::string_view csv, const std::string& file,
                                    OpenbTrace& trace, Diagnostics& diags);

//! Reads and parses both files; nullopt after recording every problem.
[[nodiscard]] std::optional<OpenbTrace> read_openb(const std::string& nodes_path,
                                                   const std::string& pods_path,
                                                   Diagnostics& diags);

}  // namespace gpuplan
