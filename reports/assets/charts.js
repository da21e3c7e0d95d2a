// Shared Chart.js setup for the report pages: defaults, colours, axis formats, the <figure> that
// holds a chart, and drawing every chart once the page's DOM is built.
const GPCharts = (function () {
  'use strict';
  const PALETTE = ['#2563eb', '#d97706', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d', '#b91c1c'];
  const PRICING_COLOR = {on_demand: '#2563eb', spot: '#d97706', reserved_1y: '#059669', reserved_3y: '#047857', on_prem: '#64748b'};

  Chart.defaults.animation = false;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.font.size = 12;
  Chart.defaults.color = '#5b6472';
  Chart.defaults.borderColor = '#e3e6eb';
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.plugins.legend.labels.boxWidth = 14;
  // Datasets flagged gpHideLegend (e.g. the lower edge of a band) get no legend entry.
  Chart.defaults.plugins.legend.labels.filter = (item, data) => !data.datasets[item.datasetIndex].gpHideLegend;

  const fmtNum = (v, d) => v.toLocaleString('en-US', {minimumFractionDigits: d, maximumFractionDigits: d});
  function moneyAxis(v) {
    const a = Math.abs(v);
    if (a >= 1e6) return '$' + fmtNum(v / 1e6, a >= 1e7 ? 0 : 1) + 'M';
    if (a >= 1e3) return '$' + fmtNum(v / 1e3, a >= 1e4 ? 0 : 1) + 'k';
    return '$' + fmtNum(v, 0);
  }
  function withAlpha(hex, a) {
    const n = parseInt(hex.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  }

  // A chart card: title, caption and a canvas that draw() fills from builders[name]().
  function figure(name, wide, title, caption, aria, boxClass) {
    return GP.el('figure', {class: 'card' + (wide ? ' wide' : '')}, [
      GP.el('figcaption', {}, [GP.el('h3', {}, title), GP.el('p', {}, caption)]),
      GP.el('div', {class: 'chart-box' + (boxClass ? ' ' + boxClass : '')},
            GP.el('canvas', {'data-chart': name, role: 'img', 'aria-label': aria}))]);
  }

  // Draws every canvas[data-chart] with its builder; a failing builder is a console error, which
  // the #selftest reports. `printSize` is [width, height] for A4 printing.
  function draw(builders, printSize) {
    const charts = [];
    document.querySelectorAll('canvas[data-chart]').forEach(canvas => {
      try {
        charts.push(new Chart(canvas, builders[canvas.dataset.chart]()));
      } catch (err) {
        console.error('chart "' + canvas.dataset.chart + '" failed: ' + err.message);
      }
    });
    // Chart.js cannot see the page width change when printing, so size every chart for A4.
    window.addEventListener('beforeprint', () => charts.forEach(c => c.resize(printSize[0], printSize[1])));
    window.addEventListener('afterprint', () => charts.forEach(c => c.resize()));
    return charts;
  }

  return {PALETTE, PRICING_COLOR, fmtNum, moneyAxis, withAlpha, figure, draw};
})();
