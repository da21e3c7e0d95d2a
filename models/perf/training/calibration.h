#pragma once
//! The step-time model against the calibration table: each published run's MFU next to the
//! model's for the run's own layout, and the errors per set (fitted, held out). What the quote
//! states as the model's accuracy and `gpuplan estimate calibration` prints (docs/estimate.md).
#include <cstddef>
#include <vector>

#include "models/perf/training/published_runs.h"

namespace gpuplan::training {

//! One published run and the model's MFU for it.
struct CalibrationRow {
  const PublishedRun* run = nullptr;
  double published = 0;  //!< the run's MFU in this model's FLOP count (published_mfu)
  double modelled = 0;   //!< step_time's MFU for the run's layout, GPU and precision
  //! Relative error: modelled / published - 1.
  [[nodiscard]] double error() const { return modelled / published - 1; }
};

//! Every row of published_runs(), in its order. Throws std::logic_error when a row names a GPU
//! the catalog lacks or a layout the model refuses (a defect of the table, never of input).
[[nodiscard]] const std::vector<CalibrationRow>& calibration_rows();

//! The absolute errors of one set of rows.
struct CalibrationErrors {
  std::size_t rows = 0;
  double median_abs = 0;  //!< median of |error|
  double worst_abs = 0;   //!< largest |error|
};

//! Errors of the rows with `fitted` as given (the fitted set, or the held-out one).
[[nodiscard]] CalibrationErrors calibration_errors(const std::vector<CalibrationRow>& rows,
                                                   bool fitted);

}  // namespace gpuplan::training
