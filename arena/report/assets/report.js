// The report page's script: reads the games from the page's embedded data
// (docs/report.md describes it), lists them (sortable, filterable, a page
// at a time) and opens a game in the replay viewer (replay.js) when its row
// is clicked or the address ends in #game-ID.
(function () {
  'use strict';
  const node = document.getElementById('arena-data');
  if (!node) return;
  const data = JSON.parse(node.textContent);
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const PAGE = 50;
  const RESULTS = ['1/2-1/2', '1-0', '0-1'];
  const base = data.base ? Date.parse(data.base) : NaN;

  // A stored game's row: [id, index, pair, first, second, winner, ending,
  // board, openingPlies, moves, times, durationMs, startOffsetMs, detail, extra?]
  const games = data.games.map((r) => ({
    id: r[0], index: r[1], pair: r[2], first: data.bots[r[3]] ?? '?', second: data.bots[r[4]] ?? '?',
    result: RESULTS[r[5]], ending: data.endings[r[6]], board: data.boards[r[7]], opening: r[8],
    code: r[9], times: r[10], ms: r[11], offset: r[12], detail: r[13], extra: r[14] || {},
    plies: r[10].length,
  }));
  const byId = new Map(games.map((g) => [g.id, g]));

  // The game as the viewer takes it (replay_game_json() in html_report.hpp).
  function expand(g) {
    const w = g.board.w, moves = [];
    const info = g.extra.i || {}, bad = g.extra.x || {};
    for (let k = 0; k < g.plies; k++) {
      const code = g.code.substr(k * w, w);
      let m = null, text;
      if (code[0] === '.') {
        m = -1; text = 'pass';
      } else if (code[0] !== '!') {
        m = 0;
        for (const ch of code) m = m * 64 + ALPHABET.indexOf(ch);
      }
      const ply = k + 1;
      if (m === null) text = bad[ply] ?? '?';
      else if (m !== -1) text = notation(g.board, m);
      const t = g.times[k];
      // Sides alternate, passes included, unless the data says otherwise.
      const side = g.extra.s ? Number(g.extra.s[k]) : k % 2 === 0 ? 1 : 2;
      moves.push({ m, text, side, us: t < 0 ? null : t * 10, info: info[ply] || '' });
    }
    return {
      id: g.id, index: g.index, first: g.first, second: g.second, game: g.board.game,
      params: g.board.params, board: g.board, moves, result: g.result, termination: g.ending,
      detail: g.detail, logs: g.extra.l || ['', ''],
    };
  }

  function notation(board, m) {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    if (board.game === 'connect4') return String(m + 1);
    if (board.game === 'gomoku') return letters[m % board.size] + String(Math.floor(m / board.size) + 1);
    return letters[m % 8] + String(Math.floor(m / 8) + 1);
  }

  // The game list.
  const table = document.getElementById('game-list');
  const body = table.querySelector('tbody');
  const filter = document.getElementById('game-filter');
  const endingFilter = document.getElementById('ending-filter');
  const count = document.getElementById('game-count');
  const pageInfo = document.getElementById('page-info');
  const prev = document.getElementById('page-prev');
  const next = document.getElementById('page-next');
  let shown = games, page = 0, sortKey = 'index', sortDir = 1, openId = null;

  const keyOf = {
    id: (g) => g.id, index: (g) => g.index, first: (g) => g.first, second: (g) => g.second,
    result: (g) => g.result, ending: (g) => g.ending, plies: (g) => g.plies, seconds: (g) => g.ms,
    detail: (g) => g.detail,
  };

  function refresh() {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const ending = endingFilter.value;
    shown = games.filter((g) => {
      if (ending && g.ending !== ending) return false;
      if (!words.length) return true;
      const hay = [g.id, g.first, g.second, g.result, g.ending, g.detail].join(' ').toLowerCase();
      return words.every((w) => hay.includes(w));
    });
    const key = keyOf[sortKey];
    shown.sort((a, b) => {
      const x = key(a), y = key(b);
      return (x < y ? -1 : x > y ? 1 : a.index - b.index) * sortDir;
    });
    page = Math.min(page, Math.max(0, Math.ceil(shown.length / PAGE) - 1));
    render();
  }

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = String(text);
    if (cls) td.className = cls;
    tr.append(td);
  }

  function render() {
    body.textContent = '';
    const start = page * PAGE;
    for (const g of shown.slice(start, start + PAGE)) {
      const tr = document.createElement('tr');
      tr.dataset.id = g.id;
      if (g.id === openId) tr.className = 'open';
      cell(tr, g.id);
      cell(tr, g.first, 'name');
      cell(tr, g.second, 'name');
      cell(tr, g.result);
      cell(tr, g.ending, g.ending === 'normal' ? '' : 'fault');
      cell(tr, g.plies);
      cell(tr, (g.ms / 1000).toFixed(2));
      cell(tr, g.detail, 'detail');
      tr.addEventListener('click', () => { location.hash = 'game-' + g.id; });
      body.append(tr);
    }
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    count.textContent = shown.length + ' of ' + games.length + ' games';
    pageInfo.textContent = 'page ' + (page + 1) + ' of ' + pages;
    prev.disabled = page === 0;
    next.disabled = page + 1 >= pages;
    table.querySelectorAll('th[data-key]').forEach((th) => {
      th.classList.toggle('sorted-asc', th.dataset.key === sortKey && sortDir === 1);
      th.classList.toggle('sorted-desc', th.dataset.key === sortKey && sortDir === -1);
    });
  }

  table.querySelectorAll('th[data-key]').forEach((th) => {
    th.addEventListener('click', () => {
      if (sortKey === th.dataset.key) sortDir = -sortDir; else { sortKey = th.dataset.key; sortDir = 1; }
      refresh();
    });
  });
  filter.addEventListener('input', () => { page = 0; refresh(); });
  endingFilter.addEventListener('change', () => { page = 0; refresh(); });
  prev.addEventListener('click', () => { page = Math.max(0, page - 1); render(); });
  next.addEventListener('click', () => { page += 1; render(); });

  // The replay viewer, above the list.
  const panel = document.getElementById('replay');
  const viewer = new window.ArenaReplay.Viewer(panel, {
    onClose() {
      panel.hidden = true;
      openId = null;
      history.replaceState(null, '', location.pathname + location.search + '#games');
      render();
    },
  });

  function openFromHash() {
    const m = /^#game-(\d+)$/.exec(location.hash);
    if (!m) return;
    const g = byId.get(Number(m[1]));
    if (!g) return;
    openId = g.id;
    viewer.show(expand(g));
    const t = Number.isFinite(base) ? new Date(base + g.offset).toISOString() : '';
    if (t) panel.querySelector('.rv-meta').textContent += ' · started ' + t;
    render();
    panel.scrollIntoView({ block: 'start' });
  }

  window.addEventListener('hashchange', openFromHash);
  refresh();
  openFromHash();
  // When the list was ready, for scripts/bench.
  window.arenaReport = { games, expand, viewer, readyMs: performance.now() };
})();
