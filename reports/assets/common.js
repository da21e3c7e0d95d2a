// Shared by every gpuplan page: reading the data island, number formatting (mirrors
// reports/format.cpp), building DOM nodes, rich-text runs from the assessment, sortable tables
// and the #selftest verdict. Data reaches the DOM only through textContent and attribute setters.
const GP = (function () {
  'use strict';

  // ---- the data island ---------------------------------------------------------------------------
  function readData(id) {
    const node = document.getElementById(id);
    try {
      const value = JSON.parse(node ? node.textContent : 'null');
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
    } catch (err) {
      console.error('data island "' + id + '" is not JSON: ' + err.message);
      return {};
    }
  }

  // ---- safe access: a missing key or a value of the wrong type reads as absent -------------------
  const isObj = v => v !== null && typeof v === 'object' && !Array.isArray(v);
  const fin = v => typeof v === 'number' && Number.isFinite(v);
  // get(obj, 'a.b.c'): the value at a dotted path, or undefined.
  function get(obj, path) {
    let v = obj;
    for (const key of path.split('.')) {
      if (!isObj(v) || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
      v = v[key];
    }
    return v;
  }
  const num = (obj, path) => { const v = get(obj, path); return fin(v) ? v : undefined; };
  const str = (obj, path) => { const v = get(obj, path); return typeof v === 'string' ? v : ''; };
  const arr = (obj, path) => { const v = get(obj, path); return Array.isArray(v) ? v : []; };
  const obj = (obj_, path) => { const v = get(obj_, path); return isObj(v) ? v : undefined; };
  // A summary entry's 95% CI half-width (summary keys contain dots, so they are looked up whole).
  function ciHalf(result, key) {
    const s = isObj(result.summary) ? result.summary[key] : undefined;
    return isObj(s) && fin(s.ci95_low) && fin(s.ci95_high) ? (s.ci95_high - s.ci95_low) / 2 : undefined;
  }

  // ---- formatting: the same text as reports/format.cpp -------------------------------------------
  const grouped = (v, d) => v.toLocaleString('en-US', {minimumFractionDigits: d, maximumFractionDigits: d});
  const DURATION_UNITS = [[1e-3, 1000, 'ms'], [1, 60, 's'], [60, 60, 'min'], [3600, 24, 'h'], [86400, Infinity, 'd']];
  const shown = v => (v < 9.95 ? Math.round(v * 10) / 10 : Math.round(v));
  function duration(s) {
    if (!fin(s)) return 'n/a';
    if (s < 0) return '-' + duration(-s);
    if (s === 0) return '0 s';
    let k = 0;
    while (k + 1 < DURATION_UNITS.length && shown(s / DURATION_UNITS[k][0]) >= DURATION_UNITS[k][1]) k++;
    const v = shown(s / DURATION_UNITS[k][0]);
    return grouped(v, v < 10 ? 1 : 0).replace(/\.0$/, '') + ' ' + DURATION_UNITS[k][2];
  }
  const money = v => (fin(v) ? (v < 0 ? '-$' : '$') + grouped(Math.abs(v), 2) : 'n/a');
  const percent = (f, d = 1) => (fin(f) ? (f * 100).toFixed(d) + '%' : 'n/a');
  const count = v => (fin(v) ? grouped(Math.round(v), 0) : 'n/a');
  const number = (v, d) => (fin(v) ? grouped(v, d) : 'n/a');
  const raw = v => (fin(v) ? String(v) : '');
  const plural = (n, one, many) => count(n) + ' ' + (Math.round(n) === 1 ? one : many);
  const gpuHours = v => (fin(v) ? number(v, v >= 100 ? 0 : 1) + ' GPU-h' : 'n/a');
  // "2026-11-29T17:00:00Z" -> "2026-11-29 17:00 UTC"; anything else as given.
  const timestamp = iso => (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(iso) ? iso.slice(0, 10) + ' ' + iso.slice(11, 16) + ' UTC' : iso);
  // A JSON value as the user wrote it: strings as they are, others compactly.
  const valueText = v => (typeof v === 'string' ? v : JSON.stringify(v));

  // ---- DOM building ------------------------------------------------------------------------------
  // el('td', {class: 'num', title: '3 s'}, ['text', node]): attributes by setAttribute, strings
  // as text nodes; null and undefined children are skipped.
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : String(v));
    }
    append(node, children);
    return node;
  }
  function append(node, children) {
    if (children === undefined || children === null) return node;
    (Array.isArray(children) ? children : [children]).forEach(c => {
      if (c === undefined || c === null || c === false) return;
      node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    });
    return node;
  }
  const code = s => el('code', {}, s);
  const pill = (tone, text) => el('span', {class: 'pill pill-' + tone}, text);
  // One rich-text sentence of the assessment (reports/assessment.h): runs of plain text, code,
  // strong or in-page links.
  function runs(list) {
    const out = [];
    (Array.isArray(list) ? list : [list]).forEach(r => {
      if (typeof r === 'string') out.push(document.createTextNode(r));
      else if (isObj(r) && typeof r.code === 'string') out.push(code(r.code));
      else if (isObj(r) && typeof r.strong === 'string') out.push(el('strong', {}, r.strong));
      else if (isObj(r) && typeof r.link === 'string' && /^#[\w-]+$/.test(r.link)) out.push(el('a', {href: r.link}, String(r.text || '')));
    });
    return out;
  }
  const para = (list, attrs) => el('p', attrs || {}, runs(list));
  // A card section: <section id><h2>title</h2>children</section>.
  function section(id, title, children, card) {
    const h2 = el('h2', {id: 'h-' + id}, title);
    const s = el('section', {id: id, 'aria-labelledby': 'h-' + id});
    if (card) s.appendChild(el('div', {class: 'card'}, [h2].concat(children)));
    else append(s, [h2].concat(children));
    return s;
  }
  // A sortable header: the button sorts on click and on Enter/Space.
  function sortTh(label, numeric) {
    return el('th', {scope: 'col', 'aria-sort': 'none', class: numeric ? 'num' : null},
              el('button', {type: 'button', class: 'sort'}, label));
  }
  const th = (label, numeric) => el('th', {scope: 'col', class: numeric ? 'num' : null}, label);
  // A numeric cell: the shown text, the raw value to sort on and in the tooltip.
  function numTd(v, shownText, unit) {
    if (!fin(v)) return el('td', {class: 'num', 'data-sort': ''}, 'n/a');
    return el('td', {class: 'num', 'data-sort': raw(v), title: raw(v) + (unit ? ' ' + unit : '')}, shownText);
  }
  const textTd = s => el('td', {'data-sort': s}, s);
  // A table card: caption (text plus an optional <small> note), header cells, rows.
  function table(attrs, caption, note, heads, rows, after) {
    const cap = el('caption', {}, [caption, note ? ' ' : null, note ? el('small', {}, note) : null]);
    const t = el('table', attrs, [cap, el('thead', {}, el('tr', {}, heads)), el('tbody', {}, rows)]);
    return el('div', {class: 'card table-card table-scroll'}, [t].concat(after || []));
  }
  // A key-figure tile.
  function tile(t) {
    return el('div', {class: 'kpi' + (t.nm ? ' nm' : ''), title: t.raw || null}, [
      el('div', {class: 'label'}, t.label), el('div', {class: 'value'}, t.value),
      t.ci ? el('div', {class: 'ci'}, [t.ci, ' ', el('small', {}, '(95% CI)')]) : null,
      el('div', {class: 'detail'}, t.detail || '')]);
  }
  const tiles = list => el('div', {class: 'kpis'}, list.map(tile));

  // The masthead and table of contents of the template.
  function masthead(title, metaItems) {
    document.getElementById('gp-title').textContent = title;
    document.title = title + ' — ' + document.title;
    append(document.getElementById('gp-meta'), metaItems.filter(Boolean).map(m => el('span', {}, m)));
  }
  function toc(items) {
    append(document.getElementById('gp-toc'), items.map(([id, label]) => el('li', {}, el('a', {href: '#' + id}, label))));
  }

  // ---- sortable tables ---------------------------------------------------------------------------
  function makeSortable(root) {
    root.querySelectorAll('table.sortable').forEach(t => {
      const heads = Array.from(t.tHead.rows[0].cells);
      heads.forEach((cell, col) => {
        const button = cell.querySelector('button.sort');
        if (!button) return;
        button.addEventListener('click', () => {
          const dir = cell.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
          heads.forEach(h => h.setAttribute('aria-sort', 'none'));
          cell.setAttribute('aria-sort', dir);
          const body = t.tBodies[0];
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
          if (live) live.textContent = (t.caption ? t.caption.firstChild.textContent.trim() : 'Table') + ' sorted by ' + button.textContent.trim() + ', ' + dir;
        });
      });
    });
  }

  // ---- #selftest: the verdict tests/reports/browser_pages.py reads from document.title ----------
  function selftest() {
    if (location.hash !== '#selftest') return;
    let done = false;
    const check = () => {
      if (done) return;
      done = true;
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
      performance.getEntriesByType('resource').forEach(r => problems.push('network request: ' + r.name));
      const verdict = problems.length ? 'SELFTEST:FAIL ' + problems.join(' | ') : 'SELFTEST:OK charts=' + canvases.length;
      document.title = verdict;
      document.body.appendChild(el('pre', {id: 'gp-selftest'}, verdict));
    };
    // After the first frame; charts draw without animation, so they are drawn by then. NOTE:
    // headless Chromium under load may paint no frame within its virtual-time budget, which left
    // pages with no verdict at all: the timer checks then instead.
    requestAnimationFrame(() => setTimeout(check, 50));
    setTimeout(check, 1000);
  }

  return {readData, isObj, fin, get, num, str, arr, obj, ciHalf,
          duration, money, percent, count, number, raw, plural, gpuHours, timestamp, valueText,
          el, append, code, pill, runs, para, section, sortTh, th, numTd, textTd, table, tile, tiles,
          masthead, toc, makeSortable, selftest};
})();
