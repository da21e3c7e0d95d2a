//! The workload of a serving scenario (`workload`): arrivals (Poisson, staged rates, a replayed
//! trace or closed-loop streams), lengths, shared prefixes and multi-turn conversations; the rest
//! of the scenario is read by models/load/serving_scenario.cpp.
#include <algorithm>
#include <cmath>

#include "models/input/field_reader.h"
#include "models/load/length_reader.h"
#include "models/load/serving_scenario.h"
#include "models/perf/inference/token_trace.h"

namespace gpuplan {
namespace {

using fields::num;
using nlohmann::json;

constexpr uint64_t MAX_REQUESTS = 100'000'000;
constexpr uint32_t MAX_GROUPS = 65536;
constexpr size_t MAX_STAGES = 10000;
constexpr uint64_t MAX_STREAMS = 1'000'000;
constexpr double MAX_TOKENS = 1u << 20;        //!< a length's largest count, prompt or output
constexpr double MAX_CYCLE_S = 366 * 86400.0;  //!< [s] a year: a longer cycle never repeats

//! The arrivals of a replayed trace `t` at `rate_scale` times its pace: every row, or the first
//! `requests` (`given`), which must not be more than it has.
void replay_arrivals(const inference::TokenLengths& t, double rate_scale, bool given,
                     ServingScenario& sc, Diagnostics& d) {
  serving::Workload& w = sc.view.load;
  if (!given) w.n_requests = t.at_s.size();
  if (w.n_requests > t.at_s.size()) {
    d.error("/workload/requests", DiagCode::out_of_range,
            "the trace replayed has " + num(double(t.at_s.size())) + " requests, fewer than the " +
                num(double(w.n_requests)) + " asked for; drop \"requests\" to replay them all");
    return;
  }
  sc.arrival_times.reserve(w.n_requests);
  for (uint64_t k = 0; k < w.n_requests; ++k) sc.arrival_times.push_back(t.at_s[k] / rate_scale);
  // NOTE: the mean rate of what is replayed, for the figures that read one (offered load).
  const double span_s = sc.arrival_times.back();
  w.rate_per_s = span_s > 0 ? double(w.n_requests - 1) / span_s : double(w.n_requests);
  sc.rate_scale = rate_scale;
}

//! `stages`: the staged constant rates of Poisson arrivals, one cycle of them, repeating
//! (sim/serving/rate_stages.h), each rate `rate_scale` times as given; the workload's mean rate is
//! theirs over the cycle.
void load_stages(const json& x, double rate_scale, FieldReader& f, Diagnostics& d,
                 ServingScenario& sc) {
  if (!x.is_array() || x.empty() || x.size() > MAX_STAGES) {
    d.error("/workload/stages", DiagCode::wrong_type,
            "give an array of 1 to " + num(double(MAX_STAGES)) +
                " stages, each {\"rate\": \"20/s\", \"duration\": \"10m\"}");
    return;
  }
  double end_s = 0;
  bool ok = true;
  for (size_t i = 0; i < x.size(); ++i) {
    const std::string p = "/workload/stages/" + std::to_string(i);
    if (!f.object(x[i], p)) {
      ok = false;
      continue;
    }
    f.check_keys(x[i], p, serving_keys_at("/workload/stages/*"));
    std::optional<double> rate, length;
    if (const json* y = f.need(x[i], p, "rate", "requests per second, e.g. \"20/s\""))
      rate = f.rate(*y, p + "/rate");
    if (const json* y = f.need(x[i], p, "duration", "how long the rate holds, e.g. \"10m\""))
      length = f.duration(*y, p + "/duration", true);
    if (!rate || !length) {
      ok = false;
      continue;
    }
    end_s += *length;
    sc.stages.push_back({end_s, *rate * rate_scale});
  }
  if (ok && end_s > MAX_CYCLE_S) {
    d.error("/workload/stages", DiagCode::out_of_range,
            "the stages last " + num(end_s / 86400) + " days together; a cycle of at most " +
                num(MAX_CYCLE_S / 86400) + " days repeats, so give one cycle (a day, a week)");
    ok = false;
  }
  if (!ok) {
    sc.stages.clear();
    return;
  }
  sc.rate_scale = rate_scale;
  sc.view.load.rate_per_s =
      serving::mean_stage_rate({sc.stages.data(), uint32_t(sc.stages.size())});
}

//! Multi-turn conversations (`workload.conversation`): each closed-loop stream talks in
//! conversations of `turns` turns (a count, or {"mean": m}: geometric, the user ending after each
//! answer with probability 1/m), a turn passing `max_context` tokens opening a new one.
void load_conversation(const json& x, const json& workload, const json& root, FieldReader& f,
                       Diagnostics& d, ServingScenario& sc) {
  serving::Workload& w = sc.view.load;
  f.check_keys(x, "/workload/conversation", serving_keys_at("/workload/conversation"));
  if (!f.get(workload, "streams"))
    d.error("/workload/conversation", DiagCode::infeasible,
            "conversations are held by closed-loop users: give \"streams\" (and \"think\", the "
            "pause before each next turn)");
  if (f.get(workload, "prefix"))
    d.error("/workload/prefix", DiagCode::infeasible,
            "a conversation's turns share their history, not a system prompt: drop \"prefix\" "
            "(a system prompt is part of the first turn's length)");
  if (f.get(root, "disaggregated"))
    d.error("/workload/conversation", DiagCode::infeasible,
            "conversations keep their history in the replica that answered: not modelled with "
            "disaggregated prefill and decode yet");
  if (const json* t = f.need(x, "/workload/conversation", "turns",
                             "turns per conversation: a count, or {\"mean\": 4} (geometric)")) {
    if (t->is_object()) {
      f.check_keys(*t, "/workload/conversation/turns", {"mean"});
      if (const json* m = f.need(*t, "/workload/conversation/turns", "mean", "turns on average"))
        if (auto a = f.number(*m, "/workload/conversation/turns/mean", 1, 1e6)) {
          w.turns_kind = serving::LengthKind::geometric;
          w.turns_a = *a;
        }
    } else if (auto n = f.integer(*t, "/workload/conversation/turns", 1, 1'000'000)) {
      w.turns_kind = serving::LengthKind::fixed;
      w.turns_a = double(*n);
    }
  }
  w.max_context = sc.model.seq_len;
  if (const json* y = f.get(x, "max_context"))
    if (auto n = f.integer(*y, "/workload/conversation/max_context", 1, MAX_TOKENS))
      w.max_context = uint32_t(*n);
}
}  // namespace

std::string load_serving_workload(const json& root, FieldReader& f, Diagnostics& d,
                                  ServingScenario& sc, const std::string& base_dir,
                                  const std::vector<std::string>& data_path) {
  serving::ServingView& v = sc.view;
  serving::Workload& w = v.load;
  w.n_requests = 10000;
  w.prompt_a = 0;
  w.output_a = 0;
  std::string lengths_ptr = "/workload";
  if (const json* x = f.need(root, "", "workload", "arrivals and lengths");
      x && f.object(*x, "/workload")) {
    f.check_keys(*x, "/workload", serving_keys_at("/workload"));
    // Arrivals: Poisson at `rate`, or the trace's own timestamps replayed (`rate_scale` times as
    // fast), each request with its row's lengths.
    bool replay = false;
    if (const json* y = f.get(*x, "arrivals")) {
      if (auto a = f.string(*y, "/workload/arrivals")) {
        if (*a == "trace") {
          replay = true;
        } else if (*a != "poisson") {
          d.unknown_name("/workload/arrivals", "arrival process", *a, {"poisson", "trace"});
        }
      }
    }
    const json* stages = f.get(*x, "stages");
    double rate_scale = 1;
    if (const json* y = f.get(*x, "rate_scale")) {
      if (!replay && !stages)
        d.error("/workload/rate_scale", DiagCode::infeasible,
                "rate_scale speeds up a replayed trace (\"arrivals\": \"trace\") or scales "
                "\"stages\" (a recorded day's rates for a smaller service); Poisson arrivals "
                "take their \"rate\" directly");
      else if (auto r = f.number(*y, "/workload/rate_scale", 1e-6, 1e6))
        rate_scale = *r;
    }
    for (const char* key : {"stages", "streams"})
      if (replay && f.get(*x, key))
        d.error(
            std::string("/workload/") + key, DiagCode::infeasible,
            "a replayed trace's timestamps give the arrivals; drop \"" + std::string(key) + "\"");
    for (const char* key : {"think", "ramp"})
      if (f.get(*x, key) && !f.get(*x, "streams"))
        d.error(std::string("/workload/") + key, DiagCode::infeasible,
                "\"" + std::string(key) +
                    "\" shapes the requests of closed-loop \"streams\"; "
                    "give streams or drop it");
    if (replay) {
      if (f.get(*x, "rate"))
        d.error("/workload/rate", DiagCode::infeasible,
                "a replayed trace's timestamps give the arrivals; drop \"rate\" (scale them with "
                "\"rate_scale\")");
      if (!f.get(*x, "trace"))
        d.error("/workload", DiagCode::missing_key,
                "\"arrivals\": \"trace\" replays a trace's timestamps; name it in \"trace\"");
    } else if (const json* n = f.get(*x, "streams")) {
      for (const char* key : {"rate", "stages"})
        if (f.get(*x, key))
          d.error(std::string("/workload/") + key, DiagCode::infeasible,
                  "closed-loop \"streams\" send a request when their previous one completes; "
                  "drop \"" +
                      std::string(key) + "\"");
      if (auto k = f.integer(*n, "/workload/streams", 1, MAX_STREAMS)) w.streams = uint32_t(*k);
      if (const json* y = f.get(*x, "think"))
        if (auto t = f.duration(*y, "/workload/think", false)) w.think_s = *t;
      if (const json* y = f.get(*x, "ramp"))
        if (auto t = f.duration(*y, "/workload/ramp", false)) w.ramp_s = *t;
      // NOTE: only a first guess of the rate (the series' first width, refined as it runs):
      // every stream sending once per think time, or per millisecond without one.
      w.rate_per_s = w.streams / std::max(w.think_s, 1e-3);
      sc.queue_capacity = static_cast<uint32_t>(std::max<uint64_t>(
          sc.queue_capacity, streams_queue_per_replica(w.streams, v.n_replicas)));
    } else if (stages) {
      if (f.get(*x, "rate"))
        d.error("/workload/rate", DiagCode::infeasible, "\"stages\" give the rates; drop \"rate\"");
      load_stages(*stages, rate_scale, f, d, sc);
    } else if (const json* y =
                   f.need(*x, "/workload", "rate", "requests per second, e.g. \"20/s\"")) {
      if (auto r = f.rate(*y, "/workload/rate")) w.rate_per_s = *r;
    }
    if (const json* y = f.get(*x, "requests")) {
      if (auto n = f.integer(*y, "/workload/requests", 1, MAX_REQUESTS)) w.n_requests = *n;
    } else if (!sc.stages.empty()) {  // one cycle's expected arrivals
      w.n_requests = static_cast<uint64_t>(
          std::clamp(std::round(w.rate_per_s * sc.stages.back().end_s), 1.0, double(MAX_REQUESTS)));
    }
    if (const json* y = f.get(*x, "warmup_requests"))
      if (auto n = f.integer(*y, "/workload/warmup_requests", 0, MAX_REQUESTS))
        w.warmup_requests = *n;
    const json* trace = f.get(*x, "trace");
    const json* tin = f.get(*x, "tokens_in");
    const json* tout = f.get(*x, "tokens_out");
    if (trace) {
      lengths_ptr = "/workload/trace";
      if (tin || tout)
        d.error(tin ? "/workload/tokens_in" : "/workload/tokens_out", DiagCode::infeasible,
                "the trace gives the lengths; drop tokens_in and tokens_out");
      if (auto ref = f.string(*trace, "/workload/trace"))
        if (auto t = inference::load_token_trace(*ref, base_dir, data_path, "/workload/trace", d,
                                                 replay)) {
          sc.lengths_source = *ref;
          sc.lengths.reserve(t->in.size());
          for (size_t i = 0; i < t->in.size(); ++i)
            sc.lengths.push_back({static_cast<uint32_t>(std::max(1.0, std::round(t->in[i]))),
                                  static_cast<uint32_t>(std::max(1.0, std::round(t->out[i])))});
          if (replay) replay_arrivals(*t, rate_scale, f.get(*x, "requests") != nullptr, sc, d);
        }
    } else {
      sc.lengths_source = "fixed";
      std::optional<inference::LengthDistribution> in, out;
      if (tin) {
        in = read_length_distribution(f, d, *tin, "/workload/tokens_in", 1, MAX_TOKENS);
      } else {
        d.error("/workload", DiagCode::missing_key,
                "missing \"tokens_in\": give lengths (tokens_in, tokens_out) or a \"trace\"");
      }
      if (tout) {
        out = read_length_distribution(f, d, *tout, "/workload/tokens_out", 1, MAX_TOKENS);
      } else {
        d.error("/workload", DiagCode::missing_key,
                "missing \"tokens_out\": give lengths (tokens_in, tokens_out) or a \"trace\"");
      }
      using Kind = inference::LengthDistribution::Kind;
      if (in && out && in->kind == Kind::fixed && out->kind == Kind::fixed) {
        w.prompt_a = std::round(in->a);
        w.output_a = std::round(out->a);
      } else if (in && out) {
        // NOTE: the quote's stratified sample (models/perf/inference/length_distribution.h) as
        // the rows requests draw from, so a distribution means what it means in a quote.
        const inference::TokenLengths t = inference::stratified_lengths(*in, *out);
        lengths_ptr = "/workload/tokens_in";
        sc.lengths_source = "prompt " + in->text() + ", output " + out->text() + " tokens";
        sc.lengths.reserve(t.in.size());
        for (size_t i = 0; i < t.in.size(); ++i)
          sc.lengths.push_back({static_cast<uint32_t>(std::max(1.0, std::round(t.in[i]))),
                                static_cast<uint32_t>(std::max(1.0, std::round(t.out[i])))});
      }
    }
    // NOTE: after the trace, whose length a replay takes as its number of requests.
    if (w.warmup_requests >= w.n_requests)
      d.error("/workload/warmup_requests", DiagCode::out_of_range,
              "warmup_requests " + num(double(w.warmup_requests)) +
                  " leaves no request counted of the " + num(double(w.n_requests)) +
                  " requests; use fewer");
    if (const json* p = f.get(*x, "prefix"); p && f.object(*p, "/workload/prefix")) {
      f.check_keys(*p, "/workload/prefix", serving_keys_at("/workload/prefix"));
      if (auto r = f.opt_number(*p, "/workload/prefix", "share", 0, 1)) w.prefix_share = *r;
      w.prefix_groups = 1;
      if (const json* y = f.get(*p, "groups"))
        if (auto n = f.integer(*y, "/workload/prefix/groups", 1, MAX_GROUPS))
          w.prefix_groups = uint32_t(*n);
      if (const json* y = f.need(*p, "/workload/prefix", "tokens", "tokens of each shared prefix"))
        if (auto n = f.integer(*y, "/workload/prefix/tokens", 1, 1u << 20))
          w.prefix_tokens = uint32_t(*n);
    }
    if (const json* p = f.get(*x, "conversation"); p && f.object(*p, "/workload/conversation"))
      load_conversation(*p, *x, root, f, d, sc);
  }
  return lengths_ptr;
}

}  // namespace gpuplan
