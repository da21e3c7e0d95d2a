#pragma once
//! Autoscaling of a serving cluster's replicas on their concurrency, as Knative's and KServe's
//! autoscaler does: every `interval_s` the scaler wants ceil(mean requests in the replicas over
//! the interval / target per replica) replicas, between the minimum and the maximum (Knative
//! averages over a stable window: here the interval). Above what it has (serving and
//! provisioning), it first takes back replicas it was draining (warm), then provisions new ones,
//! which serve `provision_s` later (a node to boot, weights to load). Below what serves for
//! `scale_down_delay_s` on end (Kubernetes' stabilization window), it drains the replicas
//! beyond: the router sends them nothing more, and they are released at the first evaluation
//! that finds them empty. A replica is billed from the moment it is asked for until it is
//! released; the cluster's replica-seconds are integrated exactly, per series bin too.
#include "sim/serving/replica.h"

namespace gpuplan::serving {

//! A replica's place in the scaler's life cycle.
enum class ReplicaPhase : uint8_t {
  off,           //!< not provisioned, not billed
  provisioning,  //!< billed, serving from its ready time
  active,        //!< serving: the router sends it requests
  draining,      //!< billed, finishing its requests; the router sends it none
};

//! The scaler's state; `phase` empty: no autoscaling (every replica always serves).
struct ScalerState {
  span<ReplicaPhase> phase;  //!< [replica]
  span<double> ready_at_s;   //!< [replica] [s] when a provisioning replica starts serving
  uint32_t n_active = 0, n_provisioning = 0, n_draining = 0;
  double next_eval_s = 0;        //!< [s] the next evaluation
  double next_ready_s = 0;       //!< [s] the earliest ready time (when n_provisioning > 0)
  double billed_since_s = 0;     //!< [s] replica-seconds integrated up to here
  double below_since_s = -1;     //!< [s] since when fewer replicas were wanted (-1: not now)
  double in_flight_s = 0;        //!< [request·s] requests in the replicas integrated over time
  double in_flight_until_s = 0;  //!< [s] ... up to here
  double in_flight_at_eval = 0;  //!< [request·s] the integral at the last evaluation
};

//! Integrates the requests in the replicas (arrived, not completed) up to `now`, before an event
//! changes them.
GPUPLAN_HD inline void count_in_flight(ScalerState& s, const ServingStats& st, double now) {
  s.in_flight_s += double(st.arrived - st.completed) * (now - s.in_flight_until_s);
  s.in_flight_until_s = now;
}

//! Whether the router may send replica `r` a request.
[[nodiscard]] GPUPLAN_HD inline bool accepting(const ScalerState& s, uint32_t r) {
  return s.phase.size == 0 || s.phase[r] == ReplicaPhase::active;
}

//! Replicas billed now: serving, provisioning and draining.
[[nodiscard]] GPUPLAN_HD inline uint32_t billed_replicas(const ScalerState& s) {
  return s.n_active + s.n_provisioning + s.n_draining;
}

//! Adds the replica-seconds up to `now` to the statistics (before any change of the count).
GPUPLAN_HD inline void bill_until(ScalerState& s, ServingStats& st, double now) {
  if (!(now > s.billed_since_s)) return;
  const double n = double(billed_replicas(s));
  st.replica_s += n * (now - s.billed_since_s);
  series_add_replicas(st.series, s.billed_since_s, now, n);
  s.billed_since_s = now;
}

//! The earliest ready time of a provisioning replica.
GPUPLAN_HD inline void update_next_ready(ScalerState& s) {
  s.next_ready_s = 0;
  bool any = false;
  for (uint32_t r = 0; r < s.phase.size; ++r)
    if (s.phase[r] == ReplicaPhase::provisioning && (!any || s.ready_at_s[r] < s.next_ready_s)) {
      s.next_ready_s = s.ready_at_s[r];
      any = true;
    }
}

//! Starts the run with the minimum serving (at least one), billed from 0.
GPUPLAN_HD inline void start_scaler(const ServingView& v, ScalerState& s, ServingStats& st) {
  const Autoscale& a = v.autoscale;
  for (uint32_t r = 0; r < s.phase.size; ++r)
    s.phase[r] = r < a.min_replicas ? ReplicaPhase::active : ReplicaPhase::off;
  s.n_active = a.min_replicas;
  s.next_eval_s = a.interval_s;
  st.peak_replicas = s.n_active;
}

//! The scaler's next event [s]: an evaluation or a replica becoming ready.
[[nodiscard]] GPUPLAN_HD inline double next_scaler_event(const ScalerState& s) {
  return s.n_provisioning > 0 && s.next_ready_s < s.next_eval_s ? s.next_ready_s : s.next_eval_s;
}

//! Whether replica `r` holds no request.
[[nodiscard]] GPUPLAN_HD inline bool replica_empty(const ReplicaState& r) {
  return !r.busy && r.n_running == 0 && r.n_waiting == 0;
}

//! Replica `r`, empty, is released: its successor starts with an empty prefix cache.
GPUPLAN_HD inline void clear_cache(ReplicaState& r) {
  for (uint32_t g = 0; g < r.group_blocks.size; ++g) r.group_blocks[g] = 0;
  r.cached_blocks = 0;
  r.evictable_blocks = 0;
}

//! The scaler's event at `now` (next_scaler_event): provisioned replicas start serving; at an
//! evaluation, drained replicas are released and the count is set as the header says.
GPUPLAN_HD inline void scaler_event(const ServingView& v, ScalerState& s,
                                    span<ReplicaState> replicas, ServingStats& st, double now) {
  const Autoscale& a = v.autoscale;
  bill_until(s, st, now);
  count_in_flight(s, st, now);
  if (s.n_provisioning > 0 && s.next_ready_s <= now) {
    for (uint32_t r = 0; r < s.phase.size; ++r)
      if (s.phase[r] == ReplicaPhase::provisioning && s.ready_at_s[r] <= now) {
        s.phase[r] = ReplicaPhase::active;
        s.n_provisioning -= 1;
        s.n_active += 1;
      }
    update_next_ready(s);
  }
  if (s.next_eval_s > now) return;
  s.next_eval_s = now + a.interval_s;
  for (uint32_t r = 0; r < s.phase.size; ++r)
    if (s.phase[r] == ReplicaPhase::draining && replica_empty(replicas[r])) {
      s.phase[r] = ReplicaPhase::off;
      s.n_draining -= 1;
      clear_cache(replicas[r]);
    }
  const double in_replicas = (s.in_flight_s - s.in_flight_at_eval) / a.interval_s;
  s.in_flight_at_eval = s.in_flight_s;
  double want = ceil(in_replicas / a.target_requests);
  want = want < a.min_replicas ? a.min_replicas : want > a.max_replicas ? a.max_replicas : want;
  const uint32_t wanted = static_cast<uint32_t>(want);
  if (wanted > s.n_active + s.n_provisioning) {
    s.below_since_s = -1;
    uint32_t need = wanted - s.n_active - s.n_provisioning;
    st.scale_ups += 1;
    // Draining replicas are warm: they serve again at once.
    for (uint32_t r = 0; r < s.phase.size && need > 0; ++r)
      if (s.phase[r] == ReplicaPhase::draining) {
        s.phase[r] = ReplicaPhase::active;
        s.n_draining -= 1;
        s.n_active += 1;
        need -= 1;
      }
    for (uint32_t r = 0; r < s.phase.size && need > 0; ++r)
      if (s.phase[r] == ReplicaPhase::off) {
        if (a.provision_s > 0) {
          s.phase[r] = ReplicaPhase::provisioning;
          s.ready_at_s[r] = now + a.provision_s;
          s.n_provisioning += 1;
        } else {
          s.phase[r] = ReplicaPhase::active;
          s.n_active += 1;
        }
        need -= 1;
      }
    update_next_ready(s);
  } else if (wanted < s.n_active) {
    if (s.below_since_s < 0) s.below_since_s = now;
    if (now - s.below_since_s >= a.scale_down_delay_s) {
      s.below_since_s = -1;
      st.scale_downs += 1;
      // NOTE: the highest-numbered serving replicas go, so the lowest stay warm.
      for (uint32_t r = s.phase.size; r-- > 0 && s.n_active > wanted;)
        if (s.phase[r] == ReplicaPhase::active) {
          s.phase[r] = replica_empty(replicas[r]) ? ReplicaPhase::off : ReplicaPhase::draining;
          s.n_draining += s.phase[r] == ReplicaPhase::draining;
          if (s.phase[r] == ReplicaPhase::off) clear_cache(replicas[r]);
          s.n_active -= 1;
        }
    }
  } else {
    s.below_since_s = -1;
  }
  if (billed_replicas(s) > st.peak_replicas) st.peak_replicas = billed_replicas(s);
}

}  // namespace gpuplan::serving
