// The page of `umpire serve`: reads /api/page (the server's Session document), draws it, and
// reads it again whenever /api/events announces a new version. No library, no network: the
// server embeds this file. Everything from the rules (log text, outcome names) goes into the page
// as text, never as HTML; the map is the SVG that `umpire draw` writes, escaped by its writer.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SIDE_COLOURS = ['#4e79a7', '#e15759'];

// ---- The odds report ----------------------------------------------------------------------
// readOdds is the ONE place that knows the shape of the odds report, `umpire odds --json`
// (docs/odds-report.md: {sides, outcomes, numeric, moments, fields}, one shape for a plain run
// and --compare). Every figure shown comes from the report; nothing is computed again here.
// Returns {method, note, sides: [label...], fields: [{name, numeric, mean: [..], meanExact: [..],
//          sd: [..], rows: [{label, p: [..], exact: [..], difference, atLeast: [..]}]}]}.
function readOdds(report) {
  const sides = report.sides.map((s, i) => s.label || (report.sides.length > 1 ? `side ${i + 1}` : 'P'));
  const table = (name, t) => ({
    name,
    numeric: !!t.numeric,
    mean: t.numeric ? t.moments.map((m) => m.mean) : [],
    meanExact: t.numeric ? t.moments.map((m) => m.mean_exact) : [],
    sd: t.numeric ? t.moments.map((m) => m.sd) : [],
    rows: t.outcomes.map((o) => ({
      label: o.display,
      p: o.sides.map((c) => c.probability),
      exact: o.sides.map((c) => c.exact),
      difference: o.difference ? o.difference.probability : null,
      atLeast: t.numeric ? o.sides.map((c) => c.at_least) : [],
    })),
  });
  const named = Object.entries(report.fields || {});
  const fields = named.length ? named.map(([name, t]) => table(name, t)) : [table('outcome', report)];
  const methods = report.sides.map((s) => s.method === 'exact' ? `exact, ${s.paths} paths` : `${s.method}, ${s.samples} samples`);
  const notes = report.sides.flatMap((s) => [s.given, s.note].filter(Boolean));
  return {method: methods.join(' / '), note: notes.join(' · '), sides, fields};
}

// ---- Drawing -------------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
}

function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

const percent = (p) => (p === null || p === undefined || Number.isNaN(p) ? '–' : (100 * p).toFixed(2) + '%');
const decimal = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : (+x).toFixed(3));

// One bar chart: a group of bars per outcome (one per side), its percentage above each bar.
function chart(field, sides) {
  const group = 18 * sides.length + 16, height = 150, top = 18, bottom = 34;
  const width = Math.max(280, field.rows.length * group + 20);
  const svg = svgEl('svg', {class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img',
                            'aria-label': `chart of ${field.name}`});
  const max = Math.max(1e-12, ...field.rows.flatMap((r) => r.p.map((p) => p || 0)));
  const plot = height - top - bottom;
  svg.append(svgEl('line', {x1: 10, y1: top + plot, x2: width - 10, y2: top + plot, stroke: '#999'}));
  field.rows.forEach((row, i) => {
    const x0 = 14 + i * group;
    row.p.forEach((p, s) => {
      const h = ((p || 0) / max) * plot;
      const bar = svgEl('rect', {class: 'bar', x: x0 + s * 18, y: top + plot - h, width: 16, height: Math.max(h, 0.5),
                                 fill: SIDE_COLOURS[s], 'data-outcome': row.label, 'data-side': sides[s],
                                 'data-p': String(p)});
      const tip = svgEl('title');
      tip.textContent = `${field.name} = ${row.label}: ${percent(p)}${row.exact[s] ? ' (' + row.exact[s] + ')' : ''}` +
                        (sides.length > 1 ? ` [${sides[s]}]` : '');
      bar.append(tip);
      svg.append(bar);
      if (field.rows.length <= 16 || sides.length === 1) {
        const t = svgEl('text', {x: x0 + s * 18 + 8, y: top + plot - h - 3, 'text-anchor': 'middle', class: 'bar-label'});
        t.textContent = (100 * (p || 0)).toFixed(p >= 0.1 ? 0 : 1);
        svg.append(t);
      }
    });
    const label = svgEl('text', {x: x0 + (18 * sides.length) / 2, y: top + plot + 14, 'text-anchor': 'middle',
                                 class: 'axis-label'});
    label.textContent = row.label.length > 9 ? row.label.slice(0, 8) + '…' : row.label;
    svg.append(label);
  });
  return svg;
}

function fieldCard(field, sides) {
  const compare = sides.length > 1;
  const card = el('article', {class: 'field', 'data-field': field.name});
  const stats = field.numeric
    ? sides.map((side, s) => `${compare ? side + ': ' : ''}mean ${decimal(field.mean[s])}` +
                             (field.meanExact[s] && field.meanExact[s].length <= 13 ? ` (${field.meanExact[s]})` : '') +
                             `, sd ${decimal(field.sd[s])}`).join(' · ')
    : '';
  const meanSpan = el('span', {class: 'stats'}, stats);
  field.numeric && meanSpan.setAttribute('data-mean', field.mean.map(String).join(' '));
  card.append(el('h3', {}, field.name, ' ', meanSpan));
  if (compare) {
    const legend = el('p', {class: 'legend'});
    sides.forEach((side, s) => legend.append(el('span', {class: 'swatch', style: `background:${SIDE_COLOURS[s]}`}), ` ${side} `));
    card.append(legend);
  }
  card.append(chart(field, sides));
  const head = el('tr', {}, el('th', {}, field.name));
  for (const side of sides) head.append(el('th', {}, compare ? side : 'P'));
  if (compare) head.append(el('th', {}, 'difference'));
  if (field.numeric) for (const side of sides) head.append(el('th', {}, compare ? `≥ (${side})` : 'at least'));
  const body = el('tbody');
  for (const row of field.rows) {
    const tr = el('tr', {'data-outcome': row.label});
    tr.append(el('td', {class: 'outcome'}, row.label));
    row.p.forEach((p, s) => {
      const td = el('td', {class: 'p', 'data-p': String(p), 'data-side': sides[s]}, percent(p));
      if (row.exact[s]) {
        td.title = row.exact[s];  // long fractions only as a tooltip, so the table stays narrow
        if (row.exact[s].length <= 13) td.append(el('small', {class: 'exact'}, ' ' + row.exact[s]));
      }
      tr.append(td);
    });
    if (compare) {
      const d = row.difference || 0;
      tr.append(el('td', {class: d > 0 ? 'up' : d < 0 ? 'down' : ''}, (d > 0 ? '+' : '') + (100 * d).toFixed(2) + ' pp'));
    }
    if (field.numeric) row.atLeast.forEach((p, s) => tr.append(el('td', {class: 'at-least', 'data-p': String(p),
                                                                          'data-side': sides[s]}, percent(p))));
    body.append(tr);
  }
  card.append(el('div', {class: 'table-wrap'}, el('table', {}, el('thead', {}, head), body)));
  return card;
}

function renderOdds(report) {
  const odds = readOdds(report);
  document.getElementById('odds-method').textContent = `(${odds.method})`;
  document.getElementById('odds-note').textContent = odds.note;
  const box = document.getElementById('odds');
  box.replaceChildren(...odds.fields.map((f) => fieldCard(f, odds.sides)));
}

function citeLink(citation) {
  return el('a', {class: 'cite', href: '/rules/' + encodeURIComponent(citation)}, citation);
}

// The rule log: one line per journal entry as `umpire run --explain` writes it (the server sends
// each entry's line), its citation linked; a modifier pipeline lists its steps with theirs.
// `log` and `returned` are the elements of one game (the original's, or the --compare side's).
function renderLog(game, log, returned) {
  const entries = game.journal.entries;
  const items = entries.map((entry, i) => {
    const li = el('li', {class: 'entry ' + entry.kind, 'data-kind': entry.kind});
    li.style.marginLeft = (entry.depth || 0) * 1.2 + 'em';
    let text = game.lines ? game.lines[i] : entry.text;
    if (entry.citation) {
      const prefix = '[' + entry.citation + '] ';
      if (text.startsWith(prefix)) text = text.slice(prefix.length);
      li.append('[', citeLink(entry.citation), '] ');
    }
    li.append(text);
    const steps = entry.data && entry.data.steps;
    if (Array.isArray(steps) && steps.length) {
      const ul = el('ul', {class: 'steps'});
      for (const step of steps) {
        const sign = step.op === 'add' && step.operand >= 0 ? '+' : '';
        const li2 = el('li', {}, `${step.op === 'add' ? '' : step.op + ' '}${sign}${step.operand} [${step.source}]`);
        if (step.citation) li2.append(' (', citeLink(step.citation), ')');
        li2.append(` → ${step.after}`);
        ul.append(li2);
      }
      li.append(ul);
    }
    return li;
  });
  log.replaceChildren(...items);
  returned.textContent =
    'returned ' + game.returned.map((v) => JSON.stringify(v)).join(', ') +
    (game.output.length ? ' · printed ' + game.output.join(' / ') : '');
}

// The game, and under --compare the house rule's game with the same seed beside it, each
// labelled with its side's name as the odds are.
function renderGames(page) {
  const $ = (id) => document.getElementById(id);
  const compare = !!page.compare_game;
  $('seed').textContent = String(page.seed);
  $('games').classList.toggle('compare', compare);
  document.body.classList.toggle('compare', compare);
  $('compare-game').hidden = !compare;
  $('game-heading').hidden = !compare;  // one game: its journal link stays in the section's title
  $('journal-link').hidden = compare;
  const sides = readOdds(page.odds).sides;
  $('game-label').textContent = compare ? sides[0] : '';
  renderLog(page.game, $('log'), $('returned'));
  if (compare) {
    $('compare-label').textContent = sides[1] || page.compare;
    renderLog(page.compare_game, $('compare-log'), $('compare-returned'));
  }
}

// The map: `umpire draw`'s SVG; every hex carries data-hex (ASL name), data-terrain, data-level.
function renderMap(map) {
  const section = document.getElementById('map-section');
  section.hidden = !map;
  if (!map) return;
  document.getElementById('scenario').textContent = map.scenario;
  const box = document.getElementById('map');
  const doc = new DOMParser().parseFromString(map.svg, 'image/svg+xml');
  const svg = doc.documentElement;
  if (svg.nodeName !== 'svg') return;
  const w = svg.getAttribute('width'), h = svg.getAttribute('height');
  if (!svg.getAttribute('viewBox') && w && h) svg.setAttribute('viewBox', `0 0 ${parseFloat(w)} ${parseFloat(h)}`);
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  box.replaceChildren(document.importNode(svg, true));
}

function showHex(target) {
  const hex = target && target.closest && target.closest('[data-hex]');
  const info = document.getElementById('hex-info');
  document.querySelectorAll('#map .hover').forEach((e) => e.classList.remove('hover'));
  if (!hex) return;
  hex.classList.add('hover');
  const level = hex.getAttribute('data-level');
  info.textContent = `${hex.getAttribute('data-hex')}: ${hex.getAttribute('data-terrain').replace(/_/g, ' ')}` +
                     (level && level !== '0' ? `, level ${level}` : '');
  info.setAttribute('data-hex', hex.getAttribute('data-hex'));
}

// ---- The live document ----------------------------------------------------------------------
function render(doc) {
  const body = document.body;
  body.dataset.version = doc.version;
  body.dataset.status = doc.status;
  body.classList.toggle('stale', !!doc.stale);
  const status = document.getElementById('status');
  status.textContent = doc.status === 'computing' ? 'updating…'
                     : doc.status === 'error' ? (doc.page ? 'error: showing the last good results' : 'error')
                     : 'up to date';
  status.className = 'badge ' + doc.status + (doc.stale ? ' stale' : '');
  const error = document.getElementById('error');
  error.hidden = !doc.error;
  if (doc.error) {
    document.getElementById('error-message').textContent = doc.error.message;
    document.getElementById('error-where').textContent =
      doc.error.file ? doc.error.file + (doc.error.line ? ':' + doc.error.line : '') : 'an unknown place';
  }
  const page = doc.page;
  document.getElementById('results').hidden = !page;
  if (page && page !== render.shown) {
    document.getElementById('script').textContent =
      `${page.script} · ${page.rulesets.join(', ')}${page.compare ? ' vs ' + page.compare : ''}`;
    renderOdds(page.odds);
    renderGames(page);
    renderMap(page.map);
    render.shown = page;
  }
  document.getElementById('updated').textContent =
    doc.status === 'ok' ? `Computed in ${doc.seconds.toFixed(2)} s at ${new Date().toLocaleTimeString()}.` : '';
}

let fetching = Promise.resolve();
function refresh() {
  fetching = fetching.then(() => fetch('/api/page', {cache: 'no-store'}))
    .then((r) => r.json())
    .then(render)
    .catch((e) => { document.getElementById('status').textContent = 'server unreachable: ' + e.message; });
}

document.addEventListener('DOMContentLoaded', () => {
  const map = document.getElementById('map');
  map.addEventListener('mouseover', (e) => showHex(e.target));
  map.addEventListener('click', (e) => showHex(e.target));  // a phone has no hover
  const events = new EventSource('/api/events');
  events.addEventListener('version', refresh);
  events.onerror = () => { document.getElementById('status').textContent = 'reconnecting…'; };
  refresh();
});
