// compare.html: builds the page of `gpuplan compare A B` from the compare.json data island: what
// was compared, the paired differences B − A with their 95% CIs, and how to read them.
(function () {
  'use strict';
  const {el, num, str, arr, fin, count, plural, raw} = GP;
  const D = GP.readData('result');
  const sideName = k => str(D, k + '.scenario') || k.toUpperCase();
  const title = 'Compare: ' + sideName('a') + ' vs ' + sideName('b');
  const n = num(D, 'paired_replications');
  GP.masthead(title, [fin(n) ? plural(n, 'paired replication', 'paired replications') : null,
                      Number.isInteger(D.seed) ? 'seed ' + D.seed : null,
                      GP.timestamp(str(D, 'generated_at'))]);
  GP.toc([['summary', 'Summary'], ['differences', 'Differences'], ['method', 'Method']]);

  // A metric's own unit decides how its numbers read: waits as durations, money in USD, shares in %.
  function fmt(metric, v) {
    if (!fin(v)) return 'n/a';
    if (/_s\.|_s$/.test(metric)) return GP.duration(v);
    if (/^cost_usd|usd/.test(metric)) return GP.money(v);
    if (/utilization|share/.test(metric)) return GP.percent(v, 2);
    return GP.number(v, Math.abs(v) >= 100 ? 0 : 3);
  }
  const diffs = arr(D, 'differences').filter(GP.isObj);
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

  const rows = diffs.map(d => {
    const m = str(d, 'metric');
    const ci = (lo, hi) => (fin(lo) && fin(hi) ? fmt(m, lo) + ' – ' + fmt(m, hi) : 'n/a');
    return el('tr', {}, [
      el('td', {'data-sort': m}, GP.code(m)),
      GP.numTd(num(d, 'a_mean'), fmt(m, num(d, 'a_mean'))),
      GP.numTd(num(d, 'b_mean'), fmt(m, num(d, 'b_mean'))),
      GP.numTd(num(d, 'difference.mean'), fmt(m, num(d, 'difference.mean'))),
      el('td', {class: 'num', 'data-sort': raw(num(d, 'difference.ci95_low'))}, ci(num(d, 'difference.ci95_low'), num(d, 'difference.ci95_high'))),
      el('td', {class: 'num', 'data-sort': raw(num(d, 'unpaired.ci95_low'))}, ci(num(d, 'unpaired.ci95_low'), num(d, 'unpaired.ci95_high'))),
      el('td', {'data-sort': d.significant === true ? '1' : '0'}, d.significant === true ? GP.pill('warn', 'yes') : GP.pill('info', 'no'))]);
  });
  main.appendChild(GP.section('differences', 'Differences B − A', [GP.table(
    {class: 'sortable'}, 'Headline metrics', 'means over the paired replications; 95% confidence intervals',
    [GP.sortTh('metric'), GP.sortTh('A mean', true), GP.sortTh('B mean', true), GP.sortTh('B − A', true),
     GP.sortTh('95% CI, paired', true), GP.sortTh('95% CI, unpaired', true), GP.sortTh('significant')],
    rows)]));

  main.appendChild(GP.section('method', 'Method', [
    el('p', {}, str(D, 'method')),
    el('p', {}, ['The unpaired interval is what two independent studies would give; the paired one is ',
                 'narrower when the two configurations respond alike to the same demand. ',
                 'compare.json holds every figure; the folders a/ and b/ hold each scenario\u2019s own ',
                 'Monte Carlo result and report.']),
    el('p', {}, ['A: ', GP.code(str(D, 'a.file') || sideName('a')), fin(num(D, 'a.saturated_replications')) && num(D, 'a.saturated_replications') > 0 ? ' (' + count(num(D, 'a.saturated_replications')) + ' saturated replications)' : '']),
    el('p', {}, ['B: ', GP.code(str(D, 'b.file') || sideName('b')), fin(num(D, 'b.saturated_replications')) && num(D, 'b.saturated_replications') > 0 ? ' (' + count(num(D, 'b.saturated_replications')) + ' saturated replications)' : ''])], true));

  GP.makeSortable(main);
  GP.selftest();
})();
