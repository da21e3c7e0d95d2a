// report.html: builds the capacity report from the result.json data island. Every verdict comes
// from result.assessment (computed in C++, reports/assessment.cpp); this script only lays out the
// figures, tables and charts. Any key may be absent: what is present is shown.
(function () {
  'use strict';
  const {el, num, str, arr, obj, fin, ciHalf, duration, money, percent, count, number, raw, plural, gpuHours} = GP;
  const R = GP.readData('result');
  const A = GP.isObj(R.assessment) ? R.assessment : {};
  const saturated = A.saturated === true;
  const replications = fin(R.replications) && R.replications >= 1 ? Math.round(R.replications) : 1;
  const mc = replications > 1;
  const windowS = num(R, 'window_s');
  const warmupS = num(R, 'warmup_s');
  const util = num(R, 'metrics.gpu_utilization');
  // Where pools share GPUs, utilization is allocation and the compute used is reported beside it.
  const computeUsed = num(R, 'metrics.compute_used');
  const costTotal = num(R, 'cost_usd.total');
  const isMonteCarlo = R.monte_carlo !== undefined;

  // ---- pools and the GPU count (as reports/assessment.cpp reads them) ---------------------------
  const costMap = obj(R, 'cost_usd.per_pool');
  let pools = arr(R, 'per_pool').filter(GP.isObj).map(p => ({
    name: str(p, 'name'), instance: str(p, 'instance'), gpu: str(p, 'gpu'), pricing: str(p, 'pricing'),
    priceAsOf: str(p, 'price_as_of'), nodes: num(p, 'nodes'), gpus: num(p, 'gpus'),
    price: num(p, 'price_per_node_hour'), util: num(p, 'gpu_utilization'), used: num(p, 'compute_used'), sharing: str(p, 'sharing'),
    cost: fin(num(p, 'cost_usd')) ? num(p, 'cost_usd') : (costMap && fin(costMap[str(p, 'name')]) ? costMap[str(p, 'name')] : undefined)}));
  if (!pools.length && costMap) pools = Object.keys(costMap).map(name => ({name: name, cost: fin(costMap[name]) ? costMap[name] : undefined}));
  let gpus = pools.reduce((a, p) => (fin(p.gpus) ? (a || 0) + p.gpus : a), undefined);
  if (gpus === undefined) arr(R, 'timeseries.provisioned_gpus').forEach(v => { if (fin(v)) gpus = Math.max(gpus || 0, v); });
  if (!(gpus > 0)) gpus = undefined;

  const durSpan = s => el('span', {title: raw(s) + ' s'}, duration(s));
  const ciText = (key, fmt) => { const h = ciHalf(R, key); return h === undefined ? '' : '± ' + fmt(h); };
  const meansNote = () => (isMonteCarlo && fin(R.replications)
    ? el('p', {class: 'note'}, ['Means across ' + plural(R.replications, 'replication', 'replications') + '; the ', GP.code('summary'),
                                ' in result.json and replicas.csv give each figure\'s 95% CI, percentiles and every replication\'s value.'])
    : null);

  // ---- (a) summary: the assessment, shown as it is -------------------------------------------
  function summary() {
    const s = el('section', {id: 'summary', 'aria-labelledby': 'h-summary'});
    if (GP.isObj(A.banner)) {
      s.appendChild(el('div', {class: 'banner banner-bad', role: 'alert'}, [
        el('strong', {class: 'banner-title'}, str(A, 'banner.title')), GP.para(A.banner.text)]));
    }
    const row = (title, body) => el('div', {class: 'verdict'}, [el('dt', {}, title), el('dd', {}, body)]);
    const sizing = GP.isObj(A.sizing) ? A.sizing : {};
    const paragraphs = list => (Array.isArray(list) ? list : []).map(p => GP.para(p));
    const rows = [
      row('Sizing', el('p', {}, [sizing.label ? GP.pill(sizing.tone || 'info', sizing.label) : null].concat(GP.runs(sizing.text || [])))),
      row('Cost', GP.para(A.cost || [])),
      row('What to change', paragraphs(A.changes)),
      row('How sure we are', paragraphs(A.confidence))];
    if (GP.isObj(A.cheapest_option)) rows.splice(2, 0, row('Cheapest option', GP.para(A.cheapest_option.text)));
    s.appendChild(el('div', {class: 'card'}, [el('h2', {id: 'h-summary'}, 'Summary'), el('dl', {class: 'verdicts'}, rows)]));
    return s;
  }

  // ---- (b) key figures ---------------------------------------------------------------------------
  function figures() {
    const list = [];
    const durationTile = (label, path, detail) => {
      const v = num(R, path);
      if (saturated) list.push({label: label, value: 'not meaningful', nm: true, detail: 'saturated run: the queue grows without bound'});
      else if (fin(v)) list.push({label: label, value: duration(v), raw: raw(v) + ' s', detail: detail, ci: ciText(path, duration)});
    };
    const points = f => number(f * 100, 1) + ' pp';
    if (fin(util) && fin(computeUsed)) {
      list.push({label: 'GPU allocation (utilization)', value: percent(util), detail: 'GPU-hours allocated to jobs ÷ provisioned, a shared GPU counted as its jobs hold it (see Shared GPUs)', raw: raw(util), ci: ciText('metrics.gpu_utilization', points)});
      list.push({label: 'Compute used', value: percent(computeUsed), detail: 'compute the jobs used ÷ provisioned GPU-hours (their GPU fraction, the shares they get)', raw: raw(computeUsed), ci: ciText('metrics.compute_used', points)});
    } else if (fin(util)) list.push({label: 'GPU utilization', value: percent(util), detail: 'busy ÷ provisioned GPU-hours, time-averaged over the window', raw: raw(util), ci: ciText('metrics.gpu_utilization', points)});
    // Offered load on the utilization's basis (per provisioned GPU-hour, time-averaged); against
    // the most the pools may hold only where that differs (elastic pools, preempted spot nodes).
    const offeredMax = num(R, 'metrics.offered_load');
    const offeredProv = num(R, 'metrics.offered_load_per_provisioned');
    const offered = fin(offeredProv) ? offeredProv : offeredMax;
    const differs = fin(offeredProv) && fin(offeredMax) && Math.abs(offeredProv - offeredMax) > 0.0005;
    if (fin(offered)) list.push({label: 'Offered load', value: percent(offered), raw: raw(offered),
      detail: differs ? 'GPU demand ÷ provisioned GPUs, time-averaged (the utilization\'s basis); ' + percent(offeredMax) + ' of the most the pools may hold, which must stay below 100%'
                      : 'GPU demand ÷ GPUs provisioned (the utilization\'s basis); above 100% cannot be served'});
    durationTile('Mean wait', 'metrics.wait_s.mean', 'submit → first start');
    durationTile('p90 wait', 'metrics.wait_s.p90', 'nine in ten jobs start within this');
    durationTile('Mean job completion time', 'metrics.jct_s.mean', 'submit → finish, wait included');
    if (fin(costTotal)) list.push({label: 'Total cost', value: money(costTotal), detail: fin(windowS) ? 'US dollars over the ' + duration(windowS) + ' window' : 'US dollars', raw: raw(costTotal) + ' USD', ci: ciText('cost_usd.total', money)});
    const perGpuHour = num(R, 'cost_usd.per_gpu_hour');
    if (fin(perGpuHour)) list.push({label: 'Cost per GPU-hour', value: money(perGpuHour), detail: 'total ÷ provisioned GPU-hours', raw: raw(perGpuHour) + ' USD/GPU-h', ci: ciText('cost_usd.per_gpu_hour', money)});
    const gpusMean = num(R, 'metrics.provisioned_gpus.mean');
    const gpusMax = num(R, 'metrics.provisioned_gpus.max');
    if (fin(gpusMean) && fin(gpusMax) && gpusMax - gpusMean > 0.05) {
      list.push({label: 'GPUs provisioned', value: number(gpusMean, 1) + ' on average', detail: 'time-averaged over the window; ' + count(gpusMax) + ' at most (' + plural(pools.length, 'pool', 'pools') + ' at their maximum)', raw: raw(gpusMean) + ' mean, ' + raw(gpusMax) + ' max'});
    } else if (fin(gpus)) list.push({label: 'GPUs provisioned', value: count(gpus), detail: pools.length ? 'GPUs in ' + plural(pools.length, 'pool', 'pools') : 'GPUs', raw: raw(gpus)});

    // Wait and JCT statistics for all classes together.
    const statsCell = path => {
      const v = num(R, path);
      if (!fin(v)) return el('td', {class: 'num'}, 'n/a');
      const half = ciHalf(R, path);
      return el('td', {class: 'num', title: raw(v) + ' s'}, [duration(v), half === undefined ? null : el('br'), half === undefined ? null : el('small', {}, '± ' + duration(half))]);
    };
    const statsRow = (label, key) => el('tr', {}, [el('th', {scope: 'row'}, label)].concat(saturated
      ? [el('td', {colspan: 4, class: 'nm-row'}, 'not meaningful: the queue grows without bound')]
      : ['mean', 'p50', 'p90', 'p99'].map(q => statsCell(key + '.' + q))));
    let note = saturated ? 'Not shown: a saturated run\'s waits only reflect how long the simulation ran.'
                         : 'Completed jobs submitted in the statistics window; hover a value for raw seconds.';
    if (!saturated && str(R, 'metrics.quantiles') === 'histogram') note += ' Percentiles are read from a fine histogram, so they are close but not exact.';
    const stats = el('div', {class: 'card'}, [
      el('table', {}, [
        el('caption', {}, ['Wait and job completion time, all classes', mc ? el('small', {}, 'mean across replications ± 95% CI half-width') : null]),
        el('thead', {}, el('tr', {}, [GP.th('Measure'), GP.th('Mean', true), GP.th('Median (p50)', true), GP.th('p90', true), GP.th('p99', true)])),
        el('tbody', {}, [statsRow('Wait (submit → first start)', 'metrics.wait_s'), statsRow('Job completion time (submit → finish)', 'metrics.jct_s')])]),
      el('p', {class: 'note'}, note)]);

    // Jobs and run facts.
    const facts = [];
    const fact = (label, v, unit) => { if (fin(v)) facts.push(el('tr', {}, [el('th', {scope: 'row'}, label), el('td', {class: 'num', title: raw(v)}, count(v) + ' ' + unit)])); };
    fact('Jobs submitted in the window', num(R, 'metrics.jobs_submitted'), 'jobs');
    fact('Jobs completed', num(R, 'metrics.jobs_completed'), 'jobs');
    fact('Unfinished at the horizon', num(R, 'metrics.jobs_unfinished'), 'jobs');
    fact('Events simulated', num(R, 'metrics.events'), 'events');
    const queued = num(R, 'metrics.mean_queued_jobs');
    if (fin(queued) && !saturated) facts.push(el('tr', {}, [el('th', {scope: 'row'}, 'Jobs queued, time average'), el('td', {class: 'num', title: raw(queued)}, number(queued, 1) + ' jobs')]));
    if (fin(windowS)) facts.push(el('tr', {}, [el('th', {scope: 'row'}, 'Statistics window'), el('td', {class: 'num'}, durSpan(windowS))]));
    facts.push(el('tr', {}, [el('th', {scope: 'row'}, 'Replications'), el('td', {class: 'num'}, count(replications))]));
    const factsCard = el('div', {class: 'card'}, [
      el('table', {class: 'facts-table'}, [el('caption', {}, 'Jobs and simulation'), el('tbody', {}, facts)]),
      mc ? el('p', {class: 'note'}, 'Every figure is the mean across replications.') : null]);
    return GP.section('figures', 'Key figures', [GP.tiles(list), el('div', {class: 'subgrid'}, [stats, factsCard])]);
  }

  // ---- (c) charts: series merged to at most MAX_POINTS points so the page stays light ----------
  const MAX_POINTS = 1500;
  const isSeries = v => Array.isArray(v) && v.length > 0 && v.every(x => x === null || typeof x === 'number');
  // Merges every k consecutive values: their sum when `sum`, else their mean; null for none.
  function coarsen(series, k, sum) {
    const out = [];
    for (let i = 0; i < series.length; i += k) {
      let total = 0, n = 0;
      for (let j = i; j < Math.min(i + k, series.length); j++) if (fin(series[j])) { total += series[j]; n++; }
      out.push(n ? (sum ? total : total / n) : null);
    }
    return out;
  }
  const ts = {}, bands = {};
  ['t_s', 'busy_gpus', 'provisioned_gpus', 'queued_jobs', 'spend_usd'].forEach(k => { const v = GP.get(R, 'timeseries.' + k); if (isSeries(v)) ts[k] = v; });
  const binS = num(R, 'timeseries.bin_s');
  if (!ts.t_s && fin(binS)) {
    const n = Math.max(0, ...Object.values(ts).map(v => v.length));
    if (n > 0) ts.t_s = Array.from({length: n}, (_, i) => i * binS);
  }
  ['busy_gpus', 'queued_jobs', 'cumulative_spend_usd'].forEach(k => {
    const b = obj(R, 'bands.' + k);
    if (b && isSeries(b.p10) && isSeries(b.p50) && isSeries(b.p90)) bands[k] = {p10: b.p10, p50: b.p50, p90: b.p90};
  });
  let binsPerPoint = 1;
  if (ts.t_s && ts.t_s.length > MAX_POINTS) {
    const k = binsPerPoint = Math.ceil(ts.t_s.length / MAX_POINTS);
    for (const key of Object.keys(ts)) ts[key] = key === 't_s' ? ts.t_s.filter((_, i) => i % k === 0) : coarsen(ts[key], k, key === 'spend_usd');
    for (const b of Object.values(bands)) for (const q of ['p10', 'p50', 'p90']) b[q] = coarsen(b[q], k, false);
  }
  // GPUs each team held per bin (timeseries.team_gpus), merged as the other series.
  const teamTs = {};
  const teamSeries = obj(R, 'timeseries.team_gpus');
  if (teamSeries) Object.keys(teamSeries).forEach(k => { if (isSeries(teamSeries[k])) teamTs[k] = binsPerPoint > 1 ? coarsen(teamSeries[k], binsPerPoint, false) : teamSeries[k]; });
  const classes = arr(R, 'per_class').filter(GP.isObj);
  const validCdf = c => GP.isObj(c) && isSeries(c.x_s) && isSeries(c.p) && c.x_s.length === c.p.length;
  const haveCdf = key => classes.some(c => validCdf(c[key]));
  const costPools = pools.filter(p => fin(p.cost));

  function charts(costHere) {
    const have = ts.t_s !== undefined;
    const plan = {gpus: have && (ts.busy_gpus || ts.provisioned_gpus || bands.busy_gpus),
                  queue: have && (ts.queued_jobs || bands.queued_jobs),
                  spend: have && (ts.spend_usd || bands.cumulative_spend_usd),
                  wait: haveCdf('wait_cdf') && !saturated, jct: haveCdf('jct_cdf') && !saturated,
                  cdfHidden: saturated && (haveCdf('wait_cdf') || haveCdf('jct_cdf')), cost: costPools.length > 0 && costHere};
    if (!(plan.gpus || plan.queue || plan.spend || plan.wait || plan.jct || plan.cdfHidden || plan.cost)) return null;
    const bin = fin(binS) ? duration(binS * binsPerPoint) + ' ' : '';
    const warmup = fin(warmupS) && warmupS > 0;
    const warmupNote = warmup ? ' Grey: warmup, not counted in statistics.' : '';
    const bandNote = mc ? ' Line: median across ' + count(replications) + ' replications; shaded: 10th to 90th percentile.' : '';
    const f = GPCharts.figure;
    return GP.section('charts', 'Charts', [el('div', {class: 'charts'}, [
      plan.gpus ? f('gpus', true, 'GPUs busy and provisioned over time', 'Busy GPUs averaged over each ' + bin + 'bin, against GPUs provisioned (dashed).' + bandNote + warmupNote, 'Line chart of busy and provisioned GPUs over simulated time') : null,
      plan.queue ? f('queue', false, 'Queued jobs over time', 'Jobs submitted but not yet started, averaged over each ' + bin + 'bin.' + bandNote + warmupNote, 'Line chart of the number of queued jobs over simulated time') : null,
      plan.spend ? f('spend', false, 'Cumulative spend', 'Running total in US dollars since the start of the simulation' + (warmup ? ', warmup included, so it ends above the window\'s cost.' : '.') + bandNote + warmupNote, 'Line chart of cumulative spend in US dollars over simulated time') : null,
      plan.wait ? f('wait_cdf', false, 'Wait time distribution by class', 'Share of each class\'s completed jobs that waited at most the time on the x axis (log scale); a line crosses 90% at the class\'s p90 wait. Zero waits sit at the left edge.', 'Cumulative distribution of wait times per job class, log time axis') : null,
      plan.jct ? f('jct_cdf', false, 'Job completion time distribution by class', 'Share of each class\'s completed jobs that finished within the time on the x axis (log scale), measured from submission.', 'Cumulative distribution of job completion times per job class, log time axis') : null,
      plan.cdfHidden ? el('figure', {class: 'card placeholder'}, el('p', {}, 'Wait and completion-time distributions are not shown: in a saturated run they only reflect how long the simulation ran.')) : null,
      plan.cost ? costFigure('Cost by pool') : null])]);
  }
  const costFigure = title => GPCharts.figure('cost', false, title, 'US dollars per pool over the statistics window' + (fin(windowS) ? ' (' + duration(windowS) + ')' : '') + ', coloured by pricing: blue on-demand, orange spot, green reserved, grey on-prem.', 'Bar chart of cost per pool in US dollars');

  // ---- (d) network -------------------------------------------------------------------------------
  // Colour of a link load, as topologies::load_color draws it in the SVG: grey idle, then green
  // (0) -> amber (0.5) -> red (>= 1), linear in RGB between the stops.
  function loadColor(load) {
    if (!(load > 0)) return '#aab4be';
    const GREEN = [0x2e, 0x9d, 0x5b], AMBER = [0xe8, 0xa3, 0x3d], RED = [0xd1, 0x44, 0x3c];
    const x = Math.min(load, 1);
    const a = x < 0.5 ? GREEN : AMBER, b = x < 0.5 ? AMBER : RED;
    const f = x < 0.5 ? x / 0.5 : (x - 0.5) / 0.5;
    return '#' + a.map((c, i) => Math.floor(c + f * (b[i] - c) + 0.5).toString(16).padStart(2, '0')).join('');
  }
  const LOAD_STOPS = [[0.0, 'idle'], [0.2, '20%'], [0.5, '50%'], [0.8, '80%'], [1.0, '≥ 100% (gangs slowed)']];
  function network() {
    const net = obj(R, 'network');
    if (!net && R.topology === undefined) return null;
    const list = [];
    const placement = str(R, 'network.placement');
    if (placement) list.push({label: 'Placement policy', value: placement, detail: 'how gangs are placed on nodes'});
    const kind = str(R, 'network.topology'), topoName = str(R, 'topology.name');
    if (kind || topoName) list.push({label: 'Topology', value: kind || str(R, 'topology.kind'), detail: topoName || (kind === 'none' ? 'one non-blocking switch' : '')});
    const slow = num(R, 'network.mean_comm_slowdown');
    if (fin(slow)) {
      const n = num(R, 'network.multi_node_jobs_completed');
      list.push({label: 'Mean comm slowdown', value: number(slow, 3) + '×', detail: 'run time ÷ run time with ideal placement' + (fin(n) ? ', over ' + plural(n, 'multi-node job', 'multi-node jobs') : ''), raw: raw(slow) + ' (ratio)'});
    }
    const stranded = num(R, 'network.stranded_gpus');
    if (fin(stranded)) {
      const share = num(R, 'network.stranded_share');
      list.push({label: 'Stranded GPUs', value: number(stranded, 1) + ' GPUs', detail: 'free GPUs on partly used nodes, time-averaged' + (fin(share) ? ' (' + percent(share) + ' of provisioned)' : ''), raw: raw(stranded) + ' GPUs'});
    }
    const changes = num(R, 'network.rate_changes');
    if (fin(changes)) list.push({label: 'Rate changes', value: count(changes) + ' changes', detail: 'times link sharing moved a running job\'s finish', raw: raw(changes) + ' changes'});
    const parts = [meansNote(), list.length ? GP.tiles(list) : null];
    const bw = arr(R, 'topology.level_bw_gbps'), lat = arr(R, 'topology.level_latency_s');
    if (bw.length || lat.length) {
      const LEVEL = ['0 · hosts / NVSwitch', '1 · leaf', '2 · spine', '3 · core'];
      const rows = [];
      for (let i = 0; i < Math.max(bw.length, lat.length); i++) {
        const b = fin(bw[i]) ? number(bw[i], bw[i] >= 100 ? 0 : 1) + ' Gb/s' : 'not limited';
        const l = fin(lat[i]) ? (lat[i] > 0 && lat[i] < 1e-3 ? number(lat[i] * 1e6, 2) + ' µs' : duration(lat[i])) : 'n/a';
        rows.push(el('tr', {}, [el('td', {}, i < LEVEL.length ? LEVEL[i] : String(i)), el('td', {class: 'num'}, b), el('td', {class: 'num'}, l)]));
      }
      const hosts = num(R, 'topology.hosts');
      parts.push(GP.table({id: 'topology-table'}, 'Links per level', fin(hosts) ? plural(hosts, 'host', 'hosts') : null,
        [GP.th('Level'), GP.th('Bandwidth per host, all sending', true), GP.th('One-way latency', true)], rows));
    }
    const links = arr(R, 'topology.links').filter(l => GP.isObj(l) && fin(l.mean_load));
    if (links.length) {
      const top = links.slice().sort((a, b) => b.mean_load - a.mean_load).slice(0, 10);
      parts.push(GP.table({id: 'links-table', class: 'sortable'}, 'Busiest uplinks', top.length + ' of ' + links.length + ', by time-averaged load',
        [GP.th('Uplinks of'), GP.th('Level', true), GP.th('Capacity', true), GP.th('Crossing nodes (mean)', true), GP.th('Load', true), GP.th('Time congested', true)],
        top.map(l => el('tr', {}, [el('td', {}, str(l, 'group')), el('td', {class: 'num'}, number(num(l, 'level') || 0, 0)),
          el('td', {class: 'num'}, number(num(l, 'capacity_gbps') || 0, 0) + ' Gb/s'), el('td', {class: 'num'}, number(num(l, 'mean_crossing_nodes') || 0, 2)),
          el('td', {class: 'num'}, [swatch(loadColor(l.mean_load)), percent(l.mean_load)]), el('td', {class: 'num'}, percent(num(l, 'congested_share')))]))));
    }
    const svg = str(R, 'topology.svg');
    if (svg) {
      // NOTE: drawn as an <img> from a data: URL, so the SVG can run no script and fetch nothing.
      const img = el('img', {alt: 'Network topology graph', src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg)});
      const caption = ['Hosts as ellipses, switches as boxes, links labelled in Gb/s'];
      if (links.length) {
        caption.push(' and shaded by load: the line rate of the gangs crossing a link ÷ its capacity, time-averaged over the statistics window. ');
        caption.push(el('span', {class: 'load-legend'}, LOAD_STOPS.map(([load, label]) => el('span', {}, [swatch(loadColor(load)), label]))));
        caption.push(' Links inside a server or ring carry no measured load and stay black');
      }
      caption.push('. Scroll to see all of it.');
      parts.push(el('figure', {class: 'card topo'}, [el('figcaption', {}, [el('h3', {}, 'Topology graph'), el('p', {}, caption)]),
                                                     el('div', {class: 'topo-box'}, img)]));
    } else if (str(R, 'topology.svg_error')) {
      parts.push(el('p', {class: 'note'}, 'No topology drawing: ' + str(R, 'topology.svg_error')));
    }
    return GP.section('network', 'Network topology', parts);
  }
  // A colour swatch of a #rrggbb colour.
  function swatch(color) {
    const i = el('i', {class: 'swatch'});
    if (/^#[0-9a-fA-F]{6}$/.test(color)) i.style.background = color;
    return i;
  }

  // ---- (e) cost detail, utilization, preemption, TCO: each only when its keys are present ------
  const chartData = {};
  function costDetail(poolChart) {
    const perClass = obj(R, 'cost_usd.per_class');
    const gh = obj(R, 'gpu_hours');
    const perUseful = num(R, 'cost_usd.per_useful_gpu_hour');
    const haveClass = perClass && Object.keys(perClass).length > 0;
    const haveHours = gh && fin(gh.provisioned);
    if (!haveClass && !haveHours && !fin(perUseful)) return null;
    const list = [];
    if (fin(perUseful)) list.push({label: 'Cost per useful GPU-hour', value: money(perUseful) + '/GPU-h', detail: 'total ÷ GPU-hours that produced kept work', raw: raw(perUseful) + ' USD per GPU-hour'});
    const perGpuHour = num(R, 'cost_usd.per_gpu_hour');
    if (fin(perGpuHour)) list.push({label: 'Cost per provisioned GPU-hour', value: money(perGpuHour) + '/GPU-h', detail: 'total ÷ billed GPU-hours', raw: raw(perGpuHour) + ' USD per GPU-hour'});
    const idle = num(R, 'cost_usd.idle');
    if (fin(idle)) list.push({label: 'Idle cost', value: money(idle), detail: 'provisioned capacity no job held, plus billing rounding' + (costTotal > 0 ? ' (' + percent(idle / costTotal) + ' of total)' : ''), raw: raw(idle) + ' USD'});
    const perJob = num(R, 'cost_usd.per_job_mean');
    if (fin(perJob)) list.push({label: 'Cost per completed job', value: money(perJob), detail: 'total ÷ jobs completed', raw: raw(perJob) + ' USD per job'});
    const windowText = fin(windowS) ? ' (' + duration(windowS) + ')' : '';
    const figs = [poolChart ? costFigure('Cost by pool and pricing') : null];
    if (haveClass) {
      const rows = Object.keys(perClass).filter(k => fin(perClass[k])).map(k => ({name: k, cost_usd: perClass[k]}));
      if (fin(idle)) rows.push({name: 'idle', cost_usd: idle, idle: true});
      if (rows.length) {
        chartData.class_cost = rows;
        figs.push(GPCharts.figure('class_cost', false, 'Cost by job class and idle', 'US dollars over the statistics window' + windowText + ': each class\'s GPU-seconds at its pools\' per-GPU rate; grey: provisioned capacity no job held.', 'Bar chart of cost per job class and idle cost in US dollars'));
      }
    }
    const parts = [meansNote(), list.length ? GP.tiles(list) : null];
    const HOURS = [['provisioned', 'Provisioned (billed)'], ['busy', 'Busy (held by running jobs)'], ['useful', 'Useful (kept work)'],
                   ['lost_to_preemption', 'Lost to preemption'], ['checkpoint_overhead', 'Checkpoint overhead'], ['restart_overhead', 'Restart overhead']];
    if (haveHours) {
      chartData.gpu_hours = gh;
      figs.push(GPCharts.figure('gpu_hours', true, 'Where the provisioned GPU-hours went', 'GPU-hours (GPUs × hours) over the statistics window: useful work, compute lost to preemption, checkpoint writing, restart overhead and idle (provisioned − busy).', 'Stacked bar chart of provisioned GPU-hours split into useful, lost, checkpoint, restart and idle'));
    }
    parts.push(el('div', {class: 'charts'}, figs));
    if (haveHours) {
      const rows = HOURS.filter(([k]) => fin(gh[k])).map(([k, label]) => {
        const share = gh.provisioned > 0 ? gh[k] / gh.provisioned : undefined;
        return el('tr', {}, [el('td', {}, label), GP.numTd(gh[k], gpuHours(gh[k]), 'GPU-h'), GP.numTd(share, percent(share), '')]);
      });
      parts.push(GP.table({id: 'gpu-hours-table'}, 'GPU-hours', 'GPUs × hours over the window', [GP.th('Kind'), GP.th('GPU-hours', true), GP.th('Share of provisioned', true)], rows));
    }
    return GP.section('cost-detail', 'Cost by way of paying and by class', parts);
  }

  function utilization() {
    const rows = pools.filter(p => fin(p.util));
    if (!rows.length) return null;
    if (rows.some(p => fin(p.used))) {
      return GP.section('utilization', 'Allocation and compute used per pool', [el('div', {class: 'charts'}, GPCharts.figure('pool_util', true, 'GPU allocation and compute used per pool',
        'Solid: GPU-seconds allocated to jobs ÷ provisioned (the pool\'s gpu_utilization); grey: compute the jobs used ÷ provisioned, in percent, over the statistics window' + (fin(util) ? '; dashed: the whole cluster\'s allocation (' + percent(util) + ')' : '') + '. Colour: pricing, as above.',
        'Bar chart of GPU allocation and compute used per pool in percent'))]);
    }
    return GP.section('utilization', 'Utilization per pool', [el('div', {class: 'charts'}, GPCharts.figure('pool_util', true, 'GPU utilization per pool',
      'Busy ÷ provisioned GPU-seconds of each pool over the statistics window, in percent' + (fin(util) ? '; dashed: the whole cluster (' + percent(util) + ')' : '') + '. Colour: pricing, as above.',
      'Bar chart of GPU utilization per pool in percent'))]);
  }

  // A section's verdict sentences (assessment.failures, assessment.sharing) with its tone.
  function verdictCard(a, label) {
    if (!GP.isObj(a)) return null;
    const items = Array.isArray(a.items) ? a.items : [];
    return el('div', {class: 'card'}, [el('p', {}, GP.pill(str(a, 'tone') || 'info', label))].concat(items.map(p => GP.para(p))));
  }

  function failures() {
    const f = obj(R, 'failures');
    if (!f) return null;
    const v = k => num(f, k);
    const list = [];
    if (fin(v('failures'))) list.push({label: 'Failures', value: plural(v('failures'), 'failure', 'failures'), detail: fin(v('expected_failures')) ? number(v('expected_failures'), 1) + ' expected at the model\'s rates' : 'in the window', raw: raw(v('failures'))});
    if (fin(v('interruptions'))) list.push({label: 'Interruptions', value: plural(v('interruptions'), 'job run', 'job runs'), detail: 'job runs a failure ended (a gang counts once)', raw: raw(v('interruptions')) + ' runs'});
    if (fin(v('lost_gpu_hours'))) list.push({label: 'Lost work', value: gpuHours(v('lost_gpu_hours')), detail: 'compute since the last checkpoint, thrown away by failures', raw: raw(v('lost_gpu_hours')) + ' GPU-h'});
    if (fin(v('effective_training_time'))) list.push({label: 'Effective training time', value: percent(v('effective_training_time')), detail: 'useful ÷ (busy + waiting to restart) GPU-hours of the training jobs', raw: raw(v('effective_training_time')), ci: ciText('failures.effective_training_time', x => number(x * 100, 1) + ' pp')});
    if (fin(v('down_gpu_hours'))) list.push({label: 'Capacity down', value: gpuHours(v('down_gpu_hours')), detail: 'failed nodes no spare replaced, until repaired', raw: raw(v('down_gpu_hours')) + ' GPU-h'});
    if (fin(v('spares'))) list.push({label: 'Hot spares', value: plural(v('spares'), 'node', 'nodes'), detail: (fin(v('spare_swaps')) ? 'stood in for ' + plural(v('spare_swaps'), 'failed node', 'failed nodes') : '') + (fin(v('spare_utilization')) ? '; ' + percent(v('spare_utilization')) + ' in service on average' : ''), raw: raw(v('spares')) + ' nodes'});
    const parts = [verdictCard(A.failures, 'Failures'), meansNote(), list.length ? GP.tiles(list) : null];
    const byCause = GP.isObj(f.by_cause) ? f.by_cause : {};
    const rates = GP.isObj(f.rates_per_gpu_hour) ? f.rates_per_gpu_hour : {};
    const total = v('failures');
    const causes = Object.keys(byCause).filter(k => fin(byCause[k]));
    if (causes.length) {
      causes.sort((a, b) => byCause[b] - byCause[a] || (a < b ? -1 : 1));
      parts.push(GP.table({class: 'sortable', id: 'failures-causes-table'}, 'Failures by cause', 'rate per GPU-hour of the model; share of the window\'s failures',
        [GP.sortTh('Cause'), GP.sortTh('Failures', true), GP.sortTh('Share', true), GP.sortTh('Rate per GPU-hour', true)],
        causes.map(k => el('tr', {}, [GP.textTd(k), GP.numTd(byCause[k], count(byCause[k]), 'failures'),
          GP.numTd(total > 0 ? byCause[k] / total : undefined, total > 0 ? percent(byCause[k] / total) : '', ''),
          GP.numTd(rates[k], fin(rates[k]) ? rates[k].toExponential(2) : '', 'per GPU-hour')]))));
    }
    const classes = arr(R, 'per_class').filter(c => GP.isObj(c) && fin(num(c, 'effective_training_time')));
    if (classes.length > 1) {
      parts.push(GP.table({class: 'sortable', id: 'failures-classes-table'}, 'Effective training time per class', '1 − the share lost, checkpointing, reloading or waiting to restart',
        [GP.sortTh('Class'), GP.sortTh('Effective training time', true)],
        classes.map(c => el('tr', {}, [GP.textTd(str(c, 'name')), GP.numTd(num(c, 'effective_training_time'), percent(num(c, 'effective_training_time')), '')]))));
    }
    return GP.section('failures', 'Hardware failures', parts);
  }

  function sharing() {
    const rows = arr(R, 'sharing.pools').filter(GP.isObj);
    if (!rows.length) return null;
    const list = [];
    if (fin(util)) list.push({label: 'GPU allocation', value: percent(util), detail: 'GPU-hours allocated to jobs ÷ provisioned (gpu_utilization)', raw: raw(util)});
    if (fin(computeUsed)) list.push({label: 'Compute used', value: percent(computeUsed), detail: 'compute the jobs used ÷ provisioned GPU-hours', raw: raw(computeUsed), ci: ciText('metrics.compute_used', x => number(x * 100, 1) + ' pp')});
    const KIND = {whole: 'whole GPUs', mig: 'MIG', time_sliced: 'time-sliced', fractional: 'milli-GPU shares'};
    const pp = x => (fin(x) ? number(x * 100, 1) + ' pp' : '');
    const table = GP.table({class: 'sortable', id: 'sharing-table'}, 'Allocation and compute used per pool', 'shares of each pool\'s provisioned GPU-seconds over the statistics window',
      [GP.sortTh('Pool'), GP.sortTh('Sharing'), GP.sortTh('GPUs', true), GP.sortTh('Allocated', true), GP.sortTh('Compute used', true), GP.sortTh('Allocated, not used', true)],
      rows.map(r => {
        const a = num(r, 'allocation'), u = num(r, 'compute_used');
        return el('tr', {}, [GP.textTd(str(r, 'name')), GP.textTd(KIND[str(r, 'sharing')] || str(r, 'sharing')), GP.numTd(num(r, 'gpus'), count(num(r, 'gpus')), 'GPUs'),
          GP.numTd(a, percent(a), ''), GP.numTd(u, percent(u), ''), GP.numTd(fin(a) && fin(u) ? a - u : undefined, fin(a) && fin(u) ? pp(a - u) : '', '')]);
      }));
    const defs = obj(R, 'sharing.definitions') || {};
    const defList = [['Allocated', defs.allocation], ['Compute used', defs.compute_used]].filter(([, d]) => typeof d === 'string')
      .map(([k, d]) => el('p', {class: 'note'}, [el('strong', {}, k + ': '), d + '.']));
    return GP.section('sharing', 'Shared GPUs: allocation and compute used', [verdictCard(A.sharing, 'Allocation is not use'), list.length ? GP.tiles(list) : null, table].concat(defList));
  }

  function preemption() {
    const p = obj(R, 'preemption');
    if (!p) return null;
    const list = [];
    const v = k => num(p, k);
    // Interruptions by cause: spot reclaims here, hardware failures and maintenance stops from their
    // own sections, so the restarts they cause are never read against spot reclaims alone.
    const failureRuns = num(R, 'failures.interruptions'), maintenanceRuns = num(R, 'maintenance.interruptions');
    const spotPools = pools.some(q => q.pricing === 'spot');
    const otherCauses = fin(failureRuns) || fin(maintenanceRuns);
    if (fin(v('preemptions')) && (spotPools || v('preemptions') > 0 || !otherCauses)) list.push({label: 'Spot reclaims', value: plural(v('preemptions'), 'job run', 'job runs'), detail: 'job runs ended by a spot reclaim (a gang counts once)', raw: raw(v('preemptions')) + ' runs'});
    if (fin(failureRuns)) list.push({label: 'Hardware failures', value: plural(failureRuns, 'job run', 'job runs'), detail: 'job runs a hardware failure ended (see Hardware failures)', raw: raw(failureRuns) + ' runs'});
    if (fin(maintenanceRuns)) list.push({label: 'Maintenance stops', value: plural(maintenanceRuns, 'job run', 'job runs'), detail: 'job runs a maintenance window stopped', raw: raw(maintenanceRuns) + ' runs'});
    if (fin(v('reclaimed_nodes'))) list.push({label: 'Reclaimed nodes', value: plural(v('reclaimed_nodes'), 'node', 'nodes'), detail: fin(v('waves')) ? 'in ' + plural(v('waves'), 'reclaim wave', 'reclaim waves') : '', raw: raw(v('reclaimed_nodes')) + ' nodes'});
    if (fin(v('lost_gpu_hours'))) list.push({label: 'Lost work', value: gpuHours(v('lost_gpu_hours')), detail: 'compute thrown away since the last checkpoint' + (otherCauses ? ', by every interruption' : ''), raw: raw(v('lost_gpu_hours')) + ' GPU-h'});
    const ck = v('checkpoint_overhead_gpu_hours'), rs = v('restart_overhead_gpu_hours');
    if (fin(ck) || fin(rs)) {
      const sum = (ck || 0) + (rs || 0);
      list.push({label: 'Checkpoint + restart', value: gpuHours(sum), detail: gpuHours(ck) + ' writing checkpoints, ' + gpuHours(rs) + ' reloading after a reclaim', raw: raw(sum) + ' GPU-h'});
    }
    if (fin(v('restarts_per_job'))) list.push({label: 'Restarts per job', value: number(v('restarts_per_job'), 2) + ' restarts', detail: 'restarts of completed jobs after any interruption' + (otherCauses ? ' (spot reclaims, failures, maintenance)' : '') + ' ÷ jobs completed', raw: raw(v('restarts_per_job')) + ' per job'});
    const parts = [meansNote(), list.length ? GP.tiles(list) : null];
    const perPool = arr(p, 'per_pool');
    if (perPool.length) {
      parts.push(GP.table({class: 'sortable', id: 'preemption-pools-table'}, 'Preemptions per pool', null,
        [GP.sortTh('Pool'), GP.sortTh('Preemptions', true), GP.sortTh('Reclaimed nodes', true), GP.sortTh('Reclaim waves', true)],
        perPool.map(row => el('tr', {}, [GP.textTd(str(row, 'name'))].concat([['preemptions', 'runs'], ['reclaimed_nodes', 'nodes'], ['waves', 'waves']].map(([k, unit]) =>
          GP.numTd(num(row, k), fin(num(row, k)) ? count(num(row, k)) + ' ' + unit : '', unit)))))));
    }
    const perClass = arr(p, 'per_class');
    if (perClass.length) {
      parts.push(GP.table({class: 'sortable', id: 'preemption-classes-table'}, 'Preemptions and lost work per class', 'GPU-h: GPUs × hours',
        [GP.sortTh('Class'), GP.sortTh('Preemptions', true), GP.sortTh('Lost work', true), GP.sortTh('Checkpoint overhead', true), GP.sortTh('Restart overhead', true), GP.sortTh('Restarts per job', true)],
        perClass.map(row => el('tr', {}, [GP.textTd(str(row, 'name')), GP.numTd(num(row, 'preemptions'), fin(num(row, 'preemptions')) ? count(num(row, 'preemptions')) + ' runs' : '', 'runs')]
          .concat(['lost_gpu_hours', 'checkpoint_overhead_gpu_hours', 'restart_overhead_gpu_hours'].map(k => GP.numTd(num(row, k), gpuHours(num(row, k)), 'GPU-h')))
          .concat([GP.numTd(num(row, 'restarts_per_job'), fin(num(row, 'restarts_per_job')) ? number(num(row, 'restarts_per_job'), 2) : '', 'restarts per job')])))));
    }
    return GP.section('preemption', otherCauses ? 'Interruptions and lost work' : 'Preemptions and lost work', parts);
  }

  function tco() {
    const options = obj(R, 'tco.options');
    if (!options || !Object.keys(options).length) return null;
    const series = [];
    for (const [name, o] of Object.entries(options)) {
      if (!GP.isObj(o) || !isSeries(o.cumulative_usd)) continue;
      const entry = {name: name, cumulative_usd: o.cumulative_usd};
      const band = o.cumulative_usd_band;
      if (GP.isObj(band) && isSeries(band.p10) && isSeries(band.p90)) entry.band = {p10: band.p10, p90: band.p90};
      series.push(entry);
    }
    const settings = [];
    if (fin(num(R, 'tco.months'))) settings.push(plural(num(R, 'tco.months'), 'month', 'months'));
    if (str(R, 'tco.basis')) settings.push(str(R, 'tco.basis') + ' basis');
    if (fin(num(R, 'tco.discount_rate'))) settings.push('discount rate ' + percent(num(R, 'tco.discount_rate')) + ' a year');
    if (fin(num(R, 'tco.demand_growth_per_month'))) settings.push('demand growth ' + percent(num(R, 'tco.demand_growth_per_month')) + ' a month');
    if (fin(num(R, 'tco.initial_demand_gpu_hours_per_month'))) settings.push('initial demand ' + gpuHours(num(R, 'tco.initial_demand_gpu_hours_per_month')) + ' a month');
    const parts = [settings.length ? el('p', {class: 'note'}, 'Projection: ' + settings.join(', ') + '. Month m covers hours [730 m, 730 (m + 1)).') : null];
    if (series.length) {
      chartData.tco = series;
      parts.push(el('div', {class: 'charts'}, GPCharts.figure('tco', true, 'Cumulative cost per option',
        isMonteCarlo ? 'US dollars paid up to the end of each month, per compared option: the mean over replications, each projecting its own measured demand; shaded: 10th to 90th percentile.'
                     : 'US dollars paid up to the end of each month, per compared option.',
        'Line chart of cumulative cost in US dollars per month for each option')));
    }
    const cheapest = GP.isObj(A.cheapest_option) ? str(A, 'cheapest_option.name') : '';
    const withCi = (v, key) => { const h = ciHalf(R, key); return [money(v), h === undefined ? null : ' ', h === undefined ? null : el('span', {class: 'ci'}, '± ' + money(h))]; };
    const purchaseText = (list) => {
      if (!Array.isArray(list) || !list.length) return '';
      const items = list.filter(GP.isObj).map(p => (fin(num(p, 'nodes')) ? count(num(p, 'nodes')) : '?') + ' in month ' + (fin(num(p, 'month')) ? count(num(p, 'month')) : '?'));
      return items.length > 4 ? items.slice(0, 3).join(', ') + ', … (' + count(items.length) + ' purchases)' : items.join(', ');
    };
    const simulatedTd = (sim) => {
      if (!GP.isObj(sim)) return el('td', {class: 'num', 'data-sort': ''}, '');
      if (sim.simulated === false) return el('td', {class: 'num', 'data-sort': '', title: str(sim, 'why_not')}, 'not simulated');
      const m = num(sim, 'stops_keeping_up_month'), months = num(sim, 'months'), out = num(sim, 'runs_out_month');
      if (fin(out)) return GP.numTd(out, 'month ' + number(out, 1), 'months from 0: where the offered work passes what the simulated fleet serves once behind (median over the replications); from month ' + count(m) + ' on every simulated month serves less than 97% of its offered work');
      return fin(m) ? GP.numTd(m, 'month ' + count(m), 'first month from which every simulated month serves less than 97% of its offered work (from 0)')
                    : el('td', {class: 'num', 'data-sort': fin(months) ? raw(months) : ''}, 'keeps up' + (fin(months) ? ' (' + plural(months, 'month', 'months') + ')' : ''));
    };
    const rows = Object.entries(options).filter(([, o]) => GP.isObj(o)).map(([name, o]) => {
      const nodes = num(o, 'nodes'), total = num(o, 'total_usd'), npv = num(o, 'npv_usd');
      const short = o.serves_demand === false, stops = num(o, 'stops_keeping_up_month'), runsOut = num(o, 'runs_out_month');
      const be = GP.get(R, 'tco.break_even_month.' + name + '_vs_cloud');
      const burst = num(o, 'burst_gpu_hours'), unserved = num(o, 'unserved_gpu_hours');
      const bought = purchaseText(o.purchases);
      const cells = [el('td', {'data-sort': name}, [name, ' ', name === cheapest ? GP.pill('ok', 'cheapest by NPV') : null, short ? GP.pill('bad', 'does not serve the demand') : null]),
        el('td', {class: 'num', 'data-sort': fin(nodes) ? raw(nodes) : '', title: bought ? 'bought: ' + bought : null}, fin(nodes) ? [count(nodes) + ' nodes', bought ? el('div', {class: 'note'}, (str(o, 'sizing') === 'staged' ? 'staged: ' : '') + bought) : null] : ''),
        fin(total) ? el('td', {class: 'num', 'data-sort': raw(total), title: raw(total) + ' USD'}, withCi(total, 'tco.options.' + name + '.total_usd')) : GP.numTd(total),
        fin(npv) ? el('td', {class: 'num', 'data-sort': raw(npv), title: raw(npv) + ' USD'}, withCi(npv, 'tco.options.' + name + '.npv_usd')) : GP.numTd(npv),
        name === 'cloud' || short ? el('td', {class: 'num', 'data-sort': ''}, '—') : fin(be) ? GP.numTd(be, 'month ' + count(be), 'month (from 0)') : el('td', {class: 'num', 'data-sort': ''}, 'never'),
        fin(runsOut) ? GP.numTd(runsOut, 'month ' + number(runsOut, 1), 'months from 0: where the demand passes the capacity; month ' + count(stops) + ' is the first with demand left unserved')
          : fin(stops) ? GP.numTd(stops, 'month ' + count(stops), 'first month with unserved demand (from 0)') : el('td', {class: 'num', 'data-sort': ''}, short ? 'unknown' : 'keeps up'),
        simulatedTd(o.simulation),
        fin(burst) ? GP.numTd(burst, gpuHours(burst) + ' burst', 'GPU-h') : fin(unserved) && unserved > 0 ? GP.numTd(unserved, gpuHours(unserved) + ' unserved', 'GPU-h') : el('td', {class: 'num', 'data-sort': ''})];
      return el('tr', {}, cells);
    });
    const note = str(R, 'tco.cheapest_note');
    if (note) parts.push(el('p', {class: 'note'}, 'No option is marked the cheapest: ' + note + '.'));
    const yearRows = [];
    const mwh = v => (fin(v) ? number(v / 1000, 1) + ' MWh' : '–');
    const tonnes = v => (fin(v) ? number(v, 1) + ' tCO2e' : '–');
    for (const [name, o] of Object.entries(options)) {
      for (const y of arr(o, 'energy.per_year').filter(GP.isObj)) {
        yearRows.push(el('tr', {}, [GP.textTd(name), GP.numTd(num(y, 'year'), count(num(y, 'year')), ''), GP.numTd(num(y, 'usd'), money(num(y, 'usd')), 'USD'),
          GP.numTd(num(y, 'kwh'), mwh(num(y, 'kwh')), 'kWh'), GP.numTd(num(y, 'tco2e'), tonnes(num(y, 'tco2e')), 'tCO2e'),
          GP.numTd(num(y, 'embodied_tco2e'), tonnes(num(y, 'embodied_tco2e')), 'tCO2e')]));
      }
    }
    const EA = obj(R, 'tco.energy_assumptions') || {};
    parts.push(GP.table({class: 'sortable', id: 'tco-table'}, 'Options compared', null,
      [GP.sortTh('Option'), GP.sortTh('On-prem nodes', true), GP.sortTh('Total cost', true), GP.sortTh('NPV', true), GP.sortTh('Break-even vs cloud', true), GP.sortTh('Stops keeping up', true), GP.sortTh('In the simulation', true), GP.sortTh('Burst / unserved', true)], rows,
      [el('p', {class: 'note'}, 'NPV: net present value of the monthly costs at the discount rate. Break-even: first month (from 0) at whose end the option\'s cumulative cost is at most the cloud\'s. ' +
        'On-prem nodes: the largest fleet and when it is bought (staged: in the month demand first needs each node). Stops keeping up: the month (from 0, to a tenth) where the growing demand passes the option\'s capacity, each month\'s demand read as its rate at mid-month (the first month with demand left unserved is the first whose middle comes after it); such an option is cheaper only because it does less, so it is never marked the cheapest and has no break-even. ' +
        'In the simulation: the option\'s own pools run in the engine with the same growth; where the offered work passes what the fleet serves once behind (its capacity as simulated: placement, fragmentation and failures included), read the same way; soon after it every simulated month serves less than 97% of its offered work. Cloud and hybrid buy without limit and are not simulated. An option that falls behind in the simulation does not serve the demand.' +
        (isMonteCarlo ? ' Across replications: totals and NPV are means ± 95% CI half-width; on-prem nodes the mean fleet; break-even the median month (never when half or more never break even); an option serves the demand only if it does in every replication, and stops keeping up in the earliest month any replication falls short.' : ''))]));
    if (yearRows.length) {
      const onPrem = obj(EA, 'on_prem');
      parts.push(GP.table({id: 'tco-energy-table'}, 'Energy and carbon per year', 'beside each option\'s cost',
        ['Option', 'Year', 'Cost', 'Energy', 'Carbon', 'Embodied carbon'].map(h => el('th', {}, h)), yearRows,
        [el('p', {class: 'note'}, 'Facility energy and location-based carbon from the power model of the energy section; on-prem power cost = these kWh × the electricity price' +
          (onPrem ? ' (node ' + number(num(onPrem, 'node_idle_kw'), 2) + ' kW idle to ' + number(num(onPrem, 'node_busy_kw'), 2) + ' kW busy, PUE ' + number(num(onPrem, 'pue'), 2) +
            ', ' + money(num(onPrem, 'usd_per_kwh')) + '/kWh, ' + number(num(onPrem, 'g_co2e_per_kwh'), 0) + ' gCO2e/kWh)' : '') +
          '. Embodied: ' + number(num(EA, 'embodied_kgco2e_per_node'), 0) + ' kgCO2e per node over ' + number(num(EA, 'embodied_life_years'), 0) +
          ' years, per node-hour used.')]));
    }
    return GP.section('tco', 'TCO projection', parts);
  }

  // ---- (f) pools and classes ---------------------------------------------------------------------
  function tables() {
    if (!pools.length && !classes.length) return null;
    const parts = [el('p', {id: 'gp-sort-status', class: 'visually-hidden', 'aria-live': 'polite'})];
    if (pools.length) {
      parts.push(GP.table({class: 'sortable', id: 'pools-table'}, 'Pools', 'select a column heading to sort',
        // NOTE: with shared pools utilization is allocation, and the compute used stands beside it.
        ['Pool', 'Instance', 'GPU', ['Nodes'], ['GPUs'], 'Pricing', ['Price per node-hour'], [fin(computeUsed) ? 'GPU allocation' : 'GPU utilization']]
          .concat(fin(computeUsed) ? [['Compute used']] : []).concat([['Cost over window'], ['Share of cost']])
          .map(h => (Array.isArray(h) ? GP.sortTh(h[0], true) : GP.sortTh(h, false))),
        pools.map(p => {
          const share = fin(p.cost) && costTotal > 0 ? p.cost / costTotal : undefined;
          return el('tr', {}, [GP.textTd(p.name), GP.textTd(p.instance || ''), GP.textTd(p.gpu || ''),
            GP.numTd(p.nodes, count(p.nodes), 'nodes'), GP.numTd(p.gpus, count(p.gpus), 'GPUs'), GP.textTd(p.pricing || ''),
            GP.numTd(p.price, money(p.price), 'USD per node-hour' + (p.priceAsOf ? ', price as of ' + p.priceAsOf : '')),
            GP.numTd(p.util, percent(p.util), '')].concat(fin(computeUsed) ? [GP.numTd(p.used, percent(p.used), '')] : [])
            .concat([GP.numTd(p.cost, money(p.cost), 'USD'), GP.numTd(share, percent(share), '')]));
        })));
    }
    if (classes.length) {
      const KEYS = ['wait_s.mean', 'wait_s.p50', 'wait_s.p90', 'wait_s.p99', 'jct_s.mean', 'jct_s.p90', 'jct_s.p99'];
      parts.push(GP.table({class: 'sortable', id: 'classes-table'}, 'Job classes', 'durations in human units; hover for raw seconds',
        [GP.sortTh('Class'), ...['Submitted', 'Completed', 'Unfinished', 'Mean wait', 'p50 wait', 'p90 wait', 'p99 wait', 'Mean JCT', 'p90 JCT', 'p99 JCT'].map(h => GP.sortTh(h, true))],
        classes.map(c => el('tr', {}, [GP.textTd(str(c, 'name'))]
          .concat(['jobs_submitted', 'jobs_completed', 'jobs_unfinished'].map(k => GP.numTd(num(c, k), count(num(c, k)), 'jobs')))
          .concat(KEYS.map(k => (saturated ? el('td', {class: 'num nm', 'data-sort': ''}, 'not meaningful') : GP.numTd(num(c, k), duration(num(c, k)), 's')))))),
        [el('p', {class: 'note'}, 'JCT: job completion time, from submission to finish. Statistics cover completed jobs submitted in the window.')]));
    }
    return GP.section('tables', 'Pools and job classes', parts);
  }

  // ---- (f1) teams: quotas, waits, borrowing, reclaim, chargeback (docs/teams.md) ----------------
  const teams = arr(R, 'per_team').filter(GP.isObj);
  function teamsSection() {
    if (!teams.length) return null;
    const nominal = t => (GP.isObj(t.quota) ? Object.values(t.quota) : []).reduce((a, q) => a + (GP.isObj(q) && fin(q.nominal) ? q.nominal : 0), 0);
    const dur = (t, k) => (saturated ? el('td', {class: 'num nm', 'data-sort': ''}, 'not meaningful') : GP.numTd(num(t, k), duration(num(t, k)), 's'));
    const parts = [GP.table({class: 'sortable', id: 'teams-table'}, 'Teams', 'quota use: GPUs held on average ÷ nominal quota; chargeback: the cluster\'s cost split by used GPU-hours',
      [GP.sortTh('Team'), GP.sortTh('Cohort'), ...['Nominal GPUs', 'Completed', 'p50 wait', 'p90 wait', 'Mean JCT', 'GPU-hours used', 'GPU-hours borrowed', 'Quota use', 'Reclaim preemptions', 'Cost share', 'Chargeback'].map(h => GP.sortTh(h, true))],
      teams.map(t => el('tr', {}, [GP.textTd(str(t, 'name')), GP.textTd(str(t, 'cohort') || '—'),
        GP.numTd(nominal(t), count(nominal(t)), 'GPUs'), GP.numTd(num(t, 'jobs_completed'), count(num(t, 'jobs_completed')), 'jobs'),
        dur(t, 'wait_s.p50'), dur(t, 'wait_s.p90'), dur(t, 'jct_s.mean'),
        GP.numTd(num(t, 'gpu_hours_used'), gpuHours(num(t, 'gpu_hours_used')), 'GPU-hours'),
        GP.numTd(num(t, 'gpu_hours_borrowed'), gpuHours(num(t, 'gpu_hours_borrowed')), 'GPU-hours'),
        GP.numTd(num(t, 'quota_use'), percent(num(t, 'quota_use')), ''),
        GP.numTd(num(t, 'reclaim_preemptions'), count(num(t, 'reclaim_preemptions')), 'runs'),
        GP.numTd(num(t, 'cost_share'), percent(num(t, 'cost_share')), ''), GP.numTd(num(t, 'cost_usd'), money(num(t, 'cost_usd')), 'USD')])),
      [el('p', {class: 'note'}, 'Borrowed: GPU-hours held above the team\'s nominal quota, lent by its cohort. Reclaim preemptions: runs of this team stopped because a team within its quota took its GPUs back.')])];
    if (ts.t_s && Object.keys(teamTs).length) {
      parts.push(el('div', {class: 'charts'}, GPCharts.figure('team_gpus', true, 'GPUs held per team over time',
        'GPUs each team\'s running jobs held, averaged over each bin' + (mc ? ' and over the replications' : '') + ', stacked.', 'Stacked line chart of the GPUs each team held over simulated time')));
    }
    return GP.section('teams', 'Teams and quotas', parts);
  }

  // ---- (f2) energy and carbon beside cost (docs/energy.md) ------------------------------------
  function energy() {
    const E = obj(R, 'energy');
    if (!E) return null;
    const kwh = v => (fin(v) ? number(v, 0) + ' kWh' : '–');
    const tonnes = v => (fin(v) ? number(v, 2) + ' tCO2e' : '–');
    const parts = [el('p', {}, ['Facility energy ', el('strong', {}, kwh(num(E, 'kwh'))), ' ', ciText('energy.kwh', kwh),
      ' (mean ', number(num(E, 'mean_power_kw'), 1), ' kW), location-based carbon ', el('strong', {}, tonnes(num(E, 'tco2e'))), ' ',
      ciText('energy.tco2e', tonnes), ', embodied carbon of the node-time ', tonnes(num(E, 'embodied_tco2e')),
      ', power cost paid on-prem ', money(num(E, 'power_cost_usd')), '.'])];
    const poolMap = obj(E, 'per_pool') || {};
    const poolNames = Object.keys(poolMap);
    if (poolNames.length) {
      parts.push(GP.table({id: 'energy-pools-table'}, 'Energy and carbon per pool', 'IT energy × PUE × grid factor',
        ['Pool', 'Energy', 'Of it idle', 'Carbon', 'Power cost', 'Cost over window', 'PUE', 'Grid gCO2e/kWh', 'Node kW idle / busy'].map(h => el('th', {}, h)),
        poolNames.map(name => {
          const e = poolMap[name];
          const p = pools.find(x => x.name === name) || {};
          return el('tr', {}, [GP.textTd(name), GP.numTd(num(e, 'kwh'), kwh(num(e, 'kwh')), 'kWh'),
            GP.numTd(num(e, 'idle_kwh'), kwh(num(e, 'idle_kwh')), 'kWh'), GP.numTd(num(e, 'tco2e'), tonnes(num(e, 'tco2e')), 'tCO2e'),
            GP.numTd(num(e, 'power_cost_usd'), str(e, 'power_cost_basis') === 'on_prem_site' ? money(num(e, 'power_cost_usd')) : 'in price', 'USD'),
            GP.numTd(p.cost, money(p.cost), 'USD'), GP.numTd(num(e, 'pue'), number(num(e, 'pue'), 2), ''),
            GP.numTd(num(e, 'g_co2e_per_kwh'), number(num(e, 'g_co2e_per_kwh'), 0), 'gCO2e/kWh'),
            GP.textTd(number(num(e, 'node_idle_kw'), 2) + ' / ' + number(num(e, 'node_busy_kw'), 2))]);
        }),
        [el('p', {class: 'note'}, 'Grid factors are location-based (Cloud Carbon Footprint per region); cloud prices include power, so its cost is shown only for on-prem pools.')]));
    }
    const classMap = obj(E, 'per_class') || {};
    const classNames = Object.keys(classMap);
    if (classNames.length) {
      parts.push(GP.table({id: 'energy-classes-table'}, 'Energy and carbon per job class', 'busy GPU-time at the busy power of its pools',
        ['Class', 'Energy', 'Carbon', 'Power cost'].map(h => el('th', {}, h)),
        classNames.map(name => {
          const e = classMap[name];
          return el('tr', {}, [GP.textTd(name), GP.numTd(num(e, 'kwh'), kwh(num(e, 'kwh')), 'kWh'),
            GP.numTd(num(e, 'tco2e'), tonnes(num(e, 'tco2e')), 'tCO2e'), GP.numTd(num(e, 'power_cost_usd'), money(num(e, 'power_cost_usd')), 'USD')]);
        })));
    }
    return GP.section('energy', 'Energy and carbon', parts);
  }

  // ---- (f3) the recommendation of `gpuplan recommend`, as the assessment states it -------------
  function recommendation() {
    const rec = GP.isObj(A.recommendation) ? A.recommendation : null;
    if (!rec) return null;
    const parts = (Array.isArray(rec.items) ? rec.items : []).map(p => GP.para(p));
    const slos = Array.isArray(rec.slos) ? rec.slos.filter(GP.isObj) : [];
    if (slos.length) {
      parts.push(GP.table({id: 'slo-table'}, 'SLOs of the recommended configuration', 'achieved: mean over its replications, with the 95% CI',
        [GP.th('Metric'), GP.th('Target'), GP.th('Achieved', true), GP.th('95% CI', true), GP.th('Mean within target')],
        slos.map(s => el('tr', {}, [el('td', {}, GP.code(str(s, 'metric'))), GP.textTd(str(s, 'target')),
          el('td', {class: 'num'}, str(s, 'achieved') || 'n/a'), el('td', {class: 'num'}, str(s, 'ci95') || 'n/a'),
          GP.textTd(s.within === true ? 'yes' : s.within === false ? 'no' : 'n/a')]))));
    }
    const runners = Array.isArray(rec.runners_up) ? rec.runners_up : [];
    if (runners.length) parts.push(el('h3', {}, 'Runners-up'), el('ol', {}, runners.map(r => el('li', {}, GP.runs(r)))));
    return GP.section('recommendation', 'Recommendation', parts, true);
  }

  // ---- (g) reproduce and warnings ----------------------------------------------------------------
  const seed = typeof R.seed === 'string' ? R.seed : fin(R.seed) ? String(R.seed) : '';
  function reproduce() {
    const facts = [];
    const fact = (label, value) => { if (value) facts.push(el('dt', {}, label), el('dd', {}, value)); };
    fact('Scenario', str(R, 'scenario') ? GP.code(str(R, 'scenario')) : null);
    fact('gpuplan version', str(R, 'gpuplan_version'));
    fact('Seed', seed);
    fact('Replications', count(replications));
    fact('Generated', GP.timestamp(str(R, 'generated_at')));
    let command = mc ? 'gpuplan mc scenario.json --replications ' + replications : 'gpuplan run scenario.json';
    if (seed) command += ' --seed ' + seed;
    const echo = R.scenario_echo;
    fact('Command', el('span', {}, [GP.code(command), echo !== undefined ? ' with the scenario below saved as ' : null, echo !== undefined ? GP.code('scenario.json') : null]));
    return GP.section('reproduce', 'Reproduce this run', [el('dl', {class: 'facts'}, facts),
      echo !== undefined ? el('pre', {class: 'echo', 'aria-label': 'Scenario as simulated, defaults filled in'}, el('code', {}, JSON.stringify(echo, null, 2)))
                         : el('p', {class: 'note'}, 'The result does not include the scenario; keep the scenario file with this report.')], true);
  }
  const warningList = arr(A, 'warnings');
  function warnings() {
    return GP.section('warnings', 'Warnings', [warningList.length
      ? el('ul', {class: 'warnings'}, warningList.map(w => el('li', {}, String(w))))
      : el('p', {class: 'note'}, 'The run raised no warnings.')], true);
  }

  // ---- the page ----------------------------------------------------------------------------------
  const name = str(R, 'scenario') || 'Unnamed scenario';
  GP.masthead(name, [
    str(R, 'generated_at') ? 'Generated ' + GP.timestamp(str(R, 'generated_at')) : null,
    str(R, 'gpuplan_version') ? 'gpuplan ' + str(R, 'gpuplan_version') : null,
    seed ? 'seed ' + seed : null,
    plural(replications, 'replication', 'replications'),
    fin(windowS) ? el('span', {}, ['statistics window ', durSpan(windowS)]) : null]);
  // The cost-by-pool chart moves into the cost section when that section is shown.
  const costSection = costDetail(costPools.length > 0);
  const sections = [
    ['summary', 'Summary', summary()], ['recommendation', 'Recommendation', recommendation()], ['figures', 'Key figures', figures()], ['charts', 'Charts', charts(!costSection)],
    ['network', 'Network', network()], ['cost-detail', 'Cost', costSection], ['utilization', 'Utilization', utilization()],
    ['sharing', 'Shared GPUs', sharing()], ['failures', 'Failures', failures()], ['preemption', 'Interruptions', preemption()], ['tco', 'TCO', tco()], ['teams', 'Teams', teamsSection()], ['tables', 'Pools and classes', tables()], ['energy', 'Energy', energy()],
    ['reproduce', 'Reproduce', reproduce()], ['warnings', 'Warnings (' + warningList.length + ')', warnings()]].filter(s => s[2]);
  GP.toc(sections.map(s => [s[0], s[1]]));
  GP.append(document.getElementById('gp-main'), sections.map(s => s[2]));
  const version = str(R, 'gpuplan_version');
  document.getElementById('gp-footer').textContent = 'Generated by gpuplan' + (version ? ' ' + version : '') +
    '. Figures cover jobs submitted in the statistics window, from warmup to horizon. This file is self-contained: it opens offline and loads nothing from the network.';
  GP.makeSortable(document);

  // ---- chart builders ----------------------------------------------------------------------------
  const {PALETTE, PRICING_COLOR, fmtNum, moneyAxis, withAlpha} = GPCharts;
  const NICE_DURATIONS = [0.001, 0.01, 0.1, 1, 10, 60, 600, 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400];
  const t = ts.t_s || [];
  const span = t.length > 1 ? t[t.length - 1] - t[0] : 0;
  const timeUnit = span > 3 * 86400 ? {scale: 86400, name: 'days'} : span > 3 * 3600 ? {scale: 3600, name: 'hours'} : {scale: 60, name: 'minutes'};
  function points(series) {
    const out = [];
    (series || []).forEach((y, i) => { if (i < t.length && fin(y)) out.push({x: t[i] / timeUnit.scale, y: y}); });
    return out;
  }
  function bandDatasets(band, color, label) {
    return [
      {label: label + ', 10th percentile', data: points(band.p10), borderWidth: 0, pointRadius: 0, fill: false, gpHideLegend: true},
      {label: label + ', 10th–90th percentile', data: points(band.p90), borderWidth: 0, pointRadius: 0, backgroundColor: withAlpha(color, 0.16), fill: '-1'},
      {label: label + ', median', data: points(band.p50), borderColor: color, backgroundColor: color, borderWidth: 1.6, pointRadius: 0}];
  }
  const line = (label, series, color, extra) => Object.assign({label: label, data: points(series), borderColor: color, backgroundColor: color, borderWidth: 1.6, pointRadius: 0}, extra || {});
  // Shades the warmup period, whose jobs count in no statistic.
  const warmupShade = {
    id: 'gpWarmup',
    beforeDatasetsDraw(chart) {
      if (!(warmupS > 0)) return;
      const area = chart.chartArea, ctx = chart.ctx;
      const right = Math.min(chart.scales.x.getPixelForValue(warmupS / timeUnit.scale), area.right);
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
    return {parsing: false, normalized: true, interaction: {mode: 'index', intersect: false},
      scales: {x: {type: 'linear', title: {display: true, text: 'Time since start of simulation (' + timeUnit.name + ')'}, ticks: {maxTicksLimit: 12}, grid: {display: false}},
               y: {beginAtZero: true, title: {display: true, text: yTitle}, ticks: {callback: yTick}}},
      plugins: {tooltip: {callbacks: {
        title: items => (items.length ? 't = ' + duration(items[0].parsed.x * timeUnit.scale) + ' (' + fmtNum(items[0].parsed.x * timeUnit.scale, 0) + ' s)' : ''),
        label: item => item.dataset.label + ': ' + tooltipValue(item.parsed.y)}}}};
  }
  const countTick = v => fmtNum(v, Number.isInteger(v) ? 0 : 1);
  const area = color => ({fill: 'origin', backgroundColor: withAlpha(color, 0.12)});
  function barOptions(yTitle, tick, label, extra) {
    return Object.assign({scales: {x: {grid: {display: false}}, y: {beginAtZero: true, title: {display: true, text: yTitle}, ticks: {callback: tick}}},
                          plugins: {legend: {display: false}, tooltip: {callbacks: {label: label}}}}, extra || {});
  }
  const shareOf = total => item => money(item.parsed.y) + (total > 0 ? ' (' + fmtNum(100 * item.parsed.y / total, 1) + '% of total)' : '');

  const BUILDERS = {
    gpus() {
      const sets = [];
      if (bands.busy_gpus) sets.push(...bandDatasets(bands.busy_gpus, PALETTE[0], 'Busy GPUs'));
      else if (ts.busy_gpus) sets.push(line('Busy GPUs (mean over each bin)', ts.busy_gpus, PALETTE[0], area(PALETTE[0])));
      if (ts.provisioned_gpus) sets.push(line('Provisioned GPUs', ts.provisioned_gpus, '#334155', {stepped: 'before', borderDash: [6, 4], borderWidth: 1.4, fill: false}));
      return {type: 'line', plugins: [warmupShade], data: {datasets: sets}, options: timeOptions('GPUs', countTick, v => fmtNum(v, 1) + ' GPUs')};
    },
    queue() {
      const sets = bands.queued_jobs ? bandDatasets(bands.queued_jobs, PALETTE[1], 'Queued jobs') : [line('Queued jobs', ts.queued_jobs, PALETTE[1], area(PALETTE[1]))];
      return {type: 'line', plugins: [warmupShade], data: {datasets: sets}, options: timeOptions('Jobs waiting to start', countTick, v => fmtNum(v, Number.isInteger(v) ? 0 : 1) + ' jobs')};
    },
    spend() {
      let sets;
      if (bands.cumulative_spend_usd) {
        sets = bandDatasets(bands.cumulative_spend_usd, PALETTE[2], 'Cumulative spend');
      } else {
        let sum = 0;
        sets = [line('Cumulative spend', ts.spend_usd.map(v => (sum += fin(v) ? v : 0)), PALETTE[2], area(PALETTE[2]))];
      }
      return {type: 'line', plugins: [warmupShade], data: {datasets: sets}, options: timeOptions('US dollars spent since start', moneyAxis, money)};
    },
    team_gpus() {
      const sets = Object.keys(teamTs).map((n, i) => line(n, teamTs[n], PALETTE[i % PALETTE.length],
        {fill: i === 0 ? 'origin' : '-1', backgroundColor: withAlpha(PALETTE[i % PALETTE.length], 0.3)}));
      const options = timeOptions('GPUs held', countTick, v => fmtNum(v, 1) + ' GPUs');
      options.scales.y.stacked = true;
      return {type: 'line', plugins: [warmupShade], data: {datasets: sets}, options: options};
    },
    wait_cdf: () => cdf('wait_cdf', 'wait'),
    jct_cdf: () => cdf('jct_cdf', 'jct'),
    cost() {
      const total = costPools.reduce((a, p) => a + p.cost, 0);
      return {type: 'bar', data: {labels: costPools.map(p => (p.pricing ? [p.name, p.pricing.replace(/_/g, ' ')] : p.name)),
        datasets: [{label: 'Cost (USD)', data: costPools.map(p => p.cost), maxBarThickness: 72, borderRadius: 4,
                    backgroundColor: costPools.map((p, i) => PRICING_COLOR[p.pricing] || PALETTE[i % PALETTE.length])}]},
        options: barOptions('US dollars over the statistics window', moneyAxis, shareOf(total))};
    },
    class_cost() {
      const rows = chartData.class_cost;
      const total = rows.reduce((a, r) => a + r.cost_usd, 0);
      return {type: 'bar', data: {labels: rows.map(r => r.name),
        datasets: [{label: 'Cost (USD)', data: rows.map(r => r.cost_usd), maxBarThickness: 72, borderRadius: 4,
                    backgroundColor: rows.map((r, i) => (r.idle ? '#cbd5e1' : PALETTE[i % PALETTE.length]))}]},
        options: barOptions('US dollars over the statistics window', moneyAxis, shareOf(total))};
    },
    gpu_hours() {
      const g = chartData.gpu_hours;
      const v = k => (fin(g[k]) ? g[k] : 0);
      const parts = [['Useful', v('useful'), '#059669'], ['Lost to preemption', v('lost_to_preemption'), '#b91c1c'],
                     ['Checkpoint overhead', v('checkpoint_overhead'), '#d97706'], ['Restart overhead', v('restart_overhead'), '#7c3aed']];
      if (fin(g.provisioned) && fin(g.busy)) parts.push(['Idle (provisioned − busy)', Math.max(0, g.provisioned - g.busy), '#cbd5e1']);
      const total = fin(g.provisioned) ? g.provisioned : parts.reduce((a, p) => a + p[1], 0);
      return {type: 'bar', data: {labels: ['Provisioned GPU-hours'], datasets: parts.map(p => ({label: p[0], data: [p[1]], backgroundColor: p[2], borderWidth: 0, maxBarThickness: 70}))},
        options: {indexAxis: 'y',
          scales: {x: {stacked: true, beginAtZero: true, title: {display: true, text: 'GPU-hours over the statistics window'}, ticks: {callback: x => fmtNum(x, 0)}},
                   y: {stacked: true, grid: {display: false}}},
          plugins: {tooltip: {callbacks: {label: item => item.dataset.label + ': ' + gpuHours(item.parsed.x) + (total > 0 ? ' (' + fmtNum(100 * item.parsed.x / total, 1) + '% of provisioned)' : '')}}}}};
    },
    pool_util() {
      const rows = pools.filter(p => fin(p.util));
      const shared = rows.some(r => fin(r.used));
      const sets = [{type: 'bar', label: shared ? 'Allocated (%)' : 'GPU utilization (%)', data: rows.map(r => 100 * r.util), maxBarThickness: 72, borderRadius: 4,
                     backgroundColor: rows.map((r, i) => PRICING_COLOR[r.pricing] || PALETTE[i % PALETTE.length])}];
      if (shared) sets.push({type: 'bar', label: 'Compute used (%)', data: rows.map(r => (fin(r.used) ? 100 * r.used : null)), maxBarThickness: 72, borderRadius: 4, backgroundColor: '#94a3b8'});
      if (fin(util)) sets.push({type: 'line', label: 'Whole cluster', data: rows.map(() => 100 * util), borderColor: '#334155', borderDash: [6, 4], borderWidth: 1.4, pointRadius: 0, fill: false});
      return {type: 'bar', data: {labels: rows.map(r => (r.pricing ? [r.name, r.pricing.replace(/_/g, ' ')] : r.name)), datasets: sets},
        options: {scales: {x: {grid: {display: false}}, y: {min: 0, max: 100, title: {display: true, text: shared ? 'Share of provisioned GPU time (%)' : 'GPU utilization (%)'}, ticks: {callback: x => x + '%'}}},
                  plugins: {legend: {display: shared}, tooltip: {callbacks: {label: item => item.dataset.label.replace(' (%)', '') + ': ' + fmtNum(item.parsed.y, 1) + '%'}}}}};
    },
    tco() {
      const colors = {cloud: '#2563eb', on_prem: '#64748b', hybrid: '#059669'};
      const monthly = s => (s || []).map((y, m) => ({x: m + 1, y: y})).filter(p => fin(p.y));
      const sets = [];
      chartData.tco.forEach((o, i) => {
        const color = colors[o.name] || PALETTE[i % PALETTE.length];
        const label = o.name.replace(/_/g, ' ');
        if (o.band) {  // Monte Carlo: 10th-90th percentile across replications, shaded
          sets.push({label: label + ', 10th percentile', data: monthly(o.band.p10), borderWidth: 0, pointRadius: 0, fill: false, gpHideLegend: true});
          sets.push({label: label + ', 10th–90th percentile', data: monthly(o.band.p90), borderWidth: 0, pointRadius: 0, backgroundColor: withAlpha(color, 0.16), fill: '-1'});
        }
        sets.push({label: label + (o.band ? ', mean' : ''), data: monthly(o.cumulative_usd), borderColor: color, backgroundColor: color, borderWidth: 1.8, pointRadius: 0});
      });
      return {type: 'line', data: {datasets: sets}, options: {parsing: false, interaction: {mode: 'index', intersect: false},
        scales: {x: {type: 'linear', min: 0, title: {display: true, text: 'Months from now (end of month)'}, ticks: {stepSize: 6}},
                 y: {beginAtZero: true, title: {display: true, text: 'Cumulative US dollars'}, ticks: {callback: moneyAxis}}},
        plugins: {tooltip: {callbacks: {title: items => (items.length ? 'End of month ' + (items[0].parsed.x - 1) : ''), label: item => item.dataset.label + ': ' + money(item.parsed.y)}}}}};
    }};
  function cdf(key, verb) {
    const list = classes.filter(c => validCdf(c[key]));
    let minPositive = Infinity;
    list.forEach(c => c[key].x_s.forEach(x => { if (x > 0 && x < minPositive) minPositive = x; }));
    // NOTE: a log axis cannot show 0 s, so zero durations sit at the left edge and the tooltip says "0 s".
    const floor = Number.isFinite(minPositive) ? minPositive / 2 : 1;
    const sets = list.map((c, i) => ({label: str(c, 'name'),
      data: c[key].x_s.map((x, j) => ({x: Math.max(x, floor), y: 100 * c[key].p[j], s: x})),
      borderColor: PALETTE[i % PALETTE.length], backgroundColor: PALETTE[i % PALETTE.length], borderWidth: 1.8, pointRadius: 0}));
    return {type: 'line', data: {datasets: sets}, options: {parsing: false, interaction: {mode: 'nearest', intersect: false},
      scales: {
        x: {type: 'logarithmic', title: {display: true, text: verb === 'wait' ? 'Wait before first start (log scale)' : 'Job completion time, submit to finish (log scale)'},
            afterBuildTicks: axis => { const nice = NICE_DURATIONS.filter(v => v >= axis.min && v <= axis.max); if (nice.length >= 2) axis.ticks = nice.map(v => ({value: v})); },
            ticks: {callback: v => duration(v), autoSkip: false, maxRotation: 0}},
        y: {min: 0, max: 100, title: {display: true, text: 'Share of jobs (%)'}, ticks: {callback: v => v + '%'}}},
      plugins: {tooltip: {callbacks: {title: () => '',
        label: item => item.dataset.label + ': ' + fmtNum(item.parsed.y, 1) + '% of jobs ' + (verb === 'wait' ? 'waited' : 'finished within') + ' ≤ ' + duration(item.raw.s) + ' (' + fmtNum(item.raw.s, 1) + ' s)'}}}}};
  }
  GPCharts.draw(BUILDERS, [680, 255]);
  GP.selftest();
})();
