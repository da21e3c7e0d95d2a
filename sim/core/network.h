#pragma once
//! Communication-aware job speed and link sharing. A started job runs at rate
//! 1 / (gpu slowdown x comm slowdown): the gpu slowdown of its pool (compiled), the comm slowdown
//! of its gang's placement from the compiled per-(class, GPU count, pool) cost rows, evaluated at
//! the bandwidth share its nodes get on every uplink they cross. Uplinks are shared fairly per
//! crossing node: share = uplink capacity / crossing nodes, capped at the node's line rate. When
//! a gang starts or ends, only the running gangs crossing an uplink whose load changed are
//! re-rated: their remaining work is brought up to date, their finish event is moved (generation
//! bump + new event), so time still jumps from event to event. Cost per start or end of a gang:
//! O(crossing gangs x their nodes x levels); single-node jobs cost O(1).
#include "sim/core/checkpointing.h"
#include "sim/core/placement.h"

namespace gpuplan {

//! Free GPUs that a node with `free` of `cap` free strands (free but on a partly used node).
[[nodiscard]] GPUPLAN_HD inline uint32_t stranded(uint32_t cap, uint32_t free) {
  return free > 0 && free < cap ? free : 0;
}

//! Topology level the gang on `nodes` spans: the lowest level where all share one group.
[[nodiscard]] GPUPLAN_HD inline uint32_t gang_span(const ModelView& m, const uint32_t* nodes,
                                                   uint32_t n) {
  for (uint32_t L = 0; L + 1 < m.net.n_levels; ++L) {
    const uint32_t* row = &m.net.node_group[L * m.n_nodes];
    bool together = true;
    for (uint32_t i = 1; i < n && together; ++i) together = row[nodes[i]] == row[nodes[0]];
    if (together) return L;
  }
  return m.net.n_levels - 1;  // NOTE: compile checks that the top level is one group
}

//! Communication row of a job of class `c` with `gpus` GPUs (the class's last row by default).
[[nodiscard]] GPUPLAN_HD inline uint32_t comm_row(const ModelView& m, uint32_t c, uint32_t gpus) {
  const uint32_t first = m.net.class_row0[c], n = m.net.class_rows[c];
  for (uint32_t k = 0; k + 1 < n; ++k)
    if (m.net.row_gpus[first + k] == gpus) return first + k;
  return first + n - 1;
}

//! Share of its line rate (0, 1] each node of the gang gets: the smallest, over its nodes and
//! the uplinks below `span` they cross, of capacity / crossing nodes / node line rate.
[[nodiscard]] GPUPLAN_HD inline double link_frac(const ModelView& m, const ReplicaState& s,
                                                 const uint32_t* nodes, uint32_t n, uint32_t span) {
  double frac = span == 0 ? m.net.span0_frac : 1.0;
  for (uint32_t i = 0; i < n; ++i) {
    const double line = m.net.node_line_gbps[nodes[i]];
    for (uint32_t L = 0; L < span; ++L) {
      const uint32_t g = m.net.node_group[L * m.n_nodes + nodes[i]];
      const double f = m.net.uplink_gbps[g] / (s.net.uplink_load[g] * line);
      if (f < frac) frac = f;
    }
  }
  return frac;
}

//! Duration multiplier of communication for cost row `row` on pool `pool` at span `span` with
//! `frac` of the line rate: (compute + latency at span) / ideal step + volume / busbw, where
//! busbw is the slower of the intra-node and the (shared) network all-reduce bandwidth.
[[nodiscard]] GPUPLAN_HD inline double comm_slowdown(const ModelView& m, uint32_t row,
                                                     uint32_t pool, uint32_t span, double frac) {
  const uint32_t k = row * m.pools.size + pool;
  const double fixed = m.net.comm_fixed[k * m.net.n_levels + span];
  if (m.net.comm_volume[k] == 0) return fixed;
  const double inter = m.net.comm_inter_gbyte_s[k] * frac;
  const double intra = m.net.comm_intra_gbyte_s[k];
  return fixed + m.net.comm_volume[k] / (inter < intra ? inter : intra);
}

//! Keeps every event but job finishes that lazy cancellation made stale.
struct LiveFinishes {
  span<const Job> jobs;
  [[nodiscard]] GPUPLAN_HD bool operator()(const Event& e) const {
    return e.kind() != EventKind::job_finish || e.gen == jobs[e.target].gen;
  }
};

//! Rebuilds the calendar without job finishes that lazy cancellation made stale (same order).
GPUPLAN_HD inline void drop_stale_finishes(ReplicaState& s) {
  compact_events(s.events, LiveFinishes{span<const Job>{s.jobs.data, s.jobs.size}});
}

//! Schedules the finish of the job in `slot` at its `finish`, first dropping stale finishes when
//! the calendar is full; false when it is full of live events.
[[nodiscard]] GPUPLAN_HD inline bool schedule_finish(ReplicaState& s, uint32_t slot) {
  const Job& j = s.jobs[slot];
  if (schedule_event(s.events, j.finish, EventKind::job_finish, slot, j.gen)) return true;
  drop_stale_finishes(s);
  return schedule_event(s.events, j.finish, EventKind::job_finish, slot, j.gen);
}

//! True when the run in `slot` pays a reload or checkpoint writes (sim/core/job_runs.h), so not
//! all of its wall time is compute.
[[nodiscard]] GPUPLAN_HD inline bool run_has_overheads(const ReplicaState& s, uint32_t slot) {
  const JobRun& jr = s.runs.jobs[slot];
  return jr.restart_s > 0 || jr.interval_s < NEVER;
}

//! Wall seconds the run in `slot` has spent computing by time t (its reload and checkpoint
//! writes excluded).
[[nodiscard]] GPUPLAN_HD inline double run_compute_by(const ModelView& m, const ReplicaState& s,
                                                      uint32_t slot, SimTime t) {
  const JobRun& jr = s.runs.jobs[slot];
  const double ckpt = m.class_runs[s.jobs[slot].class_idx].checkpoint_s;
  return split_run(t - jr.run_start, jr.restart_s, jr.interval_s, ckpt).compute_s;
}

//! Brings a running job's remaining work and comm integral up to s.now. Only compute time does
//! work: a reload or a checkpoint write in between does none.
GPUPLAN_HD inline void net_progress(const ModelView& m, ReplicaState& s, uint32_t slot) {
  JobNet& jn = s.net.jobs[slot];
  const double dt = s.now - jn.since;
  const double compute = run_has_overheads(s, slot) ? run_compute_by(m, s, slot, s.now) -
                                                          run_compute_by(m, s, slot, jn.since)
                                                    : dt;
  jn.work_left -= compute / jn.stretch;
  if (jn.work_left < 0) jn.work_left = 0;
  jn.comm_integral += jn.comm_slowdown * dt;
  jn.since = s.now;
}

//! Reference work the run in `slot` had done after `compute_s` wall seconds of compute (what a
//! checkpoint taken then keeps). Without a topology the run's rate never changes. With one it is
//! exact after the run's last change of rate, and pro rata to the work done by then before it
//! (the rate history is not kept).
[[nodiscard]] GPUPLAN_HD inline double work_done_by(const ModelView& m, const ReplicaState& s,
                                                    uint32_t slot, double compute_s) {
  const JobRun& jr = s.runs.jobs[slot];
  if (m.net.n_levels == 0) return compute_s / jr.slowdown;
  const JobNet& jn = s.net.jobs[slot];
  const double c_since = run_compute_by(m, s, slot, jn.since);
  const double done_since = s.jobs[slot].work - jn.work_left;
  if (compute_s >= c_since) return done_since + (compute_s - c_since) / jn.stretch;
  return c_since > 0 ? done_since * compute_s / c_since : 0.0;
}

//! Finish time of the running job in `slot` after a change of rate: its remaining work at the
//! new stretch, plus the checkpoint writes still due on the way (the run's phases are fixed in
//! wall seconds of compute from its start, sim/core/checkpointing.h).
[[nodiscard]] GPUPLAN_HD inline SimTime rerated_finish(const ModelView& m, const ReplicaState& s,
                                                       uint32_t slot) {
  const JobNet& jn = s.net.jobs[slot];
  if (!run_has_overheads(s, slot)) return s.now + jn.work_left * jn.stretch;
  const JobRun& jr = s.runs.jobs[slot];
  const double ckpt = m.class_runs[s.jobs[slot].class_idx].checkpoint_s;
  const double compute = run_compute_by(m, s, slot, s.now) + jn.work_left * jn.stretch;
  return jr.run_start + run_wall_s(compute, jr.restart_s, jr.interval_s, ckpt);
}

//! Gives the running job in `slot`, whose progress net_progress has just brought up to now, the
//! new `stretch` [simulated s per reference s] and moves its finish event (generation bump + new
//! event); false when the calendar overflowed. Link sharing and time-sliced GPUs re-rate with it.
[[nodiscard]] GPUPLAN_HD inline bool move_finish(const ModelView& m, ReplicaState& s, uint32_t slot,
                                                 double stretch) {
  Job& j = s.jobs[slot];
  s.net.jobs[slot].stretch = stretch;
  j.finish = rerated_finish(m, s, slot);
  j.gen += 1;
  s.net.rate_changes += 1;
  return schedule_finish(s, slot);
}

//! Adds uplink g's load since its last change to its window statistics (crossing node-seconds,
//! congested seconds) and restarts its clock at s.now. Congested: the crossing nodes' line rates
//! add up to more than the uplink carries, so link_frac() slows them down.
GPUPLAN_HD inline void net_integrate_uplink(const ModelView& m, ReplicaState& s, uint32_t g) {
  const double lo = s.net.uplink_since[g] > m.warmup ? s.net.uplink_since[g] : m.warmup;
  const double hi = s.now < m.horizon ? s.now : m.horizon;
  const uint32_t load = s.net.uplink_load[g];
  if (hi > lo && load > 0) {
    s.net.uplink_node_s[g] += load * (hi - lo);
    const double line = m.net.node_line_gbps[m.net.group_nodes[m.net.group_start[g]]];
    if (load * line > m.net.uplink_gbps[g]) s.net.uplink_congested_s[g] += hi - lo;
  }
  s.net.uplink_since[g] = s.now;
}

//! Brings every uplink's window statistics up to s.now (end of a replica).
GPUPLAN_HD inline void net_flush(const ModelView& m, ReplicaState& s) {
  for (uint32_t g = 0; g < m.net.n_groups; ++g) net_integrate_uplink(m, s, g);
}

//! Adds `delta` (+1 or -1) crossing nodes to every uplink the gang in `slot` crosses.
GPUPLAN_HD inline void net_load(const ModelView& m, ReplicaState& s, uint32_t slot, int delta) {
  const JobNet& jn = s.net.jobs[slot];
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  s.net.epoch += 1;
  for (uint32_t i = 0; i < s.jobs[slot].n_nodes; ++i) {
    for (uint32_t L = 0; L < jn.span_level; ++L) {
      const uint32_t g = m.net.node_group[L * m.n_nodes + nodes[i]];
      if (s.net.uplink_mark[g] != s.net.epoch) net_integrate_uplink(m, s, g);
      s.net.uplink_load[g] = static_cast<uint32_t>(static_cast<int>(s.net.uplink_load[g]) + delta);
      s.net.uplink_mark[g] = s.net.epoch;
    }
  }
}

//! Re-rates every sharing gang (except `skip`) that crosses an uplink changed in this epoch and
//! moves its finish event; false when the calendar overflowed.
GPUPLAN_HD inline bool net_rerate(const ModelView& m, ReplicaState& s, uint32_t skip) {
  bool ok = true;
  for (uint32_t k = 0; k < s.net.n_sharing; ++k) {
    const uint32_t slot = s.net.sharing[k];
    if (slot == skip) continue;
    Job& j = s.jobs[slot];
    JobNet& jn = s.net.jobs[slot];
    const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
    bool touched = false;
    for (uint32_t i = 0; i < j.n_nodes && !touched; ++i)
      for (uint32_t L = 0; L < jn.span_level && !touched; ++L)
        touched = s.net.uplink_mark[m.net.node_group[L * m.n_nodes + nodes[i]]] == s.net.epoch;
    if (!touched) continue;
    const double comm = comm_slowdown(m, jn.row, j.pool, jn.span_level,
                                      link_frac(m, s, nodes, j.n_nodes, jn.span_level));
    if (comm == jn.comm_slowdown) continue;
    net_progress(m, s, slot);
    jn.comm_slowdown = comm;
    ok = move_finish(m, s, slot, jn.gpu_slowdown * comm) && ok;
  }
  return ok;
}

//! Resets the network state at replica start.
GPUPLAN_HD inline void net_reset(const ModelView& m, ReplicaState& s) {
  for (uint32_t g = 0; g < m.net.n_groups; ++g) {
    s.net.uplink_load[g] = s.net.uplink_mark[g] = 0;
    s.net.uplink_since[g] = s.net.uplink_node_s[g] = s.net.uplink_congested_s[g] = 0;
  }
  s.net.n_sharing = 0;
  s.net.epoch = 0;
  s.net.stranded_gpus = 0;
  s.net.stranded_gpu_s = 0;
  s.net.comm_slowdown_sum = 0;
  s.net.multi_node_completed = 0;
  s.net.rate_changes = 0;
}

//! Rates the job just placed in `slot` (nodes taken, pool set) and sets its finish time; gangs
//! whose uplinks it now shares are re-rated. False when the calendar overflowed.
[[nodiscard]] GPUPLAN_HD inline bool net_start(const ModelView& m, ReplicaState& s, uint32_t slot) {
  Job& j = s.jobs[slot];
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  const double gpu_slowdown = m.slowdown[j.class_idx * m.pools.size + j.pool];
  const uint32_t cap = m.pools[j.pool].gpus_per_node;
  if (j.n_nodes == 1 && j.gpus < cap) {
    const uint32_t free = s.node_free[nodes[0]];
    s.net.stranded_gpus += stranded(cap, free);
    s.net.stranded_gpus -= stranded(cap, free + j.gpus);
  }
  if (m.net.n_levels == 0) {  // one non-blocking switch: every placement is ideal
    j.finish = s.now + j.work * gpu_slowdown;
    return true;
  }
  JobNet& jn = s.net.jobs[slot];
  jn.gpu_slowdown = gpu_slowdown;
  jn.comm_slowdown = 1;
  jn.work_left = j.work;
  jn.since = jn.started = s.now;
  jn.comm_integral = 0;
  jn.row = jn.span_level = jn.list_pos = NONE;
  bool ok = true;
  if (j.n_nodes > 1) {
    jn.span_level = gang_span(m, nodes, j.n_nodes);
    jn.row = comm_row(m, j.class_idx, j.gpus);
    if (jn.span_level > 0) {
      net_load(m, s, slot, +1);
      jn.list_pos = s.net.n_sharing;
      s.net.sharing[s.net.n_sharing++] = slot;
      ok = net_rerate(m, s, slot);
    }
    jn.comm_slowdown = comm_slowdown(m, jn.row, j.pool, jn.span_level,
                                     link_frac(m, s, nodes, j.n_nodes, jn.span_level));
  }
  jn.stretch = jn.gpu_slowdown * jn.comm_slowdown;
  j.finish = s.now + j.work * jn.stretch;
  return ok;
}

//! Unregisters the job in `slot` that ends now, before its GPUs are released: fragmentation,
//! the realized comm slowdown of a counted gang, and re-rating of the gangs that shared its
//! uplinks. False when the calendar overflowed.
[[nodiscard]] GPUPLAN_HD inline bool net_release(const ModelView& m, ReplicaState& s,
                                                 uint32_t slot) {
  Job& j = s.jobs[slot];
  const uint32_t cap = m.pools[j.pool].gpus_per_node;
  if (j.n_nodes == 1 && j.gpus < cap) {
    const uint32_t free = s.node_free[s.job_nodes[slot * m.max_nodes_per_job]];
    s.net.stranded_gpus -= stranded(cap, free);
    s.net.stranded_gpus += stranded(cap, free + j.gpus);
  }
  if (m.net.n_levels == 0) return true;
  JobNet& jn = s.net.jobs[slot];
  net_progress(m, s, slot);
  if (jn.span_level == NONE) return true;
  if (j.counted) {
    const double run = s.now - jn.started;
    s.net.comm_slowdown_sum += run > 0 ? jn.comm_integral / run : jn.comm_slowdown;
    s.net.multi_node_completed += 1;
  }
  if (jn.list_pos == NONE) return true;
  net_load(m, s, slot, -1);
  const uint32_t last = s.net.sharing[--s.net.n_sharing];
  s.net.sharing[jn.list_pos] = last;
  s.net.jobs[last].list_pos = jn.list_pos;
  jn.list_pos = NONE;
  return net_rerate(m, s, slot);
}

}  // namespace gpuplan
