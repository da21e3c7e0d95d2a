#include "reports/html_assets.h"

// NOTE: kept as raw strings so the report needs no asset files at run time; edit them here.
namespace gpuplan::reports {

std::string_view report_css() {
  return R"ASSET(:root {
  --ink: #1f2937; --muted: #5b6472; --line: #e3e6eb; --bg: #f4f6f9; --card: #ffffff;
  --accent: #1d4ed8; --ok: #047857; --ok-bg: #ecfdf5; --warn: #b45309; --warn-bg: #fffbeb;
  --bad: #b91c1c; --bad-bg: #fef2f2; --info: #1d4ed8; --info-bg: #eff6ff;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 var(--sans); }
code, pre { font-family: var(--mono); font-size: 0.9em; }
code { background: #eef1f5; padding: 0.05em 0.35em; border-radius: 4px; }
pre code { background: none; padding: 0; color: inherit; border-radius: 0; }
a { color: var(--accent); }
.masthead { background: #0f1b33; color: #f5f7fb; padding: 28px 0 22px; }
.wrap { max-width: 1180px; margin: 0 auto; padding: 0 28px; }
.brand { text-transform: uppercase; letter-spacing: 0.12em; font-size: 12px; color: #9fb3d9; font-weight: 600; }
.masthead h1 { margin: 6px 0 6px; font-size: 30px; font-weight: 650; letter-spacing: -0.01em; word-break: break-word; }
.meta { margin: 0; color: #c5d0e3; font-size: 13.5px; }
.meta span + span::before { content: "·"; margin: 0 0.55em; color: #7f90b0; }
nav.toc { background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 5; }
nav.toc ul { list-style: none; margin: 0 auto; padding: 0 28px; max-width: 1180px; display: flex; gap: 4px; flex-wrap: wrap; }
nav.toc a { display: inline-block; padding: 10px 12px; color: var(--muted); text-decoration: none; font-size: 14px; font-weight: 500; border-bottom: 2px solid transparent; }
nav.toc a:hover, nav.toc a:focus-visible { color: var(--accent); border-bottom-color: var(--accent); }
main { display: block; padding: 8px 0 40px; }
section { margin-top: 28px; }
h2 { font-size: 20px; margin: 0 0 12px; font-weight: 650; }
h3 { font-size: 15px; margin: 0; font-weight: 600; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; box-shadow: 0 1px 2px rgba(16, 24, 40, 0.05); padding: 18px 20px; }
.banner { border-radius: 10px; padding: 14px 18px; margin-bottom: 16px; border: 1px solid; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.banner-bad { background: var(--bad); border-color: var(--bad); color: #fff; }
.banner-title { display: block; font-size: 18px; }
.banner code { background: rgba(255, 255, 255, 0.2); color: #fff; }
.banner p { margin: 4px 0 0; }
.verdicts { display: grid; grid-template-columns: 1fr; gap: 0; margin: 0; }
.verdict { display: grid; grid-template-columns: 170px 1fr; gap: 16px; padding: 12px 0; border-top: 1px solid var(--line); }
.verdict:first-child { border-top: 0; padding-top: 0; }
.verdict dt { font-weight: 600; color: var(--muted); font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; padding-top: 2px; }
.verdict dd { margin: 0; }
.verdict dd p { margin: 0 0 6px; }
.verdict dd p:last-child { margin-bottom: 0; }
.pill { display: inline-block; font-size: 12.5px; font-weight: 650; padding: 1px 10px; border-radius: 999px; margin-right: 8px; vertical-align: 1px; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.pill-ok { background: var(--ok-bg); color: var(--ok); border: 1px solid #a7f3d0; }
.pill-warn { background: var(--warn-bg); color: var(--warn); border: 1px solid #fcd34d; }
.pill-bad { background: var(--bad-bg); color: var(--bad); border: 1px solid #fca5a5; }
.pill-info { background: var(--info-bg); color: var(--info); border: 1px solid #bfdbfe; }
.kpis { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 14px; }
.kpi { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; box-shadow: 0 1px 2px rgba(16, 24, 40, 0.05); }
.kpi .label { font-size: 12.5px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; }
.kpi .value { font-size: 26px; font-weight: 650; margin-top: 4px; font-variant-numeric: tabular-nums; letter-spacing: -0.01em; }
.kpi .ci { font-size: 13px; color: var(--ink); font-variant-numeric: tabular-nums; }
td .ci { display: block; color: var(--muted); font-size: 12px; }
.kpi .detail { font-size: 12.5px; color: var(--muted); margin-top: 2px; }
.kpi.nm .value { font-size: 17px; color: var(--bad); padding: 6px 0 3px; }
.subgrid { display: grid; grid-template-columns: 3fr 2fr; gap: 14px; margin-top: 14px; }
.note { color: var(--muted); font-size: 13px; margin: 8px 0 0; }
.charts { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 14px; }
figure { margin: 0; }
figure.wide { grid-column: 1 / -1; }
figcaption p { margin: 2px 0 10px; color: var(--muted); font-size: 13px; }
.chart-box { position: relative; height: 300px; }
figure.wide .chart-box { height: 320px; }
.topo-box { overflow: auto; max-height: 560px; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
.topo-box svg { display: block; max-width: none; height: auto; }
figure.topo { margin-top: 14px; }
.load-legend { display: inline-flex; flex-wrap: wrap; gap: 10px; margin: 0 4px; }
.load-legend i, i.swatch { display: inline-block; width: 14px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: middle; }
section > .kpis + .card, section > .kpis + .charts, section > .card + .charts, section > .charts + .card, section > .note + .charts { margin-top: 14px; }
.placeholder { display: flex; align-items: center; color: var(--muted); font-size: 14px; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; font-size: 15px; padding: 0 0 8px; }
caption small { font-weight: 400; color: var(--muted); margin-left: 6px; }
th, td { padding: 7px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { font-size: 12px; color: var(--muted); font-weight: 600; border-bottom: 2px solid #cfd5dd; vertical-align: bottom; }
td.num, th.num { text-align: right; }
td.num { white-space: nowrap; }
.facts-table th { white-space: nowrap; }
td.nm-row { color: var(--bad); font-style: italic; text-align: center; }
td.nm { color: var(--bad); font-style: italic; }
tbody tr:hover { background: #f8fafc; }
.table-scroll { overflow-x: auto; }
th button.sort { all: unset; cursor: pointer; display: inline-flex; gap: 4px; align-items: center; border-radius: 4px; }
th button.sort:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
th button.sort::after { content: "\2195"; opacity: 0.35; font-size: 11px; }
th[aria-sort="ascending"] button.sort::after { content: "\25B2"; opacity: 0.9; }
th[aria-sort="descending"] button.sort::after { content: "\25BC"; opacity: 0.9; }
.table-card + .table-card { margin-top: 14px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0 0 14px; }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; word-break: break-word; }
pre.echo { background: #0f172a; color: #e2e8f0; padding: 14px 16px; border-radius: 8px; max-height: 520px; overflow: auto; margin: 0; line-height: 1.45; white-space: pre-wrap; word-break: break-word; }
ul.warnings { margin: 0; padding-left: 0; list-style: none; }
ul.warnings li { padding: 8px 12px; border-left: 4px solid #f59e0b; background: var(--warn-bg); margin-bottom: 8px; border-radius: 0 6px 6px 0; word-break: break-word; }
footer { color: var(--muted); font-size: 12.5px; padding: 18px 0 32px; border-top: 1px solid var(--line); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 900px) {
  .kpis { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .charts, .subgrid { grid-template-columns: 1fr; }
  .verdict { grid-template-columns: 1fr; gap: 4px; }
}
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { background: #fff; font-size: 10.5pt; }
  .masthead { background: #fff; color: var(--ink); padding: 0 0 8px; border-bottom: 2px solid var(--ink); }
  .brand { color: var(--muted); }
  .meta { color: var(--muted); }
  .meta span + span::before { color: var(--muted); }
  .wrap { max-width: none; padding: 0; }
  nav.toc { display: none; }
  .card, .kpi { box-shadow: none; border-color: #cfd5dd; }
  section { margin-top: 0; break-before: page; }
  section#summary { break-before: auto; margin-top: 12px; }
  figure, .kpi, .card, tr, .banner, ul.warnings li { break-inside: avoid; }
  h2 { break-after: avoid; }
  .kpis { grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 8px; }
  .kpi { padding: 8px 10px; }
  .kpi .value { font-size: 15pt; }
  .kpi.nm .value { font-size: 11pt; }
  .verdict { grid-template-columns: 32mm 1fr; gap: 10px; }
  .charts { grid-template-columns: 1fr; gap: 10px; }
  .chart-box, figure.wide .chart-box { width: 100%; height: 68mm; }
  .subgrid { grid-template-columns: 1fr; }
  .topo-box { max-height: none; overflow: hidden; }
  .topo-box svg { max-width: 100%; }
  pre.echo { max-height: none; overflow: visible; background: #fff; color: var(--ink); border: 1px solid #cfd5dd; font-size: 8pt; }
  th button.sort::after { content: none; }
  a { color: inherit; text-decoration: none; }
}
)ASSET";
}

std::string_view report_error_capture_js() {
  return R"ASSET(window.gpuplanProblems = [];
window.addEventListener('error', function (e) {
  window.gpuplanProblems.push('script error: ' + (e.message || 'unknown') + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
});
document.addEventListener('securitypolicyviolation', function (e) {
  window.gpuplanProblems.push('blocked request: ' + e.blockedURI + ' (' + e.violatedDirective + ')');
});
(function () {
  var original = console.error;
  console.error = function () {
    window.gpuplanProblems.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
})();
)ASSET";
}

std::string_view report_js() {
  return R"ASSET((function () {
  'use strict';
  const DATA = JSON.parse(document.getElementById('gp-data').textContent);
  const PALETTE = ['#2563eb', '#d97706', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d', '#b91c1c'];
  const PRICING_COLOR = {on_demand: '#2563eb', spot: '#d97706', reserved_1y: '#059669', reserved_3y: '#047857', on_prem: '#64748b'};
  const DURATION_UNITS = [[1e-3, 1000, 'ms'], [1, 60, 's'], [60, 60, 'min'], [3600, 24, 'h'], [86400, Infinity, 'd']];
  const NICE_DURATIONS = [0.001, 0.01, 0.1, 1, 10, 60, 600, 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400];

  // Mirrors format_duration() in reports/format.cpp: about three significant digits.
  const shown = v => (v < 9.95 ? Math.round(v * 10) / 10 : Math.round(v));
  function fmtDur(s) {
    if (!Number.isFinite(s)) return 'n/a';
    if (s < 0) return '-' + fmtDur(-s);
    if (s === 0) return '0 s';
    let k = 0;
    while (k + 1 < DURATION_UNITS.length && shown(s / DURATION_UNITS[k][0]) >= DURATION_UNITS[k][1]) k++;
    const v = shown(s / DURATION_UNITS[k][0]);
    return v.toLocaleString('en-US', {maximumFractionDigits: v < 10 ? 1 : 0}) + ' ' + DURATION_UNITS[k][2];
  }
  const fmtNum = (v, d) => v.toLocaleString('en-US', {minimumFractionDigits: d, maximumFractionDigits: d});
  const fmtMoney = v => (v < 0 ? '-$' : '$') + fmtNum(Math.abs(v), 2);
  function fmtMoneyAxis(v) {
    const a = Math.abs(v);
    if (a >= 1e6) return '$' + fmtNum(v / 1e6, a >= 1e7 ? 0 : 1) + 'M';
    if (a >= 1e3) return '$' + fmtNum(v / 1e3, a >= 1e4 ? 0 : 1) + 'k';
    return '$' + fmtNum(v, 0);
  }
  function withAlpha(hex, a) {
    const n = parseInt(hex.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  }

  Chart.defaults.animation = false;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.font.size = 12;
  Chart.defaults.color = '#5b6472';
  Chart.defaults.borderColor = '#e3e6eb';
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.plugins.legend.labels.boxWidth = 14;
  Chart.defaults.plugins.legend.labels.filter = (item, data) => !data.datasets[item.datasetIndex].gpHideLegend;

  const ts = DATA.timeseries || {};
  const bands = DATA.bands || {};
  const t = ts.t_s || [];
  const span = t.length > 1 ? t[t.length - 1] - t[0] : 0;
  const timeUnit = span > 3 * 86400 ? {scale: 86400, name: 'days'} : span > 3 * 3600 ? {scale: 3600, name: 'hours'} : {scale: 60, name: 'minutes'};

  function points(series) {
    const out = [];
    (series || []).forEach((y, i) => {
      if (i < t.length && y !== null && Number.isFinite(y)) out.push({x: t[i] / timeUnit.scale, y: y});
    });
    return out;
  }
  function bandDatasets(band, color, label) {
    return [
      {label: label + ', 10th percentile', data: points(band.p10), borderWidth: 0, pointRadius: 0, fill: false, gpHideLegend: true},
      {label: label + ', 10th–90th percentile', data: points(band.p90), borderWidth: 0, pointRadius: 0,
       backgroundColor: withAlpha(color, 0.16), fill: '-1'},
      {label: label + ', median', data: points(band.p50), borderColor: color, backgroundColor: color, borderWidth: 1.6, pointRadius: 0}];
  }
  function line(label, series, color, extra) {
    return Object.assign({label: label, data: points(series), borderColor: color, backgroundColor: color, borderWidth: 1.6, pointRadius: 0}, extra || {});
  }
  // Shades the warmup period, whose jobs count in no statistic.
  const warmupShade = {
    id: 'gpWarmup',
    beforeDatasetsDraw(chart) {
      const w = DATA.warmup_s;
      if (!(w > 0)) return;
      const area = chart.chartArea, ctx = chart.ctx;
      const right = Math.min(chart.scales.x.getPixelForValue(w / timeUnit.scale), area.right);
      if (right <= area.left) return;
      ctx.save();
      ctx.fillStyle = 'rgba(100, 116, 139, 0.12)';
      ctx.fillRect(area.left, area.top, right - area.left, area.bottom - area.top);
      ctx.fillStyle = '#475569';
      ctx.font = '11px ' + Chart.defaults.font.family;
      ctx.fillText('warmup', area.left + 5, area.bottom - 6);
      ctx.restore();
    }};
  function timeOptions(yTitle, yTick, tooltipValue) {
    return {
      parsing: false, normalized: true,
      interaction: {mode: 'index', intersect: false},
      scales: {
        x: {type: 'linear', title: {display: true, text: 'Time since start of simulation (' + timeUnit.name + ')'},
            ticks: {maxTicksLimit: 12}, grid: {display: false}},
        y: {beginAtZero: true, title: {display: true, text: yTitle}, ticks: {callback: yTick}}},
      plugins: {tooltip: {callbacks: {
        title: items => items.length ? 't = ' + fmtDur(items[0].parsed.x * timeUnit.scale) + ' (' + fmtNum(items[0].parsed.x * timeUnit.scale, 0) + ' s)' : '',
        label: item => item.dataset.label + ': ' + tooltipValue(item.parsed.y)}}}};
  }
  const countTick = v => fmtNum(v, Number.isInteger(v) ? 0 : 1);

  function chartGpus() {
    const sets = [];
    if (bands.busy_gpus) sets.push(...bandDatasets(bands.busy_gpus, PALETTE[0], 'Busy GPUs'));
    else if (ts.busy_gpus) sets.push(line('Busy GPUs (mean over each bin)', ts.busy_gpus, PALETTE[0], {fill: 'origin', backgroundColor: withAlpha(PALETTE[0], 0.12)}));
    if (ts.provisioned_gpus) sets.push(line('Provisioned GPUs', ts.provisioned_gpus, '#334155', {stepped: 'before', borderDash: [6, 4], borderWidth: 1.4, fill: false}));
    return {type: 'line', plugins: [warmupShade], data: {datasets: sets}, options: timeOptions('GPUs', countTick, v => fmtNum(v, 1) + ' GPUs')};
  }
  function chartQueue() {
    const sets = bands.queued_jobs ? bandDatasets(bands.queued_jobs, PALETTE[1], 'Queued jobs')
                                   : [line('Queued jobs', ts.queued_jobs, PALETTE[1], {fill: 'origin', backgroundColor: withAlpha(PALETTE[1], 0.12)})];
    return {type: 'line', plugins: [warmupShade], data: {datasets: sets}, options: timeOptions('Jobs waiting to start', countTick, v => fmtNum(v, Number.isInteger(v) ? 0 : 1) + ' jobs')};
  }
  function chartSpend() {
    let sets;
    if (bands.cumulative_spend_usd) {
      sets = bandDatasets(bands.cumulative_spend_usd, PALETTE[2], 'Cumulative spend');
    } else {
      let sum = 0;
      const cumulative = ts.spend_usd.map(v => (sum += (Number.isFinite(v) ? v : 0)));
      sets = [line('Cumulative spend', cumulative, PALETTE[2], {fill: 'origin', backgroundColor: withAlpha(PALETTE[2], 0.12)})];
    }
    return {type: 'line', plugins: [warmupShade], data: {datasets: sets}, options: timeOptions('US dollars spent since start', fmtMoneyAxis, fmtMoney)};
  }
  function chartCdf(key, verb) {
    const classes = DATA.classes.filter(c => c[key] && c[key].x_s && c[key].x_s.length);
    let minPositive = Infinity;
    classes.forEach(c => c[key].x_s.forEach(x => { if (x > 0 && x < minPositive) minPositive = x; }));
    // NOTE: a log axis cannot show 0 s, so zero durations sit at the left edge and the tooltip says "0 s".
    const floor = Number.isFinite(minPositive) ? minPositive / 2 : 1;
    const sets = classes.map((c, i) => ({
      label: c.name,
      data: c[key].x_s.map((x, j) => ({x: Math.max(x, floor), y: 100 * c[key].p[j], s: x})),
      borderColor: PALETTE[i % PALETTE.length], backgroundColor: PALETTE[i % PALETTE.length],
      borderWidth: 1.8, pointRadius: 0}));
    return {type: 'line', data: {datasets: sets}, options: {
      parsing: false, interaction: {mode: 'nearest', intersect: false},
      scales: {
        x: {type: 'logarithmic', title: {display: true, text: verb === 'wait' ? 'Wait before first start (log scale)' : 'Job completion time, submit to finish (log scale)'},
            afterBuildTicks: axis => {
              const nice = NICE_DURATIONS.filter(v => v >= axis.min && v <= axis.max);
              if (nice.length >= 2) axis.ticks = nice.map(v => ({value: v}));
            },
            ticks: {callback: v => fmtDur(v), autoSkip: false, maxRotation: 0}},
        y: {min: 0, max: 100, title: {display: true, text: 'Share of jobs (%)'}, ticks: {callback: v => v + '%'}}},
      plugins: {tooltip: {callbacks: {
        title: () => '',
        label: item => item.dataset.label + ': ' + fmtNum(item.parsed.y, 1) + '% of jobs ' +
          (verb === 'wait' ? 'waited' : 'finished within') + ' ≤ ' + fmtDur(item.raw.s) + ' (' + fmtNum(item.raw.s, 1) + ' s)'}}}}};
  }
  function chartCost() {
    const pools = DATA.pools;
    const total = pools.reduce((a, p) => a + p.cost_usd, 0);
    return {type: 'bar', data: {
      labels: pools.map(p => p.pricing ? [p.name, p.pricing.replace(/_/g, ' ')] : p.name),
      datasets: [{label: 'Cost (USD)', data: pools.map(p => p.cost_usd), maxBarThickness: 72, borderRadius: 4,
                  backgroundColor: pools.map((p, i) => PRICING_COLOR[p.pricing] || PALETTE[i % PALETTE.length])}]},
      options: {
        scales: {x: {grid: {display: false}}, y: {beginAtZero: true, title: {display: true, text: 'US dollars over the statistics window'}, ticks: {callback: fmtMoneyAxis}}},
        plugins: {legend: {display: false}, tooltip: {callbacks: {
          title: items => items.length ? pools[items[0].dataIndex].name : '',
          label: item => fmtMoney(item.parsed.y) + (total > 0 ? ' (' + fmtNum(100 * item.parsed.y / total, 1) + '% of total)' : '')}}}}};
  }

  function chartClassCost() {
    const rows = DATA.class_cost;
    const total = rows.reduce((a, r) => a + r.cost_usd, 0);
    return {type: 'bar', data: {
      labels: rows.map(r => r.name),
      datasets: [{label: 'Cost (USD)', data: rows.map(r => r.cost_usd), maxBarThickness: 72, borderRadius: 4,
                  backgroundColor: rows.map((r, i) => r.idle ? '#cbd5e1' : PALETTE[i % PALETTE.length])}]},
      options: {
        scales: {x: {grid: {display: false}}, y: {beginAtZero: true, title: {display: true, text: 'US dollars over the statistics window'}, ticks: {callback: fmtMoneyAxis}}},
        plugins: {legend: {display: false}, tooltip: {callbacks: {
          label: item => fmtMoney(item.parsed.y) + (total > 0 ? ' (' + fmtNum(100 * item.parsed.y / total, 1) + '% of total)' : '')}}}}};
  }
  function chartGpuHours() {
    const g = DATA.gpu_hours;
    const v = k => (Number.isFinite(g[k]) ? g[k] : 0);
    const parts = [['Useful', v('useful'), '#059669'], ['Lost to preemption', v('lost_to_preemption'), '#b91c1c'],
                   ['Checkpoint overhead', v('checkpoint_overhead'), '#d97706'], ['Restart overhead', v('restart_overhead'), '#7c3aed']];
    if (Number.isFinite(g.provisioned) && Number.isFinite(g.busy)) parts.push(['Idle (provisioned − busy)', Math.max(0, g.provisioned - g.busy), '#cbd5e1']);
    const total = Number.isFinite(g.provisioned) ? g.provisioned : parts.reduce((a, p) => a + p[1], 0);
    const gh = x => fmtNum(x, x >= 100 ? 0 : 1) + ' GPU-h';
    return {type: 'bar', data: {labels: ['Provisioned GPU-hours'],
      datasets: parts.map(p => ({label: p[0], data: [p[1]], backgroundColor: p[2], borderWidth: 0, maxBarThickness: 70}))},
      options: {indexAxis: 'y',
        scales: {x: {stacked: true, beginAtZero: true, title: {display: true, text: 'GPU-hours over the statistics window'}, ticks: {callback: v => fmtNum(v, 0)}},
                 y: {stacked: true, grid: {display: false}}},
        plugins: {tooltip: {callbacks: {label: item => item.dataset.label + ': ' + gh(item.parsed.x) + (total > 0 ? ' (' + fmtNum(100 * item.parsed.x / total, 1) + '% of provisioned)' : '')}}}}};
  }
  function chartPoolUtil() {
    const rows = DATA.pool_util;
    const overall = DATA.overall_util;
    const sets = [{type: 'bar', label: 'GPU utilization (%)', data: rows.map(r => 100 * r.util), maxBarThickness: 72, borderRadius: 4,
                   backgroundColor: rows.map((r, i) => PRICING_COLOR[r.pricing] || PALETTE[i % PALETTE.length])}];
    if (Number.isFinite(overall)) sets.push({type: 'line', label: 'Whole cluster', data: rows.map(() => 100 * overall), borderColor: '#334155', borderDash: [6, 4], borderWidth: 1.4, pointRadius: 0, fill: false});
    return {type: 'bar', data: {labels: rows.map(r => r.pricing ? [r.name, r.pricing.replace(/_/g, ' ')] : r.name), datasets: sets},
      options: {
        scales: {x: {grid: {display: false}}, y: {min: 0, max: 100, title: {display: true, text: 'GPU utilization (%)'}, ticks: {callback: v => v + '%'}}},
        plugins: {legend: {display: false}, tooltip: {callbacks: {label: item => item.dataset.label.replace(' (%)', '') + ': ' + fmtNum(item.parsed.y, 1) + '%'}}}}};
  }
  function chartTco() {
    const colors = {cloud: '#2563eb', on_prem: '#64748b', hybrid: '#059669'};
    const monthly = s => (s || []).map((y, m) => ({x: m + 1, y: y})).filter(p => p.y !== null && Number.isFinite(p.y));
    const sets = [];
    DATA.tco.forEach((o, i) => {
      const color = colors[o.name] || PALETTE[i % PALETTE.length];
      const label = o.name.replace(/_/g, ' ');
      if (o.band) {  // Monte Carlo: 10th-90th percentile across replications, shaded
        sets.push({label: label + ', 10th percentile', data: monthly(o.band.p10), borderWidth: 0, pointRadius: 0, fill: false, gpHideLegend: true});
        sets.push({label: label + ', 10th–90th percentile', data: monthly(o.band.p90), borderWidth: 0, pointRadius: 0,
                   backgroundColor: withAlpha(color, 0.16), fill: '-1'});
      }
      sets.push({label: label + (o.band ? ', mean' : ''), data: monthly(o.cumulative_usd), borderColor: color, backgroundColor: color,
                 borderWidth: 1.8, pointRadius: 0});
    });
    return {type: 'line', data: {datasets: sets}, options: {
      parsing: false, interaction: {mode: 'index', intersect: false},
      scales: {x: {type: 'linear', min: 0, title: {display: true, text: 'Months from now (end of month)'}, ticks: {stepSize: 6}},
               y: {beginAtZero: true, title: {display: true, text: 'Cumulative US dollars'}, ticks: {callback: fmtMoneyAxis}}},
      plugins: {tooltip: {callbacks: {title: items => items.length ? 'End of month ' + (items[0].parsed.x - 1) : '',
                                      label: item => item.dataset.label + ': ' + fmtMoney(item.parsed.y)}}}}};
  }

  const BUILDERS = {gpus: chartGpus, queue: chartQueue, spend: chartSpend, cost: chartCost,
                    class_cost: chartClassCost, gpu_hours: chartGpuHours, pool_util: chartPoolUtil, tco: chartTco,
                    wait_cdf: () => chartCdf('wait_cdf', 'wait'), jct_cdf: () => chartCdf('jct_cdf', 'jct')};
  const charts = [];
  document.querySelectorAll('canvas[data-chart]').forEach(canvas => {
    try {
      charts.push(new Chart(canvas, BUILDERS[canvas.dataset.chart]()));
    } catch (err) {
      console.error('chart "' + canvas.dataset.chart + '" failed: ' + err.message);
    }
  });

  // Printing: Chart.js cannot see the page width change, so size every chart for A4 explicitly.
  window.addEventListener('beforeprint', () => charts.forEach(c => c.resize(680, 255)));
  window.addEventListener('afterprint', () => charts.forEach(c => c.resize()));

  // Sortable tables: every header is a button, so Tab + Enter/Space sorts as a click does.
  document.querySelectorAll('table.sortable').forEach(table => {
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((th, col) => {
      const button = th.querySelector('button.sort');
      if (!button) return;
      button.addEventListener('click', () => {
        const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        heads.forEach(h => h.setAttribute('aria-sort', 'none'));
        th.setAttribute('aria-sort', dir);
        const body = table.tBodies[0];
        const rows = Array.from(body.rows);
        const key = r => { const c = r.cells[col]; return c.dataset.sort !== undefined ? c.dataset.sort : c.textContent.trim(); };
        const numeric = rows.every(r => key(r) === '' || !Number.isNaN(Number(key(r))));
        rows.sort((a, b) => {
          const ka = key(a), kb = key(b);
          if (ka === '' || kb === '') return (ka === '') - (kb === '');  // blanks last either way
          const c = numeric ? Number(ka) - Number(kb) : ka.localeCompare(kb);
          return dir === 'ascending' ? c : -c;
        });
        rows.forEach(r => body.appendChild(r));
        const live = document.getElementById('gp-sort-status');
        if (live) live.textContent = (table.caption ? table.caption.firstChild.textContent.trim() : 'Table') + ' sorted by ' + button.textContent.trim() + ', ' + dir;
      });
    });
  });

  if (location.hash === '#selftest') {
    requestAnimationFrame(() => setTimeout(() => {
      const problems = window.gpuplanProblems.slice();
      const canvases = document.querySelectorAll('canvas');
      canvases.forEach(canvas => {
        const name = canvas.dataset.chart || canvas.id || 'canvas';
        if (!canvas.width || !canvas.height) { problems.push('empty chart: ' + name + ' has no size'); return; }
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let drawn = false;
        for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] !== 0) { drawn = true; break; } }
        if (!drawn) problems.push('empty chart: ' + name);
      });
      const fetched = performance.getEntriesByType('resource');
      fetched.forEach(r => problems.push('network request: ' + r.name));
      const verdict = problems.length ? 'SELFTEST:FAIL ' + problems.join(' | ') : 'SELFTEST:OK charts=' + canvases.length;
      document.title = verdict;
      const out = document.createElement('pre');
      out.id = 'gp-selftest';
      out.textContent = verdict;
      document.body.appendChild(out);
    }, 50));
  }
})();
)ASSET";
}

}  // namespace gpuplan::reports
