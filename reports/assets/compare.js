// compare.html: builds the page of `gpuplan compare A B` from the compare.json data island: what
// was compared (each side's scenario, overrides and warnings), the paired differences B − A of
// the headline metrics and of the TCO options with their 95% CIs, and how to read them.
(function () {
  'use strict';
  const {el, num, str, arr, fin, count, plural, raw} = GP;
  const D = GP.readData('result');
  const sideName = k => str(D, k + '.label') || str(D, k + '.scenario') || k.toUpperCase();
  const title = 'Compare: ' + sideName('a') + ' vs ' + sideName('b');
  const n = num(D, 'paired_replications');
  GP.masthead(title, [fin(n) ? plural(n, 'paired replication', 'paired replications') : null,
                      Number.isInteger(D.seed) ? 'seed ' + D.seed : null,
                      GP.timestamp(str(D, 'generated_at'))]);
  const diffs = arr(D, 'differences').filter(GP.isObj);
  const isTco = d => str(d, 'metric').startsWith('tco.');
  const headline = diffs.filter(d => !isTco(d)), tcoDiffs = diffs.filter(isTco);
  GP.toc([['summary', 'Summary'], ['sides', 'What was compared'], ['differences', 'Differences'],
          tcoDiffs.length ? ['tco-differences', 'TCO'] : null, ['method', 'Method']].filter(Boolean));

  // A metric's own unit decides how its numbers read: waits as durations, money in USD, shares in %.
  function fmt(metric, v) {
    if (!fin(v)) return 'n/a';
    if (/_s\.|_s$/.test(metric)) return GP.duration(v);
    if (/^cost_usd|usd/.test(metric)) return GP.money(v);
    if (/utilization|share/.test(metric)) return GP.percent(v, 2);
    return GP.number(v, Math.abs(v) >= 100 ? 0 : 3);
  }
  // One unit for a difference and its interval, chosen by the largest of them: durations in s,
  // min, h or d; money in dollars; shares in percentage points; decimals from the interval's width.
  function unitOf(metric, values) {
    const big = Math.max(0, ...values.filter(fin).map(Math.abs));
    if (/_s\.|_s$/.test(metric)) {
      const [scale, name] = big >= 2 * 86400 ? [86400, 'd'] : big >= 2 * 3600 ? [3600, 'h'] : big >= 120 ? [60, 'min'] : [1, 's'];
      return {scale: scale, prefix: '', suffix: ' ' + name};
    }
    if (/^cost_usd|usd/.test(metric)) return {scale: 1, prefix: '$', suffix: ''};
    if (/utilization|share/.test(metric)) return {scale: 0.01, prefix: '', suffix: ' pp'};
    return {scale: 1, prefix: '', suffix: ''};
  }
  function signed(v, u, decimals) {
    const x = v / u.scale;
    const text = GP.number(Math.abs(x), decimals);
    return (x < 0 && text.replace(/[0.,]/g, '') !== '' ? '\u2212' : '+') + u.prefix + text;
  }
  function decimalsFor(u, lo, hi, mean) {
    const width = Math.abs((hi - lo) / u.scale) || Math.abs(mean / u.scale);
    if (u.prefix === '$') return width >= 100 ? 0 : 2;
    return width >= 10 ? 0 : width >= 1 ? 1 : width >= 0.1 ? 2 : 3;
  }
  // "−2.8 min (95% CI −6.2 to +0.6 min)"; without an interval only the difference.
  function withCi(metric, mean, lo, hi) {
    if (!fin(mean)) return 'n/a';
    const u = unitOf(metric, [mean, lo, hi]);
    const d = decimalsFor(u, fin(lo) ? lo : mean, fin(hi) ? hi : mean, mean);
    if (!fin(lo) || !fin(hi) || lo === hi) return signed(mean, u, d) + u.suffix;
    return signed(mean, u, d) + u.suffix + ' (95% CI ' + signed(lo, u, d) + ' to ' + signed(hi, u, d) + u.suffix + ')';
  }
  function interval(metric, lo, hi) {
    if (!fin(lo) || !fin(hi)) return 'n/a';
    const u = unitOf(metric, [lo, hi]);
    const d = decimalsFor(u, lo, hi, hi);
    return signed(lo, u, d) + ' to ' + signed(hi, u, d) + u.suffix;
  }
  const significant = diffs.filter(d => d.significant === true);

  const main = document.getElementById('gp-main');
  const summary = [
    el('p', {}, ['B − A per metric, each pair of replications sharing its random numbers (common random ',
                 'numbers): replica k of both scenarios draws the same arrivals, sizes and durations, so a ',
                 'difference is the configurations\u2019, not luck\u2019s.']),
    el('p', {}, significant.length
      ? ['Significant at 95%: ', significant.map(d => str(d, 'metric')).join(', '), '.']
      : ['No difference is significant at 95%: every paired interval contains 0.'])];
  arr(D, 'warnings').filter(w => typeof w === 'string').forEach(w => summary.push(el('p', {class: 'warn'}, w)));
  main.appendChild(GP.section('summary', 'Summary', summary, true));

  // Each side: its scenario, the overrides it ran with, whether it keeps up, its own warnings.
  function side(k, flag) {
    const overrides = [];
    arr(D, k + '.overrides.shared').filter(o => typeof o === 'string').forEach(o => overrides.push(['--set', o]));
    arr(D, k + '.overrides.own').filter(o => typeof o === 'string').forEach(o => overrides.push([flag, o]));
    const keeps = D[k] && D[k].keeps_up;
    const warnings = arr(D, k + '.warnings').filter(w => typeof w === 'string');
    return el('div', {class: 'card', id: 'side-' + k}, [
      el('h3', {}, [k.toUpperCase() + ': ', sideName(k), ' ', keeps === false ? GP.pill('bad', 'does not keep up') : keeps === true ? GP.pill('ok', 'keeps up') : null]),
      el('p', {}, ['Scenario ', GP.code(str(D, k + '.file') || str(D, k + '.scenario')),
                   fin(num(D, k + '.saturated_replications')) && num(D, k + '.saturated_replications') > 0 ? ' (' + count(num(D, k + '.saturated_replications')) + ' saturated replications)' : '']),
      str(D, k + '.falls_behind') ? el('p', {class: 'warn'}, 'It cannot keep up: ' + str(D, k + '.falls_behind') + '.') : null,
      el('p', {}, overrides.length ? ['Overrides: '].concat(overrides.map(([f, o], i) => [i ? ', ' : '', GP.code(f + ' ' + o)]).flat())
                                   : 'No overrides: the scenario as written.'),
      warnings.length ? el('ul', {class: 'warnings'}, warnings.map(w => el('li', {}, w))) : el('p', {class: 'note'}, 'No warnings.')]);
  }
  main.appendChild(GP.section('sides', 'What was compared', [side('a', '--set-a'), side('b', '--set-b')]));

  const rowOf = d => {
    const m = str(d, 'metric');
    return el('tr', {}, [
      el('td', {'data-sort': m}, GP.code(m)),
      GP.numTd(num(d, 'a_mean'), fmt(m, num(d, 'a_mean'))),
      GP.numTd(num(d, 'b_mean'), fmt(m, num(d, 'b_mean'))),
      el('td', {class: 'num', 'data-sort': raw(num(d, 'difference.mean'))}, withCi(m, num(d, 'difference.mean'), num(d, 'difference.ci95_low'), num(d, 'difference.ci95_high'))),
      el('td', {class: 'num', 'data-sort': raw(num(d, 'unpaired.ci95_low'))}, interval(m, num(d, 'unpaired.ci95_low'), num(d, 'unpaired.ci95_high'))),
      el('td', {'data-sort': d.significant === true ? '1' : '0'}, d.significant === true ? GP.pill('warn', 'yes') : GP.pill('info', 'no'))]);
  };
  const heads = () => [GP.sortTh('metric'), GP.sortTh('A mean', true), GP.sortTh('B mean', true), GP.sortTh('B − A (95% CI, paired)', true),
                       GP.sortTh('95% CI, unpaired', true), GP.sortTh('significant')];
  main.appendChild(GP.section('differences', 'Differences B − A', [GP.table(
    {class: 'sortable', id: 'differences-table'}, 'Headline metrics', 'means over the paired replications; the difference with its 95% confidence interval, in one unit',
    heads(), headline.map(rowOf))]));
  if (tcoDiffs.length) {
    main.appendChild(GP.section('tco-differences', 'TCO: net present value and total per option', [
      el('p', {}, 'Each option of the TCO projection both sides make, over the same paired replications: B − A of its net present value and of its total cost over the projection [USD].'),
      GP.table({class: 'sortable', id: 'tco-differences-table'}, 'TCO options', 'US dollars; the difference with its 95% confidence interval', heads(), tcoDiffs.map(rowOf))]));
  }

  main.appendChild(GP.section('method', 'Method', [
    el('p', {}, str(D, 'method')),
    el('p', {}, ['The unpaired interval is what two independent studies would give; the paired one is ',
                 'narrower when the two configurations respond alike to the same demand. ',
                 'compare.json holds every figure; the folders a/ and b/ hold each scenario\u2019s own ',
                 'Monte Carlo result and report.'])], true));

  GP.makeSortable(main);
  GP.selftest();
})();
