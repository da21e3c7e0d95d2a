// sweep.html: builds the sweep page from the sweep.json data island. The verdicts (takeaway,
// fronts, saturated points) come from sweep.assessment (reports/assessment_sweep.cpp); this
// script lays out the summary, the two Pareto charts, the table of points and how to reproduce.
(function () {
  'use strict';
  const {el, num, str, arr, fin, duration, money, percent, count, raw, plural} = GP;
  const S = GP.readData('result');
  const A = GP.isObj(S.assessment) ? S.assessment : {};
  const idxSet = key => new Set(arr(A, key).filter(Number.isInteger));
  const frontWait = idxSet('front_wait'), frontUtil = idxSet('front_useful'), satSet = idxSet('saturated_points');
  // Points beyond this many get chart labels only when they are on a front or saturated.
  const MAX_LABELLED_POINTS = 12;

  // ---- the document, read defensively -------------------------------------------------------------
  const axes = arr(S, 'vary').filter(GP.isObj).map(a => ({path: str(a, 'path'), values: arr(a, 'values').map(GP.valueText)}));
  // "pools.0.count" -> "count"; a path of indices only stays whole; ambiguous last keys stay whole.
  const lastKey = path => { const keys = path.split('.').filter(k => k && !/^\d+$/.test(k)); return keys.length ? keys[keys.length - 1] : path; };
  axes.forEach(a => { a.short = axes.filter(b => lastKey(b.path) === lastKey(a.path)).length > 1 ? a.path : lastKey(a.path); });
  const seedVaried = axes.some(a => a.path === 'seed');
  const seed = Number.isInteger(S.seed) ? String(S.seed) : '';
  const replications = num(S, 'replications');
  const target = num(S, 'target.wait_p90_s');
  // [mean, ci95_low, ci95_high] of a summary figure; a normal-approximation CI is clipped to the
  // bounds the figure cannot leave.
  function figureOf(p, key, upper) {
    const f = GP.isObj(p.summary) && GP.isObj(p.summary[key]) ? p.summary[key] : {};
    const v = k => (fin(f[k]) ? f[k] : null);
    const lo = v('ci95_low'), hi = v('ci95_high');
    return [v('mean'), lo === null ? null : Math.max(lo, 0), hi === null ? null : upper === undefined ? hi : Math.min(hi, upper)];
  }
  // A folder name that is safe as a relative link: letters, digits, '-', '_' and '.', not leading.
  const plainFolder = s => /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(s);
  const points = arr(S, 'points').map((p, i) => [p, i]).filter(([p]) => GP.isObj(p)).map(([p, i]) => {
    const idx = Number.isInteger(p.point) && p.point >= 0 ? p.point : i;
    const values = axes.map(a => (GP.isObj(p.values) && p.values[a.path] !== undefined ? GP.valueText(p.values[a.path]) : ''));
    const share = Math.min(1, Math.max(0, num(p, 'saturated_share') || 0));
    return {idx: idx, dir: plainFolder(str(p, 'dir')) ? str(p, 'dir') : '', values: values, gpus: num(p, 'gpus'),
            replications: num(p, 'replications'), offered: num(p, 'offered_load'), share: share,
            cost: figureOf(p, 'cost_usd.total'), wait: figureOf(p, 'metrics.wait_s.p90'), waitMean: figureOf(p, 'metrics.wait_s.mean'),
            util: figureOf(p, 'metrics.gpu_utilization', 1), useful: figureOf(p, 'metrics.useful_utilization', 1),
            sat: satSet.has(idx), frontWait: frontWait.has(idx), frontUtil: frontUtil.has(idx)};
  });
  const labelText = p => (axes.length ? axes.map((a, k) => a.path + ' = ' + p.values[k]).join(', ') : 'point ' + p.idx);
  const tagText = p => (axes.length ? axes.map((a, k) => a.short + '=' + p.values[k]).join(' · ') : '#' + p.idx);
  function satCount(p) {
    if (p.share === 0 && fin(p.offered) && p.offered >= 1) return 'every replication (demand ≥ capacity)';
    if (!fin(p.replications)) return percent(p.share, 0) + ' of replications';
    return count(Math.round(p.share * p.replications)) + ' of ' + plural(p.replications, 'replication', 'replications');
  }
  const ciRange = (f, fmt) => (f[1] === null || f[2] === null ? '' : fmt(f[1]) === fmt(f[2]) ? 'the same in every replication' : '95% CI ' + fmt(f[1]) + ' – ' + fmt(f[2]));

  // ---- summary: the assessment, shown as it is -----------------------------------------------------
  const verdict = (title, body) => el('div', {class: 'verdict'}, [el('dt', {}, title), el('dd', {}, body)]);
  function summary() {
    const lead = ['This sweep ran ' + plural(points.length, 'configuration', 'configurations')];
    if (fin(replications)) lead.push(', each a Monte Carlo study of ' + plural(replications, 'replication', 'replications'));
    axes.forEach((a, k) => {
      lead.push(k === 0 ? ', varying ' : k + 1 === axes.length ? ' and ' : ', ', GP.code(a.path), ' over ' + a.values.join(', '));
    });
    lead.push('. It compares total cost with the p90 wait (nine in ten jobs start within it).');
    const take = GP.isObj(A.takeaway) ? A.takeaway : {};
    const takeParas = arr(take, 'text').map((p, k) => (k === 0 ? el('p', {}, [GP.pill(take.tone || 'info', str(take, 'label'))].concat(GP.runs(p))) : GP.para(p, {class: 'note'})));
    const front = GP.isObj(A.front) ? A.front : {};
    const frontBody = [GP.para(front.intro || [])];
    if (arr(front, 'items').length) {
      frontBody.push(el('ol', {class: 'front'}, arr(front, 'items').map(it => el('li', {}, GP.runs(it.text || [])
        .concat(typeof it.step === 'string' ? [' ', el('span', {class: 'step'}, '— ' + it.step)] : [])))));
    }
    const sat = GP.isObj(A.saturated) ? A.saturated : {};
    const satBody = [el('p', {}, [GP.pill(sat.tone || 'info', str(sat, 'label'))].concat(GP.runs(sat.text || [])))];
    if (arr(sat, 'items').length) satBody.push(el('ul', {class: 'sat-list'}, arr(sat, 'items').map(it => el('li', {}, GP.runs(it)))));
    if (Array.isArray(sat.after)) satBody.push(GP.para(sat.after));
    return GP.section('summary', 'Summary', [el('div', {class: 'card'}, [el('p', {class: 'lead'}, lead), el('dl', {class: 'verdicts'}, [
      verdict('What to take from it', takeParas),
      verdict('Pareto front: cost vs p90 wait', frontBody),
      verdict('Saturated', satBody),
      verdict('Utilization and useful work', GP.para(A.utilization || [])),
      verdict('How sure', GP.para(A.confidence || []))])])]);
  }

  // ---- charts ----------------------------------------------------------------------------------------
  function charts() {
    if (!points.some(p => fin(p.cost[0]) && fin(p.wait[0]))) return null;
    const anySat = points.some(p => p.sat);
    const marks = 'Dots: mean over the replications; whiskers: 95% confidence intervals (none where every replication gave the same figure).' +
                  (anySat ? ' Red crosses: saturated points, which cannot keep up.' : '');
    const f = (name, title, caption, aria) => GPCharts.figure(name, true, title, caption, aria, 'tall');
    return GP.section('charts', 'Charts', [el('div', {class: 'charts'}, [
      f('cost_wait', 'Total cost against p90 wait', 'Each point is one configuration. Blue, joined by a line: the Pareto front, where a lower cost can only be had with a longer wait. Grey: dominated points, beaten on both by a front point. ' +
        (anySat ? 'Saturated points sit in the shaded band on the right at the height of their own cost; across the band they are not to scale: their waits are not meaningful. ' : '') +
        (fin(target) ? 'Green dashed line: the p90 wait target of ' + duration(target) + '. ' : '') + marks,
        'Scatter chart of total cost in US dollars against p90 wait, Pareto front joined'),
      f('cost_util', 'Total cost against useful work', 'Blue, joined by a line: the Pareto front of cost against useful work (useful ÷ provisioned GPU-hours: busy time whose work was lost to preemption or failures, or spent on checkpoints and restarts, counts for nothing), where more useful work can only be had at a higher cost.' +
        (anySat ? ' Saturated points sit in the shaded band on the right at the height of their own cost; across the band they are not to scale.' : '') + ' ' + marks,
        'Scatter chart of total cost in US dollars against useful work in percent')])]);
  }

  // ---- the table of points ------------------------------------------------------------------------
  // A mean with its 95% CI below; `note` replaces the CI line when given.
  function figureTd(f, fmt, unit, notMeaningful, note) {
    if (f[0] === null) return el('td', {class: 'num', 'data-sort': ''}, 'n/a');
    const td = el('td', {class: 'num', 'data-sort': raw(f[0]), title: raw(f[0]) + ' ' + unit});
    if (notMeaningful) return GP.append(td, el('span', {class: 'nm'}, 'not meaningful'));
    GP.append(td, fmt(f[0]));
    if (note) GP.append(td, el('span', {class: 'ci'}, note));
    else if (f[1] !== null && f[2] !== null) GP.append(td, el('span', {class: 'ci'}, fmt(f[1]) === fmt(f[2]) ? 'no spread' : fmt(f[1]) + ' – ' + fmt(f[2])));
    return td;
  }
  function table() {
    const rows = points.map(p => {
      const first = el('td', {class: 'num', 'data-sort': String(p.idx)}, String(p.idx));
      if (p.dir) GP.append(first, el('a', {class: 'ci', href: p.dir + '/report.html', title: 'Open ' + p.dir + '/report.html, the point\'s full Monte Carlo report'}, 'report'));
      // NOTE: sorts ascending as: on both fronts, cost-wait only, cost-utilization only, neither.
      const fronts = el('td', {'data-sort': String((p.frontWait ? 0 : 2) + (p.frontUtil ? 0 : 1))},
        p.frontWait || p.frontUtil ? [p.frontWait ? GP.pill('info', 'cost–wait') : null, p.frontUtil ? GP.pill('info', 'cost–useful work') : null]
                                   : el('span', {class: 'muted'}, '—'));
      return el('tr', {class: p.sat ? 'sat' : p.frontWait ? 'on-front' : null}, [first]
        .concat(p.values.map(v => GP.textTd(v)))
        .concat([GP.numTd(p.gpus, count(p.gpus)),
          // NOTE: when every replication saturated, the figures cover only the time before they stopped.
          figureTd(p.cost, money, 'USD', false, p.share >= 1 ? 'only until the runs stopped' : ''),
          figureTd(p.wait, duration, 's', p.sat), figureTd(p.waitMean, duration, 's', p.sat), figureTd(p.util, v => percent(v), '(0-1)'), figureTd(p.useful, v => percent(v), '(0-1)'),
          el('td', {class: 'num wrap', 'data-sort': raw(p.share)}, [p.sat ? GP.pill('bad', 'saturated') : 'no', el('span', {class: 'ci'}, satCount(p))]),
          fronts]));
    });
    const t = el('table', {class: 'sortable'}, [
      el('caption', {}, ['Every configuration of the sweep ', el('small', {}, 'means over the replications; below each, its 95% confidence interval. Click a heading to sort.')]),
      el('thead', {}, el('tr', {}, [GP.sortTh('Point', true)].concat(axes.map(a => GP.sortTh(GP.code(a.path), false)))
        .concat(['GPUs', 'Total cost (USD)', 'p90 wait', 'Mean wait', 'GPU utilization', 'Useful work', 'Saturated'].map(h => GP.sortTh(h, true)))
        .concat([GP.sortTh('Pareto front', false)]))),
      el('tbody', {}, rows)]);
    return GP.section('points', 'All points', [el('div', {class: 'card table-card'}, [el('div', {class: 'table-scroll'}, t),
      el('p', {class: 'note'}, 'Cost: US dollars over each point\'s statistics window. Waits run from submission to first start over completed jobs. Utilization: busy ÷ provisioned GPU-seconds; useful work: useful ÷ provisioned GPU-hours, busy less the work lost to preemption and failures, checkpoint writes and restarts. A point is saturated when any of its replications could not keep up; its waits then only reflect how long the simulation ran, and when every replication saturated its cost covers only the time before they stopped. Pareto front: the point is on the front of cost against p90 wait, against useful work, or both. Each report link opens the point\'s full Monte Carlo report.')])]);
  }

  function reproduce() {
    const facts = [];
    const fact = (label, value) => { if (value && (!Array.isArray(value) || value.length)) facts.push(el('dt', {}, label), el('dd', {}, value)); };
    fact('Scenario', str(S, 'scenario') ? GP.code(str(S, 'scenario')) : null);
    const varied = [];
    axes.forEach((a, k) => varied.push(k ? el('br') : null, GP.code(a.path), ' = ' + a.values.join(', ')));
    fact('Varied', varied.filter(Boolean));
    fact('Replications per point', fin(replications) ? count(replications) : null);
    fact('Seed', seed);
    fact('Random numbers', seedVaried ? 'the seed is varied, so only points with equal seeds share random numbers'
      : ['common random numbers: every point uses the same seed, so replication ', el('i', {}, 'k'), ' draws the same arrivals, job sizes and durations at every point']);
    if (fin(target)) fact('p90 wait target', duration(target));
    fact('gpuplan version', str(S, 'gpuplan_version'));
    fact('Generated', GP.timestamp(str(S, 'generated_at')));
    fact('Files', [GP.code('sweep.json'), ' and ', GP.code('sweep.csv'), ' (every figure of this page), and ', GP.code('point-<i>/'), ' (each point\'s full Monte Carlo output) beside this page']);
    return GP.section('reproduce', 'Reproduce this sweep', [el('dl', {class: 'facts'}, facts),
      str(S, 'command') ? el('pre', {class: 'echo', 'aria-label': 'Command that ran this sweep'}, el('code', {}, str(S, 'command'))) : null], true);
  }

  // ---- the page --------------------------------------------------------------------------------------
  GP.masthead(str(S, 'scenario') || 'Unnamed scenario', [
    str(S, 'generated_at') ? 'Generated ' + GP.timestamp(str(S, 'generated_at')) : null,
    str(S, 'gpuplan_version') ? 'gpuplan ' + str(S, 'gpuplan_version') : null,
    seed ? 'seed ' + seed : null,
    plural(points.length, 'point', 'points') + (fin(replications) ? ' × ' + plural(replications, 'replication', 'replications') : ''),
    seedVaried ? null : 'common random numbers']);
  const sections = [['summary', 'Summary', summary()], ['charts', 'Charts', charts()], ['points', 'All points', table()], ['reproduce', 'Reproduce', reproduce()]].filter(s => s[2]);
  GP.toc(sections.map(s => [s[0], s[1]]));
  GP.append(document.getElementById('gp-main'), sections.map(s => s[2]).concat([el('p', {id: 'gp-sort-status', class: 'visually-hidden', 'aria-live': 'polite'})]));
  const version = str(S, 'gpuplan_version');
  document.getElementById('gp-footer').textContent = 'Generated by gpuplan' + (version ? ' ' + version : '') +
    '. Each point\'s figures cover jobs submitted in its statistics window, from warmup to horizon. This file is self-contained: it opens offline and loads nothing from the network; the point reports it links to sit beside it.';
  GP.makeSortable(document);

  // ---- the two scatter charts -------------------------------------------------------------------------
  // The unit of the wait axis: seconds, minutes or hours, whichever reads best for the largest wait.
  let top = fin(target) ? target : 0;
  points.forEach(p => { if (!p.sat && fin(p.wait[0])) top = Math.max(top, fin(p.wait[2]) ? p.wait[2] : p.wait[0]); });
  const DATA = {wait_target_s: target, wait_unit: top >= 3 * 3600 ? {name: 'hours', scale: 3600} : top >= 180 ? {name: 'minutes', scale: 60} : {name: 'seconds', scale: 1}};
  const labelAll = points.length <= MAX_LABELLED_POINTS;
  const POINTS = points.map(p => {
    const tip = ['Total cost: ' + money(p.cost[0]) + (ciRange(p.cost, money) ? ' (' + ciRange(p.cost, money) + ')' : '')];
    if (p.sat) tip.push('Saturated in ' + satCount(p) + ': cannot keep up', 'p90 wait: not meaningful');
    else tip.push('p90 wait: ' + duration(p.wait[0]) + (ciRange(p.wait, duration) ? ' (' + ciRange(p.wait, duration) + ')' : ''));
    tip.push('GPU utilization: ' + percent(p.util[0]) + (ciRange(p.util, percent) ? ' (' + ciRange(p.util, percent) + ')' : ''));
    if (fin(p.useful[0])) tip.push('Useful work: ' + percent(p.useful[0]) + (ciRange(p.useful, percent) ? ' (' + ciRange(p.useful, percent) + ')' : ''));
    if (fin(p.gpus)) tip.push('GPUs provisioned: ' + count(p.gpus));
    return {label: 'Point ' + p.idx + ': ' + labelText(p), tag: labelAll || p.frontWait || p.frontUtil || p.sat ? tagText(p) : '',
            cost: p.cost, wait: p.wait, util: p.util, useful: p.useful, front_wait: p.frontWait, front_util: p.frontUtil, sat: p.sat, tip: tip};
  });
  const COLOR = {front: '#1d4ed8', other: '#94a3b8', otherText: '#475569', sat: '#b91c1c'};
  const fmt = (v, d) => v.toLocaleString('en-US', {maximumFractionDigits: d});
  const scaled = (v, s) => (fin(v) ? v / s : null);
  function moneyAxis(v) {
    const a = Math.abs(v);
    if (a >= 1e6) return '$' + fmt(v / 1e6, a >= 1e7 ? 1 : 2) + 'M';
    if (a >= 1e3) return '$' + fmt(v / 1e3, a >= 1e5 ? 0 : 1) + 'k';
    return '$' + fmt(v, 0);
  }
  const withAlpha = GPCharts.withAlpha;
  const family = () => Chart.defaults.font.family;

  // Whiskers for the 95% CIs, a tag beside each point and the band that holds saturated points.
  const decorate = {
    id: 'gpSweep',
    beforeDatasetsDraw(chart) {
      const area = chart.chartArea, ctx = chart.ctx;
      const target = chart.options.gpTarget;
      if (fin(target)) {
        const x = chart.scales.x.getPixelForValue(target);
        ctx.save();
        ctx.strokeStyle = '#047857';
        ctx.lineWidth = 1.5;
        ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
        ctx.fillStyle = '#047857';
        ctx.font = '600 11px ' + family();
        ctx.textAlign = 'left';
        ctx.fillText('p90 wait target', x + 5, area.top + 14);
        ctx.restore();
      }
      const band = chart.options.gpBand;
      if (!band) return;
      const left = Math.max(area.left, chart.scales.x.getPixelForValue(band.from));
      ctx.save();
      ctx.fillStyle = 'rgba(185, 28, 28, 0.06)';
      ctx.fillRect(left, area.top, area.right - left, area.bottom - area.top);
      ctx.strokeStyle = 'rgba(185, 28, 28, 0.4)';
      ctx.setLineDash([4, 4]);
      ctx.beginPath(); ctx.moveTo(left, area.top); ctx.lineTo(left, area.bottom); ctx.stroke();
      ctx.fillStyle = COLOR.sat;
      ctx.textAlign = 'center';
      ctx.font = '600 12px ' + family();
      ctx.fillText('Saturated', (left + area.right) / 2, area.top + 16);
      ctx.font = '11px ' + family();
      ctx.fillText('cannot keep up; x not to scale', (left + area.right) / 2, area.top + 31);
      ctx.restore();
    },
    afterDatasetsDraw(chart) {
      const area = chart.chartArea, ctx = chart.ctx, xs = chart.scales.x, ys = chart.scales.y;
      const seg = (x1, y1, x2, y2) => { ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke(); };
      ctx.save();
      chart.data.datasets.forEach((ds, di) => {
        const meta = chart.getDatasetMeta(di);
        if (!ds.gpPoints || meta.hidden) return;
        meta.data.forEach((el, k) => {
          const p = ds.data[k];
          ctx.strokeStyle = withAlpha(ds.gpColor, 0.8);
          ctx.lineWidth = 1.5;
          ctx.setLineDash([]);
          // NOTE: an interval under 2 px wide (e.g. a fixed price) gets no whisker.
          const px = (fin(p.xl) && fin(p.xh)) ? [xs.getPixelForValue(p.xl), xs.getPixelForValue(p.xh)] : null;
          const py = (fin(p.yl) && fin(p.yh)) ? [ys.getPixelForValue(p.yl), ys.getPixelForValue(p.yh)] : null;
          if (px && Math.abs(px[1] - px[0]) >= 2) {
            const a = px[0], b = px[1];
            seg(a, el.y, b, el.y); seg(a, el.y - 4, a, el.y + 4); seg(b, el.y - 4, b, el.y + 4);
          }
          if (py && Math.abs(py[1] - py[0]) >= 2) {
            const a = py[0], b = py[1];
            seg(el.x, a, el.x, b); seg(el.x - 4, a, el.x + 4, a); seg(el.x - 4, b, el.x + 4, b);
          }
          if (!p.tag) return;
          const text = p.tag + (p.sat ? ' (saturated)' : '');
          ctx.font = (p.front || p.sat ? '600 ' : '') + '12px ' + family();
          const w = ctx.measureText(text).width;
          const right = el.x + 10 + w <= area.right;
          ctx.textAlign = right ? 'left' : 'right';
          ctx.textBaseline = 'bottom';
          const tx = right ? el.x + 10 : el.x - 10, ty = Math.max(area.top + 14, el.y - 6);
          ctx.lineWidth = 3;
          ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
          ctx.strokeText(text, tx, ty);
          ctx.fillStyle = ds.gpText;
          ctx.fillText(text, tx, ty);
        });
      });
      ctx.restore();
    }};

  function dataset(label, data, color, text, extra) {
    return Object.assign({label: label, data: data, gpPoints: true, gpColor: color, gpText: text,
                          gpHideLegend: !data.length, borderColor: color, backgroundColor: color,
                          pointRadius: 5, pointHoverRadius: 7, showLine: false, clip: false}, extra || {});
  }
  // `x` is [mean, low, high] in axis units.
  function mark(p, x, front) {
    return {x: x[0], y: p.cost[0], xl: x[1], xh: x[2], yl: p.cost[1], yh: p.cost[2],
            tag: p.tag, title: p.label, tip: p.tip, front: front, sat: p.sat, cost: p.cost[0]};
  }
  function options(xAxis, band) {
    return {
      gpBand: band, parsing: false,
      interaction: {mode: 'nearest', intersect: true},
      layout: {padding: {top: 6, right: 6}},
      scales: {
        // NOTE: the band right of the axis has no scale, so it gets no grid lines.
        x: Object.assign({type: 'linear', grid: {color: c => (band && c.tick && c.tick.value > band.from ? 'rgba(0, 0, 0, 0)' : '#eef0f3')}}, xAxis),
        y: {grace: '12%', title: {display: true, text: 'Total cost over the statistics window (US dollars)'},
            ticks: {callback: moneyAxis}}},
      plugins: {
        legend: {position: 'top', align: 'start', labels: {usePointStyle: true, padding: 16}},
        tooltip: {callbacks: {title: items => (items.length ? items[0].raw.title : ''), label: item => item.raw.tip}}}};
  }
  // One scatter of cost against `xOf(p)` = [mean, lo, hi] (already in axis units). Points that kept
  // up are drawn at their figures; saturated points, whose waits and utilization are not
  // comparable, sit in a shaded band right of the axis at the height of their own cost, each
  // labelled and spread across the band so that equal costs do not hide one another.
  function costScatter(o) {
    const kept = [], sat = [];
    POINTS.forEach(p => {
      const x = o.xOf(p);
      if (p.sat) { if (fin(p.cost[0])) sat.push(p); return; }
      if (fin(p.cost[0]) && fin(x[0])) kept.push(mark(p, x, p[o.front]));
    });
    let lo = Infinity, hi = -Infinity, ylo = Infinity, yhi = -Infinity;
    kept.forEach(m => {
      lo = Math.min(lo, fin(m.xl) ? m.xl : m.x); hi = Math.max(hi, fin(m.xh) ? m.xh : m.x);
      ylo = Math.min(ylo, fin(m.yl) ? m.yl : m.y); yhi = Math.max(yhi, fin(m.yh) ? m.yh : m.y);
    });
    // NOTE: a saturated point's cost is its own figure on the cost axis (only its x is not to scale).
    sat.forEach(p => { ylo = Math.min(ylo, p.cost[0]); yhi = Math.max(yhi, p.cost[0]); });
    if (!kept.length) { lo = 0; hi = 1; }
    if (!(yhi > ylo)) { const c = fin(ylo) ? ylo : 0; ylo = c - Math.max(1, Math.abs(c) * 0.05); yhi = c + Math.max(1, Math.abs(c) * 0.05); }
    const range = o.range(lo, hi), w = range.max - range.min;
    const band = sat.length ? {from: range.max + 0.03 * w, to: range.max + 0.36 * w} : null;
    const crosses = sat.map((p, k) => Object.assign(mark(p, [null, null, null], false),
      {x: band.from + (0.12 + 0.76 * k / Math.max(1, sat.length - 1)) * (band.to - band.from), yl: null, yh: null}));
    return {type: 'scatter', plugins: [decorate], data: {datasets: [
      dataset(o.frontLabel, kept.filter(m => m.front).sort((a, b) => a.x - b.x), COLOR.front, COLOR.front,
              {showLine: true, borderWidth: 2, pointRadius: 6, pointHoverRadius: 8}),
      dataset(o.otherLabel, kept.filter(m => !m.front), COLOR.other, COLOR.otherText),
      dataset('Saturated: cannot keep up (in the band at their cost; x not to scale)', crosses, COLOR.sat, COLOR.sat,
              {pointStyle: 'crossRot', pointRadius: 8, pointHoverRadius: 10, borderWidth: 3})]},
      options: options({min: range.min, max: band ? band.to : range.max, title: {display: true, text: o.title},
        ticks: {includeBounds: false, callback: v => (band && v > band.from ? '' : o.tick(v))}}, band)};
  }

  function chartCostWait() {
    const unit = DATA.wait_unit || {name: 'seconds', scale: 1};
    const target = scaled(DATA.wait_target_s, unit.scale);
    const chart = costScatter({
      xOf: p => p.wait.map(v => scaled(v, unit.scale)), front: 'front_wait',
      range: (lo, hi) => ({min: 0, max: Math.max(hi > 0 ? hi : 1, fin(target) ? target : 0) * 1.1}),
      frontLabel: 'Pareto front: cheapest for its wait', otherLabel: 'Dominated: a front point is cheaper and waits no longer',
      title: 'p90 wait before first start (' + unit.name + '), mean over replications',
      tick: v => fmt(v, unit.scale === 1 ? 1 : 2)});
    chart.options.gpTarget = target;
    return chart;
  }

  function chartCostUtil() {
    return costScatter({
      xOf: p => p.useful.map(v => (fin(v) ? 100 * v : null)), front: 'front_util',
      range: (lo, hi) => {
        const pad = Math.max(3, 0.12 * (hi - lo));
        return {min: Math.max(0, Math.floor(lo - pad)), max: Math.min(100, Math.ceil(hi + pad))};
      },
      frontLabel: 'Pareto front: cheapest for its useful work', otherLabel: 'Dominated: a front point is cheaper and does at least as much useful work',
      title: 'Useful work (%): useful ÷ provisioned GPU-hours, mean over replications',
      tick: v => fmt(v, 1) + '%'});
  }

  const drawn = GPCharts.draw({cost_wait: chartCostWait, cost_util: chartCostUtil}, [680, 340]);
  // #selftest, beyond the shared checks: every point (saturated ones too) is drawn at its own cost
  // inside its chart, the axis titles fit their charts, and no table column hides behind a
  // horizontal scroll (browser_pages.py renders at 1,280 px).
  if (location.hash === '#selftest') {
    const problems = window.gpuplanProblems;
    drawn.forEach(chart => {
      const name = chart.canvas.dataset.chart, ys = chart.scales.y, area = chart.chartArea;
      chart.data.datasets.forEach(ds => ds.data.forEach(m => {
        if (m.y !== m.cost) problems.push(name + ': ' + m.title + ' drawn at ' + m.y + ', its cost is ' + m.cost);
        const py = ys.getPixelForValue(m.y);
        if (!(py >= area.top - 1 && py <= area.bottom + 1)) problems.push(name + ': ' + m.title + ' drawn outside the chart');
      }));
      const ctx = chart.ctx;
      ['x', 'y'].forEach(axis => {
        const t = chart.options.scales[axis].title;
        if (!t || !t.display) return;
        ctx.save();
        ctx.font = Chart.helpers && Chart.helpers.toFont ? Chart.helpers.toFont(t.font || {}).string : '12px ' + family();
        const w = ctx.measureText(t.text).width;
        ctx.restore();
        const room = axis === 'y' ? chart.height : chart.width;
        if (w > room) problems.push(name + ': the ' + axis + '-axis title is ' + Math.round(w) + ' px, the chart ' + room + ' px');
      });
    });
    document.querySelectorAll('.table-scroll').forEach(box => {
      if (box.scrollWidth > box.clientWidth + 1)
        problems.push('table wider than the page (' + box.scrollWidth + ' px in ' + box.clientWidth + ' px): its last columns are cut off');
    });
  }
  GP.selftest();
})();
