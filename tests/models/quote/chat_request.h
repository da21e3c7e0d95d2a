//! The inference request the quote's tests size: Llama 3 8B at 200 requests/s, 1,000 tokens in /
//! 200 out, TTFT p99 1 s, TPOT p99 50 ms.
#pragma once

#include "models/perf/training/model_shape.h"
#include "models/quote/quote.h"

namespace gpuplan::quote {

inline InferenceRequest chat_request() {
  InferenceRequest req;
  req.model = *training::find_model_preset("llama-3-8b");
  req.model_label = "llama-3-8b";
  req.params = req.model.total_params();
  req.requests_per_s = 200;
  req.tokens_in = 1000;
  req.tokens_out = 200;
  req.ttft_p99_s = 1.0;
  req.tpot_p99_s = 0.05;
  return req;
}

}  // namespace gpuplan::quote
