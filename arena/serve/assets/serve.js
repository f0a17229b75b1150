// arena serve's pages: the index of databases and tournaments, a
// tournament's live standings and games, a stored game and a game in
// progress in the replay viewer (replay.js, from arena report), and /play.
// The page's data comes embedded (<script type="application/json"
// id="serve-data">) and then from the JSON API, polled. Every string from
// a database or a bot is set as text, never as markup.
(function () {
  'use strict';
  const node = document.getElementById('serve-data');
  const data = node ? JSON.parse(node.textContent) : {};
  const page = document.body.dataset.page;
  const POLL_MS = 2000;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function link(href, text) {
    const a = el('a', null, text);
    a.href = href;
    return a;
  }

  function cell(row, content, cls) {
    const td = el('td', cls);
    if (content instanceof Node) td.append(content); else td.textContent = content === undefined ? '' : String(content);
    row.append(td);
    return td;
  }

  function table(cls, headers) {
    const t = el('table', cls);
    const head = el('thead');
    const tr = el('tr');
    for (const h of headers) tr.append(el('th', null, h));
    head.append(tr);
    t.append(head, el('tbody'));
    return t;
  }

  async function getJson(url) {
    const r = await fetch(url, { cache: 'no-store' });
    if (!r.ok) throw new Error((await r.text()).trim() || String(r.status));
    return r.json();
  }

  async function postJson(url, body) {
    const r = await fetch(url, {
      method: 'POST', cache: 'no-store', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(answer.error || String(r.status));
    return answer;
  }

  // Calls `fn` every `ms` (after the previous call ended); the live dot in
  // the header says whether the last update worked. `fn` returning false
  // stops the polling.
  function poll(ms, fn) {
    const dot = document.getElementById('live');
    async function tick() {
      let again = true;
      try {
        again = (await fn()) !== false;
        if (dot) { dot.classList.remove('stale'); dot.title = 'updated ' + new Date().toLocaleTimeString(); }
      } catch (e) {
        if (dot) { dot.classList.add('stale'); dot.title = 'update failed: ' + e.message; }
      }
      if (again) setTimeout(tick, ms);
    }
    setTimeout(tick, ms);
  }

  function seconds(us) { return (us / 1e6).toFixed(2); }

  // Games in progress have no game number yet (they get the stored game's
  // id, the number `arena show` takes, when they end): no number is shown.
  function liveTable(games) {
    const t = table('numbers live-games', ['', 'tournament', 'first', 'second', 'plies']);
    const body = t.tBodies[0];
    for (const g of games) {
      const tr = el('tr');
      cell(tr, link('/live/' + g.key, 'watch'), 'name');
      cell(tr, g.tournament, 'name');
      cell(tr, g.first, 'name');
      cell(tr, g.second, 'name');
      cell(tr, g.plies);
      body.append(tr);
    }
    return t;
  }

  // --- the index ---------------------------------------------------------
  function renderIndex(d) {
    const root = document.getElementById('databases');
    root.textContent = '';
    for (const db of d.databases) {
      const box = el('section', 'db');
      box.dataset.db = db.index;
      box.append(el('h2', null, db.file), el('div', 'path', db.path));
      if (db.error) box.append(el('p', 'problem', db.error));
      const t = table('numbers tournaments', ['tournament', 'game', 'games', 'status', 'created']);
      for (const tour of db.tournaments || []) {
        const tr = el('tr');
        cell(tr, link('/t/' + db.index + '/' + tour.id, tour.name), 'name');
        cell(tr, tour.game, 'name');
        const n = cell(tr, tour.games + ' of ' + tour.total);
        n.classList.add('game-count');
        cell(tr, el('span', 'status status-' + tour.status, tour.status), 'name');
        cell(tr, tour.created_at, 'name');
        t.tBodies[0].append(tr);
      }
      if (!(db.tournaments || []).length) box.append(el('p', 'note', 'no tournament yet'));
      else box.append(t);
      root.append(box);
    }
    const live = document.getElementById('live-games');
    if (live) {
      live.textContent = '';
      if (d.live && d.live.length) live.append(el('h2', null, 'Games in progress'), liveTable(d.live));
    }
  }

  // --- a tournament --------------------------------------------------------
  function tournamentPage() {
    let last = 0;
    const rows = document.querySelector('#games tbody');
    const MAX_ROWS = 2000;

    function update(d) {
      const t = d.tournament;
      document.getElementById('game-count').textContent = String(t.games);
      document.getElementById('game-total').textContent = String(t.total);
      const status = document.getElementById('status');
      status.textContent = t.status;
      status.className = 'status status-' + t.status;
      const problem = document.getElementById('problem');
      problem.textContent = t.problem || '';
      const body = document.querySelector('#standings tbody');
      body.textContent = '';
      for (const s of d.standings) {
        const tr = el('tr');
        cell(tr, s.rank);
        cell(tr, s.name, 'name');
        cell(tr, Math.round(s.elo));
        cell(tr, s.games > 0 ? '±' + Math.round(s.error) : '');
        cell(tr, s.games);
        cell(tr, s.wins);
        cell(tr, s.draws);
        cell(tr, s.losses);
        cell(tr, s.games > 0 ? (100 * s.score).toFixed(1) + '%' : '');
        cell(tr, s.faults, 'faults');
        body.append(tr);
      }
      const fresh = last > 0;
      for (const g of d.games) {
        const tr = el('tr', fresh ? 'fresh' : null);
        tr.dataset.id = g.id;
        cell(tr, link('/g/' + data.db + '/' + g.id, g.id));
        cell(tr, g.first, 'name');
        cell(tr, g.second, 'name');
        cell(tr, g.result);
        cell(tr, g.termination, g.termination === 'normal' ? null : 'fault');
        cell(tr, g.plies);
        cell(tr, seconds(g.us));
        cell(tr, g.detail, 'detail');
        rows.insertBefore(tr, rows.firstChild);
        last = Math.max(last, g.id);
      }
      while (rows.children.length > MAX_ROWS) rows.removeChild(rows.lastChild);
      const earlier = document.getElementById('earlier');
      if (d.earlier > 0 && !fresh) earlier.textContent = d.earlier + ' earlier games are in the full report.';
      const live = document.getElementById('live-games');
      if (live) {
        live.textContent = '';
        if (d.live && d.live.length) live.append(el('h2', null, 'Games in progress'), liveTable(d.live));
      }
    }

    update(data.tournament);
    poll(POLL_MS, async () => update(await getJson('/api/t/' + data.db + '/' + data.id + '?since=' + last)));
  }

  // --- a game: stored, or in progress --------------------------------------
  function gamePage() {
    const root = document.getElementById('replay');
    const viewer = new ArenaReplay.Viewer(root);
    viewer.show(data.game);
  }

  function liveGamePage() {
    const root = document.getElementById('replay');
    const viewer = new ArenaReplay.Viewer(root);
    const status = document.getElementById('game-status');
    let version = -1;
    function update(d) {
      if (d.version === version) return d.over !== true;
      version = d.version;
      root.parentElement.classList.toggle('live-game', !d.over);
      d.game.id = d.stored ? d.stored.game : '(in progress)';
      viewer.show(d.game);
      const number = document.getElementById('game-number');
      if (number && d.stored) {
        number.textContent = '';
        number.append(link('/g/' + d.stored.db + '/' + d.stored.game, 'game ' + d.stored.game));
      }
      status.textContent = d.over ? 'This game has ended' + (d.stored ? '' : '.')
        : 'In progress: ' + d.game.moves.length + ' plies so far';
      if (d.over && d.stored) {
        status.textContent = 'This game has ended: ';
        status.append(link('/g/' + d.stored.db + '/' + d.stored.game, 'game ' + d.stored.game));
      }
      return !d.over;
    }
    update(data.live);
    poll(500, async () => {
      try {
        return update(await getJson('/api/live/' + data.key));
      } catch (e) {
        status.textContent = 'This game is no longer in progress.';
        return false;
      }
    });
  }

  // The colours the board draws each side in.
  const COLOURS = { connect4: ['', 'red', 'yellow'], gomoku: ['', 'black', 'white'], reversi: ['', 'black', 'white'] };
  function colour(game, side) { return (COLOURS[game] || ['', 'first', 'second'])[side]; }

  // --- /play: the choice ---------------------------------------------------
  function playForm() {
    const c = data.choices;
    const form = document.getElementById('play-form');
    const problem = document.getElementById('play-problem');
    const game = form.querySelector('[name=game]');
    const options = document.getElementById('board-options');
    const bot = form.querySelector('[name=bot]');
    const moveMs = form.querySelector('[name=move_ms]');
    moveMs.min = c.move_ms.min;
    moveMs.max = c.move_ms.max;
    moveMs.value = c.move_ms.default;

    function number(spec) {
      const name = spec.name;
      const label = el('label', null, name + ' ');
      const input = el('input');
      input.type = 'number';
      input.name = name;
      input.min = spec.min;
      input.max = spec.max;
      input.value = spec.default;
      label.append(input);
      return label;
    }
    function choice(spec) {
      const name = spec.name, values = spec.values;
      const label = el('label', null, name + ' ');
      const select = el('select');
      select.name = name;
      for (const v of values) select.append(new Option(v, v));
      label.append(select);
      return label;
    }

    const color = form.querySelector('[name=color]');
    const checking = document.getElementById('checking');
    // The bots that play game `g` (those still being tried are not offered yet).
    function bots() {
      const g = game.value;
      const previous = bot.value;
      bot.textContent = '';
      for (const b of c.bots) if (b.games.includes(g)) bot.append(new Option(b.label, b.key));
      if ([...bot.options].some((o) => o.value === previous)) bot.value = previous;
      const pending = c.bots.filter((b) => b.checking).length;
      checking.hidden = pending === 0;
      checking.textContent = pending ? 'Trying ' + pending + (pending === 1 ? ' bot' : ' bots') + ' to see which games they play…' : '';
      document.getElementById('no-bot').hidden = bot.options.length > 0 || pending > 0;
      form.querySelector('button.start').disabled = bot.options.length === 0;
    }
    function refresh() {
      const g = game.value;
      options.textContent = '';
      const specs = c.games[g] || [];
      for (const s of specs) options.append(s.values ? choice(s) : number(s));
      if (!specs.length) options.append(el('span', 'note', '8 × 8'));
      color.options[0].textContent = 'first (' + colour(g, 1) + ')';
      color.options[1].textContent = 'second (' + colour(g, 2) + ')';
      bots();
    }
    for (const g of Object.keys(c.games)) game.append(new Option(g, g));
    game.addEventListener('change', refresh);
    refresh();
    // While bots are being tried, the list follows.
    if (c.bots.some((b) => b.checking)) {
      poll(1000, async () => {
        const fresh = await getJson('/api/play');
        c.bots = fresh.bots;
        bots();
        return c.bots.some((b) => b.checking);
      });
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      problem.textContent = '';
      const params = {};
      for (const input of options.querySelectorAll('input, select')) params[input.name] = input.value;
      if (params.variant === 'tsinghua') { delete params.rows; delete params.cols; delete params.connect; }
      if (params.variant === 'standard') delete params.variant;
      try {
        const answer = await postJson('/api/play', {
          game: game.value, params, bot: bot.value, color: form.querySelector('[name=color]').value,
          move_ms: Number(moveMs.value),
        });
        window.location.href = '/play/' + answer.id;
      } catch (e) {
        problem.textContent = e.message;
      }
    });
  }

  // --- /play/ID: the game --------------------------------------------------
  function playGame() {
    const id = data.id;
    const wrap = document.getElementById('play-board');
    const root = document.getElementById('replay');
    const viewer = new ArenaReplay.Viewer(root);
    const status = document.getElementById('play-status');
    const refused = document.getElementById('play-refused');
    const stored = document.getElementById('play-stored');
    const leave = document.getElementById('play-leave');
    let current = null, version = -1, sending = false, over = false;

    function moveText(c) {
      return current.game.board.game === 'connect4' ? c.dataset.col : c.dataset.col + c.dataset.row;
    }

    function render(s) {
      if (s.version === version) return;
      version = s.version;
      current = s;
      over = ['over', 'left', 'failed'].includes(s.phase);
      const g = s.game;
      g.id = over && s.stored ? s.stored.game : '(in play)';
      wrap.classList.toggle('live-game', !over || s.phase !== 'over');
      viewer.show(g);
      const mine = s.phase === 'your-move';
      wrap.classList.toggle('clickable', mine);
      wrap.classList.toggle('connect4', g.board.game === 'connect4');
      const legal = new Set(s.legal || []);
      for (const c of root.querySelectorAll('.rv-board .cell')) c.classList.toggle('legal', mine && legal.has(moveText(c)));
      status.dataset.phase = s.phase;
      status.className = 'play-status ' + s.phase;
      const you = 'you play ' + colour(g.board.game, s.you) + (s.you === 1 ? ', first' : ', second');
      if (s.phase === 'starting') status.textContent = 'Starting ' + s.bot + '…';
      else if (mine) status.textContent = 'Your move (' + you + '): click a ' + (g.board.game === 'connect4' ? 'column' : 'cell');
      else if (s.phase === 'bot-thinking') status.textContent = s.bot + ' is thinking (at most ' + s.move_ms + ' ms)…';
      else if (s.phase === 'left') status.textContent = 'You left this game; it is not a result and was not stored.';
      else if (s.phase === 'failed') { status.textContent = 'The game could not be played (not a result, not stored): ' + s.failure; status.classList.add('problem'); }
      else if (s.result) {
        const r = s.result;
        const who = r.winner === 0 ? 'A draw' : r.winner === s.you ? 'You win' : s.bot + ' wins';
        status.textContent = who + ' (' + r.score + ', ' + r.termination + (r.detail ? ': ' + r.detail : '') + ')';
      }
      status.dataset.result = s.result ? s.result.score : '';
      refused.textContent = s.refused ? 'Refused: ' + s.refused + '. Choose another move.' : '';
      stored.textContent = '';
      if (s.stored) {
        stored.append('Stored as game ' + s.stored.game + ' of tournament ' + s.stored.tournament + '. ');
        if (s.stored.link) stored.append(link(s.stored.link, 'Its replay'));
        stored.dataset.game = s.stored.game;
      } else if (s.store_problem) {
        stored.textContent = 'Not stored: ' + s.store_problem;
      }
      leave.hidden = over;
    }

    async function refresh() {
      render(await getJson('/api/play/' + id));
      return !over;
    }

    root.addEventListener('click', async (event) => {
      const c = event.target.closest('.rv-board .cell');
      if (!c || !current || current.phase !== 'your-move' || sending) return;
      sending = true;
      try {
        await postJson('/api/play/' + id + '/move', { move: moveText(c) });
      } catch (e) {
        refused.textContent = e.message;
      } finally {
        sending = false;
      }
      refresh().catch(() => {});
    });
    leave.addEventListener('click', async () => {
      await postJson('/api/play/' + id + '/leave', {}).catch(() => {});
      refresh().catch(() => {});
    });
    // The page going away ends the game (the server's idle timeout does too).
    window.addEventListener('pagehide', () => {
      if (over) return;
      fetch('/api/play/' + id + '/leave', {
        method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' }, body: '{}',
      }).catch(() => {});
    });
    render(data.state);
    poll(300, refresh);
  }


  // --- a league (arena serve --league): sign in, a participant's page, the organiser's
  function leagueNote(league) {
    const note = document.getElementById('league-note');
    if (!note || !league) return;
    const parts = ['League ' + league.name + ' (' + league.game + ').'];
    if (league.closed) parts.push(league.closed + '.');
    else if (league.closes) parts.push('Uploads close at ' + league.closes + '.');
    if (league.uploads_per_hour) parts.push('At most ' + league.uploads_per_hour + ' uploads an hour.');
    if (league.tournament) parts.push('');
    note.textContent = parts.join(' ');
    if (league.tournament) note.append(link('/t/' + league.tournament.db + '/' + league.tournament.id, 'The standings'));
  }

  async function leagueFetch(url, options) {
    const r = await fetch(url, Object.assign({ cache: 'no-store', credentials: 'same-origin' }, options));
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(answer.error || String(r.status));
    return answer;
  }

  function signInPage() {
    leagueNote(data.league);
    const status = document.getElementById('signin-status');
    const token = document.getElementById('token');
    async function signIn() {
      status.textContent = '';
      try {
        const answer = await leagueFetch('/api/league/signin', {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: token.value.trim() }),
        });
        window.location.assign(answer.next);
      } catch (e) {
        status.textContent = e.message;
      }
    }
    document.getElementById('signin').addEventListener('click', signIn);
    token.addEventListener('keydown', (e) => { if (e.key === 'Enter') signIn(); });
  }

  function versionList(root, versions, showName) {
    root.textContent = '';
    if (!versions.length) { root.append(el('p', 'note', 'No version yet.')); return; }
    for (const v of versions) {
      const box = el('div', 'version version-' + v.status);
      box.dataset.version = v.version;
      const head = el('p', 'version-head');
      head.append(el('strong', null, (showName ? v.participant + ' ' : '') + 'version ' + v.version),
        ' ' + v.file + ' (' + v.kind + ', ' + v.bytes + ' bytes), uploaded ' + v.uploaded_at + ': ',
        el('span', 'version-status', v.status === 'checking' ? 'being checked…' : v.status));
      box.append(head);
      if (v.message) box.append(el('p', 'version-message', v.message));
      if (v.log) {
        const details = el('details', 'check-log');
        // The newest version's failing log is open; older ones stay shut.
        details.open = v.status === 'failed' && v === versions[0];
        details.append(el('summary', null, 'check log'), el('pre', null, v.log));
        box.append(details);
      }
      root.append(box);
    }
  }

  function mePage() {
    const name = data.user.name;
    const csrf = data.csrf;
    const status = document.getElementById('upload-status');
    const games = document.querySelector('#my-games tbody');
    const versions = document.getElementById('versions');
    // Below the games table: why it is empty, when it is.
    const none = el('p', 'note no-games');
    games.closest('table').after(none);
    let shown = '';
    let sent = 0;  // the version uploaded from this page whose check is awaited
    function base(bot) { return bot.split('@')[0]; }
    function noGames(d) {
      const play = d.league.play || {};
      none.textContent = play.waiting
        ? 'No game yet (' + play.waiting + '): the league plays once two bots pass their checks.'
        : 'No game of yours yet.';
    }
    async function refresh() {
      const d = await leagueFetch('/api/league/me');
      leagueNote(d.league);
      const key = JSON.stringify(d.versions.map((v) => [v.version, v.status]));
      if (key !== shown) { versionList(versions, d.versions, false); shown = key; }
      const done = d.versions.find((v) => v.version === sent && v.status !== 'checking');
      if (done) {
        const kept = d.versions.find((v) => v.version < done.version && v.status === 'passed');
        status.textContent = 'version ' + done.version + (done.status === 'passed' ? ' passed its check'
          : ' failed its check (its log is below); ' +
            (kept ? 'version ' + kept.version + ' stays in play' : 'no version of yours plays yet'));
        sent = 0;
      }
      if (!d.league.tournament) { games.textContent = ''; noGames(d); return; }
      const t = await getJson('/api/t/' + d.league.tournament.db + '/' + d.league.tournament.id);
      games.textContent = '';
      const mine = t.games.filter((g) => base(g.first) === name || base(g.second) === name).reverse();
      if (mine.length) none.textContent = ''; else noGames(d);
      for (const g of mine.slice(0, 500)) {
        const tr = el('tr');
        cell(tr, link('/me/g/' + g.id, g.id));
        cell(tr, g.first, 'name');
        cell(tr, g.second, 'name');
        cell(tr, g.result);
        cell(tr, g.termination, g.termination === 'normal' ? null : 'fault');
        cell(tr, g.plies);
        games.append(tr);
      }
    }
    document.getElementById('upload-send').addEventListener('click', async () => {
      const file = document.getElementById('upload-file').files[0];
      if (!file) { status.textContent = 'choose a file first'; return; }
      status.textContent = 'uploading ' + file.name + '…';
      try {
        const answer = await leagueFetch('/api/league/upload?name=' + encodeURIComponent(file.name), {
          method: 'POST', headers: { 'Content-Type': 'application/octet-stream', 'X-CSRF-Token': csrf },
          body: file,
        });
        status.textContent = answer.message;
        sent = answer.version;
      } catch (e) {
        status.textContent = 'refused: ' + e.message;
      }
      refresh().catch(() => {});
    });
    document.getElementById('signout').addEventListener('click', async () => {
      await leagueFetch('/api/league/signout', { method: 'POST', headers: { 'X-CSRF-Token': csrf } }).catch(() => {});
      window.location.assign('/league');
    });
    versionList(versions, data.versions, false);
    leagueNote(data.league);
    refresh().catch(() => {});
    poll(POLL_MS, refresh);
  }

  function organiserPage() {
    function render(d) {
      leagueNote(d.league);
      versionList(document.getElementById('versions'), d.versions, true);
      const root = document.getElementById('participants');
      root.textContent = '';
      const t = table('numbers', ['name', 'role', 'added', 'disabled']);
      for (const u of d.users) {
        const tr = el('tr');
        cell(tr, u.name, 'name');
        cell(tr, u.organiser ? 'organiser' : 'participant');
        cell(tr, u.created_at);
        cell(tr, u.disabled_at || '');
        t.tBodies[0].append(tr);
      }
      root.append(t);
    }
    render(data);
    poll(POLL_MS * 2, async () => render(await getJson('/api/league/organiser')));
  }

  const pages = {
    index() { renderIndex(data.index); poll(POLL_MS, async () => renderIndex(await getJson('/api/index'))); },
    tournament: tournamentPage,
    game: gamePage,
    live: liveGamePage,
    'play-form': playForm,
    play: playGame,
    'league-signin': signInPage,
    me: mePage,
    organiser: organiserPage,
  };
  if (pages[page]) pages[page]();
})();
