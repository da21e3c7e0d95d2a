// The quote page of `gpuplan serve`: reads the form, posts it to /api/quote, shows the ranked
// options or each error beside its field. Text reaches the DOM through textContent only.
(function () {
  'use strict';
  const $ = id => document.getElementById(id);
  const form = $('quote-form');
  const fields = Array.from(form.querySelectorAll('[data-pointer]'));

  function mode() { return $('mode-inference').checked ? 'inference' : 'training'; }
  function showMode() {
    for (const fs of form.querySelectorAll('fieldset[data-part]')) fs.hidden = fs.dataset.part !== mode();
  }
  // Cells and rows are built with textContent, never from markup.
  function cell(tag, text, cls) {
    const node = document.createElement(tag);
    node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function clearErrors() {
    for (const node of form.querySelectorAll('.error')) node.textContent = '';
    for (const f of fields) f.removeAttribute('aria-invalid');
  }
  // The field an error belongs to: its own pointer, else the field under the pointer it names.
  function fieldFor(pointer) {
    if (!pointer) return null;
    const exact = fields.find(f => f.dataset.pointer === pointer);
    if (exact) return exact;
    const below = fields.filter(f => pointer.startsWith(f.dataset.pointer + '/'));
    return below.length ? below[below.length - 1] : null;
  }
  function showErrors(errors) {
    for (const e of errors) {
      const f = fieldFor(typeof e.pointer === 'string' ? e.pointer : '');
      const box = f ? $('e' + f.id.slice(1)) : $('form-errors');
      if (f) f.setAttribute('aria-invalid', 'true');
      const line = cell('div', f ? String(e.message) : (e.pointer ? e.pointer + ': ' : '') + String(e.message));
      box.appendChild(line);
    }
  }

  const TRAINING_COLUMNS = [
    ['Instance', o => o.instance], ['GPU', o => o.gpu],
    ['GPUs', o => GP.count(o.gpus) + ' (' + GP.plural(o.nodes, 'node', 'nodes') + ')', 'num'],
    ['Pricing', o => o.pricing_label],
    ['MFU', o => GP.percent(o.mfu) + (o.mfu_source === 'request' ? ' (set)' : '') + (o.above_published ? ' ▲ above published' : ''), 'num'],
    ['Tokens/s/GPU', o => GP.count(o.tokens_per_gpu_s), 'num'],
    ['Layout', o => GP.get(o, 'layout.text') + (o.extrapolated ? ' (extrapolated)' : '')],
    ['Nearest published run', o => o.nearest_published_run || 'none on this GPU'],
    ['Time P50', o => GP.duration(GP.num(o, 'time_s.p50')), 'num'],
    ['Time P90', o => GP.duration(GP.num(o, 'time_s.p90')), 'num'],
    ['Total', o => GP.money(o.total_usd), 'num'],
    ['Flags', o => [o.meets_deadline === false ? 'misses deadline' : '', o.within_budget === false ? 'over budget' : '',
                    o.recommended === false ? 'not recommended' : '', o.stale_price ? 'price > 1 yr old' : '']
      .filter(Boolean).join(', ')]];
  const INFERENCE_COLUMNS = [
    ['Instance', o => o.instance], ['GPU', o => o.gpu],
    ['GPUs', o => GP.count(o.gpus) + ' (' + GP.plural(o.nodes, 'node', 'nodes') + ')', 'num'],
    ['Replicas', o => GP.count(o.replicas) + ' × TP' + o.group_gpus + ', batch ' + o.batch + ' (+' + o.spare_replicas + ' spare)', 'num'],
    ['Pricing', o => o.pricing_label],
    ['TTFT p99', o => GP.duration(GP.num(o, 'ttft_s.p99')), 'num'],
    ['TPOT p99', o => GP.duration(GP.num(o, 'tpot_s.p99')), 'num'],
    // The option simulated step by step (docs/quote.md): its p99s, and the share of requests
    // within both targets with the half width of its 95 % interval.
    ['Simulated TTFT · TPOT p99', o => !GP.isObj(o.serving_simulation) ? '–'
      : o.serving_simulation.saturated === true ? 'saturated'
      : GP.duration(GP.num(o, 'serving_simulation.ttft_p99_s.mean')) + ' · ' + GP.duration(GP.num(o, 'serving_simulation.tpot_p99_s.mean')), 'num'],
    ['Simulated SLO met', o => !GP.isObj(o.serving_simulation) ? '–'
      : GP.percent(GP.num(o, 'serving_simulation.slo_attainment.mean'), 1) + ' ±' +
        GP.number(50 * (GP.num(o, 'serving_simulation.slo_attainment.ci95_high') - GP.num(o, 'serving_simulation.slo_attainment.ci95_low')), 1), 'num'],
    ['Utilization', o => GP.percent(o.utilization), 'num'],
    ['Per month', o => GP.money(o.monthly_usd), 'num'],
    ['Per 1M output tokens', o => GP.money(o.usd_per_1m_output_tokens), 'num'],
    ['Energy · CO2e per month', o => GP.count(GP.num(o, 'energy.kwh')) + ' kWh · ' + GP.number(GP.num(o, 'energy.tco2e'), 2) + ' t', 'num'],
    ['Flags', o => [o.meets_target === false ? 'misses target' : '',
                    GP.get(o, 'serving_simulation.meets_targets') === false ? 'simulation misses p99' : '',
                    o.stale_price ? 'price > 1 yr old' : '']
      .filter(Boolean).join(', ')]];

  function showResults(reply) {
    const q = GP.isObj(reply.quote) ? reply.quote : {};
    const part = GP.arr(q, 'training').length ? 'training' : 'inference';
    const columns = part === 'training' ? TRAINING_COLUMNS : INFERENCE_COLUMNS;
    const top = GP.num(q, 'options.top') || 10;
    const options = GP.arr(q, part).filter(o => GP.isObj(o) && o.feasible === true).slice(0, top);
    const head = $('results-head'), body = $('results-body'), notes = $('results-notes');
    head.replaceChildren(cell('th', '#', 'num'), ...columns.map(c => cell('th', c[0], c[2])));
    body.replaceChildren(...options.map((o, i) => {
      const tr = document.createElement('tr');
      tr.appendChild(cell('td', String(i + 1), 'num'));
      for (const [, value, cls] of columns) tr.appendChild(cell('td', String(value(o) ?? ''), cls));
      return tr;
    }));
    // The quote's verdict (rich-text runs, built as text nodes) and, for training, why no spot
    // option meets the deadline.
    const verdict = GP.get(q, 'assessment.' + part + '.text');
    const items = [];
    if (verdict !== undefined) items.push(GP.append(document.createElement('li'), GP.runs(verdict)));
    if (part === 'training' && GP.str(q, 'spot_note.text')) items.push(cell('li', GP.str(q, 'spot_note.text')));
    notes.replaceChildren(...items);
    $('results-title').textContent = (part === 'training' ? 'Training' : 'Inference') + ' options';
    $('results-summary').textContent = options.length
      ? options.length + ' of ' + GP.arr(q, part).length + ' options shown, ranked: meeting the request first, then by cost'
      : 'No catalog option can do this; quote.json lists every option with its reason.';
    const dl = GP.isObj(reply.downloads) ? reply.downloads : {};
    $('dl-pdf').setAttribute('href', GP.str(dl, 'pdf'));
    $('dl-json').setAttribute('href', GP.str(dl, 'json'));
    $('dl-html').setAttribute('href', GP.str(dl, 'html'));
    $('results').hidden = false;
  }

  async function submit(ev) {
    ev.preventDefault();
    clearErrors();
    const fieldsOut = {};
    let overlay = '';
    for (const f of fields) {
      const part = f.closest('fieldset[data-part]');
      if (part && part.dataset.part !== mode()) continue;
      if (f.dataset.pointer === '/catalog_overlay') overlay = f.value;
      else if (f.value.trim() !== '') fieldsOut[f.dataset.pointer] = f.value;
    }
    $('status').textContent = 'Quoting…';
    $('submit').disabled = true;
    const started = performance.now();
    try {
      const res = await fetch('/api/quote', {
        method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({fields: fieldsOut, catalog_overlay: overlay})});
      const reply = await res.json();
      if (res.ok) {
        window.gpQuoteCpuSeconds = GP.num(reply, 'cpu_s');
        showResults(reply);
        $('status').textContent = 'Quoted in ' + GP.duration((performance.now() - started) / 1000) + '.';
      } else {
        $('results').hidden = true;
        showErrors(GP.arr(reply, 'errors'));
        // NOTE: 503 (busy, with Retry-After) and 504 (over its compute budget) are the
        // server's limits, not the request's mistakes; the message under the form says which.
        const retry = res.headers.get('Retry-After');
        $('status').textContent = res.status >= 500
          ? 'The server could not make this quote (HTTP ' + res.status + ')' +
            (retry ? '; try again in ' + retry + ' s.' : '.')
          : 'Please correct the request (HTTP ' + res.status + ').';
      }
    } catch (err) {
      $('status').textContent = 'The server did not answer: ' + err.message;
    } finally {
      $('submit').disabled = false;
    }
  }

  for (const r of form.querySelectorAll('input[name="mode"]')) r.addEventListener('change', showMode);
  form.addEventListener('submit', submit);
  showMode();
  document.documentElement.dataset.ready = '1';
})();
