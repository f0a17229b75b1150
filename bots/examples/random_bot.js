#!/usr/bin/env node
// A random Connect-4 bot for arena protocol v1 (see protocol/PROTOCOL.md), in
// plain Node.js with no packages: the JavaScript twin of random_bot.py.
//
// It answers the handshake, reads the board size and blocked cells from
// `game`, rebuilds the board from every `position`, answers each `go` with a
// random playable column, writes every line at once, ignores what it does not
// know, and exits on `quit` or end of input.
//
// Usage: node random_bot.js [--seed N]
// Try it: printf 'arena 1\ngame connect4 player=1 rows=6 cols=7 connect=4 move_ms=100\n'\
// 'position 4 4\ngo move_ms=100\nquit\n' | node random_bot.js
'use strict';
const fs = require('fs');
const readline = require('readline');

// Writes one protocol line, at once: fs.writeSync returns when the line is in
// the pipe. process.stdout.write is asynchronous on a pipe (Node's docs, "A
// note on process I/O"): a line may wait in a queue, and one still queued
// when the process exits is lost.
function send(line) {
  fs.writeSync(1, line + '\n');
}

// Standard error goes to the bot's log; stdout is for protocol lines only.
function fail(message) {
  fs.writeSync(2, 'random_bot.js: ' + message + '\n');
  process.exit(2);
}

// A small seeded generator (mulberry32): Math.random cannot be seeded, and a
// seed makes games repeatable. Returns a function giving numbers in [0, 1).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Row (1 = bottom) where a piece dropped into `col` lands: the lowest cell
// that is neither occupied nor blocked (blocked cells are skipped); 0 when
// the column is full. `filled` holds "col:row" strings.
function drop(filled, rows, col) {
  for (let row = 1; row <= rows; row++) {
    if (!filled.has(col + ':' + row)) return row;
  }
  return 0;
}

function main() {
  const argv = process.argv.slice(2);
  let seed = Date.now();
  if (argv.length === 2 && argv[0] === '--seed' && /^-?\d+$/.test(argv[1])) {
    seed = Number(argv[1]);
  } else if (argv.length !== 0) {
    fail('usage: node random_bot.js [--seed N]');
  }
  const random = generator(seed);

  let rows = 0;
  let cols = 0;
  let blocked = [];         // "col:row" cells, 1-based, row 1 at the bottom
  let filled = new Set();   // blocked cells plus every piece played so far

  // One command per line; 'close' comes at end of input.
  const input = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
  input.on('line', (line) => {
    const words = line.trim().split(/\s+/);
    if (words[0] === '') return;
    const command = words[0];
    const args = words.slice(1);
    // key=value words, e.g. {rows: '6', cols: '7', move_ms: '100'}
    const keys = {};
    for (const word of args) {
      const eq = word.indexOf('=');
      if (eq > 0) keys[word.slice(0, eq)] = word.slice(eq + 1);
    }

    if (command === 'arena') {  // handshake: introduce ourselves, then `ready`
      if (args[0] !== '1') fail('unsupported protocol version ' + args.join(' '));
      send('name random_bot.js');
      send('author arena examples');
      send('version 1');
      send('ready');
    } else if (command === 'game') {  // a new game: read the rules, forget the old board
      if (args[0] !== 'connect4') fail('cannot play ' + JSON.stringify(line));
      rows = Number(keys.rows);
      cols = Number(keys.cols);
      // blocked=4:1,6:3 -> ['4:1', '6:3']; absent when no cell is blocked
      blocked = (keys.blocked || '').split(',').filter((cell) => cell !== '');
      filled = new Set(blocked);
      // keys.move_ms is the time per move; a random bot needs no time.
    } else if (command === 'position') {  // every move since the start, both players
      filled = new Set(blocked);
      for (const move of args) {
        const col = Number(move);
        const row = drop(filled, rows, col);
        if (row === 0) fail('column ' + col + ' is full in ' + JSON.stringify(line));
        filled.add(col + ':' + row);
      }
    } else if (command === 'go') {  // our turn: optional `info` lines, then one `move`
      const playable = [];
      for (let col = 1; col <= cols; col++) {
        if (drop(filled, rows, col) !== 0) playable.push(col);
      }
      if (playable.length === 0) fail('asked to move on a full board');
      send('info ' + playable.length + ' playable columns');
      send('move ' + playable[Math.floor(random() * playable.length)]);
    } else if (command === 'quit') {
      process.exit(0);
    }
    // Anything else (`end`, or a command added in a later revision of the
    // protocol) needs no answer and is ignored.
  });
  input.on('close', () => process.exit(0));  // end of input: the arena has gone
}

main();
