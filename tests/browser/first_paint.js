// Loads a report page several times in headless Chromium and prints, as
// JSON, the median and every value of: first paint, first contentful paint,
// DOMContentLoaded, load, and the moment the page's script had listed the
// games (window.arenaReport.readyMs), in ms from the start of navigation.
// Used by scripts/bench (part 7, report).
//
//   node tests/browser/first_paint.js FILE.html [--loads N]
'use strict';
const path = require('node:path');
const lib = require('./lib');

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

(async () => {
  const file = path.resolve(process.argv[2]);
  const at = process.argv.indexOf('--loads');
  const loads = at > 0 ? Number(process.argv[at + 1]) : 5;
  const { newPage, close } = await lib.launch();
  const figures = { first_paint: [], first_contentful_paint: [], dom_content_loaded: [], load: [], ready: [] };
  try {
    for (let k = 0; k < loads; k++) {
      const page = await newPage();
      await page.goto('file://' + file, { waitUntil: 'load', timeout: 120000 });
      await page.waitForFunction(() => window.arenaReport && window.arenaReport.readyMs !== undefined);
      // Paint entries come after the frame is presented.
      await page.waitForFunction(() => performance.getEntriesByType('paint').length >= 2, { timeout: 10000 }).catch(() => {});
      const t = await page.evaluate(() => {
        const paint = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
        const nav = performance.getEntriesByType('navigation')[0];
        return { fp: paint['first-paint'], fcp: paint['first-contentful-paint'],
          dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, ready: window.arenaReport.readyMs };
      });
      figures.first_paint.push(t.fp);
      figures.first_contentful_paint.push(t.fcp);
      figures.dom_content_loaded.push(t.dcl);
      figures.load.push(t.load);
      figures.ready.push(t.ready);
      if (page.problems.length) throw new Error(page.problems.join('\n'));
      await page.close();
    }
  } finally {
    await close();
  }
  const out = { loads };
  for (const [k, v] of Object.entries(figures)) out[k + '_ms'] = { median: median(v), all: v };
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
