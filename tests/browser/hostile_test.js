// A report of bots whose names, info lines, stderr, fault details and moves
// are HTML and JavaScript runs none of it. The database comes from a real
// `arena match`; then every string a bot controls is replaced, in SQL, by
// markup that would run a script (set window.__pwned, open a dialog) if it
// reached the page unescaped: in element text, in attributes, in the SVG
// charts, and inside the embedded JSON (`</script>`, U+2028). The page is
// checked twice: with its Content-Security-Policy bypassed, so that only
// the escaping stands between the markup and the browser, and as shipped.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const lib = require('./lib');
const { assert } = lib;

const NAME1 = "<script>window.__pwned='name1';alert(1)</script>";
const NAME2 = '"><img src=x onerror="window.__pwned=\'name2\';alert(2)">';
const INFO = "</script><script>window.__pwned='info';alert(3)</script><!--";
const LOG = "\u2028</script>\u2029<svg/onload=\"window.__pwned='log';alert(4)\"><iframe srcdoc=\"<script>parent.__pwned='frame'</script>\">";
const DETAIL = "<b onmouseover=alert(5)>detail</b>' onfocus='alert(6)' autofocus '";
const MOVE = "</script><script>alert(7)</script>";

function sql(value) {
  return "'" + value.replaceAll("'", "''") + "'";
}

function hostileDatabase(dir) {
  const db = path.join(dir, 'hostile.db');
  lib.arena(['match', '--game', 'connect4', '--games', '2', '--move-ms', '100', '--openings', 'none',
    '--db', db, 'first=' + lib.bot('random'), 'second=' + lib.bot('random') + ' --seed 2']);
  const statements = [
    `UPDATE bots SET name = ${sql(NAME1)}, command = ${sql(NAME2)} WHERE name = 'first'`,
    `UPDATE bots SET name = ${sql(NAME2)}, sha256 = ${sql(INFO)} WHERE name = 'second'`,
    `UPDATE moves SET info = ${sql(INFO + '\n' + LOG)} WHERE ply <= 3`,
    `INSERT OR REPLACE INTO bot_logs (game, side, stderr) SELECT id, 1, ${sql(LOG)} FROM games`,
    `INSERT OR REPLACE INTO bot_logs (game, side, stderr) SELECT id, 2, ${sql(INFO)} FROM games`,
    `UPDATE games SET detail = ${sql(DETAIL)}`,
    `UPDATE moves SET move = ${sql(MOVE)} WHERE ply = (SELECT max(ply) FROM moves m WHERE m.game = moves.game)`,
    `UPDATE tournaments SET config = config || ${sql('\n# ' + NAME1 + LOG)}`,
  ];
  lib.run('sqlite3', [db, statements.join(';\n') + ';']);
  return db;
}

async function check(page, html, label) {
  await page.goto('file://' + html);
  await page.waitForSelector('#game-list tbody tr');
  const games = await page.evaluate(() => window.arenaReport.games.map((g) => g.id));
  for (const id of games) {
    await page.evaluate((gameId) => { location.hash = 'game-' + gameId; }, id);
    await page.waitForFunction((gameId) => document.querySelector('#replay .rv-head h3')?.textContent.startsWith('Game ' + gameId + ':'), {}, id);
    await page.keyboard.press('Home');
    await page.keyboard.press('End');
    // Hover and focus everything a payload could hang on.
    await page.hover('#replay .rv-meta');
  }
  const state = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: document.scripts.length,
    handlers: document.querySelectorAll('[onload],[onerror],[onmouseover],[onfocus],[srcdoc]').length,
    embeds: document.querySelectorAll('img,iframe,object,embed').length,
    names: [...document.querySelectorAll('#standings-table td.name')].map((td) => td.textContent),
    crossHeads: [...document.querySelectorAll('#crosstable-table thead th')].map((th) => th.textContent),
    chartLabels: [...document.querySelectorAll('svg.chart-ratings text')].map((t) => t.textContent),
    chartTitles: [...document.querySelectorAll('svg.chart-ratings circle title')].map((t) => t.textContent),
    elo2: [...document.querySelectorAll('#standings-table tbody tr')].filter((tr) => tr.children[1].textContent.startsWith('"'))
      .map((tr) => tr.children[2].textContent + ' ± ' + tr.children[3].textContent)[0],
    moves: [...document.querySelectorAll('#replay .rv-moves .mv')].map((e) => e.textContent),
    info: document.querySelector('#replay .rv-moves pre.info')?.textContent,
    logs: [...document.querySelectorAll('#replay .rv-logs pre')].map((e) => e.textContent),
    detail: document.querySelector('#game-list td.detail')?.textContent,
  }));
  assert.equal(state.pwned, undefined, label + ': a payload ran');
  assert.equal(state.scripts, 3, label + ': the page has exactly its own three script elements');
  assert.equal(state.handlers, 0, label + ': elements with event handlers');
  assert.equal(state.embeds, 0, label + ': images, frames or embeds');
  // The markup is shown as the text it is.
  assert.deepEqual([...state.names].sort(), [NAME1, NAME2].sort(), label + ': names in the standings');
  assert.ok(state.crossHeads.includes(NAME1) && state.crossHeads.includes(NAME2), label + ': crosstable heads');
  assert.ok(state.chartLabels.includes(NAME2.slice(0, 23) + '\u2026'), label + ': chart labels (cut)');
  assert.ok(state.chartTitles.includes(NAME2 + ': ' + state.elo2), label + ': chart titles');
  assert.equal(state.moves[state.moves.length - 1], MOVE, label + ': a move that does not parse');
  assert.equal(state.info, INFO + '\n' + LOG, label + ': info lines');
  assert.ok(state.logs.includes(LOG) && state.logs.includes(INFO), label + ': stderr');
  assert.equal(state.detail, DETAIL, label + ': the fault detail in the game list');
  assert.deepEqual(page.problems, [], label + ': console errors, page errors, dialogs or requests');
}

(async () => {
  const { newPage, close } = await lib.launch();
  const dir = lib.tempDir('hostile');
  let failed = false;
  try {
    const db = hostileDatabase(dir);
    const html = path.join(dir, 'hostile.html');
    lib.arena(['report', db, '-o', html]);
    const text = fs.readFileSync(html, 'utf8');
    const data = text.slice(text.indexOf('id="arena-data">'), text.indexOf('</script>', text.indexOf('id="arena-data">')));
    assert.ok(!/[<>\u2028\u2029]/.test(data.slice('id="arena-data">'.length)), 'raw < > U+2028 U+2029 in the embedded data');
    await check(await newPage({ bypassCsp: true }), html, 'escaping alone');
    const page = await newPage();
    await check(page, html, 'as shipped');
    await lib.screenshot(page, 'report-hostile-replay', { selector: '#replay' });
    console.log('ok: hostile names, info lines, stderr, details and moves run no script');
  } catch (e) {
    failed = true;
    console.error('FAILED: ' + (e.stack || e));
  } finally {
    await close();
    if (!failed) fs.rmSync(dir, { recursive: true, force: true });
    else console.error('files kept in ' + dir);
  }
  process.exit(failed ? 1 : 0);
})();
