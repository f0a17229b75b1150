// A league's server (`arena serve --league`) in a real browser (headless
// Chromium), as two participants use it (issue 45):
// - alice and bob sign in with their tokens, each in a browser context of
//   their own (own cookies), and upload on /me: alice a working Python bot,
//   bob one that prints garbage;
// - each sees their check: alice's version 1 passed, bob's failed with its
//   check log (FAIL ...) open;
// - with one bot the league plays nothing: the public pages show no
//   tournament and no game;
// - bob uploads a working bot: his version 2 passes, and the public
//   standings, left open, fill in without a reload until both are rated;
//   bob's /me lists his games;
// - bob's own game page shows the replay with his stderr only; the public
//   game page and its JSON show no stderr at all;
// - a second tab of alice's session cannot upload without the page's CSRF
//   token (403);
// - no page has a console error, and screenshots of the sign-in page, the
//   /me pages and the standings go to build/screenshots/.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const lib = require('./lib');
const { assert } = lib;

// Games of the one pair: enough that the standings page, opened when the
// tournament appears, sees them arrive (random bots play one in ~0.2 s).
const GAMES = 40;

function leagueConfig(dir) {
  const bots = path.join(dir, 'bots');
  fs.mkdirSync(bots);
  const config = path.join(dir, 'league.yaml');
  fs.writeFileSync(config, [
    'name: spring',
    'game: { name: connect4 }',
    'time: { move_ms: 1000 }',
    'openings: { random_plies: 2 }',
    `schedule: { type: round-robin, games_per_pair: ${GAMES} }`,
    'concurrency: 2',
    `bots_dir: ${bots}`,
    `database: ${path.join(dir, 'league.db')}`,
    'league: {}',
    '',
  ].join('\n'));
  return config;
}

function addUser(config, name) {
  const out = lib.arena(['league', 'user', 'add', config, name]);
  const m = /^token: (\S+)$/m.exec(out);
  assert.ok(m, 'no token in:\n' + out);
  return m[1];
}

// Starts `arena serve --league`; resolves with its base URL once it prints it.
function startServer(config) {
  const server = spawn(lib.ARENA, ['serve', '--league', config, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  server.err = '';
  server.stderr.on('data', (d) => { server.err += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('arena serve did not start:\n' + out + server.err)), 20000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = /league 'spring' at (http:\/\/127\.0\.0\.1:\d+)\/league \(2 participants\)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ server, base: m[1] }); }
    });
    server.on('exit', (code) => {
      // A league's bots always run sandboxed: no bubblewrap, no league here.
      if (/needs bubblewrap/.test(server.err)) lib.skip('arena serve --league needs bubblewrap:\n' + server.err);
      reject(new Error('arena serve exited ' + code + ':\n' + out + server.err));
    });
  });
}

async function stopServer(server) {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGINT');
  const timer = setTimeout(() => server.kill('SIGKILL'), 15000);
  await exited;
  clearTimeout(timer);
}

// Problems of a page other than its requests to the server itself.
function problems(page, base) {
  return page.problems.filter((p) => !p.startsWith('request: ' + base + '/'));
}

async function getJson(url) {
  const r = await fetch(url);
  return { status: r.status, body: await r.json().catch(() => null) };
}

async function signIn(page, base, name, token, shot) {
  await page.goto(base + '/league');
  await page.waitForSelector('#token');
  if (shot) {
    await page.waitForFunction(() => document.querySelector('#league-note').textContent.includes('League spring'));
    await lib.screenshot(page, shot);
  }
  await page.type('#token', token);
  await Promise.all([page.waitForNavigation(), page.click('#signin')]);
  assert.equal(new URL(page.url()).pathname, '/me', name + ' signed in to ' + page.url());
  await page.waitForSelector('#upload-file');
  const title = await page.$eval('header', (h) => h.textContent);
  assert.ok(title.includes(name), name + "'s /me is headed: " + title);
  assert.equal(await page.$eval('#signin-status', (e) => e.textContent).catch(() => null), null,
    'the sign-in page is gone');
}

async function upload(page, file) {
  const input = await page.$('#upload-file');
  await input.uploadFile(file);
  await page.click('#upload-send');
  // The answer, then the check's outcome once it is over.
  await page.waitForFunction(() => /^version \d+ (of '\w+' is being checked|passed its check|failed its check)/
    .test(document.querySelector('#upload-status').textContent), { timeout: 20000 });
}

// Waits until version `n` on a /me page is checked; returns what it shows.
async function checked(page, n) {
  const sel = `#versions .version[data-version="${n}"]`;
  await page.waitForFunction((s) => {
    const v = document.querySelector(s);
    return v && !v.classList.contains('version-checking');
  }, { timeout: 60000 }, sel);
  // The line beside the Upload button says how the check ended, too.
  await page.waitForFunction((k) => document.querySelector('#upload-status').textContent.startsWith(`version ${k} `) &&
    !document.querySelector('#upload-status').textContent.endsWith('being checked'), { timeout: 10000 }, n);
  return page.$eval(sel, (v) => ({
    upload: document.querySelector('#upload-status').textContent,
    cls: v.className,
    status: v.querySelector('.version-status').textContent,
    message: (v.querySelector('.version-message') || {}).textContent,
    log: (v.querySelector('details.check-log pre') || {}).textContent,
    open: !!(v.querySelector('details.check-log') || {}).open,
    logShown: (() => { const pre = v.querySelector('details.check-log pre'); return !!pre && pre.getBoundingClientRect().height > 0; })(),
  }));
}

// The public pages while the league has one bot that passes: no tournament.
async function nothingPlayed(page, base) {
  const index = await getJson(base + '/api/index');
  assert.equal(index.status, 200);
  assert.deepEqual(index.body.databases.map((d) => d.tournaments), [[]], 'the tournaments before a second bot');
  const t = await fetch(base + '/t/0/1');
  assert.equal(t.status, 404, 'the standings page before a second bot');
  await page.goto(base + '/');
  await page.waitForSelector('section.db');
  const shown = await page.$eval('section.db', (s) => ({ text: s.textContent, tables: s.querySelectorAll('table').length }));
  assert.ok(shown.text.includes('no tournament yet'), 'the public index: ' + shown.text);
  assert.equal(shown.tables, 0, 'a table of tournaments on the public index');
}

// Opens the public standings as soon as the tournament exists and watches
// them fill in without a reload; returns the tournament's id and games.
async function liveStandings(page, base) {
  let link = null;
  for (const until = Date.now() + 60000; !link && Date.now() < until;) {
    const index = await getJson(base + '/api/index');
    const t = index.body.databases[0].tournaments[0];
    if (t) link = `/t/0/${t.id}`;
    else await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(link, '/t/0/1', 'the league\'s tournament');
  await page.goto(base + link);
  await page.waitForSelector('#game-count');
  const first = Number(await page.$eval('#game-count', (e) => e.textContent));
  await page.evaluate(() => { window.__sameDocument = true; });
  await page.waitForFunction(() => {
    const count = document.querySelector('#game-count').textContent;
    const rows = [...document.querySelectorAll('#standings tbody tr')];
    return count !== '0' && count === document.querySelector('#game-total').textContent && rows.length === 2 &&
      rows.every((tr) => /^-?\d+$/.test(tr.cells[2].textContent) && Number(tr.cells[4].textContent) > 0);
  }, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the standings page was reloaded');
  const state = await page.evaluate(() => ({
    count: Number(document.querySelector('#game-count').textContent),
    total: Number(document.querySelector('#game-total').textContent),
    rows: [...document.querySelectorAll('#standings tbody tr')].map((tr) => ({
      name: tr.querySelector('td.name').textContent, elo: tr.cells[2].textContent, games: Number(tr.cells[4].textContent),
    })),
    games: document.querySelectorAll('#games tbody tr').length,
  }));
  assert.ok(first < state.count, `the game count went from ${first} to ${state.count} while the page was open`);
  assert.equal(state.total, GAMES, 'the games of the tournament');
  assert.deepEqual(state.rows.map((r) => r.name).sort(), ['alice', 'bob'], 'the standings');
  for (const r of state.rows) assert.equal(r.games, GAMES, r.name + "'s games");
  assert.equal(state.games, GAMES, 'the rows of the public game list');
  await lib.screenshot(page, 'league-standings', { fullPage: true });
  console.log(`ok: the public standings went from ${first} to ${state.count} games without a reload: ` +
    state.rows.map((r) => `${r.name} ${r.elo}`).join(', '));
  return { id: 1, games: state.count };
}

(async () => {
  const { browser, newPage, close } = await lib.launch();
  const dir = lib.tempDir('league');
  let failed = false;
  let server = null;
  try {
    const started = Date.now();
    const config = leagueConfig(dir);
    const tokens = { alice: addUser(config, 'alice'), bob: addUser(config, 'bob') };
    const good = path.join(dir, 'random_bot.py');
    fs.copyFileSync(path.join(lib.SOURCE, 'bots', 'examples', 'random_bot.py'), good);
    const broken = path.join(dir, 'hello.py');
    fs.writeFileSync(broken, "#!/usr/bin/env python3\nprint('hello')\n");
    const serving = await startServer(config);
    server = serving.server;
    const base = serving.base;

    // Two people, each in a context of their own, and the public in a third.
    const aliceContext = await browser.createBrowserContext();
    const bobContext = await browser.createBrowserContext();
    const publicContext = await browser.createBrowserContext();
    const alice = await newPage({ context: aliceContext });
    const bob = await newPage({ context: bobContext });
    const pub = await newPage({ context: publicContext });
    await signIn(alice, base, 'alice', tokens.alice, 'league-signin');
    await signIn(bob, base, 'bob', tokens.bob);
    console.log('ok: alice and bob signed in with their tokens');

    await upload(alice, good);
    await upload(bob, broken);
    const a1 = await checked(alice, 1);
    assert.match(a1.cls, /\bversion-passed\b/, "alice's version 1: " + JSON.stringify(a1));
    assert.equal(a1.status, 'passed');
    assert.match(a1.log, /0 failed/, "alice's check log");
    assert.equal(a1.upload, 'version 1 passed its check', "alice's upload line");
    assert.ok(!a1.open, "alice's passing check log is shut");
    await lib.screenshot(alice, 'league-me-alice-passed', { fullPage: true });
    const b1 = await checked(bob, 1);
    assert.match(b1.cls, /\bversion-failed\b/, "bob's version 1: " + JSON.stringify(b1));
    assert.equal(b1.status, 'failed');
    assert.match(b1.message, /^failed: start-up/, "bob's check message");
    assert.match(b1.log, /^FAIL start-up: unexpected line during start-up: 'hello'$/m, "bob's check log");
    assert.ok(b1.open && b1.logShown, "bob's failed check log is open");
    assert.equal(b1.upload, 'version 1 failed its check (its log is below); no version of yours plays yet', "bob's upload line");
    await lib.screenshot(bob, 'league-me-bob-failed', { fullPage: true });
    console.log("ok: alice's version 1 passed; bob's failed, its log open: " + b1.message);

    // A second tab of alice's session: without the page's CSRF token, no upload.
    const tab = await newPage({ context: aliceContext });
    await tab.goto(base + '/me');
    await tab.waitForSelector('#versions .version');
    const refused = await tab.evaluate(async () => {
      const r = await fetch('/api/league/upload?name=x.py', {
        method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/octet-stream' },
        body: "#!/usr/bin/env python3\nprint('x')\n",
      });
      return { status: r.status, body: await r.json() };
    });
    assert.equal(refused.status, 403, 'an upload without the CSRF token: ' + JSON.stringify(refused));
    assert.match(refused.body.error, /CSRF/);
    const mine = await tab.evaluate(async () => (await (await fetch('/api/league/me')).json()).versions.length);
    assert.equal(mine, 1, "alice's versions after the refused upload");
    assert.deepEqual(problems(tab, base).filter((p) => !/status of 403/.test(p)), [], 'problems on the second tab');
    console.log('ok: a second tab of alice\'s session cannot upload without the CSRF token (403)');

    // One bot that passes: nothing to play.
    await nothingPlayed(pub, base);
    assert.equal(await alice.$$eval('#my-games tbody tr', (t) => t.length), 0, "alice's games with one bot");
    await alice.waitForFunction(() => document.querySelector('.no-games').textContent.includes('the league has 1 bot'),
      { timeout: 10000 });
    console.log('ok: with one bot that passes, no tournament and no game');

    // bob's fix: two bots, the league plays.
    await upload(bob, good);
    const standings = liveStandings(pub, base);
    standings.catch(() => {});  // awaited below; not an unhandled rejection meanwhile
    const b2 = await checked(bob, 2);
    assert.match(b2.cls, /\bversion-passed\b/, "bob's version 2: " + JSON.stringify(b2));
    assert.equal(b2.upload, 'version 2 passed its check', "bob's upload line");
    const { games } = await standings;
    await bob.waitForFunction((n) => document.querySelectorAll('#my-games tbody tr').length === n, { timeout: 20000 }, games);
    const bobPage = await bob.evaluate(() => ({
      versions: [...document.querySelectorAll('#versions .version')].map((v) => v.dataset.version + ' ' + v.querySelector('.version-status').textContent),
      rows: [...document.querySelectorAll('#my-games tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
      link: document.querySelector('#my-games tbody tr a').getAttribute('href'),
      oldLogOpen: document.querySelector('.version[data-version="1"] details.check-log').open,
      none: document.querySelector('.no-games').textContent,
    }));
    assert.deepEqual(bobPage.versions, ['2 passed', '1 failed'], "bob's versions, newest first");
    assert.equal(bobPage.oldLogOpen, false, "bob's older failed log is shut");
    assert.equal(bobPage.none, '', 'the note of no game beside bob\'s games');
    for (const r of bobPage.rows) assert.deepEqual([r[1], r[2]].sort(), ['alice', 'bob'], "bob's game " + r);
    await lib.screenshot(bob, 'league-me-bob-fixed', { fullPage: true });
    console.log(`ok: bob's version 2 passed and his /me lists his ${games} games`);

    // bob's own game: his stderr, not alice's; the public game: no stderr.
    const id = bobPage.link.split('/').pop();
    assert.equal(bobPage.link, '/me/g/' + id);
    await bob.goto(base + bobPage.link);
    await bob.waitForSelector('#replay .rv-moves li');
    const bobLogs = await bob.$$eval('#replay .rv-logs h4', (hs) => hs.map((h) => h.textContent));
    assert.deepEqual(bobLogs, ["bob's stderr (its end)"], "the stderr boxes on bob's game page");
    await lib.screenshot(bob, 'league-me-bob-game');
    await alice.goto(base + '/me/g/' + id);
    await alice.waitForSelector('#replay .rv-moves li');
    assert.deepEqual(await alice.$$eval('#replay .rv-logs h4', (hs) => hs.map((h) => h.textContent)),
      ["alice's stderr (its end)"], "the stderr boxes on alice's page of the game");
    const replay = await getJson(`${base}/api/g/0/${id}`);
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body.logs, [null, null], 'the public replay\'s logs');
    assert.ok(replay.body.moves.length > 0, 'the public replay\'s moves');
    await pub.goto(`${base}/g/0/${id}`);
    await pub.waitForSelector('#replay .rv-moves li');
    const publicGame = await pub.evaluate(() => ({
      boxes: document.querySelectorAll('#replay .rv-logs > *').length, text: document.body.innerText,
    }));
    assert.equal(publicGame.boxes, 0, 'stderr boxes on the public game page');
    assert.ok(!/stderr/.test(publicGame.text), 'the public game page mentions stderr');
    const privateGame = await fetch(`${base}/me/g/${id}`, { redirect: 'manual' });
    assert.equal(privateGame.status, 303, '/me/g/ without signing in');
    console.log(`ok: game ${id}: bob's page shows his stderr only, the public page and JSON none`);

    for (const [name, page] of Object.entries({ alice, bob, public: pub }))
      assert.deepEqual(problems(page, base), [], 'problems on the pages of ' + name);
    console.log(`ok: no console error on any page (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed = true;
    console.error('FAILED: ' + (e.stack || e));
    if (server) console.error('arena serve said:\n' + server.err);
  } finally {
    await stopServer(server).catch(() => {});
    await close();
    if (!failed) fs.rmSync(dir, { recursive: true, force: true });
    else console.error('files kept in ' + dir);
  }
  process.exit(failed ? 1 : 0);
})();
