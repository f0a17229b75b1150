// Shared helpers of the headless-Chromium tests: the arena's binaries, temp
// directories, running commands, a browser page that records every console
// error, page error and dialog, and screenshots under build/screenshots/.
//
// A test file exits 0 when every check passed, 1 on the first failure, and
// 77 (CTest's SKIP_RETURN_CODE) when Chromium or puppeteer-core is missing:
// scripts/setup installs both.
'use strict';
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const SOURCE = path.resolve(__dirname, '..', '..');
const BINARY = process.env.ARENA_BINARY_DIR || path.join(SOURCE, 'build');
const ARENA = path.join(BINARY, 'bin', 'arena');
const CHROMIUM = process.env.ARENA_CHROMIUM || '/usr/bin/chromium';
const SCREENSHOTS = process.env.ARENA_SCREENSHOTS || path.join(SOURCE, 'build', 'screenshots');

const SKIP = 77;

function skip(why) {
  console.log('SKIPPED: ' + why);
  process.exit(SKIP);
}

function loadPuppeteer() {
  if (!fs.existsSync(CHROMIUM)) skip(CHROMIUM + ' is missing (scripts/setup installs the chromium package)');
  try {
    return require('puppeteer-core');
  } catch (e) {
    skip('puppeteer-core is missing (scripts/setup runs npm ci in tests/browser/)');
  }
  return null;
}

function bot(name) {
  return path.join(BINARY, 'bots', name);
}

function tempDir(tag) {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'arena-browser-' + tag + '-'));
}

// Runs a command; returns its stdout. Throws with its stderr when it fails.
function run(file, args, options = {}) {
  try {
    return execFileSync(file, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (e) {
    throw new Error(`${file} ${args.join(' ')} failed (${e.status}):\n${e.stderr || e.message}`);
  }
}

function arena(args, options) {
  return run(ARENA, args, options);
}

// Opens a browser. Each page made by newPage() records problems: console
// errors (a script error, a refused load, a CSP violation), uncaught page
// errors, dialogs (alert, confirm, prompt: dismissed) and requests that
// leave the page's own file. newPage({ context }) opens the page in that
// browser context (browser.createBrowserContext(): its own cookies, as an
// incognito window has), not the default one.
async function launch() {
  const puppeteer = loadPuppeteer();
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--no-first-run', '--disable-extensions'],
  });
  return {
    browser,
    async newPage({ bypassCsp = false, context = null } = {}) {
      const page = await (context || browser).newPage();
      await page.setViewport({ width: 1280, height: 900 });
      if (bypassCsp) await page.setBypassCSP(true);
      const problems = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
      page.on('pageerror', (e) => problems.push('page error: ' + e.message));
      page.on('dialog', async (d) => { problems.push('dialog: ' + d.message()); await d.dismiss(); });
      page.on('request', (r) => {
        const url = r.url();
        if (!url.startsWith('file://') && !url.startsWith('data:') && !url.startsWith('about:'))
          problems.push('request: ' + url);
      });
      page.problems = problems;
      return page;
    },
    close: () => browser.close(),
  };
}

async function screenshot(page, name, options = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, name + '.png');
  if (options.selector) {
    const element = await page.$(options.selector);
    await element.screenshot({ path: file });
  } else {
    await page.screenshot({ path: file, fullPage: !!options.fullPage });
  }
  return file;
}

// The standings table of `arena standings`: per bot, the columns as printed.
function parseTextStandings(text) {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => /^\s*#\s+bot\s+elo/.test(l));
  assert.ok(head >= 0, 'no standings table in:\n' + text);
  const columns = lines[head].trim().split(/\s+/);
  const rows = new Map();
  const body = [];
  for (const line of lines.slice(head + 1)) {
    if (!/^\s*\d+\s/.test(line)) break;
    body.push(line);
  }
  for (const [index, line] of body.entries()) {
    // rank, name, then the numbers; the faults column may hold spaces.
    const words = line.trim().split(/\s+/);
    const row = {};
    let k = 0;
    for (const c of columns) {
      if (c === 'faults') { row[c] = words.slice(k).join(' '); break; }
      // The last bot has no LOS (against the next one down).
      if (c === 'LOS' && index === body.length - 1) { row[c] = ''; continue; }
      row[c] = words[k++];
    }
    rows.set(row.bot, row);
  }
  return rows;
}

// The final board of `arena show DB ID`: a map "<row label>/<column index>"
// -> '.', 'X', 'O' or '#'.
function parseShowFinalBoard(text) {
  const lines = text.split('\n');
  const last = lines.map((l, i) => (/^ply \d+: /.test(l) ? i : -1)).filter((i) => i >= 0).pop();
  assert.ok(last !== undefined, 'no board in arena show output');
  const cells = new Map();
  // Column labels sit below the rows (Connect-4, Gomoku) or above them (Reversi).
  let i = last - 1;
  if (!/^\s*\d+(\s+[.XO#])+\s*$/.test(lines[i])) i--;
  while (i >= 0 && /^\s*\d+(\s+[.XO#])+\s*$/.test(lines[i])) {
    const words = lines[i].trim().split(/\s+/);
    const label = words[0];
    words.slice(1).forEach((v, x) => cells.set(label + '/' + x, v));
    i--;
  }
  assert.ok(cells.size > 0, 'no board rows above line ' + last + ' in:\n' + text);
  return cells;
}

module.exports = {
  assert, SOURCE, BINARY, ARENA, SCREENSHOTS, skip, bot, tempDir, run, arena, launch, screenshot,
  parseTextStandings, parseShowFinalBoard,
};
