#!/usr/bin/env python3
"""Writes scenarios/reproduce/gavel_fig8.json and gavel_fig9.json: Gavel's job generator
(Narayanan et al., OSDI'20; stanford-futuredata/gavel @ c4fa4009, scheduler/job_table.py and
scheduler/utils.py) as gpuplan job classes, one Poisson class per job type, scale factor and
part of the duration distribution (a split Poisson stream is independent Poisson streams).

Gavel draws each job as: a scale factor (1 with probability 0.7, 2 with 0.1, 4 with 0.15, 8 with
0.05; always 1 for the single-GPU trace), then a job type uniformly among its 26 templates (among
the 19 that can run distributed when the scale factor is above 1), then a duration on a V100:
80 % log-uniform over 10^1.5 .. 10^3 min, 20 % over 10^3 .. 10^4 min. The classes' rates sum
to 1 job/h, so `--set demand.load_scale=R` gives Gavel's input job rate R jobs/h.

A class may use only the GPU types on which Gavel's throughput file has a positive throughput
for its job type and scale factor (Gavel gives 0 where a job did not fit, e.g. ResNet-50 at
batch 128 on 2-8 K80s), as Gavel's policies do.

Usage: python3 tools/gavel_reproduce.py [--data-dir DIR]   (rewrites both files: review the diff)
       python3 tools/gavel_reproduce.py [--data-dir DIR] --seed-windows
       python3 tools/gavel_reproduce.py [--data-dir DIR] --replay 8|9 RATE HOURS SEED OUT
    prints, as a Markdown table, the jobs 4000-5000 that Gavel's simulator generates with seeds
    0-2 (its generator draws from Python's random.Random(seed + 2): per job a uniform draw for
    the scale factor, one for the duration's part, one for its exponent, then job templates until
    one fits the scale factor), and their mean duration on V100s and on each job's fastest GPU
    type: what the paper's curves start from at a low rate (docs/reproductions.md).
  --replay writes OUT/gavel_fig<8|9>_seed<SEED>.json and one CSV trace per class beside it: the
    jobs Gavel's simulator generates with SEED at RATE jobs/h, arriving before HOURS, as its
    simulator draws them (the jobs as above; the arrivals from random.Random(seed + 3), each gap
    -ln(1 - u) x 3600 / RATE seconds, the first job at 0: scheduler.py, simulate and
    _sample_arrival_time_delta), so gpuplan runs the very jobs of the published points.
DIR holds gavel_simulation_throughputs.json (docs/data-files.md); by default $GPUPLAN_DATA, else
the project's ../shared/data, as gpuplan looks.
"""
import json
import math
import os
import random
import sys

# Gavel's 26 job templates in job_table.py's order: (job type, runs distributed)
TEMPLATES = (
    [(f"ResNet-18 (batch size {b})", True) for b in (16, 32, 64, 128, 256)]
    + [(f"ResNet-50 (batch size {b})", True) for b in (16, 32, 64, 128)]
    + [(f"Transformer (batch size {b})", True) for b in (16, 32, 64, 128, 256)]
    + [(f"LM (batch size {b})", True) for b in (5, 10, 20, 40, 80)]
    + [(f"Recommendation (batch size {b})", False) for b in (512, 1024, 2048, 4096, 8192)]
    + [("A3C", False), ("CycleGAN", False)]
)
SCALE_SHARES = {1: 0.7, 2: 0.1, 4: 0.15, 8: 0.05}  # Gavel's _generate_scale_factor
PARTS = (("", 0.8, "31.6227766m", "1000m"), ("_long", 0.2, "1000m", "10000m"))


def short_name(job_type):
    name = job_type.lower().replace(" (batch size ", "_b").replace(")", "")
    return name.replace("-", "").replace(" ", "_")


POOLS = (("k80", "k80"), ("p100", "p100"), ("v100", "v100"))  # (pool, Gavel worker type)
GPU_IDS = {"k80": "K80", "p100": "P100-16GB", "v100": "V100-16GB"}  # the pools' GPU models


def classes(multi_gpu, throughputs):
    out = []
    n_distributed = sum(1 for _, d in TEMPLATES if d)
    for scale, share in SCALE_SHARES.items() if multi_gpu else ((1, 1.0),):
        for job_type, distributed in TEMPLATES:
            if scale > 1 and not distributed:
                continue
            p_type = share / (len(TEMPLATES) if scale == 1 else n_distributed)
            for suffix, p_part, low, high in PARTS:
                name = short_name(job_type) + (f"_x{scale}" if scale > 1 else "") + suffix
                key = f"('{job_type}', {scale})"
                pools = [p for p, w in POOLS
                         if throughputs[w].get(key, {}).get("null", 0) > 0]
                c = {
                    "name": name, "gavel_job_type": job_type, "reference_gpu": "V100-16GB",
                    "arrival": {"poisson": {"rate": f"{p_type * p_part:.9g}/h"}},
                    "gpus": scale,
                    "duration": {"loguniform": {"low": low, "high": high}},
                    "checkpoint": {"interval": "6m", "cost": "0s", "restart": "0s"},
                }
                if len(pools) < len(POOLS):
                    c["pools"] = pools
                out.append(c)
    return out


def scenario(name, description, multi_gpu, throughputs):
    return {
        "$schema": "../../docs/scenario.schema.json",
        "name": name,
        "description": description,
        "seed": 1,
        "horizon": "5720h",
        "warmup": "0s",
        "statistics": {"job_ids": [4000, 5000]},
        "throughputs": {"file": "gavel_simulation_throughputs.json"},
        # NOTE: one-GPU nodes: Gavel's simulator gives a job any free workers of a type each
        # round, by count (scheduler.py, _schedule_jobs_on_workers and _assign_workers_to_job),
        # and its throughput is the table's for the type and scale factor wherever they are; so
        # a gang needs free GPUs of one type, never whole free servers.
        "instances": [
            {"id": "gavel.k80", "gpu": "K80", "gpus_per_node": 1,
             "price_per_hour": {"on_demand": 0.9},
             "source": "AWS p2.xlarge on-demand $0.90/h per K80 GPU (us-east-1)",
             "as_of": "2020-11"},
            {"id": "gavel.p100", "gpu": "P100-16GB", "gpus_per_node": 1,
             "price_per_hour": {"on_demand": 1.46},
             "source": "Google Cloud P100 GPU on-demand $1.46/h per GPU (us-central1)",
             "as_of": "2020-11"},
            {"id": "gavel.v100", "gpu": "V100-16GB", "gpus_per_node": 1,
             "price_per_hour": {"on_demand": 3.06},
             "source": "AWS p3.2xlarge on-demand $3.06/h per V100 GPU (us-east-1)",
             "as_of": "2020-11"},
        ],
        "pools": [
            {"name": "k80", "instance": "gavel.k80", "count": 36},
            {"name": "p100", "instance": "gavel.p100", "count": 36},
            {"name": "v100", "instance": "gavel.v100", "count": 36},
        ],
        "workload": classes(multi_gpu, throughputs),
        "scheduler": {"policy": "max_min_fairness_perf", "round": "6m"},
        "limits": {"max_active_jobs": 100000},
    }


def gavel_jobs(seed, multi_gpu, n_jobs):
    """Gavel's first n_jobs jobs for `seed` as (job type, scale factor, duration on V100s [s])."""
    rng = random.Random(seed + 2)
    jobs = []
    for _ in range(n_jobs):
        r = rng.uniform(0, 1)
        scale = 2 if 0.7 <= r <= 0.8 else 4 if 0.8 <= r <= 0.95 else 8 if r >= 0.95 else 1
        tail = rng.random() >= 0.8
        duration = 60 * 10 ** (rng.uniform(3, 4) if tail else rng.uniform(1.5, 3))
        if not multi_gpu:
            scale = 1
        while True:
            job_type, distributed = rng.choice(TEMPLATES)
            if scale == 1 or distributed:
                break
        jobs.append((job_type, scale, duration))
    return jobs


def gavel_arrivals(seed, rate, n_jobs):
    """Gavel's first n_jobs arrival times [s] for `seed` at `rate` jobs/h."""
    rng = random.Random(seed + 3)
    t, out = 0.0, []
    for _ in range(n_jobs):
        out.append(t)
        t += -math.log(1.0 - rng.random()) * 3600.0 / rate
    return out


def replay(fig, rate, hours, seed, out, throughputs):
    """Writes the replay scenario of `seed`'s jobs and its traces into `out`."""
    multi_gpu = fig == "9"
    n_jobs = int(rate * hours * 1.2) + 100  # more than arrive before the horizon
    arrivals = [t for t in gavel_arrivals(seed, rate, n_jobs) if t < hours * 3600]
    assert len(arrivals) < n_jobs, "raise n_jobs"
    jobs = gavel_jobs(seed, multi_gpu, len(arrivals))
    rows = {}
    for t, (job_type, scale, duration) in zip(arrivals, jobs):
        rows.setdefault((job_type, scale), []).append((t, scale, duration))
    name = f"gavel_fig{fig}_seed{seed}"
    doc = scenario(name, f"Gavel OSDI'20 Figure {fig}: the jobs of seed {seed} at {rate} jobs/h",
                   multi_gpu, throughputs)
    workload = []
    for c in doc["workload"]:
        key = (c["gavel_job_type"], c["gpus"])
        if c["name"].endswith("_long") or key not in rows:
            continue
        trace = c["name"] + ".csv"
        with open(os.path.join(out, trace), "w") as f:
            f.write("submit_time,num_gpus,duration\n")
            for t, scale, duration in rows[key]:
                f.write(f"{t!r},{scale},{duration!r}\n")
        if c["gpus"] > 1:
            # NOTE: gpuplan reads a trace class's Gavel throughputs at scale factor 1 (its rows
            # may mix sizes); these rows are all one size, so their speeds are given as such.
            k = f"('{c['gavel_job_type']}', {c['gpus']})"
            c["speed"] = {GPU_IDS[w]: throughputs[w][k]["null"]
                          for p, w in POOLS if p in c.get("pools", [p for p, _ in POOLS])}
            del c["gavel_job_type"]
        del c["arrival"], c["gpus"], c["duration"]
        c["trace"] = {"path": trace, "rebase": False}
        workload.append(c)
    doc["workload"] = workload
    doc["horizon"] = f"{hours}h"
    doc["throughputs"]["file"] = "gavel_simulation_throughputs.json"
    del doc["$schema"]
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def seed_windows(throughputs):
    print("| trace | seed | jobs | mean duration on V100s [h] | on each job's fastest type [h] |")
    print("|---|---|---|---|---|")
    for multi_gpu, trace in ((False, "continuous-single (Figure 8)"),
                             (True, "continuous-multiple (Figure 9)")):
        for seed in (0, 1, 2):
            window = gavel_jobs(seed, multi_gpu, 5001)[4000:5001]
            on_v100 = sum(d for _, _, d in window) / len(window) / 3600
            fastest = 0.0
            for job_type, scale, d in window:
                key = f"('{job_type}', {scale})"
                best = max(throughputs[w].get(key, {}).get("null", 0) for _, w in POOLS)
                fastest += d * throughputs["v100"][key]["null"] / best
            fastest /= len(window) * 3600
            print(f"| {trace} | {seed} | {len(window)} | {on_v100:.2f} | {fastest:.2f} |")
        # The generator's own mean: each part's log-uniform mean, and the mix of job types and
        # scale factors weighted as the classes' rates.
        mean_s = sum(p * 60 * (10 ** b - 10 ** a) / ((b - a) * math.log(10))
                     for p, a, b in ((0.8, 1.5, 3), (0.2, 3, 4)))
        rates = [(float(c["arrival"]["poisson"]["rate"][:-2]), c)
                 for c in classes(multi_gpu, throughputs) if not c["name"].endswith("_long")]
        ratio = 0.0
        for rate, c in rates:
            key = f"('{c['gavel_job_type']}', {c['gpus']})"
            best = max(throughputs[w].get(key, {}).get("null", 0) for _, w in POOLS)
            ratio += rate * throughputs["v100"][key]["null"] / best
        ratio /= sum(rate for rate, _ in rates)
        print(f"| {trace} | the generator's mean | | {mean_s / 3600:.2f} "
              f"| {mean_s * ratio / 3600:.2f} |")


def main():
    args = sys.argv[1:]
    windows = "--seed-windows" in args
    args = [a for a in args if a != "--seed-windows"]
    replay_args = None
    if "--replay" in args:
        at = args.index("--replay")
        replay_args, args = args[at + 1:at + 6], args[:at] + args[at + 6:]
        if len(replay_args) != 5 or replay_args[0] not in ("8", "9"):
            sys.exit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    data = os.environ.get("GPUPLAN_DATA") or os.path.join(root, "..", "shared", "data")
    if len(args) == 2 and args[0] == "--data-dir":
        data = args[1]
    elif args:
        sys.exit(__doc__)
    with open(os.path.join(data, "gavel_simulation_throughputs.json")) as f:
        throughputs = json.load(f)
    if windows:
        seed_windows(throughputs)
        return
    if replay_args:
        fig, rate, hours, seed, out = replay_args
        replay(fig, float(rate), float(hours), int(seed), out, throughputs)
        return
    out = os.path.join(root, "scenarios", "reproduce")
    common = ("Written by tools/gavel_reproduce.py. Gavel's job generator at 1 job/h in all "
              "(scale with demand.load_scale), 36 K80 + 36 P100 + 36 V100 (one-GPU nodes: Gavel "
              "gives a job any free GPUs of a type), the mean JCT of "
              "jobs 4000-4999 followed to completion; docs/reproductions.md.")
    for name, desc, multi in (
        ("gavel_fig8", "Gavel OSDI'20 Figure 8: the continuous-single trace (single-GPU jobs)", False),
        ("gavel_fig9", "Gavel OSDI'20 Figure 9: the continuous-multiple trace (1-8 GPU jobs)", True),
    ):
        doc = scenario(name, desc, multi, throughputs)
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write("// " + common + "\n")
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
