// The arena's replay viewer: one viewer for the games of every board.
//
//   const viewer = new ArenaReplay.Viewer(element, {onClose});
//   viewer.show(game);   // game: as replay_game_json() (arena/report/html_report.hpp)
//
// It draws Connect-4 (any size, blocked cells), Gomoku (any size) and
// Reversi (passes), replaying the moves with the game's rules. Every string
// from the game (names, moves, info lines, stderr) is set as text, never as
// markup. Keys: left/right arrow step, Home/End jump, space plays/pauses.
(function () {
  'use strict';
  const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
  const SYMBOL = ['.', 'X', 'O', '#'];

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // The rules of one board: its cells in display order (x from the left, y
  // from the top), the start, and moves applied to a position (an array of
  // 0 empty, 1, 2, 3 blocked). apply() returns the cell placed and the
  // cells flipped, or null when the move cannot be played.
  function rulesOf(board) {
    if (board.game === 'connect4') {
      const rows = board.rows, cols = board.cols;
      const blocked = new Set((board.blocked || []).map(([c, r]) => r * cols + c));
      return {
        width: cols, height: rows,
        cell: (x, y) => (rows - 1 - y) * cols + x,
        xLabel: (x) => String(x + 1), yLabel: (y) => String(rows - y),
        start() { const p = new Uint8Array(rows * cols); blocked.forEach((i) => { p[i] = 3; }); return p; },
        apply(p, m, side) {
          if (m === null || m < 0 || m >= cols) return null;
          for (let r = 0; r < rows; r++) {
            const i = r * cols + m;
            if (p[i] === 0) { p[i] = side; return { at: i, flips: [] }; }
          }
          return null;
        },
      };
    }
    if (board.game === 'gomoku') {
      const n = board.size;
      return {
        width: n, height: n,
        cell: (x, y) => (n - 1 - y) * n + x,
        xLabel: (x) => LETTERS[x], yLabel: (y) => String(n - y),
        start() { return new Uint8Array(n * n); },
        apply(p, m, side) {
          if (m === null || m < 0 || m >= n * n || p[m] !== 0) return null;
          p[m] = side;
          return { at: m, flips: [] };
        },
      };
    }
    if (board.game === 'reversi') {
      const dirs = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
      return {
        width: 8, height: 8,
        cell: (x, y) => y * 8 + x,
        xLabel: (x) => LETTERS[x], yLabel: (y) => String(y + 1),
        start() {
          const p = new Uint8Array(64);
          p[3 * 8 + 3] = 2; p[4 * 8 + 4] = 2; p[4 * 8 + 3] = 1; p[3 * 8 + 4] = 1;
          return p;
        },
        apply(p, m, side) {
          if (m === -1) return { at: -1, flips: [] };
          if (m === null || m < 0 || m >= 64 || p[m] !== 0) return null;
          const col = m % 8, row = (m - col) / 8, flips = [];
          for (const [dc, dr] of dirs) {
            const line = [];
            let c = col + dc, r = row + dr;
            while (c >= 0 && c < 8 && r >= 0 && r < 8 && p[r * 8 + c] === 3 - side) {
              line.push(r * 8 + c); c += dc; r += dr;
            }
            if (line.length && c >= 0 && c < 8 && r >= 0 && r < 8 && p[r * 8 + c] === side) flips.push(...line);
          }
          if (!flips.length) return null;
          p[m] = side;
          for (const i of flips) p[i] = side;
          return { at: m, flips };
        },
      };
    }
    throw new Error('unknown game ' + board.game);
  }

  function msText(us) {
    if (us === null || us === undefined) return 'by the arena';
    const ms = us / 1000;
    return (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2)) + ' ms';
  }

  function resultText(game) {
    const r = game.result;
    if (r === '1-0') return game.first + ' won (1-0)';
    if (r === '0-1') return game.second + ' won (0-1)';
    return 'draw (½-½)';
  }

  class Viewer {
    constructor(root, options) {
      this.root = root;
      this.options = options || {};
      this.timer = null;
      this.onKey = this.onKey.bind(this);
      document.addEventListener('keydown', this.onKey);
    }

    show(game) {
      this.stop();
      this.game = game;
      this.rules = rulesOf(game.board);
      // Every position from the start to the end, with the cell each move
      // placed and the cells it flipped.
      const positions = [this.rules.start()];
      const placed = [null];
      this.broken = -1;  // first ply that does not replay
      for (let k = 0; k < game.moves.length; k++) {
        const p = positions[k].slice();
        const mv = game.moves[k];
        const done = this.broken < 0 ? this.rules.apply(p, mv.m, mv.side) : null;
        if (!done && this.broken < 0) this.broken = k + 1;
        positions.push(p);
        placed.push(done);
      }
      this.positions = positions;
      this.placed = placed;
      this.build();
      this.go(game.moves.length);
      this.root.hidden = false;
    }

    build() {
      const g = this.game, root = this.root;
      root.textContent = '';
      root.classList.add('rv');
      const head = el('div', 'rv-head');
      const title = el('h3', null);
      title.append(el('span', null, 'Game ' + g.id + ': '), el('span', 'dot p1'), el('span', 'rv-first', g.first),
        el('span', null, ' vs '), el('span', 'dot p2'), el('span', 'rv-second', g.second));
      head.append(title);
      if (this.options.onClose) {
        const close = el('button', 'rv-close', 'close ✕');
        close.type = 'button';
        close.addEventListener('click', () => { this.stop(); this.options.onClose(); });
        head.append(close);
      }
      const meta = el('p', 'rv-meta', [g.game + ' ' + g.params,
        resultText(g), g.termination + (g.detail ? ': ' + g.detail : '')].join(' · '));
      root.append(head, meta);
      root.classList.remove('connect4', 'gomoku', 'reversi');
      root.classList.add(g.board.game);

      const main = el('div', 'rv-main');
      const left = el('div', 'rv-left');
      const board = el('div', 'rv-board ' + g.board.game);
      const r = this.rules;
      const cellPx = Math.max(18, Math.min(52, Math.floor(460 / Math.max(r.width, r.height))));
      board.style.setProperty('--cell', cellPx + 'px');
      board.style.gridTemplateColumns = '22px repeat(' + r.width + ', ' + cellPx + 'px)';
      this.cells = new Array(r.width * r.height);
      for (let y = 0; y < r.height; y++) {
        board.append(el('div', 'lbl', r.yLabel(y)));
        for (let x = 0; x < r.width; x++) {
          const c = el('div', 'cell');
          c.dataset.x = x;
          c.dataset.row = r.yLabel(y);
          c.dataset.col = r.xLabel(x);
          c.append(el('span', 'stone'));
          const i = r.cell(x, y);
          this.cells[i] = c;
        }
        for (let x = 0; x < r.width; x++) board.append(this.cells[r.cell(x, y)]);
      }
      board.append(el('div', 'lbl', ''));
      for (let x = 0; x < r.width; x++) board.append(el('div', 'lbl', r.xLabel(x)));
      left.append(board);

      const controls = el('div', 'rv-controls');
      const button = (text, label, fn) => {
        const b = el('button', null, text);
        b.type = 'button';
        b.title = label;
        b.setAttribute('aria-label', label);
        b.addEventListener('click', fn);
        controls.append(b);
        return b;
      };
      button('|◀', 'first position (Home)', () => this.go(0));
      button('◀', 'previous move (left arrow)', () => this.go(this.ply - 1));
      this.playButton = button('▶ play', 'play or pause (space)', () => this.toggle());
      button('▶', 'next move (right arrow)', () => this.go(this.ply + 1));
      button('▶|', 'last position (End)', () => this.go(g.moves.length));
      this.slider = el('input', 'rv-slider');
      this.slider.type = 'range';
      this.slider.min = 0;
      this.slider.max = g.moves.length;
      this.slider.setAttribute('aria-label', 'ply');
      this.slider.addEventListener('input', () => this.go(Number(this.slider.value)));
      controls.append(this.slider);
      this.plyLabel = el('span', 'rv-ply');
      controls.append(this.plyLabel);
      left.append(controls);
      this.status = el('div', 'rv-status');
      this.end = el('div', 'rv-end');
      left.append(this.status, this.end);
      main.append(left);

      const side = el('div', 'rv-side');
      this.list = el('ol', 'rv-moves');
      this.list.tabIndex = 0;
      this.items = [];
      g.moves.forEach((mv, k) => {
        const li = el('li');
        const name = mv.side === 1 ? g.first : g.second;
        li.append(el('span', 'n', (k + 1) + '.'), el('span', 'dot p' + mv.side), el('span', 'who', name),
          el('span', 'mv', mv.text), el('span', 't' + (mv.us === null ? ' by-arena' : ''), msText(mv.us)));
        if (mv.info) li.append(el('pre', 'info', mv.info));
        if (mv.m === null || (this.broken > 0 && k + 1 >= this.broken)) li.classList.add('bad');
        li.addEventListener('click', () => this.go(k + 1));
        this.list.append(li);
        this.items.push(li);
      });
      side.append(this.list);
      main.append(side);
      root.append(main);

      const logs = el('div', 'rv-logs');
      [g.first, g.second].forEach((name, k) => {
        // null: a player with no stderr at all (a person): no box.
        if (g.logs && g.logs[k] === null) return;
        const box = el('div');
        box.append(el('h4', null, name + "'s stderr (its end)"));
        const text = g.logs && g.logs[k];
        box.append(el('pre', 'log' + (text ? '' : ' empty'), text || '(nothing on stderr)'));
        logs.append(box);
      });
      root.append(logs);
    }

    go(ply) {
      const g = this.game;
      ply = Math.max(0, Math.min(g.moves.length, ply));
      this.ply = ply;
      const p = this.positions[ply];
      for (let i = 0; i < this.cells.length; i++) {
        const c = this.cells[i];
        c.dataset.v = SYMBOL[p[i]];
        c.classList.remove('last', 'flipped');
      }
      const done = this.placed[ply];
      if (done) {
        if (done.at >= 0) this.cells[done.at].classList.add('last');
        for (const i of done.flips) this.cells[i].classList.add('flipped');
      }
      this.slider.value = ply;
      this.plyLabel.textContent = ply + ' / ' + g.moves.length;
      this.items.forEach((li, k) => li.classList.toggle('current', k + 1 === ply));
      const li = this.items[ply - 1];
      if (li) {
        const top = li.offsetTop - this.list.offsetTop;
        if (top < this.list.scrollTop || top + li.offsetHeight > this.list.scrollTop + this.list.clientHeight)
          this.list.scrollTop = top - this.list.clientHeight / 2;
      }
      if (ply === 0) {
        this.status.textContent = 'start: ' + g.first + ' moves first';
      } else {
        const mv = g.moves[ply - 1];
        this.status.textContent = ply + '. ' + (mv.side === 1 ? g.first : g.second) + ': ' + mv.text +
          (mv.m === -1 ? ' (pass)' : '') + ' — ' + msText(mv.us) +
          (this.broken > 0 && ply >= this.broken ? ' — this move does not replay' : '');
      }
      const over = ply === g.moves.length;
      this.end.textContent = over ? 'End: ' + resultText(g) + ', ' + g.termination + (g.detail ? ': ' + g.detail : '') : '';
      this.end.classList.toggle('fault', over && g.termination !== 'normal');
      if (over) this.stop();
    }

    toggle() { if (this.timer) this.stop(); else this.play(); }

    play() {
      if (this.ply >= this.game.moves.length) this.go(0);
      this.timer = setInterval(() => this.go(this.ply + 1), 450);
      this.playButton.textContent = '❚❚ pause';
    }

    stop() {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      if (this.playButton) this.playButton.textContent = '▶ play';
    }

    onKey(event) {
      if (this.root.hidden || !this.game) return;
      const target = event.target;
      if (target && (target.tagName === 'INPUT' && target.type !== 'range' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
      const keys = { ArrowLeft: () => this.go(this.ply - 1), ArrowRight: () => this.go(this.ply + 1),
        Home: () => this.go(0), End: () => this.go(this.game.moves.length), ' ': () => this.toggle() };
      const act = keys[event.key];
      if (!act) return;
      event.preventDefault();
      act();
    }
  }

  window.ArenaReplay = { Viewer, rulesOf };
})();
