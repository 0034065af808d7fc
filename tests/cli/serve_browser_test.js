// `umpire serve` in a real browser (Debian's chromium through playwright-core): the page shows
// the odds `umpire odds --json` computes, the game `umpire run --json` plays, and the map with
// hex names on hover; a saved data file changes the odds on the page without a reload; a broken
// module shows its file:line while the last good charts stay, marked stale; --compare shows both
// sides with their means and at-least columns, and both games with the same seed. Screenshots go to ARTIFACTS (the build folder).
// Run by serve_browser_test.sh, which starts the servers and cleans up:
//   node serve_browser_test.js MODULES UMPIRE WORK URL COMPARE_URL ARTIFACTS SRC
'use strict';
const path = require('path');
const fs = require('fs');
const {execFileSync} = require('child_process');
const [modules, umpire, work, url, compareUrl, artifacts, src] = process.argv.slice(2);
const {chromium} = require(path.join(modules, 'playwright-core'));
const yaml = require(path.join(modules, 'js-yaml'));

const script = path.join(src, 'scripts/tour/a9_222_first_fire_odds.lua');
const ruleset = path.join(work, 'asl');
const odds = (...args) => JSON.parse(execFileSync(umpire, ['odds', ...args, '--json'], {cwd: src}).toString());
const fail = (message) => { throw new Error(message); };
const close = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

// Every field's marginal of a plain `odds --json` report (docs/odds-report.md), as
// {field: {display: probability}}.
function expectedMarginals(report) {
  const out = {};
  for (const [field, table] of Object.entries(report.fields)) {
    out[field] = {};
    for (const o of table.outcomes) out[field][o.display] = o.sides[0].probability;
  }
  return out;
}

// What the page shows: {field: {outcome: probability}} from the table cells' data-p.
async function shownMarginals(page) {
  return page.$$eval('[data-field]', (cards) => {
    const out = {};
    for (const card of cards) {
      out[card.dataset.field] = {};
      for (const tr of card.querySelectorAll('tbody tr')) out[card.dataset.field][tr.dataset.outcome] = +tr.querySelector('td.p').dataset.p;
    }
    return out;
  });
}

function sameMarginals(shown, expected) {
  for (const [field, outcomes] of Object.entries(expected)) {
    if (!shown[field]) return `no chart for field ${field}`;
    for (const [display, p] of Object.entries(outcomes)) {
      if (shown[field][display] === undefined) return `${field}=${display} not shown`;
      if (!close(shown[field][display], p)) return `${field}=${display}: page ${shown[field][display]}, odds --json ${p}`;
    }
    if (Object.keys(shown[field]).length !== Object.keys(outcomes).length) return `${field}: other outcomes shown`;
  }
  return '';
}

async function waitFor(what, test, seconds) {
  const started = Date.now();
  for (;;) {
    const problem = await test();
    if (!problem) return (Date.now() - started) / 1000;
    if (Date.now() - started > seconds * 1000) fail(`${what}: ${problem} (after ${seconds} s)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.UMPIRE_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({viewport: {width: 1280, height: 800}});
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    await page.waitForSelector('body[data-status="ok"]', {timeout: 60000});

    // 1. The charts: one per field, each outcome's probability as `umpire odds --json` has it.
    const before = expectedMarginals(odds('--ruleset', ruleset, script));
    let problem = sameMarginals(await shownMarginals(page), before);
    if (problem) fail('odds: ' + problem);
    for (const [field, outcomes] of Object.entries(before)) {
      const bars = await page.$$eval(`[data-field="${field}"] svg.chart rect.bar`, (b) => b.length);
      if (bars !== Object.keys(outcomes).length) fail(`chart of ${field}: ${bars} bars for ${Object.keys(outcomes).length} outcomes`);
    }

    // 2. The log: one line per journal entry of `umpire run --seed 1 --json`, every citation linked.
    const game = JSON.parse(execFileSync(umpire, ['run', '--ruleset', ruleset, script, '--seed', '1', '--json'], {cwd: src}));
    const entries = game.journal.entries;
    const lines = await page.$$eval('#log > li', (l) => l.length);
    if (lines !== entries.length) fail(`log: ${lines} lines for ${entries.length} journal entries`);
    const cited = new Set();
    for (const e of entries) {
      if (e.citation) cited.add(e.citation);
      for (const s of (e.data && e.data.steps) || []) if (s.citation) cited.add(s.citation);
    }
    const links = new Set(await page.$$eval('#log a.cite', (a) => a.map((x) => x.textContent)));
    for (const c of cited) if (!links.has(c)) fail(`log: citation ${c} not linked`);
    if (!cited.has('A9.22')) fail('the game cites no A9.22 (the script changed?)');
    const rules = await page.request.get(new URL('/rules/A9.22', url).href);
    const rulesHtml = await rules.text();
    if (rules.status() !== 200 || !/fire_lane\.lua:\d+/.test(rulesHtml)) fail('/rules/A9.22 does not show where the rules cite it');
    for (const c of cited) {
      const r = await page.request.get(new URL('/rules/' + encodeURIComponent(c), url).href);
      if (r.status() !== 200) fail(`the citation ${c} links to a page that answers ${r.status()}`);
    }
    const firstRoll = entries.find((e) => e.kind === 'roll');
    const rollLine = await page.$eval('#log > li[data-kind="roll"]', (l) => l.textContent);
    if (!rollLine.includes(String(firstRoll.data.total))) fail(`log: the roll line '${rollLine}' lacks the total ${firstRoll.data.total}`);

    // 3. The map: hovering a hex names it and its terrain, as the scenario file says.
    const scenario = yaml.load(fs.readFileSync(path.join(ruleset, 'scenarios/a9_222.yaml'), 'utf8'));
    for (const [hex, terrain] of Object.entries(scenario.map.hexes)) {
      const name = typeof terrain === 'string' ? terrain : terrain.terrain;
      await page.hover(`#map [data-hex="${hex}"]`);
      const info = await page.textContent('#hex-info');
      if (info !== `${hex}: ${name.replace(/_/g, ' ')}` && !info.startsWith(`${hex}: ${name.replace(/_/g, ' ')},`))
        fail(`hover ${hex}: '${info}', scenario says ${name}`);
    }
    fs.mkdirSync(artifacts, {recursive: true});
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({path: path.join(artifacts, 'serve.png'), fullPage: false});

    // 4. Save a data file: the page shows the new odds by itself (no reload: the marker stays).
    await page.evaluate(() => { window.notReloaded = true; });
    const data = path.join(ruleset, 'data/sw_mg.yaml');
    const original = fs.readFileSync(data, 'utf8');
    const edited = original.replace(/(ger_mmg:[^\n]*B: )11,/, '$112,');
    if (edited === original) fail('could not edit the German MMG B# in sw_mg.yaml');
    fs.writeFileSync(data, edited);
    const after = expectedMarginals(odds('--ruleset', ruleset, script));
    if (!sameMarginals(after, before)) fail('the edit did not change the odds (test is not looking)');
    const seconds = await waitFor('new odds after saving sw_mg.yaml',
                                  async () => sameMarginals(await shownMarginals(page), after), 20);
    if (!(await page.evaluate(() => window.notReloaded))) fail('the page reloaded');
    console.log(`the page showed the new odds ${seconds.toFixed(2)} s after the save`);

    // 5. Break a module: the error with file:line, the last good charts kept and marked stale.
    const module = path.join(ruleset, 'rules/fire_lane.lua');
    const moduleText = fs.readFileSync(module, 'utf8');
    const badLine = moduleText.split('\n').length + (moduleText.endsWith('\n') ? 0 : 1);
    fs.writeFileSync(module, moduleText + (moduleText.endsWith('\n') ? '' : '\n') + 'this is not Lua\n');
    await page.waitForSelector('body[data-status="error"].stale', {timeout: 20000});
    const where = await page.textContent('#error-where');
    if (!where.endsWith(`fire_lane.lua:${badLine}`)) fail(`error location '${where}', expected fire_lane.lua:${badLine}`);
    if (!(await page.isVisible('#error'))) fail('the error is not shown');
    problem = sameMarginals(await shownMarginals(page), after);
    if (problem) fail('the last good chart was not kept: ' + problem);
    if (!(await page.isVisible('[data-field="mmg_breaks"] svg.chart'))) fail('the last good chart is hidden');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({path: path.join(artifacts, 'serve-error.png')});
    fs.writeFileSync(module, moduleText);
    await page.waitForSelector('body[data-status="ok"]:not(.stale)', {timeout: 20000});

    // 6. A phone: nothing wider than the screen.
    await page.setViewportSize({width: 390, height: 844});
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    if (overflow > 392) {
      const wide = await page.evaluate(() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 392).slice(0, 5)
        .map((e) => `${e.tagName}#${e.id}.${e.getAttribute('class')} right ${Math.round(e.getBoundingClientRect().right)}`));
      fail(`at 390 px wide the page is ${overflow} px wide: ${wide.join('; ')}`);
    }
    await page.screenshot({path: path.join(artifacts, 'serve-phone.png')});

    // Nothing from the network: every request went to the server.
    const foreign = requests.filter((r) => !r.startsWith(new URL(url).origin));
    if (foreign.length) fail('requests outside the server: ' + foreign.join(', '));

    // 7. --compare: both sides per outcome, their means and at-least columns, as odds --json has them.
    const cmp = await browser.newPage({viewport: {width: 1280, height: 800}});
    await cmp.goto(compareUrl);
    await cmp.waitForSelector('body[data-status="ok"]', {timeout: 120000});
    const report = odds('--ruleset', 'bolt-action', path.join(src, 'scripts/bolt-action/compare_mg42.lua'),
                        '--compare', 'bolt-action-mg42');
    for (const [field, table] of Object.entries(report.fields)) {
      const shown = await cmp.$$eval(`[data-field="${field}"] tbody tr`, (rows) => rows.map((tr) => ({
        outcome: tr.dataset.outcome,
        p: [...tr.querySelectorAll('td.p')].map((td) => +td.dataset.p),
        atLeast: [...tr.querySelectorAll('td.at-least')].map((td) => +td.dataset.p),
      })));
      // The means and at-least columns counted here from the two sides' probabilities.
      const rows = table.outcomes.map((o) => ({value: o.outcome, display: o.display, p: o.sides.map((c) => c.probability)}));
      rows.sort((a, b) => a.value - b.value);
      if (typeof rows[0].value !== 'number') fail(`compare ${field} is not numeric`);
      if (shown.length !== rows.length) fail(`compare ${field}: ${shown.length} rows for ${rows.length}`);
      const mean = [0, 0];
      rows.forEach((row, i) => {
        const s = shown.find((x) => x.outcome === row.display) || fail(`compare ${field}=${row.display} missing`);
        if (!close(s.p[0], row.p[0]) || !close(s.p[1], row.p[1])) fail(`compare ${field}=${row.display}: ${s.p}`);
        const atLeast = [0, 1].map((k) => rows.slice(i).reduce((t, x) => t + x.p[k], 0));
        if (Math.abs(s.atLeast[0] - atLeast[0]) > 1e-9 || Math.abs(s.atLeast[1] - atLeast[1]) > 1e-9)
          fail(`compare ${field} at least ${row.display}: ${s.atLeast}, expected ${atLeast}`);
        mean[0] += row.value * row.p[0];
        mean[1] += row.value * row.p[1];
      });
      const shownMean = (await cmp.getAttribute(`[data-field="${field}"] .stats`, 'data-mean')).split(' ').map(Number);
      if (Math.abs(shownMean[0] - mean[0]) > 1e-9 || Math.abs(shownMean[1] - mean[1]) > 1e-9)
        fail(`compare ${field} mean ${shownMean}, expected ${mean}`);
    }
    // 8. --compare: both games, each line for line as `umpire run --seed 1 --json` plays it under its
    // ruleset, every citation linked, and each side's journal at /journal.json(?game=compare).
    const compareScript = path.join(src, 'scripts/bolt-action/compare_mg42.lua');
    const shownLogs = [];
    for (const [ruleset, list, query] of [['bolt-action', '#log', ''], ['bolt-action-mg42', '#compare-log', '?game=compare']]) {
      const played = JSON.parse(execFileSync(umpire, ['run', '--ruleset', ruleset, compareScript, '--seed', '1', '--json'], {cwd: src}));
      const shownLines = await cmp.$$eval(`${list} > li`, (l) => l.map((x) => x.textContent));
      if (!(await cmp.isVisible(list))) fail(`compare: the ${ruleset} log is hidden`);
      if (shownLines.length !== played.journal.entries.length)
        fail(`compare: ${shownLines.length} lines in ${list} for ${played.journal.entries.length} entries of ${ruleset}'s game`);
      played.journal.entries.forEach((e, i) => {
        if (e.kind === 'roll' && !shownLines[i].includes(String(e.data.total))) fail(`compare ${list} line ${i}: '${shownLines[i]}' lacks ${e.data.total}`);
      });
      const citedHere = new Set(played.journal.entries.filter((e) => e.citation).map((e) => e.citation));
      const linked = new Set(await cmp.$$eval(`${list} a.cite`, (a) => a.map((x) => x.textContent)));
      for (const c of citedHere) if (!linked.has(c)) fail(`compare ${list}: citation ${c} not linked`);
      const journal = await (await cmp.request.get(new URL('/journal.json' + query, compareUrl).href)).json();
      if (journal.entries.length !== played.journal.entries.length || JSON.stringify(journal.header.inputs.rulesets) !== JSON.stringify([ruleset]))
        fail(`compare: /journal.json${query} is not ${ruleset}'s game`);
      shownLogs.push(shownLines.join('\n'));
    }
    if (shownLogs[0] === shownLogs[1]) fail('compare: the two games are the same (the house rule gives 5 shots, not 4)');
    // A citation's page lists the lines of both games that cite it, under each side's heading.
    const firstCite = await cmp.$eval('#compare-log a.cite', (a) => a.getAttribute('href'));
    const citePage = await (await cmp.request.get(new URL(firstCite, compareUrl).href)).text();
    for (const game of ['game', 'compare_game']) {
      const list = citePage.split(`data-game="${game}">`)[1];
      if (!list || !/^<li>[^<]/.test(list)) fail(`${firstCite}: no log line of ${game} listed`);
    }
    if (!citePage.includes('In the game under bolt-action-mg42')) fail(`${firstCite}: no heading for the house rule's game`);
    await cmp.screenshot({path: path.join(artifacts, 'serve-compare.png'), fullPage: true});
    console.log('ok: serve page in chromium (odds, log, map hover, live update, broken module, phone, compare odds and both games)');
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error('FAIL: ' + e.message); process.exit(1); });
