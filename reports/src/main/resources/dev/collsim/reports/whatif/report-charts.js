// collsim report: turns each <div class="chart" data-option-id=ID> into an Apache ECharts chart from the JSON in
// <script type="application/json" id=ID>. Adds the axis and tooltip formatters JSON cannot carry.
(function () {
  'use strict';
  function bytes(v) {
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
    return (Math.round(v * 100) / 100) + ' ' + u[i];
  }
  function num(v) {
    if (typeof v !== 'number') { return String(v); }
    if (Number.isInteger(v)) { return v.toLocaleString('en-US'); }
    var a = Math.abs(v);
    return a >= 100 ? v.toLocaleString('en-US', {maximumFractionDigits: 1})
      : a >= 1 ? v.toFixed(2) : v.toPrecision(3);
  }
  // Axis ticks: one formatter per axis kind, the same precision rule on every tick of an axis.
  // Sizes as the tables print them (powers of 1024: 8, 1K, 64K, 1M, 1G); numbers with at most 4 significant digits,
  // trailing zeros dropped and thousands separated (0.0001, 0.01, 1, 100, 1,000, 17,500).
  function sizeTick(v) {
    var u = ['', 'K', 'M', 'G', 'T'], i = 0;
    while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
    return Number(v.toPrecision(3)) + u[i];
  }
  function numTick(v) {
    return Number(v.toPrecision(4)).toLocaleString('en-US', {maximumFractionDigits: 20});
  }
  var FMT = {
    bytes: sizeTick,
    gbps: numTick,
    us: numTick,
    ms: numTick,
    pct: function (v) { return numTick(v) + ' %'; },
    gpus: numTick
  };
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }
  function tip(p) {
    var d = p.data && p.data.tip;
    if (!d) { return esc(p.seriesName) + '<br>' + esc(num(p.value[0])) + ', ' + esc(num(p.value[1])); }
    var rows = [p.marker + '<b>' + esc(p.seriesName) + '</b>'];
    Object.keys(d).forEach(function (k) {
      var v = d[k];
      var s = k === 'size' ? bytes(v) + ' (' + num(v) + ' B)' : num(v);
      rows.push(esc(k) + ': <b>' + esc(s) + '</b>');
    });
    return rows.join('<br>');
  }
  function axisTip(ps) {
    var rows = [esc(ps[0].axisValueLabel || ps[0].name)];
    var total = 0;
    ps.forEach(function (p) {
      total += p.value || 0;
      rows.push(p.marker + esc(p.seriesName) + ': <b>' + esc(num(p.value)) + ' ms</b>');
    });
    rows.push('step: <b>' + esc(num(total)) + ' ms</b>');
    return rows.join('<br>');
  }
  // busbw charts open on a linear axis from 0 (the bound lines stay apart); a button switches to a log busbw axis from
  // the power of 10 at or below the smallest positive value drawn, so the small sizes can be read, and back.
  function scaleToggle(div, chart, opt) {
    var lo = Infinity;
    (opt.series || []).forEach(function (s) {
      (s.data || []).forEach(function (d) {
        var v = Array.isArray(d) ? d[1] : d && Array.isArray(d.value) ? d.value[1] : NaN;
        if (v > 0 && v < lo) { lo = v; }
      });
    });
    if (!isFinite(lo)) { return; }
    var linear = {type: 'value', min: opt.yAxis.min, max: opt.yAxis.max};
    var log = {type: 'log', logBase: 10, min: Math.pow(10, Math.floor(Math.log10(lo))), max: opt.yAxis.max};
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'axis-toggle';
    b.textContent = 'busbw axis: log';
    div.setAttribute('data-y-axis', 'value');
    b.addEventListener('click', function () {
      var toLog = div.getAttribute('data-y-axis') !== 'log';
      chart.setOption({yAxis: toLog ? log : linear});
      div.setAttribute('data-y-axis', chart.getOption().yAxis[0].type);
      b.textContent = 'busbw axis: ' + (toLog ? 'linear' : 'log');
    });
    div.parentNode.insertBefore(b, div);
  }
  function render(div) {
    var opt = JSON.parse(document.getElementById(div.getAttribute('data-option-id')).textContent);
    var c = opt.collsim || {};
    if (opt.xAxis && FMT[c.x]) { opt.xAxis.axisLabel = {formatter: FMT[c.x], hideOverlap: true}; }
    if (opt.yAxis && FMT[c.y]) { opt.yAxis.axisLabel = {formatter: FMT[c.y]}; }
    opt.tooltip.formatter = opt.tooltip.trigger === 'axis' ? axisTip : tip;
    delete opt.collsim;
    delete opt.notes;
    var chart = echarts.init(div, null, {renderer: 'canvas'});
    chart.setOption(opt);
    if (c.x === 'bytes' && c.y === 'gbps' && opt.yAxis && opt.yAxis.type === 'value') { scaleToggle(div, chart, opt); }
    div.setAttribute('data-rendered', 'true');
    window.addEventListener('resize', function () { chart.resize(); });
  }
  document.querySelectorAll('div.chart[data-option-id]').forEach(render);
}());
