// report.html of `gpuplan serve-sim`: builds the page from its result.json data island (the
// serving simulation, reports/serving_json.cpp). Key figures with their 95 % intervals, the
// latency table and chart, the KV cache and batching, and what the simulation ran.
(function () {
  'use strict';
  const {el, num, str, fin, duration, percent, count, number, plural} = GP;
  const R = GP.readData('result');
  const M = GP.isObj(R.metrics) ? R.metrics : {};
  const replications = num(R, 'replications');
  const saturated = M.saturated === true;
  const SLO_MET = 0.99;  // the share of requests a service "meets its SLOs" at (a p99 target)
  const LATENCIES = [['ttft_s', 'TTFT', 'arrival to first token'], ['tpot_s', 'TPOT', 'time per output token after the first, per request'],
    ['itl_s', 'Inter-token latency', 'every gap between two tokens of a request'], ['e2e_s', 'End to end', 'arrival to last token'],
    ['wait_s', 'Admission wait', 'arrival to first admission into the running batch']];
  // "95% CI a – b" of a summary figure, clipped to [0, upper].
  function ci(key, fmt, upper) {
    const s = GP.isObj(R.summary) && GP.isObj(R.summary[key]) ? R.summary[key] : {};
    if (!fin(s.ci95_low) || !fin(s.ci95_high) || !(replications > 1)) return '';
    const lo = Math.max(0, s.ci95_low), hi = upper === undefined ? s.ci95_high : Math.min(upper, s.ci95_high);
    return fmt(lo) === fmt(hi) ? 'the same in every replication' : fmt(lo) + ' – ' + fmt(hi);
  }
  const slo = key => num(R, 'workload.' + key);
  // Staged rates in words: each stage, or for a long cycle (a day by the hour) their range.
  const stagesText = stages => stages.length <= 8
    ? stages.map(s => number(s.rate_per_s, 2) + '/s for ' + duration(s.duration_s)).join(', ')
    : count(stages.length) + ' stages from ' + number(Math.min(...stages.map(s => s.rate_per_s)), 2) + ' to ' +
      number(Math.max(...stages.map(s => s.rate_per_s)), 2) + ' requests/s';
  const versus = (v, target) => (fin(target) && target > 0 ? (v <= target ? 'within' : 'above') + ' the ' + duration(target) + ' SLO' : 'no SLO set');

  GP.masthead('Serving simulation: ' + (str(R, 'scenario') || 'scenario'), [
    str(R, 'replica.model') + ' on ' + (GP.isObj(GP.get(R, 'replica.disaggregated.decode'))
      ? count(num(R, 'replica.disaggregated.prefill_replicas')) + ' × ' + count(num(R, 'replica.tp')) + ' ' + str(R, 'replica.gpu') + ' (prefill) and ' +
        count(num(R, 'replica.disaggregated.decode_replicas')) + ' × ' + count(num(R, 'replica.disaggregated.decode.tp')) + ' ' + str(R, 'replica.disaggregated.decode.gpu') + ' (decode)'
      : count(num(R, 'replica.replicas')) + ' × ' + count(num(R, 'replica.tp')) + ' ' + str(R, 'replica.gpu')),
    plural(num(R, 'workload.requests'), 'request', 'requests') + ' at ' + number(num(R, 'workload.rate_per_s'), 1) + '/s' +
      (str(R, 'workload.arrivals') === 'stages' ? ' on average' : ''),
    fin(replications) ? plural(replications, 'replication', 'replications') : null,
    Number.isInteger(R.seed) ? 'seed ' + R.seed : null]);
  GP.toc([...(GP.isObj(R.search) ? [['search', 'Configuration search']] : []), ['summary', 'Summary'], ['latency', 'Latency'], ['cache', 'KV cache and batching'], ['setup', 'What ran']]);

  // ---- summary ------------------------------------------------------------------------------------
  function summary() {
    // NOTE: disaggregated, the decode pool's wait may be the one that grows (its own figure).
    const decodeGrowth = num(M, 'decode_wait_growth'), decodeSide = fin(decodeGrowth) && decodeGrowth > num(M, 'wait_growth');
    const overflow = M.queue_overflow === true, growth = decodeSide ? decodeGrowth : num(M, 'wait_growth');
    const lead = saturated
      ? [GP.pill('bad', 'Saturated'), overflow
          ? ' The cluster cannot keep up: a replica\'s waiting queue overflowed, so the run stopped there. ' +
            'The figures below cover only what was served before and understate every latency; add replicas or lower the rate.'
          : (decodeSide ? ' The decode replicas cannot keep up: their wait to admit a request whose KV cache has arrived grows by ' : ' The cluster cannot keep up: the admission wait grows by ') + number(growth, 3) + ' s per second of arrivals, as when it is offered about ' +
            number(1 + growth, 3) + ' times what it serves. Every wait below grows with the length of the run, so none of them stands; add replicas or lower the rate.']
      : [num(M, 'slo_attainment') >= SLO_MET ? GP.pill('ok', 'Meets its SLOs') : GP.pill('warn', 'Misses its SLOs'),
         ' ' + percent(num(M, 'slo_attainment'), 2) + ' of the counted requests met both SLOs; the cluster served ' +
         number(num(M, 'throughput_rps'), 1) + ' requests/s with its replicas busy ' + percent(num(M, 'busy_share'), 1) + ' of the time.' +
         (num(M, 'slo_attainment') >= SLO_MET ? '' : ' A queue that grows through the run shows here as long waits, not as saturation: compare the admission wait with the roofline below.')];
    const ttft99 = num(M, 'ttft_s.p99'), tpot99 = num(M, 'tpot_s.p99');
    const card = el('div', {class: 'card'}, el('p', {class: 'lead'}, lead));
    // NOTE: a saturated run has no latency or goodput that stands: only what it got through.
    if (saturated) {
      return GP.section('summary', 'Summary', [card, GP.tiles([
        {label: 'Requests completed', value: count(num(M, 'requests_completed')),
         detail: 'of ' + count(num(R, 'workload.requests') * (replications || 1)) + ' over the replications' + (M.queue_overflow === true ? ', before the queue overflowed' : '')},
        {label: 'Counted', value: count(num(M, 'requests_counted')), detail: 'completed after the first ' + count(num(R, 'workload.warmup_requests')) + ' requests'}])]);
    }
    return GP.section('summary', 'Summary', [card, GP.tiles([
      {label: 'Goodput', value: number(num(M, 'goodput_rps'), 1) + ' req/s', ci: ci('metrics.goodput_rps', v => number(v, 1)),
       detail: number(num(M, 'goodput_rps_per_gpu'), 2) + ' req/s per GPU meeting both SLOs'},
      {label: 'SLO attainment', value: percent(num(M, 'slo_attainment'), 2), ci: ci('metrics.slo_attainment', v => percent(v, 2), 1),
       detail: 'TTFT ≤ ' + duration(slo('ttft_slo_s')) + ' and TPOT ≤ ' + duration(slo('tpot_slo_s'))},
      {label: 'TTFT p99', value: duration(ttft99), ci: ci('metrics.ttft_s.p99', duration), detail: versus(ttft99, slo('ttft_slo_s'))},
      {label: 'TPOT p99', value: duration(tpot99), detail: versus(tpot99, slo('tpot_slo_s'))},
      {label: 'End to end p99', value: duration(num(M, 'e2e_s.p99')), ci: ci('metrics.e2e_s.p99', duration),
       detail: 'mean ' + duration(num(M, 'e2e_s.mean'))},
      {label: 'Output tokens', value: count(num(M, 'output_tokens_per_s')) + '/s', detail: 'generated, all replicas'}])]);
  }

  // ---- latency ------------------------------------------------------------------------------------
  function latency() {
    // (a latency with no value counted, as in a saturated run, is n/a rather than 0 s)
    const value = (key, q) => (num(M, key + '.count') > 0 ? num(M, key + '.' + q) : undefined);
    const rows = LATENCIES.map(([key, label, what]) => el('tr', {}, [
      el('th', {scope: 'row', title: what}, label),
      ...['mean', 'p50', 'p90', 'p99'].map(q => GP.numTd(value(key, q), duration(value(key, q)), 's')),
      GP.numTd(num(M, key + '.count'), count(num(M, key + '.count')))]));
    const heads = [GP.th('latency'), GP.th('mean', true), GP.th('p50', true), GP.th('p90', true), GP.th('p99', true), GP.th('values', true)];
    const note = 'Pooled over the replications; percentiles from the engine\'s quantile sketch (0.5 % relative). One request alone at the mean lengths takes TTFT ' +
      duration(num(R, 'roofline.ttft_s')) + ' and TPOT ' + duration(num(R, 'roofline.tpot_s')) + ' (the serving roofline); the gap to the table is batching and queueing.';
    const caveat = M.queue_overflow === true ? 'The run stopped when a queue overflowed: these cover only what was served before, and understate what a request would see. '
      : 'The queue grew through the run: these grow with its length and stand for no steady state. ';
    const table = GP.table({}, 'Latency per request and per token', saturated ? caveat + note : note, heads, rows);
    if (saturated) return GP.section('latency', 'Latency', [table]);
    return GP.section('latency', 'Latency', [table,
      GPCharts.figure('latency', true, 'Latency percentiles', 'p50, p90 and p99 of each latency, on a logarithmic axis.',
                      'Bar chart of the p50, p90 and p99 of TTFT, TPOT, inter-token, end-to-end latency and admission wait')]);
  }
  function chartLatency() {
    const qs = [['p50', 0], ['p90', 1], ['p99', 2]];
    return {type: 'bar',
      data: {labels: LATENCIES.map(l => l[1]),
             datasets: qs.map(([q, k]) => ({label: q, backgroundColor: GPCharts.PALETTE[k],
                                             data: LATENCIES.map(([key]) => Math.max(num(M, key + '.' + q) || 0, 1e-4))}))},
      options: {scales: {y: {type: 'logarithmic', title: {display: true, text: 'seconds'},
                             ticks: {callback: v => duration(v)}}},
                plugins: {tooltip: {callbacks: {label: c => c.dataset.label + ': ' + duration(c.parsed.y)}}}}};
  }

  // ---- KV cache and batching ------------------------------------------------------------------------
  const SERIES = GP.isObj(R.timeseries) && Array.isArray(R.timeseries.kv_occupancy) ? R.timeseries : null;
  function cache() {
    const over = SERIES && SERIES.kv_occupancy.length > 0
      ? [GPCharts.figure('series', true, 'KV cache over time',
                         'Share of the cluster\u2019s KV blocks in use (time-weighted) and preemptions, per ' + duration(SERIES.bin_s) +
                         ' of simulated time, means over the replications.',
                         'Line chart of the KV cache in use and bar chart of the preemptions over simulated time')]
      : [];
    return GP.section('cache', 'KV cache and batching', [...over, GP.tiles([
      {label: 'KV cache in use', value: percent(num(M, 'kv_occupancy_mean'), 1), detail: 'time-weighted mean; peak ' + percent(num(M, 'kv_occupancy_peak'), 1) +
       ' of ' + count(num(R, 'replica.kv_tokens')) + ' tokens per replica'},
      {label: 'Preemptions', value: count(num(M, 'preemptions')), detail: number(num(M, 'preemptions_per_1k_requests'), 2) +
       ' per 1,000 requests (recomputed when the KV cache is full)'},
      {label: 'Prefix cache hits', value: percent(num(M, 'prefix_hit_rate'), 1), detail: 'of the prompt tokens admitted'},
      {label: 'Steps', value: count(num(M, 'steps')),
       detail: 'iterations of all replicas' + (num(M, 'simulated_s') > 0 ? ' over ' + duration(num(M, 'simulated_s')) + ' simulated' : '')}])]);
  }
  function chartSeries() {
    const w = SERIES.bin_s;
    const labels = SERIES.kv_occupancy.map((_, b) => duration((b + 1) * w));
    return {type: 'line',
      data: {labels,
             datasets: [{label: 'KV cache in use', data: SERIES.kv_occupancy.map(v => 100 * v), borderColor: GPCharts.PALETTE[0],
                         pointRadius: 0, yAxisID: 'y'},
                        {type: 'bar', label: 'Preemptions', data: SERIES.preemptions, backgroundColor: GPCharts.PALETTE[3], yAxisID: 'y2'}]},
      options: {scales: {x: {title: {display: true, text: 'simulated time (end of bin)'}},
                         y: {min: 0, max: 100, title: {display: true, text: '% of KV blocks'}},
                         y2: {position: 'right', min: 0, grid: {drawOnChartArea: false}, title: {display: true, text: 'preemptions per bin'}}}}};
  }

  // ---- autoscaling ----------------------------------------------------------------------------------
  const SCALER = GP.isObj(R.autoscaling) ? R.autoscaling : null;
  const REPLICAS = SCALER && SERIES && Array.isArray(SERIES.replicas) && SERIES.replicas.length > 0 ? SERIES.replicas : null;
  function autoscaling() {
    if (!SCALER) return null;
    const ci = GP.isObj(R.summary) ? R.summary['autoscaling.replicas_mean'] : undefined;
    const chart = REPLICAS
      ? [GPCharts.figure('replicas', true, 'Replicas over time',
                         'Replicas billed (serving, provisioning and draining; time-weighted), per ' + duration(SERIES.bin_s) +
                         ' of simulated time, means over the replications, with the KV cache in use.',
                         'Line chart of the replicas billed and the share of KV blocks in use over simulated time')]
      : [];
    return GP.section('autoscaling', 'Autoscaling', [...chart, GP.tiles([
      {label: 'Replicas billed', value: number(num(SCALER, 'replicas_mean'), 2), detail: 'time-weighted mean' +
       (GP.isObj(ci) ? ' (95 % CI ' + number(num(ci, 'ci95_low'), 2) + '–' + number(num(ci, 'ci95_high'), 2) + ')' : '') +
       '; peak ' + count(num(SCALER, 'replicas_peak')) + ' of ' + count(num(SCALER, 'max_replicas')) + ' allowed, at least ' + count(num(SCALER, 'min_replicas'))},
      {label: 'GPU-hours', value: number(num(SCALER, 'gpu_hours_per_run'), 1), detail: 'billed per run of ' + duration(num(M, 'simulated_s')) + ' simulated'},
      {label: 'Scaling', value: number(num(SCALER, 'scale_ups_per_run'), 1) + ' up · ' + number(num(SCALER, 'scale_downs_per_run'), 1) + ' down',
       detail: 'evaluations a run that changed the count, every ' + duration(num(SCALER, 'interval_s')) + ' on ' + number(num(SCALER, 'target_requests'), 1) +
       ' requests per replica; a new replica serves ' + duration(num(SCALER, 'provisioning_s')) + ' after it is asked for, and ' +
       duration(num(SCALER, 'scale_down_delay_s')) + ' of fewer wanted drains the rest'}])]);
  }
  function chartReplicas() {
    const w = SERIES.bin_s;
    return {type: 'line',
      data: {labels: REPLICAS.map((_, b) => duration((b + 1) * w)),
             datasets: [{label: 'Replicas billed', data: REPLICAS, borderColor: GPCharts.PALETTE[1], pointRadius: 0, stepped: true, yAxisID: 'y'},
                        {label: 'KV cache in use', data: SERIES.kv_occupancy.map(v => 100 * v), borderColor: GPCharts.PALETTE[0], pointRadius: 0, yAxisID: 'y2'}]},
      options: {scales: {x: {title: {display: true, text: 'simulated time (end of bin)'}},
                         y: {min: 0, title: {display: true, text: 'replicas'}},
                         y2: {position: 'right', min: 0, max: 100, grid: {drawOnChartArea: false}, title: {display: true, text: '% of KV blocks'}}}}};
  }

  // ---- configuration search -------------------------------------------------------------------------
  // NOTE: with `search`, this page is the cheapest configuration's simulation; the table ranks all.
  const SEARCH = GP.isObj(R.search) && Array.isArray(R.search.candidates) ? R.search : null;
  const VERDICTS = {cheapest: ['ok', 'Cheapest'], meets: ['ok', 'Meets'], costlier: ['info', 'Costlier'],
                    misses: ['bad', 'Misses'], does_not_fit: ['warn', 'Does not fit']};
  function search() {
    if (!SEARCH) return null;
    const C = SEARCH.candidates, best = C[0];
    const ciText = (e, fmt) => (GP.isObj(e) && fin(e.ci95_low) && fin(e.ci95_high) && replications > 1 ? ' (' + fmt(e.ci95_low) + '–' + fmt(e.ci95_high) + ')' : '');
    const rows = C.map(c => {
      const v = VERDICTS[c.verdict] || ['info', String(c.verdict)];
      const head = [GP.textTd(str(c, 'instance')), GP.textTd(str(c, 'gpu')), GP.numTd(num(c, 'tp'), count(num(c, 'tp'))),
        GP.numTd(num(c, 'max_num_batched_tokens'), count(num(c, 'max_num_batched_tokens'))), GP.numTd(num(c, 'max_num_seqs'), count(num(c, 'max_num_seqs'))),
        el('td', {'data-sort': c.verdict}, GP.pill(v[0], v[1]))];
      if (c.verdict === 'does_not_fit') return el('tr', {}, [...head, el('td', {colspan: 6}, str(c, 'reason'))]);
      const bound = c.verdict === 'costlier' ? '≥ ' : '';
      const met = c.verdict === 'cheapest' || c.verdict === 'meets';
      const last = Array.isArray(c.trials) && c.trials.length ? c.trials[c.trials.length - 1] : null;
      return el('tr', {}, [...head, GP.numTd(num(c, 'replicas'), bound + count(num(c, 'replicas'))), GP.numTd(num(c, 'usd_per_hour'), bound + GP.money(num(c, 'usd_per_hour')), 'USD/h'),
        met ? GP.numTd(num(c, 'slo_attainment.mean'), percent(num(c, 'slo_attainment.mean'), 2) + ciText(c.slo_attainment, x => percent(x, 2)))
            : el('td', {class: 'note'}, c.verdict === 'misses' ? (last ? percent(num(last, 'slo_attainment'), 2) + ' at ' + count(num(last, 'replicas')) + ' replicas' + (last.saturated === true ? ', saturated' : '') : '')
              : 'its fewest replicas cost at least the cheapest\u2019s'),
        met ? GP.numTd(num(c, 'ttft_p99_s.mean'), duration(num(c, 'ttft_p99_s.mean'))) : el('td', {}, ''),
        met ? GP.numTd(num(c, 'tpot_p99_s.mean'), duration(num(c, 'tpot_p99_s.mean'))) : el('td', {}, ''),
        met ? GP.numTd(num(c, 'usd_per_million_output_tokens.mean'), GP.money(num(c, 'usd_per_million_output_tokens.mean'))) : el('td', {}, '')]);
    });
    const heads = ['Instance', 'GPU'].map(h => GP.th(h)).concat(['tp', 'Token budget', 'Sequences'].map(h => GP.th(h, true)), [GP.th('Verdict')],
      ['Replicas', 'Cost per hour', 'SLO attainment', 'TTFT p99', 'TPOT p99', 'Per million output tokens'].map(h => GP.th(h, true)));
    const lead = el('p', {class: 'lead'}, [GP.pill('ok', 'Cheapest'), ' ' + str(best, 'instance') + ' (' + str(best, 'gpu') + '), tensor parallel ' + count(num(best, 'tp')) +
      ', token budget ' + count(num(best, 'max_num_batched_tokens')) + ' and ' + count(num(best, 'max_num_seqs')) + ' sequences: ' +
      plural(num(best, 'replicas'), 'replica', 'replicas') + ' at ' + GP.money(num(best, 'usd_per_hour')) + ' per hour meet the goal of ' +
      percent(num(SEARCH, 'attainment_goal'), 1) + ' of requests within both SLOs, and one fewer does not. The rest of this page is its simulation.']);
    return GP.section('search', 'Configuration search', [el('div', {class: 'card'}, lead),
      GP.table({id: 'search-table'}, 'Configurations, cheapest first',
               count(num(SEARCH, 'configurations')) + ' searched in ' + count(num(SEARCH, 'simulations')) + ' simulations, up to ' + count(num(SEARCH, 'max_replicas')) +
               ' replicas each; SLO attainment is the Monte Carlo mean with its 95 % interval, at each configuration\u2019s fewest replicas', heads, rows),
      el('p', {class: 'note'}, SEARCH.exhaustive === true
        ? 'Every configuration was searched to its fewest replicas.'
        : 'A configuration is abandoned once the replicas it has been shown to need cost at least the cheapest found: its “≥” figures are proven lower bounds. ' +
          'Set search.exhaustive to find every configuration\u2019s fewest replicas.')]);
  }

  // ---- what ran -------------------------------------------------------------------------------------
  function setup() {
    const sched = GP.isObj(R.replica) && GP.isObj(R.replica.scheduler) ? R.replica.scheduler : {};
    const ca = GP.isObj(R.replica) && GP.isObj(R.replica.cache_aware) ? R.replica.cache_aware : null;
    const row = (k, v) => el('tr', {}, [el('th', {scope: 'row'}, k), el('td', {}, v)]);
    const rows = [
      row('Replica', str(R, 'replica.model') + ', tensor parallel ' + count(num(R, 'replica.tp')) + ' on ' + str(R, 'replica.gpu') + ' (' +
          str(R, 'replica.fabric') + '), ' + number(num(R, 'replica.weights_gb'), 1) + ' GB of weights, ' + count(num(R, 'replica.kv_blocks')) + ' KV blocks'),
      ...(GP.isObj(GP.get(R, 'replica.disaggregated.decode')) ? [row('Decode replica', 'tensor parallel ' + count(num(R, 'replica.disaggregated.decode.tp')) + ' on ' +
          str(R, 'replica.disaggregated.decode.gpu') + ' (' + str(R, 'replica.disaggregated.decode.fabric') + '), ' + number(num(R, 'replica.disaggregated.decode.weights_gb'), 1) +
          ' GB of weights, ' + count(num(R, 'replica.disaggregated.decode.kv_blocks')) + ' KV blocks; the replica above computes the prompts')] : []),
      row('Cluster', (SCALER ? 'autoscaled, ' + count(num(SCALER, 'min_replicas')) + ' to ' : '') +
          plural(num(R, 'replica.replicas'), 'replica', 'replicas') + ' (' + (SCALER ? 'up to ' : '') + count(num(R, 'replica.gpus')) + ' GPUs)' +
          (GP.isObj(GP.get(R, 'replica.disaggregated')) ? ', disaggregated: ' + count(num(R, 'replica.disaggregated.prefill_replicas')) + ' prefill and ' +
            count(num(R, 'replica.disaggregated.decode_replicas')) + ' decode, the KV cache sent at ' + number(num(R, 'replica.disaggregated.kv_transfer.bandwidth_gbps_per_gpu'), 0) +
            ' Gb/s per GPU (' + duration(num(R, 'replica.disaggregated.kv_transfer.mean_prompt_s')) + ' at the mean prompt)' : '') +
          ', router ' + str(R, 'replica.router') +
          (ca ? ' (cache threshold ' + number(ca.cache_threshold, 2) + ', balance thresholds ' + count(ca.balance_abs_threshold) + ' and ' + number(ca.balance_rel_threshold, 2) + '×)' : '')),
      row('Scheduler', 'max_num_batched_tokens ' + count(sched.max_num_batched_tokens) + ', max_num_seqs ' + count(sched.max_num_seqs) + ', block size ' +
          count(sched.block_size) + ', chunked prefill ' + (sched.chunked_prefill ? 'on' : 'off') + ', prefix caching ' + (sched.prefix_caching ? 'on' : 'off') +
          ', asynchronous scheduling ' + (sched.async_scheduling ? 'on' : 'off')),
      row('Workload', (str(R, 'workload.arrivals') === 'trace'
            ? 'the trace\u2019s arrivals replayed at ' + number(num(R, 'workload.rate_scale'), 2) + '\u00d7 their pace (' +
              number(num(R, 'workload.rate_per_s'), 2) + ' requests/s on average over ' + duration(num(R, 'workload.replayed_s')) + ', the same in every replication)'
            : str(R, 'workload.arrivals') === 'streams'
              ? 'a closed loop of ' + count(num(R, 'workload.streams')) + ' streams, each sending its next request ' +
                (num(R, 'workload.think_s') > 0 ? 'a pause of ' + duration(num(R, 'workload.think_s')) + ' on average after' : 'as soon as') +
                ' its previous one completes (' + number(num(R, 'workload.rate_per_s'), 2) + ' requests/s made)' +
                (GP.isObj(GP.get(R, 'workload.conversation'))
                  ? ', in conversations of ' + (str(R, 'workload.conversation.turns') === 'geometric' ? number(num(R, 'workload.conversation.turns_mean'), 1) + ' turns on average' : plural(num(R, 'workload.conversation.turns_mean'), 'turn', 'turns')) +
                    ', each turn\u2019s prompt the conversation so far and a new message, up to ' + count(num(R, 'workload.conversation.max_context')) + ' tokens'
                  : '')
            : str(R, 'workload.arrivals') === 'stages' && Array.isArray(GP.get(R, 'workload.stages'))
              ? 'Poisson arrivals at staged rates, ' + stagesText(R.workload.stages) +
                (num(R, 'workload.rate_scale') !== 1 ? ' (the stages as given \u00d7 ' + number(num(R, 'workload.rate_scale'), 3) + ')' : '') +
                ', the ' + duration(num(R, 'workload.cycle_s')) + ' cycle repeating (' + number(num(R, 'workload.rate_per_s'), 2) + ' requests/s on average)'
              : 'Poisson arrivals at ' + number(num(R, 'workload.rate_per_s'), 2) + ' requests/s') +
          ', ' + count(num(R, 'workload.requests')) + ' requests (the first ' +
          count(num(R, 'workload.warmup_requests')) + ' not counted); lengths ' + str(R, 'workload.lengths') + ', mean prompt ' +
          count(num(R, 'workload.mean_prompt_tokens')) + ' and output ' + count(num(R, 'workload.mean_output_tokens')) + ' tokens'),
      ...(GP.isObj(R.price) ? [row('Price', str(R, 'price.instance') + ', ' + str(R, 'price.pricing') + ': ' + GP.money(num(R, 'price.usd_per_gpu_hour')) +
          ' per GPU-hour' + (R.price.derived === true ? ' (derived: the provider publishes none)' : '') + ', prices of ' + str(R, 'price.as_of') + '; ' +
          GP.money(num(M, 'usd_per_hour')) + (SCALER ? ' per hour for the replicas billed on average, ' : ' per hour for the cluster, ') + GP.money(num(M, 'usd_per_million_output_tokens')) + ' per million output tokens')] : []),
      row('Monte Carlo', plural(replications, 'replication', 'replications') + (Number.isInteger(R.seed) ? ', seed ' + R.seed : '') +
          '; 95 % intervals across the replications where shown')];
    return GP.section('setup', 'What ran', [el('div', {class: 'card table-card'}, el('table', {}, el('tbody', {}, rows))),
      el('p', {class: 'note'}, ['Reproduce: ', GP.code('gpuplan serve-sim <scenario file>'), ' with the same file and seed (docs/serving-simulation.md).'])]);
  }

  GP.append(document.getElementById('gp-main'), [search(), summary(), latency(), cache(), autoscaling(), setup()].filter(Boolean));
  GP.append(document.getElementById('gp-footer'), el('p', {}, 'gpuplan ' + str(R, 'gpuplan_version') + ' · serve-sim'));
  const charts = {latency: chartLatency};
  if (SERIES && SERIES.kv_occupancy.length > 0) charts.series = chartSeries;
  if (REPLICAS) charts.replicas = chartReplicas;
  GPCharts.draw(charts, [680, 300]);
  GP.selftest();
})();
