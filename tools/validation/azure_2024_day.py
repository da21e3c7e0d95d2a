#!/usr/bin/python3
"""Hourly request rates of one day of the Azure LLM inference trace 2024, read off its plot.

The 2024 traces (Stojkovic et al., "DynamoLLM", HPCA 2025) are a week of requests, 27.3 M of the
conversation service; they are downloaded from Azure's blob store, not held in the repository.
The repository's notebook, Azure/AzurePublicDataset@b469a11
analysis/AzureLLMInferenceDataset2024.ipynb, plots the invocations per minute of each service
over the week (cell 18). This script reads that figure's pixels: the axes from its spines and
grid lines (0 to 5,000 a minute; 12 to 19 May 2024, UTC), the curve as the middle of its blue
pixels in each column (7.2 minutes a column), averaged by the hour. Checked against the notebook's
own row count: the week's digitized total is within 1 % of the 27,303,999 rows it prints.

    git -C AzurePublicDataset show b469a11:analysis/AzureLLMInferenceDataset2024.ipynb > nb.json
    /usr/bin/python3 tools/validation/azure_2024_day.py nb.json --day 14

prints the day's 24 stages for a serving scenario ("rate" in requests a minute) and the check.
Needs python3-pil (Debian).
"""
import argparse
import base64
import io
import json

import numpy as np
from PIL import Image

FIRST_DAY, DAYS, Y_TOP = 12, 7, 5000  # the plot's x range (May 2024) and its top grid line


def figure(notebook, cell, service):
    outputs = json.load(open(notebook))["cells"][cell]["outputs"]
    pngs = [o["data"]["image/png"] for o in outputs if "image/png" in o.get("data", {})]
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(pngs[service]))).convert("RGB")).astype(int)


def per_hour(im):
    h, w, _ = im.shape
    dark = im.sum(axis=2) < 200
    x0, x1 = [x for x in range(w) if dark[:, x].sum() > 0.6 * h]
    top, bottom = [y for y in range(h) if dark[y, :].sum() > 0.6 * w]
    gray = (np.ptp(im, axis=2) < 8) & (im[:, :, 0] > 150) & (im[:, :, 0] < 235)
    grid = [y for y in range(h) if gray[y, :].sum() > 0.3 * w]  # 5,000 down to 1,000
    px_per_request = (grid[-1] - grid[0]) / (Y_TOP - 1000)
    y_zero = grid[-1] + 1000 * px_per_request
    blue = (im[:, :, 2] - im[:, :, 0] > 60) & (im[:, :, 2] > 120)
    hours = [[] for _ in range(DAYS * 24)]
    for x in range(x0 + 1, x1):
        ys = np.nonzero(blue[top + 1 : bottom, x])[0] + top + 1
        if len(ys):
            hour = int((x - x0) / (x1 - x0) * DAYS * 24)
            hours[hour].append((y_zero - (ys.min() + ys.max()) / 2) / px_per_request)
    return [float(np.mean(v)) for v in hours]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook")
    ap.add_argument("--day", type=int, default=14, help="day of May 2024 (12 to 18)")
    ap.add_argument("--service", type=int, default=1, help="0: code, 1: conversation")
    args = ap.parse_args()
    rates = per_hour(figure(args.notebook, 18, args.service))
    week = sum(rates) * 60
    print(f"week total from the figure: {week / 1e6:.2f} M requests (the notebook: 27.30 M rows)")
    day = rates[(args.day - FIRST_DAY) * 24 :][:24]
    print(f"May {args.day}: mean {np.mean(day):.0f}/min, peak {max(day):.0f}, trough {min(day):.0f}")
    print(json.dumps([{"rate": f"{r:.0f}/m", "duration": "1h"} for r in day]))


if __name__ == "__main__":
    main()
