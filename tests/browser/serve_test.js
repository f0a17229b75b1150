// `arena serve` in a real browser (headless Chromium):
// - during a running `arena run`, the tournament page's game count goes up
//   without a reload, and the index and pages open with no console error;
// - a person plays a complete Connect-4 game against `random` by clicking
//   on /play, and the game is stored with the result the page showed;
// - a database whose bot names, info lines, stderr and details are HTML and
//   JavaScript runs none of it on any page of the server;
// - screenshots of /play (the choice, and a game under way for each game)
//   and of the live tournament page go to build/screenshots/.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const lib = require('./lib');
const { assert } = lib;

const HOSTILE_NAME = "<script>window.__pwned='name';alert(1)</script>";
const HOSTILE_INFO = "</script><img src=x onerror=\"window.__pwned='info';alert(2)\"><!--";
const HOSTILE_LOG = "\u2028<svg/onload=\"window.__pwned='log';alert(3)\">";
const HOSTILE_DETAIL = "<b onmouseover=alert(4)>detail</b>' onfocus='alert(5)' autofocus '";

function sql(value) {
  return "'" + value.replaceAll("'", "''") + "'";
}

// A finished match whose bot-controlled strings are replaced by markup.
function hostileDatabase(dir) {
  const db = path.join(dir, 'hostile.db');
  lib.arena(['match', '--game', 'connect4', '--games', '2', '--move-ms', '200', '--openings', 'none',
    '--db', db, 'first=' + lib.bot('random'), 'second=' + lib.bot('random') + ' --seed 2']);
  lib.run('sqlite3', [db, [
    `UPDATE bots SET name = ${sql(HOSTILE_NAME)} WHERE name = 'first'`,
    `UPDATE moves SET info = ${sql(HOSTILE_INFO)} WHERE ply <= 3`,
    `INSERT OR REPLACE INTO bot_logs (game, side, stderr) SELECT id, 1, ${sql(HOSTILE_LOG)} FROM games`,
    `UPDATE games SET detail = ${sql(HOSTILE_DETAIL)}`,
  ].join(';\n') + ';']);
  return db;
}

// A tournament that takes a while: every move of one bot sleeps 30 ms.
function startSlowRun(dir) {
  const config = path.join(dir, 'slow.yaml');
  fs.writeFileSync(config, [
    'name: slow-live',
    'game: { name: connect4 }',
    'time: { move_ms: 1000 }',
    'schedule: { type: round-robin, games_per_pair: 200 }',
    'openings: { random_plies: 2 }',
    'concurrency: 1',
    'bots:',
    `  - { name: sleepy, command: ${lib.bot('misbehave')} --mode sleep --sleep-ms 30 }`,
    `  - { name: random, command: ${lib.bot('random')} }`,
    '',
  ].join('\n'));
  const db = path.join(dir, 'slow.db');
  const run = spawn(lib.ARENA, ['run', config, '--db', db], { stdio: 'ignore' });
  return { db, run };
}

// Starts `arena serve`; resolves with its base URL once it prints it.
function startServer(args) {
  const server = spawn(lib.ARENA, ['serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  server.stderr.on('data', (d) => { err += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('arena serve did not start:\n' + out + err)), 20000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) { clearTimeout(timer); resolve({ server, base: m[1] }); }
    });
    server.on('exit', (code) => reject(new Error('arena serve exited ' + code + ':\n' + out + err)));
  });
}

async function waitForFile(file, ms) {
  const until = Date.now() + ms;
  while (!fs.existsSync(file) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  assert.ok(fs.existsSync(file), file + ' did not appear');
}

// Problems of a page other than its requests to the server itself.
function problems(page, base) {
  return page.problems.filter((p) => !p.startsWith('request: ' + base + '/'));
}

async function liveCount(newPage, base, dbIndex) {
  const page = await newPage();
  await page.goto(base + '/');
  await page.waitForSelector(`section.db[data-db="${dbIndex}"] a`);
  const link = await page.$eval(`section.db[data-db="${dbIndex}"] a`, (a) => a.getAttribute('href'));
  await page.goto(base + link);
  await page.waitForSelector('#standings tbody tr');
  const first = Number(await page.$eval('#game-count', (e) => e.textContent));
  // The count goes up while the page stays open: no reload, only polling.
  await page.evaluate(() => { window.__sameDocument = true; });
  await page.waitForFunction((n) => Number(document.querySelector('#game-count').textContent) >= n + 2,
    { timeout: 60000 }, first);
  const later = Number(await page.$eval('#game-count', (e) => e.textContent));
  assert.ok(later > first, `the game count went from ${first} to ${later}`);
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the page was reloaded');
  const rows = await page.$$eval('#games tbody tr', (trs) => trs.length);
  assert.ok(rows >= later, `the game list has ${rows} rows for ${later} games`);
  // One number per game: the stored id, which `arena show DB N` takes.
  const heads = await page.$$eval('#games thead th', (ths) => ths.map((t) => t.textContent));
  assert.equal(heads[0], 'game');
  assert.ok(!heads.includes('#') && !heads.includes('id'), 'the game list\'s columns: ' + heads);
  const row = await page.$eval('#games tbody tr', (tr) => ({ id: tr.dataset.id, first: tr.cells[0].textContent }));
  assert.equal(row.first, row.id, 'the first column is the stored id');
  await lib.screenshot(page, 'serve-live-tournament');
  assert.deepEqual(problems(page, base), [], 'problems on the live tournament page');
  console.log(`ok: the live game count went from ${first} to ${later}`);
}

// Clicks the first legal column until the game is over; returns the state.
async function playConnect4(page, base, playDb) {
  await page.goto(base + '/play');
  await page.waitForSelector('#play-form select[name=bot] option');
  await page.select('#play-form select[name=game]', 'connect4');
  const bot = await page.$$eval('#play-form select[name=bot] option', (os) => os.find((o) => o.textContent.startsWith('random (--play-bot)')).value);
  await page.select('#play-form select[name=bot]', bot);
  await page.select('#play-form select[name=color]', 'first');
  await page.$eval('#play-form input[name=move_ms]', (e) => { e.value = '500'; });
  await Promise.all([page.waitForNavigation(), page.click('#play-form button.start')]);
  assert.match(page.url(), /\/play\/[0-9a-f]{32}$/);
  let clicks = 0;
  for (;;) {
    await page.waitForFunction(() => ['your-move', 'over', 'left', 'failed'].includes(document.querySelector('#play-status').dataset.phase), { timeout: 30000 });
    const phase = await page.$eval('#play-status', (e) => e.dataset.phase);
    if (phase !== 'your-move') break;
    if (clicks === 0) {
      // The status names the colour the board draws the person's discs in.
      const status = await page.$eval('#play-status', (e) => e.textContent);
      assert.match(status, /you play red, first/, 'the status line: ' + status);
    }
    const plies = await page.$$eval('#replay .rv-moves li', (l) => l.length);
    // The first legal cell in the page's order is in the leftmost open column.
    await page.click('#replay .rv-board .cell.legal');
    clicks++;
    await page.waitForFunction((n) => document.querySelectorAll('#replay .rv-moves li').length > n ||
      document.querySelector('#play-status').dataset.phase !== 'your-move', { timeout: 30000 }, plies);
    assert.ok(clicks < 40, 'too many moves');
  }
  const phase = await page.$eval('#play-status', (e) => e.dataset.phase);
  assert.equal(phase, 'over', 'the game ended: ' + await page.$eval('#play-status', (e) => e.textContent));
  await page.waitForSelector('#play-stored[data-game]');
  const shown = await page.evaluate(() => ({
    result: document.querySelector('#play-status').dataset.result,
    status: document.querySelector('#play-status').textContent,
    game: document.querySelector('#play-stored').dataset.game,
    plies: document.querySelectorAll('#replay .rv-moves li').length,
  }));
  const row = lib.run('sqlite3', [playDb, `SELECT f.name, s.name, g.result, g.termination, g.plies FROM games g JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot WHERE g.id = ${Number(shown.game)}`]).trim();
  assert.equal(row, `human|random|${shown.result}|normal|${shown.plies}`, 'the stored game');
  // Only the bot has a stderr box; a person has none.
  const logs = await page.$$eval('#replay .rv-logs h4', (hs) => hs.map((h) => h.textContent));
  assert.deepEqual(logs, ["random's stderr (its end)"], 'the stderr boxes');
  await lib.screenshot(page, 'serve-play-connect4-over');
  console.log(`ok: a Connect-4 game by ${clicks} clicks, ${shown.status}, stored as game ${shown.game}`);
  return shown;
}

// The choice page, and a game of each kind after one move, as pictures.
async function playScreenshots(page, base) {
  await page.goto(base + '/play');
  await page.waitForSelector('#play-form select[name=bot] option');
  await lib.screenshot(page, 'serve-play-form');
  for (const game of ['connect4', 'gomoku', 'reversi']) {
    await page.goto(base + '/play');
    await page.waitForSelector('#play-form select[name=bot] option');
    await page.select('#play-form select[name=game]', game);
    if (game === 'gomoku') await page.$eval('#board-options input[name=size]', (e) => { e.value = '11'; });
    const colours = await page.$$eval('#play-form select[name=color] option', (os) => os.map((o) => o.textContent));
    const names = game === 'connect4' ? ['red', 'yellow'] : ['black', 'white'];
    assert.deepEqual(colours, [`first (${names[0]})`, `second (${names[1]})`], game + ': the sides offered');
    await Promise.all([page.waitForNavigation(), page.click('#play-form button.start')]);
    await page.waitForFunction(() => document.querySelector('#play-status').dataset.phase === 'your-move', { timeout: 30000 });
    const legal = await page.$$('#replay .rv-board .cell.legal');
    await legal[Math.floor(legal.length / 2)].click();
    await page.waitForFunction(() => document.querySelector('#play-status').dataset.phase === 'your-move' &&
      document.querySelectorAll('#replay .rv-moves li').length >= 2, { timeout: 30000 });
    const status = await page.$eval('#play-status', (e) => e.textContent);
    assert.ok(status.includes(`you play ${names[0]}, first`), game + ': the status line: ' + status);
    await lib.screenshot(page, 'serve-play-' + game);
    // Leaving the page ends the game on the server.
    const id = page.url().split('/').pop();
    await page.goto('about:blank');
    const state = await (await fetch(base + '/api/play/' + id)).json();
    for (let i = 0; i < 50 && state.phase !== 'left'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      Object.assign(state, await (await fetch(base + '/api/play/' + id)).json());
    }
    assert.equal(state.phase, 'left', 'the game ended when its page went away');
  }
  console.log('ok: /play screenshots of connect4, gomoku and reversi');
}

async function hostilePages(newPage, base) {
  for (const bypassCsp of [true, false]) {
    const page = await newPage({ bypassCsp });
    const index = await (await fetch(base + '/api/index')).json();
    const t = index.databases[0].tournaments[0];
    const api = await (await fetch(`${base}/api/t/0/${t.id}`)).json();
    const pages = ['/', `/t/0/${t.id}`, `/t/0/${t.id}/report`, ...api.games.map((g) => `/g/0/${g.id}`)];
    for (const url of pages) {
      await page.goto(base + url);
      await page.waitForFunction(() => document.readyState === 'complete');
      if (url.startsWith('/g/')) {
        await page.waitForSelector('#replay .rv-moves li');
        await page.keyboard.press('Home');
        await page.keyboard.press('End');
        await page.hover('#replay .rv-meta');
      }
      if (url === `/t/0/${t.id}`) await page.waitForSelector('#standings tbody tr');
      const state = await page.evaluate(() => ({
        pwned: window.__pwned,
        handlers: document.querySelectorAll('[onload],[onerror],[onmouseover],[onfocus]').length,
        embeds: document.querySelectorAll('img,iframe,object,embed').length,
        text: document.body.innerText,
      }));
      const label = url + (bypassCsp ? ' (CSP bypassed)' : '');
      assert.equal(state.pwned, undefined, label + ': a payload ran');
      assert.equal(state.handlers, 0, label + ': elements with event handlers');
      assert.equal(state.embeds, 0, label + ': images or frames');
      if (url === `/t/0/${t.id}`) assert.ok(state.text.includes(HOSTILE_NAME), label + ': the name shown as text');
      if (url.startsWith('/g/')) assert.ok(state.text.includes(HOSTILE_DETAIL.slice(0, 20)), label + ': the detail shown as text');
    }
    assert.deepEqual(problems(page, base), [], 'problems on the hostile pages');
  }
  console.log('ok: hostile names, info lines, stderr and details run no script on any page');
}

(async () => {
  const { newPage, close } = await lib.launch();
  const dir = lib.tempDir('serve');
  let failed = false;
  let server = null, run = null;
  try {
    const hostile = hostileDatabase(dir);
    const slow = startSlowRun(dir);
    run = slow.run;
    await waitForFile(slow.db, 20000);
    // The run creates its tournament first; wait for its first game.
    for (let i = 0; i < 200; i++) {
      try {
        if (Number(lib.run('sqlite3', [slow.db, 'SELECT count(*) FROM games'])) > 0) break;
      } catch (e) { /* not created yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    const playDb = path.join(dir, 'play.db');
    const started = await startServer([hostile, slow.db, '--play-db', playDb, '--no-db-bots',
      '--play-bot', 'random=' + lib.bot('random')]);
    server = started.server;
    const base = started.base;

    const index = await newPage();
    await index.goto(base + '/');
    await index.waitForSelector('section.db a');
    await lib.screenshot(index, 'serve-index');
    assert.deepEqual(problems(index, base), [], 'problems on the index');

    await liveCount(newPage, base, 1);
    run.kill('SIGINT');

    const page = await newPage();
    await playConnect4(page, base, playDb);
    await playScreenshots(page, base);
    assert.deepEqual(problems(page, base), [], 'problems on /play');

    await hostilePages(newPage, base);
  } catch (e) {
    failed = true;
    console.error('FAILED: ' + (e.stack || e));
  } finally {
    if (run && run.exitCode === null) run.kill('SIGINT');
    if (server) server.kill('SIGINT');
    await close();
    if (!failed) fs.rmSync(dir, { recursive: true, force: true });
    else console.error('files kept in ' + dir);
  }
  process.exit(failed ? 1 : 0);
})();
