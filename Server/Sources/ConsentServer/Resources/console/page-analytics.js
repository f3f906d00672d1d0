/* ConsentKit console: the consent analytics page (docs/console.md, "Analytics"). Reads
 * GET /v1/console/analytics/{report}?app=… (the figures of docs/decisions/0039) and draws each
 * chart as SVG here; each chart has its table (the accessible alternative, with the same
 * figures) and a link to the route's CSV of exactly what it shows. */
(function () {
  'use strict';

  var K = window.ConsoleKit;
  var el = K.el;
  var BASE = '/v1/console/analytics/';
  var PAGE_LIMIT = 5000;
  var MAX_PAGES = 40;

  var OUTCOMES = [
    { key: 'acceptAll', label: 'Accept all' },
    { key: 'rejectAll', label: 'Reject all' },
    { key: 'custom', label: 'Custom' },
    { key: 'closed', label: 'Closed' },
    { key: 'withdrawn', label: 'Withdrawn' }
  ];
  var DIMENSIONS = [
    { key: 'region', label: 'Region' },
    { key: 'language', label: 'Language' },
    { key: 'platform', label: 'Platform' },
    { key: 'noticeVersion', label: 'Notice version' },
    { key: 'method', label: 'Method' }
  ];
  var GROUPS = {
    purposeConsent: 'Purpose consent',
    purposeLegitimateInterest: 'Purpose legitimate interest',
    specialFeatureOptin: 'Special feature opt-in',
    vendorConsent: 'Vendor consent',
    vendorLegitimateInterest: 'Vendor legitimate interest',
    additionalConsent: 'Google ad-tech provider consent',
    google: 'Google choice',
    us: 'US opt-out'
  };
  var ITEMS = {
    personalized: 'Personalized ads', nonPersonalized: 'Non-personalized ads', adFree: 'Ad-free', additionalConsent: 'Additional Consent string',
    saleOptOut: 'Sale opt-out', sharingOptOut: 'Sharing opt-out', targetedAdvertisingOptOut: 'Targeted advertising opt-out',
    sensitiveDataLimit: 'Sensitive data limit', gpc: 'GPC signal'
  };
  /** The most bars a chart of items draws (the table lists every item). */
  var MAX_BARS = 20;

  // ------------------------------------------------------------------------------------ data

  function isoDay(date) { return date.toISOString().slice(0, 10); }

  function defaultRange() {
    var to = new Date();
    var from = new Date(to.getTime() - 29 * 86400000);
    return { from: isoDay(from), to: isoDay(to) };
  }

  function query(report, params, extra) {
    var q = new URLSearchParams();
    q.set('app', params.app);
    q.set('from', params.from);
    q.set('to', params.to);
    Object.keys(extra || {}).forEach(function (key) { if (extra[key]) q.set(key, extra[key]); });
    return BASE + report + '?' + q.toString();
  }

  /** Every figure of a report (following the cursor). */
  function fetchAll(report, params, extra) {
    var rows = [];
    function next(cursor, count) {
      var path = query(report, params, Object.assign({ limit: String(PAGE_LIMIT) }, extra, cursor ? { cursor: cursor } : {}));
      return K.api('GET', path).then(function (page) {
        rows = rows.concat(page.rows);
        if (page.nextCursor && count < MAX_PAGES) return next(page.nextCursor, count + 1);
        return rows;
      });
    }
    return next(null, 1);
  }

  function csvLink(report, params, extra, what) {
    return el('a', { class: 'button quiet', href: query(report, params, Object.assign({ limit: String(PAGE_LIMIT) }, extra, { format: 'csv' })), download: '' },
      'Download CSV', el('span', { class: 'visually-hidden' }, ' of ' + what));
  }

  function percent(rate) {
    var value = parseFloat(rate) * 100;
    return (Math.round(value * 10) / 10).toFixed(1) + ' %';
  }

  function itemLabel(group, item) {
    if (ITEMS[item]) return ITEMS[item];
    if (group === 'purposeConsent' || group === 'purposeLegitimateInterest') return 'Purpose ' + item;
    if (group === 'specialFeatureOptin') return 'Special feature ' + item;
    if (group === 'additionalConsent') return 'Provider ' + item;
    if (group === 'vendorConsent' || group === 'vendorLegitimateInterest') return 'Vendor ' + item;
    return item;
  }

  /** Every day of the range, for a day-by-day chart without gaps. */
  function daysOf(from, to) {
    var days = [];
    var t = Date.parse(from + 'T00:00:00Z');
    var end = Date.parse(to + 'T00:00:00Z');
    while (t <= end && days.length < 400) { days.push(isoDay(new Date(t))); t += 86400000; }
    return days;
  }

  /** Rows of choices pivoted: one per group (period or dimension value), a count per outcome. */
  function pivot(rows, keyOf, order) {
    var byKey = {};
    var keys = order ? order.slice() : [];
    rows.forEach(function (row) {
      var key = keyOf(row);
      if (!byKey[key]) {
        byKey[key] = { key: key, total: row.of, counts: {}, rates: {} };
        if (keys.indexOf(key) < 0) keys.push(key);
      }
      byKey[key].counts[row.item] = row.count;
      byKey[key].rates[row.item] = row.rate;
      byKey[key].total = row.of;
    });
    return keys.map(function (key) { return byKey[key] || { key: key, total: 0, counts: {}, rates: {} }; });
  }

  // ------------------------------------------------------------------------------------ SVG

  function svgFrame(width, height, title, desc) {
    var titleId = K.uid('chart-title');
    var descId = K.uid('chart-desc');
    return el('svg:svg', { class: 'chart', viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-labelledby': titleId + ' ' + descId,
      preserveAspectRatio: 'xMinYMin meet' },
    el('svg:title', { id: titleId }, title), el('svg:desc', { id: descId }, desc));
  }

  function legend(series) {
    return el('ul', { class: 'legend', 'aria-hidden': 'true' }, series.map(function (s, i) {
      return el('li', null, el('span', { class: 'swatch s' + (i + 1) }), s.label);
    }));
  }

  /** The width a chart is drawn at: its card's, so that its text keeps its size on a phone. */
  function chartWidth(body) {
    return Math.max(300, Math.min(1100, Math.round(body.clientWidth || 720)));
  }

  /** Columns of 100 % stacked shares over time: one column per period, one band per outcome. */
  function stackedColumns(groups, title, desc, width) {
    var height = 260, left = 40, bottom = 40, top = 10;
    var plotH = height - bottom - top;
    var svg = svgFrame(width, height, title, desc);
    [0, 0.25, 0.5, 0.75, 1].forEach(function (share) {
      var y = top + plotH * (1 - share);
      svg.appendChild(el('svg:line', { class: share === 0 ? 'axis' : 'grid', x1: left, x2: width, y1: y, y2: y }));
      svg.appendChild(el('svg:text', { x: left - 6, y: y + 4, 'text-anchor': 'end' }, Math.round(share * 100) + '%'));
    });
    var step = (width - left) / Math.max(groups.length, 1);
    var barW = Math.max(2, Math.min(36, step * 0.7));
    var labelEvery = Math.ceil(groups.length / Math.max(2, Math.floor((width - left) / 60)));
    groups.forEach(function (g, i) {
      var x = left + step * i + (step - barW) / 2;
      var y = top + plotH;
      if (g.total > 0) {
        OUTCOMES.forEach(function (o, k) {
          var h = plotH * (g.counts[o.key] || 0) / g.total;
          if (h <= 0) return;
          y -= h;
          svg.appendChild(el('svg:rect', { class: 's' + (k + 1), x: x.toFixed(1), y: y.toFixed(1), width: barW.toFixed(1), height: h.toFixed(1) }));
        });
      }
      if (i % labelEvery === 0) {
        svg.appendChild(el('svg:text', { x: (x + barW / 2).toFixed(1), y: height - bottom + 16, 'text-anchor': 'middle' }, shortPeriod(g.key)));
      }
    });
    return svg;
  }

  function shortPeriod(label) {
    return /^\d{4}-\d{2}-\d{2}$/.test(label) ? label.slice(5) : label.replace(/^\d{4}-/, '');
  }

  /** Rows of 100 % stacked shares: one row per value of a dimension. */
  function stackedRows(groups, title, desc, width) {
    var rowH = 26, left = Math.min(130, Math.round(width * 0.3));
    var height = Math.max(1, groups.length) * rowH + 24;
    var svg = svgFrame(width, height, title, desc);
    var plotW = width - left - 10;
    groups.forEach(function (g, i) {
      var y = i * rowH + 4;
      svg.appendChild(el('svg:text', { x: left - 8, y: y + 15, 'text-anchor': 'end' }, truncate(g.key || '(none)', Math.floor(left / 7))));
      var x = left;
      OUTCOMES.forEach(function (o, k) {
        var w = g.total > 0 ? plotW * (g.counts[o.key] || 0) / g.total : 0;
        if (w <= 0) return;
        svg.appendChild(el('svg:rect', { class: 's' + (k + 1), x: x.toFixed(1), y: y, width: w.toFixed(1), height: rowH - 8 }));
        x += w;
      });
    });
    [0, 0.5, 1].forEach(function (share) {
      var x = left + plotW * share;
      svg.appendChild(el('svg:text', { x: x.toFixed(1), y: height - 4, 'text-anchor': share === 0 ? 'start' : share === 1 ? 'end' : 'middle' },
        Math.round(share * 100) + '%'));
    });
    return svg;
  }

  /** Horizontal bars of rates (0 to 100 %), one per figure, labelled with the rate. */
  function rateBars(figures, title, desc, width) {
    var rowH = 24, left = Math.min(210, Math.round(width * 0.42)), right = 56;
    var height = Math.max(1, figures.length) * rowH + 8;
    var svg = svgFrame(width, height, title, desc);
    var plotW = width - left - right;
    svg.appendChild(el('svg:line', { class: 'axis', x1: left, x2: left, y1: 0, y2: height }));
    figures.forEach(function (f, i) {
      var y = i * rowH + 4;
      var w = plotW * Math.min(1, parseFloat(f.rate));
      svg.appendChild(el('svg:text', { x: left - 8, y: y + 13, 'text-anchor': 'end' }, truncate(f.label, Math.floor(left / 6.5))));
      svg.appendChild(el('svg:rect', { class: 's' + (f.series || 1), x: left, y: y, width: Math.max(w, 0).toFixed(1), height: rowH - 8 }));
      svg.appendChild(el('svg:text', { x: (left + w + 6).toFixed(1), y: y + 13 }, percent(f.rate)));
    });
    return svg;
  }

  function truncate(text, n) { return text.length > n ? text.slice(0, n - 1) + '…' : text; }

  // ------------------------------------------------------------------------------------ sections

  function card(title, intro, actions) {
    var body = el('div', { class: 'card-body' }, el('p', { class: 'muted' }, 'Loading…'));
    var section = el('section', { class: 'card', 'aria-labelledby': K.uid('h') },
      el('div', { class: 'card-head' }, el('h2', null, title), actions || null),
      intro ? el('p', { class: 'muted' }, intro) : null, body);
    section.querySelector('h2').id = section.getAttribute('aria-labelledby');
    section.body = body;
    return section;
  }

  function fill(body, nodes) {
    body.textContent = '';
    nodes.forEach(function (node) { if (node) body.appendChild(node); });
  }

  function failed(body, error) { fill(body, [K.errorBox(error)]); }

  /** The table under its chart: open when short, folded (one key press away) when long. */
  function tableView(table) {
    var rows = table.querySelectorAll('tbody tr').length;
    return el('details', { class: 'table-view', open: rows <= 12 },
      el('summary', null, 'Table of the figures (' + rows + (rows === 1 ? ' row)' : ' rows)')), table);
  }

  function choiceColumns(first) {
    return [{ key: 'key', label: first }].concat(OUTCOMES.map(function (o) {
      return { key: o.key, label: o.label, numeric: true, format: function (_, row) {
        var n = row.counts[o.key] || 0;
        return n ? K.formatNumber(n) + ' (' + percent(row.rates[o.key]) + ')' : '0';
      } };
    }), [{ key: 'total', label: 'Events and closes', numeric: true }]);
  }

  function overTime(params, section) {
    var extra = { granularity: params.granularity };
    var what = 'the choices over time';
    section.querySelector('.card-head').appendChild(csvLink('choices', params, extra, what));
    return fetchAll('choices', params, extra).then(function (rows) {
      var groups = pivot(rows, function (r) { return r.period; }, params.granularity === 'day' ? daysOf(params.from, params.to) : null);
      var total = rows.length ? groups.reduce(function (sum, g) { return sum + g.total; }, 0) : 0;
      if (!total) { fill(section.body, [el('p', { class: 'empty-chart' }, 'No choices were recorded in this range.')]); return; }
      var shown = groups.filter(function (g) { return g.total > 0; });
      fill(section.body, [
        stackedColumns(groups, 'Choices over time, by ' + params.granularity,
          'Share of each choice (accept all, reject all, custom, closed without a choice, withdrawn) per ' + params.granularity + ', ' + K.formatNumber(total)
          + ' events and closed notices in all. The table below has every figure.', chartWidth(section.body)),
        legend(OUTCOMES),
        tableView(K.table(choiceColumns(params.granularity === 'week' ? 'Week' : 'Day'), shown,
          { caption: 'Choices per ' + params.granularity, rowHeaders: true }))
      ]);
    }, function (error) { failed(section.body, error); });
  }

  function byDimension(params, section) {
    var select = el('select', { name: 'by' }, DIMENSIONS.map(function (d) {
      return el('option', { value: d.key, selected: d.key === (params.by || 'region') }, d.label);
    }));
    var control = K.field('Group by', select);
    var holder = el('div', { class: 'csv-holder' });
    section.querySelector('.card-head').appendChild(holder);
    section.insertBefore(el('div', { class: 'toolbar' }, control), section.body);
    function load() {
      var by = select.value;
      var extra = { by: by, granularity: 'total' };
      var label = DIMENSIONS.filter(function (d) { return d.key === by; })[0].label;
      holder.textContent = '';
      holder.appendChild(csvLink('choices', params, extra, 'the choices by ' + label.toLowerCase()));
      fill(section.body, [el('p', { class: 'muted' }, 'Loading…')]);
      return fetchAll('choices', params, extra).then(function (rows) {
        var groups = pivot(rows, function (r) { return r.group; });
        if (!groups.length) { fill(section.body, [el('p', { class: 'empty-chart' }, 'No choices were recorded in this range.')]); return; }
        fill(section.body, [
          stackedRows(groups, 'Choices by ' + label.toLowerCase(),
            'Share of each choice per ' + label.toLowerCase() + ' over the whole range. The table below has every figure.',
            chartWidth(section.body)),
          legend(OUTCOMES),
          tableView(K.table(choiceColumns(label), groups, { caption: 'Choices by ' + label.toLowerCase(), rowHeaders: true }))
        ]);
        K.announce('Choices by ' + label.toLowerCase() + ' shown.');
      }, function (error) { failed(section.body, error); });
    }
    select.addEventListener('change', function () {
      var next = Object.assign({}, params, { by: select.value });
      K.setParams(next);
      params.by = select.value;
      load();
    });
    return load();
  }

  /** A report of rates (purposes, vendors, google, us) over the whole range. */
  function rates(report, params, section, options) {
    var extra = { granularity: 'total' };
    section.querySelector('.card-head').appendChild(csvLink(report, params, extra, options.what));
    return fetchAll(report, params, extra).then(function (rows) {
      if (!rows.length) { fill(section.body, [el('p', { class: 'empty-chart' }, options.empty)]); return; }
      var groupOrder = [];
      rows.forEach(function (r) { if (groupOrder.indexOf(r.group) < 0) groupOrder.push(r.group); });
      var figures = rows.map(function (r) {
        return { group: r.group, item: r.item, label: itemLabel(r.group, r.item), groupLabel: GROUPS[r.group] || r.group,
          count: r.count, of: r.of, rate: r.rate, series: groupOrder.indexOf(r.group) % 6 + 1 };
      });
      var charted = figures;
      var note = null;
      if (figures.length > MAX_BARS) {
        charted = figures.slice().sort(function (a, b) { return b.count - a.count || a.label.localeCompare(b.label); }).slice(0, MAX_BARS);
        note = el('p', { class: 'muted' }, 'The chart shows the ' + MAX_BARS + ' figures with the most opt-ins; the table has all ' + figures.length + '.');
      }
      var series = groupOrder.map(function (g) { return { label: GROUPS[g] || g }; });
      fill(section.body, [
        rateBars(charted.map(function (f) { return Object.assign({}, f, { label: (groupOrder.length > 1 ? shortGroup(f.group) + ' · ' : '') + f.label }); }),
          options.title, options.desc + ' The table below has every figure.', chartWidth(section.body)),
        series.length > 1 ? legend(series) : null,
        note,
        tableView(K.table([
          { key: 'groupLabel', label: 'Kind' },
          { key: 'label', label: options.itemLabel },
          { key: 'count', label: options.countLabel, numeric: true },
          { key: 'of', label: 'Out of', numeric: true },
          { key: 'rate', label: 'Rate', numeric: true, format: function (value) { return percent(value); } }
        ], figures, { caption: options.title }))
      ]);
    }, function (error) { failed(section.body, error); });
  }

  function shortGroup(group) {
    return { purposeConsent: 'Consent', purposeLegitimateInterest: 'LI', specialFeatureOptin: 'SF', vendorConsent: 'Consent',
      vendorLegitimateInterest: 'LI', additionalConsent: 'AC' }[group] || '';
  }

  // ------------------------------------------------------------------------------------ page

  function toolbar(apps, params) {
    var app = el('select', { name: 'app' }, apps.map(function (id) { return el('option', { value: id, selected: id === params.app }, id); }));
    var from = el('input', { type: 'date', name: 'from', value: params.from, required: true });
    var to = el('input', { type: 'date', name: 'to', value: params.to, required: true });
    var granularity = el('select', { name: 'granularity' },
      el('option', { value: 'day', selected: params.granularity === 'day' }, 'Day'),
      el('option', { value: 'week', selected: params.granularity === 'week' }, 'Week'));
    var fields = { app: K.field('App', app), from: K.field('From', from), to: K.field('To', to), granularity: K.field('Over time by', granularity) };
    var form = el('form', { class: 'toolbar', 'aria-label': 'Figures to show' },
      fields.app, fields.from, fields.to, fields.granularity,
      el('button', { type: 'submit', class: 'button primary' }, 'Show'));
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      Object.keys(fields).forEach(function (k) { fields[k].setError(''); });
      if (!from.value) { fields.from.setError('Enter the first day.'); from.focus(); return; }
      if (!to.value) { fields.to.setError('Enter the last day.'); to.focus(); return; }
      if (from.value > to.value) { fields.from.setError('The first day must not be after the last.'); from.focus(); return; }
      K.navigate('analytics', { app: app.value, from: from.value, to: to.value, granularity: granularity.value, by: params.by });
    });
    form.fields = fields;
    return form;
  }

  function render(main, ctx) {
    main.appendChild(el('h1', null, 'Consent analytics'));
    return ctx.api('GET', BASE + 'apps').then(function (answer) {
      var apps = answer.apps;
      if (!apps.length) {
        main.appendChild(el('p', null, 'No app has figures yet. They appear as apps and websites record choices (POST /v1/consents, the web CMP).'));
        return;
      }
      var range = defaultRange();
      var p = ctx.params;
      var params = {
        app: apps.indexOf(p.app) >= 0 ? p.app : apps[0],
        from: /^\d{4}-\d{2}-\d{2}$/.test(p.from || '') ? p.from : range.from,
        to: /^\d{4}-\d{2}-\d{2}$/.test(p.to || '') ? p.to : range.to,
        granularity: p.granularity === 'week' ? 'week' : 'day',
        by: DIMENSIONS.some(function (d) { return d.key === p.by; }) ? p.by : 'region'
      };
      main.appendChild(el('p', { class: 'lead' }, 'What the users of an app chose, from the events consentd recorded (days in UTC).'));
      var form = toolbar(apps, params);
      main.appendChild(form);
      var sections = {
        time: card('Choices over time', 'Accept all, reject all, custom choices, notices closed without a choice and withdrawals, as shares of the events and closes of each ' + params.granularity + '.'),
        dimension: card('Choices by dimension', 'The same shares over the whole range, per region, language, platform, notice version or method.'),
        purposes: card('Purposes', 'Opt-in rates per purpose and special feature, out of the events with a TCF string.'),
        vendors: card('Vendors', 'Opt-in rates per vendor and Google ad-tech provider, out of the events with a TCF string.'),
        google: card('Google choice', 'The Google ads choice, out of the events with a TCF string.'),
        us: card('US opt-outs', 'Opt-out rates and the GPC signal, out of the events with a US privacy section.')
      };
      Object.keys(sections).forEach(function (k) { main.appendChild(sections[k]); });
      return Promise.all([
        overTime(params, sections.time),
        byDimension(params, sections.dimension),
        rates('purposes', params, sections.purposes, { what: 'the purposes', title: 'Opt-in rate per purpose', itemLabel: 'Purpose',
          countLabel: 'Opt-ins', empty: 'No event with a TCF string in this range.', desc: 'Share of events that opted in to each purpose.' }),
        rates('vendors', params, sections.vendors, { what: 'the vendors', title: 'Opt-in rate per vendor', itemLabel: 'Vendor',
          countLabel: 'Opt-ins', empty: 'No event with a TCF string in this range.', desc: 'Share of events that opted in to each vendor.' }),
        rates('google', params, sections.google, { what: 'the Google choice', title: 'Google choice split', itemLabel: 'Choice',
          countLabel: 'Events', empty: 'No event with a TCF string in this range.', desc: 'Share of events per Google ads choice.' }),
        rates('us', params, sections.us, { what: 'the US opt-outs', title: 'US opt-out rates', itemLabel: 'Opt-out',
          countLabel: 'Events', empty: 'No event with a US privacy section in this range.', desc: 'Share of US events with each opt-out.' })
      ]).then(function () {
        K.announce('Figures of ' + params.app + ' from ' + params.from + ' to ' + params.to + ' shown.');
      });
    });
  }

  K.registerPage({ id: 'analytics', title: 'Analytics', roles: ['analyst'], render: render });
})();
