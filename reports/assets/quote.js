// quote.html: builds the one-page quote from the quote.json data island. The recommended option
// and its flags come from quote.assessment (reports/assessment_quote.cpp); this script lays out
// the request, the recommendation, the ranked options, the assumptions and the prices used.
(function () {
  'use strict';
  const {el, num, str, arr, fin, duration, money, percent, count, number} = GP;
  const Q = GP.readData('result');
  const A = GP.isObj(Q.assessment) ? Q.assessment : {};
  const top = Number.isInteger(GP.get(Q, 'options.top')) ? Q.options.top : 10;

  // ---- formats of the quote (reports/quote_render.cpp keeps the terminal's in step) -----------
  // Money for tables: "$7.25M" from a million, "$12,345" from ten thousand, else with cents.
  function moneyShort(usd) {
    if (!fin(usd)) return 'n/a';
    if (usd >= 1e9) return '$' + (usd / 1e9).toFixed(2) + 'B';
    if (usd >= 1e6) return '$' + (usd / 1e6).toFixed(2) + 'M';
    if (usd >= 1e4) return '$' + number(usd, 0);
    return money(usd);
  }
  // A training time: days with one decimal from a day up, else a duration; "never" when infinite.
  const timeText = s => (!fin(s) ? 'never' : s >= 86400 ? number(s / 86400, 1) + ' d' : duration(s));
  // A simulated p99 (a Monte Carlo interval) for a cell; a saturated run has none.
  const simP99 = (c, key) => c.saturated === true ? 'saturated' : latencyText(num(c, key + '.mean'));
  // "99.7 % ±0.2": the share of requests within both SLOs, ± the half width of its 95 % interval.
  const attainmentText = c => GP.percent(num(c, 'slo_attainment.mean'), 1) + ' ±' +
    number(50 * (num(c, 'slo_attainment.ci95_high') - num(c, 'slo_attainment.ci95_low')), 1);
  // Latency: milliseconds below a second, seconds with two decimals below a minute.
  function latencyText(s) {
    if (!fin(s)) return 'n/a';
    if (s < 5e-6) return '0 ms';  // below the 0.01 ms the table can show
    if (s < 1) return number(s * 1000, s < 0.01 ? 2 : s < 0.1 ? 1 : 0) + ' ms';
    if (s < 60) return number(s, 2) + ' s';
    return duration(s);
  }
  // Energy and carbon: "84.0 MWh" over "31.2 t CO2e" (reports/quote_render.cpp energy_text has
  // both on one line); two lines keep the ranked tables inside a 1,280 px window and an A4 page.
  function energyCell(o) {
    const k = num(o, 'energy.kwh'), t = num(o, 'energy.tco2e');
    if (!fin(k) || !fin(t)) return td('–', true);
    const e = k >= 1e6 ? number(k / 1e6, 2) + ' GWh' : k >= 1e3 ? number(k / 1e3, 1) + ' MWh' : number(k, 0) + ' kWh';
    return el('td', {class: 'num'}, [e, el('small', {}, number(t, t < 10 ? 2 : t < 100 ? 1 : 0) + ' t CO2e')]);
  }
  const nodesText = o => count(num(o, 'gpus')) + ' (' + count(num(o, 'nodes')) + '×)';
  // P90 of a training option: "n/a" when no Monte Carlo ran for a spot option.
  const p90Text = o => (num(o, 'spot_nodes') > 0 && num(o, 'mc_replicas') === 0 && !(num(o, 'mc_sampled_blocks') > 0) ? 'n/a' : timeText(num(o, 'time_s.p90')));
  function spotRisk(o, training) {
    if (!(num(o, 'spot_nodes') > 0)) return 'none';
    if (!training) {
      const loss = fin(num(o, 'spot_loss.miss_share'))
        ? ' (~' + number(num(o, 'spot_loss.reclaims_per_month'), 0) + ' reclaims/mo, ' + number(100 * num(o, 'spot_loss.miss_share'), 2) + '% of requests miss)' : '';
      return str(o, 'spot_risk') + ', +' + ((num(o, 'nodes') || 0) - (num(o, 'serving_nodes') || 0)) + ' spare' + loss;
    }
    return str(o, 'spot_risk') + ' (~' + number(num(o, 'expected_interruptions') || 0, 0) + ' stops, +' +
           number(100 * ((num(o, 'time_s.p50') || 0) / (num(o, 'work_s') || 1) - 1), 0) + '%)';
  }
  const flag = (tone, text) => el('span', {class: 'flag ' + tone}, text);
  const kpi = (label, value, sub, cls) => el('div', {class: cls || null}, [el('div', {class: 'label'}, label), el('div', {class: 'value'}, value), el('div', {class: 'sub'}, sub)]);
  const th = (text, numeric) => el('th', {class: numeric ? 'num' : null}, text);
  const td = (text, numeric) => el('td', {class: numeric ? 'num' : null}, text);
  const instanceCell = o => el('td', {}, [str(o, 'instance') + ' ', el('small', {}, str(o, 'gpu'))]);
  const shownInstances = new Set();
  const ask = text => el('p', {class: 'ask'}, [el('b', {}, 'Request:'), ' ' + text]);

  // The ranked rows: the first `top` options that can run, each with its assessment flags.
  function ranked(part) {
    const flags = arr(A, part + '.flags');
    return arr(Q, part).map((o, i) => [o, i]).filter(([o]) => GP.isObj(o) && o.feasible === true).slice(0, top)
      .map(([o, i]) => ({o: o, flags: Array.isArray(flags[i]) ? flags[i] : []}));
  }
  // `checked`: the step-by-step simulation met every p99 target (undefined: not simulated);
  // `slots`: the slot-queue engine check agreed with the Erlang sizing (undefined: not run).
  function flagCell(row, checked, slots) {
    const simFlags = ['stale price', 'engine check disagrees', 'simulation misses p99'];
    const cells = row.flags.filter(f => !simFlags.includes(f)).map(f => flag('bad', f));
    if (checked !== undefined) cells.push(checked ? flag('ok', 'sim meets p99') : flag('bad', 'sim misses p99'));
    if (slots === false) cells.push(flag('warn', 'slot queue differs'));
    if (row.o.stale_price === true) cells.push(flag('warn', 'stale price ' + str(row.o, 'price_as_of')));
    return el('td', {class: 'flags'}, cells);
  }
  const recommended = part => {
    const i = GP.get(A, part + '.recommended');
    return Number.isInteger(i) && GP.isObj(arr(Q, part)[i]) ? arr(Q, part)[i] : null;
  };

  function training() {
    const parts = [el('h2', {}, 'Training'), ask(str(Q, 'request_text.training'))];
    const best = recommended('training');
    if (!best) return el('section', {}, parts.concat([el('p', {}, 'No catalog option can run this training job.')]));
    const ok = GP.get(A, 'training.meets_requirements') === true;
    parts.push(el('div', {class: 'rec'}, [
      kpi(ok ? 'Recommended' : 'Best available (misses a target)', count(num(best, 'gpus')) + ' × ' + str(best, 'gpu'),
          count(num(best, 'nodes')) + ' × ' + str(best, 'instance') + ', ' + str(best, 'pricing_label'), ok ? 'main' : 'main warn'),
      kpi('Time to finish', timeText(num(best, 'time_s.p50')), 'P90 ' + p90Text(best)),
      kpi('Total cost', moneyShort(num(best, 'total_usd')), num(best, 'term_years') > 0 ? 'whole reservation term' : 'at the P50 time'),
      kpi('Per month', moneyShort(num(best, 'monthly_usd')), moneyShort(num(best, 'hourly_usd')) + ' per hour'),
      kpi('Parallel TP · PP · DP', ['tensor_parallel', 'pipeline_parallel', 'data_parallel'].map(k => count(num(best, 'layout.' + k))).join(' · '),
          str(best, 'layout.text') || ('all-reduce ' + number(num(best, 'step_s.allreduce'), 2) + ' s of ' + number(num(best, 'step_s.compute'), 2) + ' s step')),
      kpi(best.mfu_source === 'request' ? 'MFU (set by the request)' : 'MFU (modelled)', GP.percent(num(best, 'mfu')),
          count(num(best, 'tokens_per_gpu_s')) + ' tokens/s per GPU' + (str(best, 'nearest_published_run') ? '; nearest published run ' + str(best, 'nearest_published_run') : ''),
          best.above_published === true ? 'warn' : null)]));
    const rows = ranked('training').map((row, n) => {
      const o = row.o;
      shownInstances.add(str(o, 'instance'));
      const miss = o.meets_deadline === false || o.within_budget === false;
      return el('tr', {class: n === 0 && ok ? 'best' : miss ? 'miss' : null}, [td(String(n + 1), true), instanceCell(o), td(nodesText(o), true),
        td(GP.percent(num(o, 'mfu')) + ' · ' + count(num(o, 'tokens_per_gpu_s')) + (o.above_published === true ? ' ▲' : '') + (o.extrapolated === true ? ' *' : ''), true),
        td(str(o, 'pricing_label')), td(timeText(num(o, 'time_s.p50')), true), td(p90Text(o), true), td(moneyShort(num(o, 'monthly_usd')), true),
        td(moneyShort(num(o, 'total_usd')), true), td(spotRisk(o, true)), td('$' + number(num(o, 'usd_per_tflops_hour'), 4), true), energyCell(o), flagCell(row)]);
    });
    const infeasible = arr(Q, 'training').filter(o => !GP.isObj(o) || o.feasible !== true).length;
    parts.push(el('table', {}, [el('thead', {}, el('tr', {}, [th('#', true), th('Instance / GPU'), th('GPUs (nodes)', true), th('MFU · tok/s/GPU', true), th('Pricing'), th('P50', true), th('P90', true),
      th('Per month', true), th('Total', true), th('Spot risk'), th('$/TFLOPS·h', true), th('Energy', true), th('Flags')])), el('tbody', {}, rows)]));
    parts.push(el('p', {class: 'note'}, 'Ranked: options meeting the deadline' + (GP.get(Q, 'options.training_budget') === true ? ' and budget' : '') +
      ' first, then by total cost. GPUs are whole nodes. MFU: model FLOPs over the GPUs\' dense peak, from the step-time model calibrated on published training runs (▲ above the best published run of that GPU; * layout extrapolated beyond them). P50/P90: time to finish, from the Monte Carlo of spot preemptions (equal to the failure-free time without spot). ' +
      '$/TFLOPS·h: cluster price per hour over its dense peak TFLOPS. Energy: facility energy of the whole run, and below it its location-based carbon (t CO2e) (see Assumptions). ' + infeasible + ' further instance/pricing combinations cannot run this job (see quote.json).'));
    // The Monte Carlo's own precision: the widest 95 % interval of a shown row's mean time.
    let widest = 0, source = '';
    ranked('training').forEach(({o}) => {
      const mean = num(o, 'time_s.mean_mc'), se = num(o, 'time_s.mean_mc_se');
      if (mean > 0 && se > 0 && 1.96 * se / mean >= widest) {
        widest = 1.96 * se / mean;
        source = num(o, 'mc_replicas') > 0 ? count(num(o, 'mc_replicas')) + ' runs, which P50 and P90 come from too'
          : count(num(o, 'mc_sampled_blocks')) + ' sampled checkpoint blocks, whose spread gives P90 too (the run is their sum)';
      }
    });
    if (source) parts.push(el('p', {class: 'note mc-precision'}, 'Monte Carlo precision: every row\'s mean time to finish is known to within ±' +
      GP.percent(widest, 1) + ' (95 % interval of the mean; the widest row, from ' + source + ').'));
    if (str(Q, 'spot_note.text')) parts.push(el('p', {class: 'note spot-note'}, [el('b', {}, 'Spot: '), str(Q, 'spot_note.text')]));
    return el('section', {}, parts);
  }

  function inference() {
    const parts = [el('h2', {}, 'Inference'), ask(str(Q, 'request_text.inference'))];
    const best = recommended('inference');
    if (!best) return el('section', {}, parts.concat([el('p', {}, 'No catalog option can serve this load within the targets.')]));
    // NOTE: the assessment's verdict: the analytical sizing and, where run, the simulation.
    const meets = GP.get(A, 'inference.meets_requirements') === true;
    const sim = GP.isObj(best.serving_simulation) ? best.serving_simulation : null;
    const targets = GP.get(Q, 'request.inference.ttft_p99') !== undefined || GP.get(Q, 'request.inference.tpot_p99') !== undefined;
    parts.push(el('div', {class: 'rec'}, [
      kpi(meets ? 'Recommended' : 'Best available (misses a target)', count(num(best, 'gpus')) + ' × ' + str(best, 'gpu'),
          count(num(best, 'nodes')) + ' × ' + str(best, 'instance') + ', ' + str(best, 'pricing_label'), meets ? 'main' : 'main warn'),
      kpi('Replicas', count(num(best, 'replicas')) + ' + ' + count(num(best, 'spare_replicas')) + ' spare',
          num(best, 'group_gpus') + ' GPU(s) each, batch ' + count(num(best, 'batch'))),
      kpi('TTFT p99', latencyText(num(best, 'ttft_s.p99')), sim ? 'simulated ' + simP99(sim, 'ttft_p99_s') : 'p50 ' + latencyText(num(best, 'ttft_s.p50'))),
      kpi('TPOT p99', latencyText(num(best, 'tpot_s.p99')), sim ? 'simulated ' + simP99(sim, 'tpot_p99_s') : 'p50 ' + latencyText(num(best, 'tpot_s.p50'))),
      kpi('Per month', moneyShort(num(best, 'monthly_usd')), '$' + number(num(best, 'usd_per_1m_output_tokens'), 2) + ' per 1M output tokens'),
      kpi('Throughput', count(num(best, 'output_tokens_per_s')) + ' tok/s', 'headroom ' + percent(num(best, 'headroom'), 0) + ' of the slots')]));
    const rows = ranked('inference').map((row, n) => {
      const o = row.o;
      shownInstances.add(str(o, 'instance'));
      const c = GP.isObj(o.serving_simulation) ? o.serving_simulation : null;
      const slots = GP.isObj(o.simulation) ? o.simulation.agrees === true : undefined;
      return el('tr', {class: o === best && meets ? 'best' : o.meets_target === false || (c && c.meets_targets === false) ? 'miss' : null}, [td(String(n + 1), true), instanceCell(o),
        td(nodesText(o), true), td(count(num(o, 'replicas')) + ' × TP' + num(o, 'group_gpus') + ' · b' + num(o, 'batch') + ' +' + num(o, 'spare_replicas'), true),
        td(str(o, 'pricing_label')), td(latencyText(num(o, 'ttft_s.p99')) + ' · ' + (c ? simP99(c, 'ttft_p99_s') : '–'), true),
        td(latencyText(num(o, 'tpot_s.p99')) + ' · ' + (c ? simP99(c, 'tpot_p99_s') : '–'), true),
        td(c && targets ? attainmentText(c) : '–', true),
        td(percent(num(o, 'utilization'), 0), true), td(moneyShort(num(o, 'monthly_usd')), true), td(moneyShort(num(o, 'total_usd')), true),
        td('$' + number(num(o, 'usd_per_1m_output_tokens'), 2), true), energyCell(o), td(spotRisk(o, false)), flagCell(row, c ? c.meets_targets === true : undefined, slots)]);
    });
    parts.push(el('table', {}, [el('thead', {}, el('tr', {}, [th('#', true), th('Instance / GPU'), th('GPUs (nodes)', true), th('Replicas', true), th('Pricing'), th('TTFT p99 model · sim', true),
      th('TPOT p99 model · sim', true), th('SLO met (sim)', true), th('Util.', true), th('Per month', true), th('Total', true), th('$/1M tok', true), th('Energy /mo', true), th('Spot risk'), th('Flags')])), el('tbody', {}, rows)]));
    const tol = percent(num(Q, 'options.sim_tolerance'), 0);
    const first = ranked('inference').map(r => r.o.serving_simulation).find(GP.isObj);
    parts.push(el('p', {class: 'note'}, 'Ranked: options meeting every target first, then by total cost over the term. Replicas: load replicas × GPUs each (TP) · batch slots + spares. "model": the analytical sizing (roofline steps, Erlang C queue). ' +
      (first ? '"sim": each option\'s load replicas simulated step by step under continuous batching (vLLM\'s scheduler with the sized batch, chunked prefill, asynchronous scheduling, vLLM\'s default token budget — 8,192 on GPUs of 70 GiB or more but the A100, else 2,048 — or the batch if larger, KV cache preemption), ' + count(num(first, 'requests')) + ' requests counted over ' +
        count(num(first, 'replications')) + ' runs; its p99s are the runs\' mean. SLO met: the share of simulated requests within both the TTFT and the TPOT target, ± its 95 % interval. ' +
        'An option whose simulated p99 misses a target is flagged and not recommended. ' : '') +
      'The slot queue is also run on the discrete-event engine (' + count(num(Q, 'options.sim_requests')) + ' requests, fixed slot time); it is flagged where its TTFT p99 exceeds the model\'s by more than ' + tol + '.'));
    return el('section', {}, parts);
  }

  function assumptions() {
    return el('section', {}, [el('h2', {}, 'Assumptions'), el('ul', {class: 'assume'}, arr(Q, 'assumptions').map(a =>
      el('li', {}, [el('b', {}, str(a, 'topic') + '.'), ' ' + str(a, 'text')])))]);
  }

  function prices() {
    const rows = arr(Q, 'prices').filter(p => shownInstances.has(str(p, 'instance')));
    if (!rows.length) return null;
    const price = v => (fin(v) ? money(v) : '–');
    return el('section', {}, [el('h2', {}, 'Prices used (USD per node-hour)'), el('table', {class: 'prices'}, [
      el('thead', {}, el('tr', {}, [th('Instance'), th('GPUs'), th('On-demand', true), th('1-yr', true), th('3-yr', true), th('Spot', true), th('As of')])),
      el('tbody', {}, rows.map(p => el('tr', {}, [td(str(p, 'instance')), td(count(num(p, 'gpus_per_node')) + '× ' + str(p, 'gpu')),
        td(price(num(p, 'on_demand')), true), td(price(num(p, 'reserved_1y')), true), td(price(num(p, 'reserved_3y')), true), td(price(num(p, 'spot')), true),
        td(str(p, 'as_of'))])))])]);
  }

  // The internal appendix (`--internal` only): where each assumption and price comes from, with
  // its confidence notes. The customer view has no such section.
  function appendix() {
    if (str(Q, 'view') !== 'internal') return null;
    const sources = arr(Q, 'internal.price_sources').filter(p => shownInstances.has(str(p, 'instance')));
    return el('section', {class: 'internal'}, [el('h2', {}, 'Internal appendix (not for the customer)'),
      el('ul', {class: 'assume'}, arr(Q, 'internal.assumption_sources').map(a => el('li', {}, [el('b', {}, str(a, 'topic') + '.'), ' ', el('span', {class: 'src'}, str(a, 'source'))]))),
      el('table', {class: 'prices'}, [el('thead', {}, el('tr', {}, [th('Instance'), th('Price source and notes')])),
        el('tbody', {}, sources.map(p => el('tr', {}, [td(str(p, 'instance')), el('td', {class: 'src'}, [str(p, 'source'), str(p, 'notes') ? ' Note: ' + str(p, 'notes') : null])])))])]);
  }

  // ---- the page ----------------------------------------------------------------------------------
  const name = str(Q, 'quote');
  document.getElementById('gp-title').textContent = name;
  document.title = 'Quote: ' + name;
  document.getElementById('gp-for').textContent = str(Q, 'customer') ? 'Prepared for ' + str(Q, 'customer') : 'Sizing and pricing across the instance catalog';
  GP.append(document.getElementById('gp-facts'), [el('dt', {}, 'Date'), el('dd', {}, str(Q, 'date')), el('dt', {}, 'Options sized'),
    el('dd', {}, String(arr(Q, 'training').length + arr(Q, 'inference').length)), el('dt', {}, 'Prices'), el('dd', {}, 'public list, USD')]);
  GP.append(document.getElementById('gp-main'), [str(Q, 'request_text.training') ? training() : null, str(Q, 'request_text.inference') ? inference() : null, assumptions(), prices(), appendix()]);
  document.getElementById('gp-footer').textContent = 'Generated by gpuplan ' + str(Q, 'gpuplan_version') + ' on ' + str(Q, 'date') +
    '. Estimates from published figures, not a commitment; list prices change — confirm with the provider before signing.';
  GP.selftest();
})();
