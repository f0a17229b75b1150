// `arena report` in a real browser (headless Chromium): for a finished
// tournament of each game, the page opens from file:// with no console
// error and no request outside itself; its standings table holds the numbers
// `arena standings` prints; the SVG charts are there; and stepping replays
// to the end with the arrow keys shows each game's final position, checked
// square by square against `arena show` (the stored moves replayed by the
// game's rules); a gauntlet with an SPRT shows each opponent's LLR as
// `arena run` prints it; and a tune (`arena tune`) shows each parameter's
// path over the iterations with its table of start and final values.
// Screenshots of the page and of a replay of each game (and of a tune's
// Tuning section) go to build/screenshots/.
//
//   node tests/browser/report_test.js [connect4|gomoku|reversi|sprt|tune ...]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const lib = require('./lib');
const { assert } = lib;

// Tournaments small enough to play in seconds, with the reference bots.
const TOURNAMENTS = {
  // The Tsinghua variant: every pair on its own board of 9..12 rows and
  // columns with a blocked cell; three bots, so a crosstable with pairs.
  connect4(dir) {
    const config = path.join(dir, 'c4.yaml');
    fs.writeFileSync(config, [
      'name: c4-browser',
      'game: { name: connect4, variant: tsinghua }',
      'time: { move_ms: 100, tolerance_ms: 50 }',
      'schedule: { type: round-robin, games_per_pair: 2 }',
      'openings: { random_plies: 2 }',
      'concurrency: 2',
      'seed: 7',
      'bots:',
      `  - { name: random-1, command: ${lib.bot('random')} --seed 1 }`,
      `  - { name: random-2, command: ${lib.bot('random')} --seed 2 }`,
      `  - { name: alphabeta, command: ${lib.bot('c4-alphabeta')} --level 2 }`,
      '',
    ].join('\n'));
    const db = path.join(dir, 'c4.db');
    lib.arena(['run', config, '--db', db]);
    return db;
  },
  gomoku(dir) {
    const db = path.join(dir, 'gomoku.db');
    lib.arena(['match', '--game', 'gomoku', '--size', '11', '--games', '2', '--move-ms', '200',
      '--openings', 'none', '--db', db, lib.bot('random'), 'minimax=' + lib.bot('gomoku-minimax') + ' --level 1']);
    return db;
  },
  reversi(dir) {
    const db = path.join(dir, 'reversi.db');
    lib.arena(['match', '--game', 'reversi', '--games', '4', '--move-ms', '100', '--db', db,
      lib.bot('random'), lib.bot('reversi-greedy')]);
    return db;
  },
  // A gauntlet with an SPRT per opponent: the LLR chart and table.
  sprt(dir) {
    const config = path.join(dir, 'sprt.yaml');
    fs.writeFileSync(config, [
      'name: sprt-browser',
      'game: { name: connect4 }',
      'time: { move_ms: 200, tolerance_ms: 50 }',
      'schedule: { type: gauntlet, challenger: alphabeta, games_per_pair: 60,',
      '            sprt: { elo0: 0, elo1: 100, model: logistic } }',
      'openings: { random_plies: 4 }',
      'concurrency: 2',
      'bots:',
      `  - { name: alphabeta, command: ${lib.bot('c4-alphabeta')} --level 1 }`,
      `  - { name: random-1, command: ${lib.bot('random')} --seed 1 }`,
      `  - { name: random-2, command: ${lib.bot('random')} --seed 2 }`,
      '',
    ].join('\n'));
    const db = path.join(dir, 'sprt.db');
    lib.arena(['run', config, '--db', db]);
    return db;
  },
  // SPSA over alpha-beta's search depth (deeper plays better: it climbs) and
  // the reach of its evaluation: the Tuning section's charts and table.
  tune(dir) {
    const config = path.join(dir, 'tune.yaml');
    fs.writeFileSync(config, [
      'name: tune-browser',
      'game: { name: connect4 }',
      'time: { move_ms: 200, tolerance_ms: 50 }',
      'openings: { random_plies: 2 }',
      'concurrency: 2',
      'seed: 3',
      'tune:',
      `  command: ${lib.bot('c4-alphabeta')} --depth {depth} --soon {soon}`,
      '  params:',
      '    - { name: depth, start: 2, min: 1, max: 8, c_end: 1, r_end: 0.05, integer: true }',
      '    - { name: soon, start: 2, min: 1, max: 6, c_end: 1, r_end: 0.05, integer: true }',
      '  pairs: 60',
      '',
    ].join('\n'));
    const db = path.join(dir, 'tune.db');
    lib.arena(['tune', config, '--db', db]);
    return db;
  },
};

// A tune's section: a chart per parameter, each labelled with the final value
// of the table, which starts where the config does.
async function checkTuning(page) {
  const rows = await page.$$eval('#tune-table tbody tr', (trs) => trs.map((tr) => ({
    name: tr.children[0].textContent, start: tr.children[1].textContent, final: tr.children[2].textContent,
    rounded: tr.children[3].textContent, min: tr.children[4].textContent, max: tr.children[5].textContent })));
  assert.deepEqual(rows.map((r) => [r.name, r.start, r.min, r.max]),
    [['depth', '2', '1', '8'], ['soon', '2', '1', '6']], 'the tune table\'s parameters');
  const charts = await page.$$eval('svg.chart-tune', (svgs) => svgs.map((svg) => ({
    title: svg.querySelector('.chart-title').textContent,
    last: svg.querySelector('.last-label').textContent,
    points: svg.querySelector('polyline').points.length,
    start: svg.querySelectorAll('line.start').length })));
  assert.equal(charts.length, 2, 'a chart per parameter');
  charts.forEach((c, k) => {
    assert.equal(c.title, rows[k].name, 'chart ' + k + ' is of ' + rows[k].name);
    assert.equal(c.last, rows[k].final, 'the final value of ' + c.title + ' is labelled');
    assert.equal(c.points, 60, 'a point per iteration of ' + c.title);
    assert.equal(c.start, 1, 'the start of ' + c.title + ' is marked');
    assert.equal(String(Math.round(Number(rows[k].final))), rows[k].rounded, 'rounded ' + c.title);
  });
  // The drawn path stays inside the plot: the range is the y axis.
  const inside = await page.$$eval('svg.chart-tune', (svgs) => svgs.every((svg) => {
    const box = svg.querySelector('rect.range').getBBox();
    return [...svg.querySelector('polyline').points].every((p) => p.y >= box.y - 0.5 && p.y <= box.y + box.height + 0.5);
  }));
  assert.ok(inside, 'every path inside its plot');
  await lib.screenshot(page, 'report-tune-tuning', { selector: '#tuning' });
}

// The LLR of each opponent's test as `arena run` prints it for a finished
// gauntlet: "Results of A vs B (...)", then in its block "LLR: x (lower, upper) ...".
function textLlrs(text) {
  const llrs = new Map();
  let opponent = null;
  for (const line of text.split('\n')) {
    const m = /^Results of .+ vs (.+) \(from /.exec(line);
    if (m) opponent = m[1];
    const l = /^LLR: (-?[\d.]+) /.exec(line);
    if (l && opponent) { llrs.set(opponent, l[1]); opponent = null; }
  }
  return llrs;
}

// The standings table of the page, as text cells per bot.
async function pageStandings(page) {
  return page.$$eval('#standings-table', ([table]) => {
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    return [...table.querySelectorAll('tbody tr')].map((tr) => {
      const row = {};
      [...tr.children].forEach((td, k) => { row[heads[k]] = td.textContent.trim(); });
      return row;
    });
  });
}

function checkStandings(text, rows) {
  const expected = lib.parseTextStandings(text);
  assert.equal(rows.length, expected.size, 'bots in the standings table');
  const columns = { '#': '#', bot: 'bot', Elo: 'elo', '±95%': '±95%', games: 'games', W: 'W', D: 'D',
    L: 'L', score: 'score', 'win%': 'win%', first: 'first', second: 'second', LOS: 'LOS', faults: 'faults' };
  for (const row of rows) {
    const want = expected.get(row.bot);
    assert.ok(want, 'bot ' + row.bot + ' is not in arena standings');
    for (const [html, text] of Object.entries(columns))
      assert.equal(row[html], want[text], `standings of ${row.bot}, column ${html}`);
  }
}

// The board the viewer shows: "<row label>/<x>" -> '.', 'X', 'O' or '#'.
async function pageBoard(page) {
  return new Map(await page.$$eval('#replay .rv-board .cell',
    (cells) => cells.map((c) => [c.dataset.row + '/' + c.dataset.x, c.dataset.v])));
}

async function checkReplay(page, db, id, plies) {
  await page.evaluate((gameId) => { location.hash = 'game-' + gameId; }, id);
  await page.waitForFunction((gameId) => {
    const h = document.querySelector('#replay .rv-head h3');
    return h && h.textContent.startsWith('Game ' + gameId + ':');
  }, {}, id);
  // Back to the start, then step to the end one move at a time.
  await page.keyboard.press('Home');
  const start = await page.$eval('#replay .rv-ply', (e) => e.textContent);
  assert.equal(start, '0 / ' + plies, `game ${id}: Home goes to the start`);
  for (let k = 0; k < plies; k++) await page.keyboard.press('ArrowRight');
  const at = await page.$eval('#replay .rv-ply', (e) => e.textContent);
  assert.equal(at, plies + ' / ' + plies, `game ${id}: stepped to the end`);
  const want = lib.parseShowFinalBoard(lib.arena(['show', db, String(id)]));
  const got = await pageBoard(page);
  assert.equal(got.size, want.size, `game ${id}: cells on the board`);
  for (const [cell, v] of want) assert.equal(got.get(cell), v, `game ${id}: cell ${cell}`);
  // The last move is marked, and the ending is shown.
  const end = await page.$eval('#replay .rv-end', (e) => e.textContent);
  assert.match(end, /^End: /, `game ${id}: the ending is shown`);
  if (plies > 0 && !(await page.$eval('#replay .rv-status', (e) => e.textContent.includes('(pass)')))) {
    assert.equal(await page.$$eval('#replay .cell.last', (c) => c.length), 1, `game ${id}: one last move marked`);
  }
  return got;
}

async function checkTournament(browser, name, dir) {
  const db = TOURNAMENTS[name](dir);
  const html = path.join(dir, name + '.html');
  lib.arena(['report', db, '-o', html]);
  const page = await browser.newPage();
  await page.goto('file://' + html);
  await page.waitForSelector('#game-list tbody tr');

  checkStandings(lib.arena(['standings', db]), await pageStandings(page));

  const bots = (await pageStandings(page)).length;
  for (const cls of ['chart-ratings', 'chart-progress', 'chart-endings']) {
    assert.equal(await page.$$eval('svg.' + cls, (s) => s.length), 1, 'one ' + cls);
  }
  assert.equal(await page.$$eval('svg.chart-times', (s) => s.length), bots, 'a move-time histogram per bot');
  assert.equal(await page.$$eval('svg.chart-ratings circle', (c) => c.length), bots, 'a rating dot per bot');
  assert.ok(await page.$$eval('svg.chart-progress polyline', (p) => p.length) === bots, 'a rating line per bot');

  if (name === 'tune') await checkTuning(page);
  else assert.equal((await page.$$('#tuning')).length, 0, 'a Tuning section only for a tune');

  if (name === 'sprt') {
    assert.equal(await page.$$eval('svg.chart-sprt', (s) => s.length), 1, 'the SPRT chart');
    // Columns: opponent, pairs counted, repeats set aside, LLR, bounds, decision.
    const rows = await page.$$eval('#sprt-table tbody tr', (trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[3].textContent]));
    const expected = textLlrs(lib.arena(['run', path.join(dir, 'sprt.yaml'), '--db', db]));
    assert.equal(rows.length, 2, 'an SPRT row per opponent');
    for (const [opponent, llr] of rows) assert.equal(llr, expected.get(opponent), 'the LLR against ' + opponent);
  }

  // Every game is listed; each replays to its stored final position.
  const games = await page.evaluate(() => window.arenaReport.games.map((g) => ({ id: g.id, plies: g.plies })));
  const listed = lib.arena(['games', db]).trim().split('\n').length - 1;
  assert.equal(games.length, listed, 'games in the page');
  assert.equal(await page.$$eval('#game-list tbody tr', (r) => r.length), Math.min(listed, 50), 'rows on the first page');
  // (Of a long list, 12 games spread over it.)
  const step = Math.max(1, games.length / 12);
  for (let k = 0; k < games.length; k += step) await checkReplay(page, db, games[Math.floor(k)].id, games[Math.floor(k)].plies);

  // The other controls, on the longest game: the slider, a click on a move,
  // the buttons, and play (which steps on by itself to the end).
  const longest = games.reduce((a, b) => (b.plies > a.plies ? b : a));
  await checkReplay(page, db, longest.id, longest.plies);
  const ply = () => page.$eval('#replay .rv-ply', (e) => e.textContent);
  await page.$eval('#replay .rv-slider', (s) => { s.value = 3; s.dispatchEvent(new Event('input')); });
  assert.equal(await ply(), '3 / ' + longest.plies, 'the slider goes to ply 3');
  await page.click('#replay .rv-moves li:nth-child(5)');
  assert.equal(await ply(), '5 / ' + longest.plies, 'a click on move 5 goes there');
  await page.click('#replay .rv-controls button[aria-label^="previous"]');
  assert.equal(await ply(), '4 / ' + longest.plies, 'the back button');
  await page.click('#replay .rv-controls button[aria-label^="last"]');
  assert.equal(await ply(), longest.plies + ' / ' + longest.plies, 'the last-position button');
  await page.click('#replay .rv-controls button[aria-label^="first"]');
  assert.equal(await ply(), '0 / ' + longest.plies, 'the first-position button');
  await page.$eval('#replay .rv-slider', (s) => { s.value = s.max - 3; s.dispatchEvent(new Event('input')); });
  await page.click('#replay .rv-controls button[aria-label^="play"]');
  await page.waitForFunction((n) => document.querySelector('#replay .rv-ply').textContent === n + ' / ' + n,
    { timeout: 60000 }, longest.plies);

  // One number per game, the stored id (what `arena show DB N` takes): the
  // list's first column, and no schedule position beside it.
  const heads = await page.$$eval('#game-list thead th', (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(heads.slice(0, 3), ['game', 'first', 'second'], 'the game list\'s columns');
  const shownIds = await page.$$eval('#game-list tbody tr', (trs) => trs.map((tr) => [tr.dataset.id, tr.cells[0].textContent]));
  assert.ok(shownIds.every(([id, text]) => id === text), 'the first column is the stored id');

  // Sorting by plies puts the shortest game first; filtering by a bot keeps its games.
  await page.click('#game-list th[data-key="plies"]');
  const firstPlies = await page.$eval('#game-list tbody tr td:nth-child(6)', (td) => Number(td.textContent));
  assert.equal(firstPlies, Math.min(...games.map((g) => g.plies)), 'sorted by plies');

  const bot = (await pageStandings(page))[0].bot;
  await page.type('#game-filter', bot);
  const rows = await page.$$eval('#game-list tbody tr', (trs) => trs.map((tr) => [tr.children[1].textContent, tr.children[2].textContent]));
  assert.ok(rows.length > 0 && rows.every(([f, s]) => f === bot || s === bot), 'the filter keeps the games of ' + bot);
  await page.$eval('#game-filter', (e) => { e.value = ''; e.dispatchEvent(new Event('input')); e.blur(); });

  await checkReplay(page, db, longest.id, longest.plies);
  await lib.screenshot(page, `report-${name}-replay`, { selector: '#replay' });
  await page.evaluate(() => { location.hash = 'overview'; });
  await lib.screenshot(page, `report-${name}`, { fullPage: true });
  assert.deepEqual(page.problems, [], 'console errors, page errors, dialogs or requests');
  await page.close();
  console.log(`ok: ${name}: ${games.length} games, ${bots} bots`);
}

(async () => {
  const names = process.argv.slice(2).length ? process.argv.slice(2)
    : (process.env.ARENA_BROWSER_GAMES || 'connect4,gomoku,reversi,sprt,tune').split(',');
  const { browser, newPage, close } = await lib.launch();
  const dir = lib.tempDir('report');
  let failed = false;
  try {
    for (const name of names) await checkTournament({ newPage }, name, dir);
  } catch (e) {
    failed = true;
    console.error('FAILED: ' + (e.stack || e));
  } finally {
    await close();
    if (!failed) fs.rmSync(dir, { recursive: true, force: true });
    else console.error('files kept in ' + dir);
  }
  void browser;
  process.exit(failed ? 1 : 0);
})();
