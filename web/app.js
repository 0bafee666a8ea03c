// The browser board: a plain protocol client of the engine over the
// WebSocket at /ws (one text message per protocol line, see
// protocol/SPEC.md). It keeps the game as a `position startpos moves ...`
// list, as any GUI does, and asks the engine for everything the rules
// decide: `show` for the state, `legal` for the steps a person may take,
// `go` for the engine's reply, `hint` and `eval` for advice.
'use strict';

// The person's side and the engine's, from the settings (`side`): White,
// Black, or neither (watch: the engine plays both).
let HUMAN = 'w';
let ENGINE = 'b';
let WATCH = false;
const params = new URLSearchParams(location.search);

// The player's own settings, kept in the browser across games and reloads.
const PREFS_KEY = 'gulbara.prefs';
const GAME_KEY = 'gulbara.game';
const prefs = Object.assign(
  { side: 'w', starts: 'throw', numbering: 'board', autoForced: false, autoBearoff: false, anim: 350, reviewPly: '', variant: 'gulbara' },
  (() => {
    try {
      return JSON.parse(localStorage.getItem(PREFS_KEY) || '{}') || {};
    } catch {
      return {};
    }
  })(),
);
// The address may set some for this visit: ?anim=N (milliseconds between
// the steps of the engine's reply), ?start=you (no opening throw),
// ?saved=off (do not take up the game kept from the last visit), and
// ?keepalive=MS (the keep-alive's period; tests shorten it).
const visit = {};
if (params.has('anim')) visit.anim = Math.max(0, Number(params.get('anim')) || 0);
if (params.get('start') === 'you') visit.starts = 'you';
if (['w', 'b', 'watch'].includes(params.get('side'))) visit.side = params.get('side');
/** A setting: this visit's from the address, else the player's. */
const pref = (name) => visit[name] ?? prefs[name];

/** Takes the sides from the settings (at each new game). */
function takeSides() {
  const side = pref('side');
  WATCH = side === 'watch';
  HUMAN = side === 'b' ? 'b' : 'w';
  ENGINE = other(HUMAN);
}
const RESTORE = params.get('saved') !== 'off';
// ?seed=N: the dice not typed come from a seeded generator (to replay a
// game's dice), else from Math.random.
const random = (() => {
  if (!params.has('seed')) return Math.random;
  let a = Number(params.get('seed')) >>> 0;
  return () => {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
/** The person has played here: on a phone, the line saying what the site
 *  is gives its room to the board from then on. */
function markPlayed() {
  document.body.classList.add('played');
  if (!prefs.played) {
    prefs.played = true;
    savePrefs();
  }
}

function savePrefs() {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // A browser without storage keeps the settings for this visit only.
  }
}

// Everything that would reach the console as an error is also kept here,
// so the browser tests can require that there is none.
const pageErrors = [];
window.addEventListener('error', (ev) => pageErrors.push(`error: ${ev.message || ev.target?.src || ev.type}`), true);
window.addEventListener('unhandledrejection', (ev) => pageErrors.push(`unhandled: ${ev.reason}`));
document.addEventListener('securitypolicyviolation', (ev) => pageErrors.push(`csp: ${ev.violatedDirective} ${ev.blockedURI}`));
const consoleError = console.error.bind(console);
console.error = (...args) => {
  pageErrors.push(`console: ${args.join(' ')}`);
  consoleError(...args);
};

const $ = (id) => document.getElementById(id);
const other = (side) => (side === 'w' ? 'b' : 'w');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- protocol

/** The last protocol lines sent (`> `) and received (`< `), for the console and the tests. */
const protocolLog = [];
function remember(line) {
  protocolLog.push(line);
  if (protocolLog.length > 300) protocolLog.shift();
}

/** One protocol session over a WebSocket; requests are answered in order. */
class Engine {
  constructor(url, onUnsolicited, onClose) {
    this.ws = new WebSocket(url);
    this.pending = null;
    this.chain = Promise.resolve();
    this.onUnsolicited = onUnsolicited;
    this.ws.addEventListener('message', (ev) => this.onLine(String(ev.data)));
    this.ws.addEventListener('close', () => {
      if (this.pending) {
        this.pending.reject(new Error('the connection closed'));
        this.pending = null;
      }
      onClose();
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.addEventListener('open', () => resolve());
      this.ws.addEventListener('error', () => reject(new Error('cannot connect')));
    });
  }

  onLine(line) {
    remember(`< ${line}`);
    const p = this.pending;
    if (!p) {
      this.onUnsolicited(line);
      return;
    }
    p.lines.push(line);
    if (p.until(line)) {
      this.pending = null;
      p.resolve(p.lines);
    }
  }

  /** Sends `lines`; resolves with every line received until `until` holds. */
  request(lines, until) {
    const run = () =>
      new Promise((resolve, reject) => {
        if (this.ws.readyState !== WebSocket.OPEN) {
          reject(new Error('not connected'));
          return;
        }
        this.pending = { lines: [], until, resolve, reject };
        for (const l of lines) {
          remember(`> ${l}`);
          this.ws.send(l);
        }
      });
    const p = this.chain.then(run);
    this.chain = p.catch(() => {});
    return p;
  }

  /** A command answered at once: its lines up to the `readyok` after it. */
  async cmd(line) {
    const lines = await this.request([line, 'isready'], (l) => l === 'readyok');
    lines.pop();
    return lines;
  }

  /** One `isready`, answered by one `readyok`. (`cmd('isready')` would send
   *  two and wait for one: the second `readyok` would then end the next
   *  request's answer before its lines came.) */
  ping() {
    return this.request(['isready'], (l) => l === 'readyok');
  }

  /** A search (`go`, `hint`, `eval`): its lines up to `term` or an error. */
  search(line, term) {
    return this.request([line], (l) => l.startsWith(term) || l.startsWith('error '));
  }

  get idle() {
    return this.pending === null;
  }
}

// ------------------------------------------------------------------- rules
// Only what drawing needs: where a step of either side lands in White's
// numbering. Everything else (what is legal, when a stage ends) the
// engine says.

let S = null; // the page's state, set by newState()

/** What the board needs to know of each game, from the engine's variant
 *  table (`variants`, asked once on connect): its name (`display`), which
 *  way the sides run (`direction`), what landing on a lone checker does
 *  (`landing`: blocked, hit or pin), what a double win is called
 *  (`doublewin`), whether doublets escalate, the default cube, whether
 *  gnubg's formats describe it, and its `rules.*` options with their
 *  values and defaults. Filled in place by `loadVariants`. */
const GAMES = {};
/** Each game's name for people, by its protocol name (filled with GAMES). */
const VARIANT_NAMES = {};

/** `variant ...` and `option ...` lines of `variants` into GAMES. */
function parseVariants(lines) {
  const games = {};
  for (const l of lines) {
    const t = l.split(' ');
    if (t[0] === 'variant') {
      const at = t.indexOf('display');
      const g = { name: t.slice(at + 1).join(' '), options: [] };
      for (let i = 2; i < at; i += 2) g[t[i]] = t[i + 1];
      games[t[1]] = g;
    } else if (t[0] === 'option' && games[t[1]]) {
      const o = { key: t[2], type: t[3], default: t[5] };
      if (o.type === 'enum') o.values = t[4].split('|');
      else if (o.type === 'int') [o.lo, o.hi] = t[4].split('..').map(Number);
      games[t[1]].options.push(o);
    }
  }
  return games;
}

/** Asks the engine what its games are (once a connection is open). */
async function loadVariants() {
  const lines = await engine.request(['variants'], (l) => l === 'variantsok' || l.startsWith('error '));
  const games = parseVariants(lines);
  if (!Object.keys(games).length) throw new Error(lines[lines.length - 1] || 'the engine listed no games');
  for (const k of Object.keys(GAMES)) delete GAMES[k];
  Object.assign(GAMES, games);
  for (const k of Object.keys(VARIANT_NAMES)) delete VARIANT_NAMES[k];
  for (const [k, g] of Object.entries(GAMES)) VARIANT_NAMES[k] = g.name;
  // The choice of game, in the engine's order.
  const select = $('variant');
  const chosen = select.value;
  select.replaceChildren(
    ...Object.entries(GAMES).map(([k, g]) => {
      const o = document.createElement('option');
      o.value = k;
      o.textContent = g.name;
      return o;
    }),
  );
  if (GAMES[chosen]) select.value = chosen;
}
const game = () => GAMES[S.variant] || {};
const hitting = () => game().landing === 'hit';
const pinning = () => game().landing === 'pin';
const opposite = () => game().direction === 'opposite';
/** Whether this game calls a double win a gammon (else a mars). */
const gammonGame = () => game().doublewin === 'gammon';
/** Whether doublets escalate in this game (Gul bara). */
const escalating = () => game().escalating === 'yes';

/** The mover's point `q` in White's numbering (NOTATION.md, "Numbering"). */
function toWhite(side, q) {
  if (side === 'w') return q;
  if (opposite()) return 25 - q;
  return q <= 12 ? q + 12 : q - 12;
}

/** A point in White's numbering in `side`'s own numbering. */
function toOwn(side, p) {
  if (side === 'w') return p;
  if (opposite()) return 25 - p;
  return p > 12 ? p - 12 : p + 12;
}

/** Parses position text: 24 counts, side, roll counts, optional fields. */
function parsePosition(text) {
  const toks = text.trim().split(/\s+/);
  const counts = toks[0].split(',').map((c) => Number(c || 0));
  // `pins[p]`: the colour of the checker pinned on White's point p under
  // the other colour's (the pinning games).
  const b = { pts: [0, ...counts], bar: { w: 0, b: 0 }, off: { w: 0, b: 0 }, pins: {} };
  const pos = { board: b, tomove: toks[1], rolls: { w: Number(toks[2]), b: Number(toks[3]) } };
  for (const f of toks.slice(4)) {
    const [k, v] = f.split('=');
    if (k === 'bar') {
      const [w, bl] = v.split(',').map(Number);
      b.bar = { w, b: bl };
    } else if (k === 'pins') {
      for (const p of v.split(',').map(Number)) b.pins[p] = b.pts[p] > 0 ? 'b' : 'w';
    } else if (k === 'chain') pos.chain = Number(v);
    else if (k === 'rem') pos.rem = v;
    else if (k === 'stuck') pos.stuck = Number(v);
  }
  let w = b.bar.w, bl = b.bar.b;
  for (let p = 1; p <= 24; p++) {
    if (b.pts[p] > 0) w += b.pts[p];
    else bl -= b.pts[p];
    if (b.pins[p] === 'w') w++;
    if (b.pins[p] === 'b') bl++;
  }
  b.off = { w: 15 - w, b: 15 - bl };
  return pos;
}

const cloneBoard = (b) => ({ pts: b.pts.slice(), bar: { ...b.bar }, off: { ...b.off }, pins: { ...(b.pins || {}) } });
const pinsKey = (b) => Object.keys(b.pins || {}).sort((x, y) => x - y).map((p) => `${p}${b.pins[p]}`).join(',');
const boardKey = (b) => `${b.pts.slice(1).join(',')} bar ${b.bar.w},${b.bar.b} off ${b.off.w},${b.off.b} pins ${pinsKey(b)}`;

/** The board drawn step by step must be the engine's after the play: a
 *  difference is a bug of this page, reported on the console. */
function checkBoard(drawn, what) {
  if (boardKey(drawn) !== boardKey(S.board)) {
    console.error(`board drawn after ${what} (${boardKey(drawn)}) is not the engine's (${boardKey(S.board)})`);
  }
}
const stripHit = (s) => s.replace(/\*/g, '');

/** Applies one step of `side` (in its numbering) to board `b`; returns
 *  whether it hit. */
function applyStep(b, side, step) {
  const [f, t] = stripHit(step).split('/');
  const sign = side === 'w' ? 1 : -1;
  if (!b.pins) b.pins = {};
  if (f === 'bar') b.bar[side]--;
  else {
    const from = toWhite(side, Number(f));
    b.pts[from] -= sign;
    // The last pinner leaving frees the checker under it.
    if (b.pts[from] === 0 && b.pins[from]) {
      b.pts[from] = b.pins[from] === 'w' ? 1 : -1;
      delete b.pins[from];
    }
  }
  if (t === 'off') {
    b.off[side]++;
    return false;
  }
  const p = toWhite(side, Number(t));
  let hit = false;
  if (b.pts[p] === -sign && pinning()) {
    // A lone opposing checker landed on is pinned under the lander.
    b.pts[p] = 0;
    b.pins[p] = other(side);
  } else if (b.pts[p] === -sign) {
    // The hitting games: it goes to the bar.
    b.pts[p] = 0;
    b.bar[other(side)]++;
    hit = true;
  }
  b.pts[p] += sign;
  return hit;
}

function pips(b) {
  let w = b.bar.w * 25, bl = b.bar.b * 25;
  for (let p = 1; p <= 24; p++) {
    if (b.pts[p] > 0) w += b.pts[p] * p;
    else if (b.pts[p] < 0) bl += -b.pts[p] * toOwn('b', p);
    if (b.pins && b.pins[p] === 'w') w += p;
    if (b.pins && b.pins[p] === 'b') bl += toOwn('b', p);
  }
  return { w, b: bl };
}

/** A step or play token of `side` written in the board's numbering (the
 *  viewer's: White's unless the person plays Black): `13/7*` of Black's in
 *  backgammon is White's `12/18*`. */
function boardToken(side, tok) {
  if (side === viewer()) return tok;
  return tok.replace(/(^|\/)(\d+)/g, (_, pre, n) => `${pre}${toOwn(viewer(), toWhite(side, Number(n)))}`);
}

/** Steps of `side` as the move list shows them: in the board's numbering
 *  (White's) unless the player chose each side's own. */
function shownSteps(side, steps) {
  if (pref('numbering') !== 'board') return steps;
  return steps.map((t) => boardToken(side, t));
}

/** The board after the first `k` turns of the game. */
function boardAfter(k) {
  if (!S.startBoard) return S.board;
  const b = cloneBoard(S.startBoard);
  for (const t of S.turns.slice(0, k)) for (const st of t.steps) applyStep(b, t.side, st);
  return b;
}

/** The last turn of each side up to the first `k` turns (the marks drawn). */
function marksAfter(k) {
  const marks = { w: [], b: [] };
  const seen = { w: false, b: false };
  for (let i = k - 1; i >= 0 && !(seen.w && seen.b); i--) {
    const t = S.turns[i];
    if (t.cube || seen[t.side]) continue;
    seen[t.side] = true;
    marks[t.side] = t.steps.slice();
  }
  return marks;
}

/** Steps through the game: shows the position after `k` turns, read-only;
 *  `null` (or the last position) goes back to the game. */
function setView(k) {
  if (k === null || k >= S.turns.length) S.view = null;
  else S.view = Math.max(0, k);
  S.selected = null;
  if (S.view === null) setStatus(`${S.last}Back to the game.`);
  else setStatus(`Move ${S.view} of ${S.turns.length}, ${S.view ? describeTurn(S.turns[S.view - 1]) : 'the start'} (read-only): ← → to step, Esc to go back to the game.`);
  render();
}

function describeTurn(t) {
  const who = t.side === 'w' ? 'White' : 'Black';
  if (t.cube) {
    const [, offered, word] = t.label.match(/^double=(\d+):(\w+)$/) || [];
    const answerer = t.side === 'w' ? 'Black' : 'White';
    return `${who} doubles to ${offered}: ${answerer} ${word === 'drop' ? 'drops' : word === 'beaver' ? 'beavers' : 'takes'}`;
  }
  if (t.dance) return `${who} ${t.label}: cannot move`;
  return `${who} ${t.label}: ${shownSteps(t.side, t.steps).join(' ') || 'pass'}`;
}

// ------------------------------------------------------------------- state

function newState(variant) {
  return {
    variant,
    keys: [], // parsed `key` lines of the current variant
    moves: [], // the game's move list, as `position startpos moves` takes it
    turns: [], // {side, label: '65' | 'r3x1', steps: []} for the move list and record
    show: null, // the last `show`
    board: null, // what is drawn: show's board plus the steps of the current stage
    legal: [], // the current stage's plays: {steps, norm}
    orders: [], // the same ends, a checker taking the dice the other way round
    playable: 0,
    stage: [], // the person's steps in the current stage (no `*`)
    bounds: [], // stages of this turn already sent: {start, steps}
    floor: 0, // moves before this index can no longer be undone
    passed: false, // the side to move (per show) could not play: the other one acts
    stagePass: false, // the person has nothing to play in this stage
    chainStart: 0,
    phase: 'idle', // idle | roll | move | done | engine | over
    selected: null,
    hints: [],
    cubeHints: null, // the cube actions with their figures, best first: {action, value, kind}
    cubeInfo: null, // the `info cube` of the cube decision at hand, the doubler's view
    last: '',
    cube: { value: 1, owner: 'center' }, // the cube of this game: its owner 'center', 'w' or 'b'
    cubeAsked: false, // the engine was asked about doubling before its coming roll
    offer: 0, // the cube the engine offers while the person decides (phase 'cube')
    anim: null, // the stage of the engine's chain being shown: {die, count, done}
    drop: null, // the side whose double was dropped: the game ended there
    scored: null, // { winner, points } once the game is over and scored
    base: 'startpos', // the position the moves start from, as `position` takes it
    starter: 'w', // who rolled first (from startpos)
    opening: null, // the opening throw {w, b}, when there was one
    byWinner: false, // started by the last game's winner (a rotating match), with no throw
    startBoard: null, // the board before the first move (for stepping through the game)
    marks: { w: [], b: [] }, // each side's last turn, drawn on the board
    view: null, // the position shown while stepping through the game (turns played), or null: the game
    review: null, // the decisions of the game's review
    reviewCube: [], // its cube decisions
    reviewLuck: [], // the luck of each roll
    reviewStats: null, // the figures per side
    reviewPly: null, // the depth it judged at
    reviewPick: null, // the decision picked: {i, cand, play}, the turn drawn
    turnDice: null, // the dice of the person's turn (kept once it is played whole)
    liveEval: null, // the evaluation of the game's position
  };
}

function parseShow(lines) {
  const s = { pending: { kind: 'roll' } };
  for (const l of lines) {
    const [head, ...rest] = l.split(' ');
    if (head === 'position') Object.assign(s, parsePosition(rest.join(' ')));
    else if (head === 'pending') {
      const [k, a, b] = rest;
      if (k === 'roll') s.pending = { kind: 'roll' };
      else if (k === 'dice') s.pending = { kind: 'dice', dice: a, escalating: b === 'escalating' };
      else if (k === 'chain') s.pending = { kind: 'chain', die: Number(a) };
      else if (k === 'remainder') s.pending = { kind: 'remainder', text: a };
    } else if (head === 'result') {
      // `result stuck` or `result draw` (both mothers pinned): no points.
      s.result = rest[0] === 'winner' ? { winner: rest[1], points: Number(rest[3]) } : { stuck: true, draw: rest[0] === 'draw' };
    } else if (head === 'pips') s.pips = { w: Number(rest[1]), b: Number(rest[3]) };
  }
  return s;
}

function parseKey(line) {
  // key <name> <type> [<spec>] <current> <description...>
  const t = line.split(' ');
  const k = { name: t[1], type: t[2] };
  if (k.type === 'enum') {
    k.values = t[3].split('|');
    k.value = t[4];
    k.desc = t.slice(5).join(' ');
  } else if (k.type === 'int') {
    const [lo, hi] = t[3].split('..').map(Number);
    Object.assign(k, { lo, hi, value: t[4], desc: t.slice(5).join(' ') });
  } else {
    k.value = t[3];
    k.desc = t.slice(4).join(' ');
  }
  return k;
}

const keyValue = (name) => S.keys.find((k) => k.name === name)?.value;

// ------------------------------------------------------------- the session

let engine = null;

function setStatus(text) {
  $('status').textContent = text;
}

function onUnsolicited(line) {
  // Notices of the server (idle timeout, shutdown) come without a request.
  if (line.startsWith('error ') || line.startsWith('info string')) setStatus(`Engine: ${line}`);
}

function onClose() {
  $('conn').textContent = 'disconnected';
  $('reconnect').hidden = false;
  setStatus('The connection to the engine closed. Press Reconnect to go on with this game.');
  S.phase = 'idle';
  render();
}

async function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  engine = new Engine(url, onUnsolicited, onClose);
  await engine.opened;
  $('conn').textContent = 'connected';
  $('reconnect').hidden = true;
  const lines = await engine.cmd('ubgi');
  const name = lines.find((l) => l.startsWith('id name '));
  if (name) $('conn').textContent = `connected to ${name.slice(8)}`;
  await loadVariants();
}

/** The `position` line of the game so far. */
function positionLine(moves = S.moves) {
  const base = S.base === 'startpos' && S.starter === 'b' ? 'startpos b' : S.base;
  return `position ${base}${moves.length ? ` moves ${moves.join(' ')}` : ''}`;
}

/** Sends the whole game and reads the state back. */
async function sync() {
  const lines = await engine.cmd(positionLine());
  const err = lines.find((l) => l.startsWith('error '));
  if (err) throw new Error(err);
  S.show = parseShow(await engine.cmd('show'));
  S.board = cloneBoard(S.show.board);
  if (!S.moves.length || !S.startBoard) {
    if (S.moves.length) await startBoardFromEngine();
    else S.startBoard = cloneBoard(S.show.board);
  }
  S.selected = null;
  S.hints = [];
  S.cubeHints = null;
  save();
}

/** The board before any move, from the engine (a loaded game). */
async function startBoardFromEngine() {
  await must(positionLine([]));
  S.startBoard = cloneBoard(parseShow(await engine.cmd('show')).board);
  await must(positionLine());
}

// ------------------------------------------------------------ keeping games
// The game, its session and its settings are kept in the browser after
// every change, and taken up again when the page is loaded.

function save() {
  if (!S || !M || !S.show) return;
  const settings = {};
  for (const k of S.keys) if (k.name.startsWith('rules.') || k.name === 'engine.ply' || k.name === 'engine.eval') settings[k.name] = k.value;
  const kept = {
    variant: S.variant,
    settings,
    session: M,
    side: WATCH ? 'watch' : HUMAN,
    cubeChoice: $('cube').value,
    game: {
      base: S.base,
      starter: S.starter,
      opening: S.opening,
      byWinner: S.byWinner,
      moves: S.moves,
      turns: S.turns,
      cube: S.cube,
      scored: S.scored,
      drop: S.drop,
      crawfordGame: S.crawfordGame,
      passed: S.passed,
      marks: S.marks,
      startBoard: S.startBoard,
      opened: S.phase !== 'opening',
    },
  };
  try {
    localStorage.setItem(GAME_KEY, JSON.stringify(kept));
  } catch {
    // No storage: the game lives as long as the page.
  }
}

/** Takes up the game kept from the last visit; false when there is none. */
async function restore() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(GAME_KEY) || 'null');
  } catch {
    kept = null;
  }
  const g = kept?.game;
  if (!RESTORE || !g || !VARIANT_NAMES[kept.variant] || !Array.isArray(g.moves) || !Array.isArray(g.turns) || !kept.session) return false;
  try {
    M = Object.assign({ rotation: null, game: 0 }, kept.session);
    $('variant').value = kept.variant;
    if (M.rotation) {
      // The rotating match brought back to the game in play: `newsession`
      // starts its first game, each `newgame` the next.
      await must(sessionLine());
      for (let k = 0; k < M.game; k += 1) await must('newgame');
      if (rotationGame() !== kept.variant) throw new Error(`the rotation is not at ${kept.variant}`);
    } else {
      await must(`set game.variant ${kept.variant}`);
    }
    for (const [k, v] of Object.entries(kept.settings || {})) await engine.cmd(`set ${k} ${v}`);
    await loadKeys();
    WATCH = kept.side === 'watch';
    HUMAN = kept.side === 'b' ? 'b' : 'w';
    ENGINE = other(HUMAN);
    showSession();
    $('cube').value = kept.cubeChoice || 'default';
    if (!M.rotation) await must(sessionLine());
    S = Object.assign(newState(kept.variant), { keys: S.keys }, g);
    // Still at the opening throw: kept so by the save in sync.
    if (!g.opened) S.phase = 'opening';
    S.floor = S.moves.length;
    await syncCube();
    await sync();
  } catch (e) {
    localStorage.removeItem(GAME_KEY);
    console.warn(`the kept game could not be taken up: ${e.message}`);
    return false;
  }
  if (!g.opened) {
    S.phase = 'opening';
    setStatus('Your game is back. Throw for the opening: press Roll.');
    render();
    return true;
  }
  S.last = 'Your game is back. ';
  if (S.drop || S.scored) {
    S.phase = 'over';
    setStatus('Your game is back; it is over. Press New game to go on.');
    render();
    return true;
  }
  render();
  await next();
  // Said once, at the first prompt: not before every later one.
  if (S.last === 'Your game is back. ') S.last = '';
  return true;
}

async function loadKeys() {
  S.keys = (await engine.cmd('keys')).filter((l) => l.startsWith('key ')).map(parseKey);
  buildOptions();
}

// ------------------------------------------------------ session and cube
// The session (money games or a match to N points, with or without the
// cube) and its score live on the page across games; the engine is told
// them (`newsession`, `setscore`, `setcube`) before each decision that
// depends on them.

/** The session: money games or a match, the cube, the score. */
let M = null;

function sessionFromSettings() {
  const kind = $('session-kind').value === 'match' ? 'match' : 'money';
  const length = kind === 'match' ? Math.max(1, Math.min(25, Math.round(Number($('match-length').value)) || 5)) : 0;
  // A rotating match (Greek tavli, Bulgarian tabla): its games in turn.
  const list = $('rotation').value.split(',').filter((v) => VARIANT_NAMES[v]);
  const rotation = kind === 'match' && list.length > 1 ? list : null;
  const choice = $('cube').value;
  const first = rotation ? rotation[0] : $('variant').value;
  const cube = choice === 'on' || (choice === 'default' && GAMES[first]?.cube === 'on');
  // `game`: the game in play, counted from 0 (each new game is the next).
  return { kind, length, cube, rotation, game: 0, score: { w: 0, b: 0 }, crawford: false, crawfordPlayed: false, winner: null, lastWinner: null, games: 0 };
}

/** The game of the rotation the session is at (null: not a rotating match). */
function rotationGame() {
  return M && M.rotation ? M.rotation[M.game % M.rotation.length] : null;
}

/** Shows the session controls as the session is (`values`: their values
 *  too, which a new session from the settings leaves as the person is
 *  typing them). */
function showSession(values = true) {
  if (values) {
    $('session-kind').value = M.kind;
    $('match-length').value = String(M.length || 5);
    $('rotation').value = M.rotation ? M.rotation.join(',') : '';
  }
  $('length-label').hidden = M.kind !== 'match';
  $('rotation-label').hidden = M.kind !== 'match';
}

const onOff = (b) => (b ? 'on' : 'off');
const ownerWord = (o) => (o === 'w' ? 'white' : o === 'b' ? 'black' : 'center');
const sideName = (side) => (side === HUMAN ? 'you' : 'the engine');

async function must(line) {
  const lines = await engine.cmd(line);
  const err = lines.find((l) => l.startsWith('error '));
  if (err) throw new Error(err);
  return lines;
}

/** A new session from the settings, and its first game. */
async function newSession() {
  M = sessionFromSettings();
  showSession(false);
  await must(sessionLine());
  // A rotating match's `newsession` has started its first game.
  await newGame(M.rotation !== null);
}

function sessionLine() {
  const rotation = M.rotation ? ` rotation ${M.rotation.join(',')}` : '';
  return M.kind === 'match' ? `newsession type match length ${M.length} cube ${onOff(M.cube)}${rotation}` : `newsession type money cube ${onOff(M.cube)}`;
}

/** Tells the engine the score and the cube of the game. */
async function syncCube() {
  if (M.kind === 'match') await must(`setscore ${M.score.w} ${M.score.b} ${M.crawford ? 'crawford' : 'postcrawford'}`);
  if (M.cube) await must(`setcube value ${S.cube.value} owner ${ownerWord(S.cube.owner)}`);
}

/** Whether `side` may double now (before its roll). */
function mayDouble(side) {
  if (WATCH || !M || !M.cube || M.crawford || M.winner || !S.show || S.show.result || S.drop) return false;
  // Nobody doubles before the game's first roll.
  if (S.show.pending.kind !== 'roll' || S.passed || S.moves.length === 0) return false;
  return S.cube.owner === 'center' || S.cube.owner === side;
}

/** The person doubles: the engine answers with `go cube`. */
async function humanDouble() {
  if (S.phase !== 'roll' || S.view !== null || !mayDouble(HUMAN)) return;
  S.phase = 'idle';
  render();
  await syncCube();
  await must('double');
  setStatus('You double. The engine is thinking…');
  const lines = await engine.search('go cube', 'bestcube');
  const bc = lines.find((l) => l.startsWith('bestcube '));
  if (!bc) throw new Error(lines[lines.length - 1] || 'no bestcube');
  const answer = bc.split(' ')[1];
  const offered = S.cube.value * 2;
  if (answer === 'drop') {
    S.turns.push({ side: HUMAN, label: `double=${offered}:drop`, steps: [], cube: true });
    S.drop = HUMAN;
    await gameOver(HUMAN, S.cube.value, 'The engine drops your double.');
    return;
  }
  await must(answer === 'beaver' ? 'beaver' : 'take');
  S.turns.push({ side: HUMAN, label: `double=${offered}:${answer === 'beaver' ? 'beaver' : 'take'}`, steps: [], cube: true });
  S.cube = { value: answer === 'beaver' ? offered * 2 : offered, owner: ENGINE };
  S.last = answer === 'beaver' ? `The engine beavers: the cube is at ${S.cube.value}. ` : `The engine takes: the cube is at ${offered}. `;
  await next();
}

/** Asks the engine whether it doubles before its roll; true when it does
 *  (the person's answer is then awaited in phase 'cube'). */
async function engineCube() {
  if (S.cubeAsked || !mayDouble(ENGINE)) return false;
  S.cubeAsked = true;
  await syncCube();
  const lines = await engine.search('go cube', 'bestcube');
  const bc = lines.find((l) => l.startsWith('bestcube '));
  if (!bc) throw new Error(lines[lines.length - 1] || 'no bestcube');
  if (bc !== 'bestcube double') return false;
  S.offer = S.cube.value * 2;
  S.phase = 'cube';
  S.cubeInfo = parseCubeInfo(lines.find((l) => l.startsWith('info cube ')));
  S.cubeHints = null;
  setStatus(`The engine doubles to ${S.offer}. Take or drop? (Hint: the figures.)`);
  render();
  // The evaluation of the position now, the engine on roll: not the one
  // from before its double.
  await evaluate();
  return true;
}

/** `info cube [mwc] nodouble <e> doubletake <e> doublepass <e> action <words>`. */
function parseCubeInfo(line) {
  if (!line) return null;
  const t = line.split(' ');
  const val = (k) => Number(t[t.indexOf(k) + 1]);
  const at = t.indexOf('action');
  return { mwc: t.includes('mwc'), nd: val('nodouble'), dt: val('doubletake'), dp: val('doublepass'), action: at >= 0 ? t.slice(at + 1).join(' ') : '' };
}

/** A cube figure in words: match-winning chances as a percentage, else equity. */
function cubeFigure(info, v) {
  return info.mwc ? `${(v * 100).toFixed(2)}%` : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`;
}

/** The cube hint: before the person's roll, double or not; with the
 *  engine's double waiting, take or pass. Cubeful figures from `go cube`,
 *  the person's view, best first, each with its difference from the best. */
async function cubeHint() {
  let rows;
  let info;
  if (S.phase === 'cube') {
    info = S.cubeInfo;
    if (!info) return;
    // The doubler's figures turned to the taker's.
    const mine = (v) => (info.mwc ? 1 - v : -v);
    rows = [
      { action: 'Take', value: mine(info.dt) },
      { action: 'Pass', value: mine(info.dp) },
    ];
  } else {
    await syncCube();
    const lines = await engine.search('go cube', 'bestcube');
    info = parseCubeInfo(lines.find((l) => l.startsWith('info cube ')));
    if (!info) throw new Error(lines[lines.length - 1] || 'no cube figures');
    // Doubling is worth what the answer the opponent should give leaves.
    rows = [
      { action: 'No double', value: info.nd },
      { action: `Double (then ${info.dt <= info.dp ? 'take' : 'pass'})`, value: Math.min(info.dt, info.dp) },
    ];
  }
  rows.sort((a, b) => b.value - a.value);
  S.cubeHints = rows.map((r) => ({ ...r, diff: r.value - rows[0].value, info }));
  render();
}

/** The person's answer to the engine's double. */
async function answer(word) {
  if (S.phase !== 'cube') return;
  const offered = S.offer;
  S.phase = 'idle';
  S.offer = 0;
  S.cubeHints = null;
  S.turns.push({ side: ENGINE, label: `double=${offered}:${word}`, steps: [], cube: true });
  if (word === 'drop') {
    S.drop = ENGINE;
    await gameOver(ENGINE, S.cube.value, 'You drop the double.');
    return;
  }
  S.cube = { value: offered, owner: HUMAN };
  S.last = `You take: the cube is at ${offered}. `;
  render();
  await engineTurn();
}

/** What a win of `kind` points (1, 2 or 3, before the cube) is called in this game. */
function winWords(kind) {
  if (kind === 3) return 'a backgammon';
  if (kind === 2) return gammonGame() ? 'a gammon' : 'a mars';
  return gammonGame() ? 'a single game' : 'an oin (a single game)';
}

/** Scores a finished game for `winner` and says so; the match may be over.
 *  `kind` is the result's own points (single, gammon or mars, backgammon),
 *  when the game was played out. */
async function gameOver(winner, points, why, kind) {
  S.phase = 'over';
  S.scored = { winner, points };
  M.score[winner] += points;
  M.lastWinner = winner;
  M.games += 1;
  const how = kind ? ` ${winWords(kind)}:` : '';
  const winnerWords = WATCH ? `${winner === 'w' ? 'White' : 'Black'} wins` : winner === HUMAN ? 'You win' : 'The engine wins';
  let text = `${why ? `${why} ` : ''}${winnerWords}${how} ${points} point${points === 1 ? '' : 's'}.`;
  if (M.kind === 'match') {
    const away = (side) => M.length - M.score[side];
    if (M.score[winner] >= M.length) {
      M.winner = winner;
      text += ` ${winnerWords} the match ${M.score[winner]}-${M.score[other(winner)]}.`;
    } else {
      // The Crawford game follows the game that first brings a side to one away.
      const wasCrawford = M.crawford;
      if (wasCrawford) M.crawfordPlayed = true;
      M.crawford = !wasCrawford && !M.crawfordPlayed && (away('w') === 1) !== (away('b') === 1);
      text += ` Match to ${M.length}: ${scoreWords()}${M.crawford ? ' (next: the Crawford game)' : ''}.`;
    }
  } else {
    text += ` Session: ${scoreWords()} after ${M.games} game${M.games === 1 ? '' : 's'}.`;
  }
  save();
  setStatus(`${text} Press New game to go on.`);
  render();
  evaluate().catch(() => {});
}

/** The session's score in words: the person's first. */
function scoreWords() {
  if (WATCH) return `White ${M.score.w}, Black ${M.score.b}`;
  return `you ${M.score[HUMAN]}, the engine ${M.score[ENGINE]}`;
}

function sessionText() {
  if (!M) return '–';
  // No cube is turned in the Crawford game.
  const cube = M.cube && crawfordNow() ? 'no cube in the Crawford game' : M.cube ? `cube ${S.cube.value}${S.cube.owner === 'center' ? ' in the middle' : S.cube.owner === HUMAN ? ' (yours)' : " (the engine's)"}` : 'no cube';
  if (M.kind === 'money') return `money play, ${cube}; ${scoreWords()}`;
  // The Crawford game while it is played; once a game is over, whether the
  // next one is; nothing once the match is won.
  const over = S.phase === 'over' || !!S.drop || !!S.show?.result;
  const crawford = M.winner ? '' : !over && crawfordNow() ? ', Crawford game' : over && M.crawford ? ', next: the Crawford game' : '';
  return `match to ${M.length}: ${scoreWords()}${crawford}; ${cube}${rotationText()}`;
}

/** Whether the game in play is the Crawford game. */
function crawfordNow() {
  return !!(M && M.kind === 'match' && (S.crawfordGame ?? M.crawford));
}

/** The rotation in words, with the game in play: '' outside one. */
function rotationText() {
  if (!M || !M.rotation) return '';
  const names = M.rotation.map((v) => VARIANT_NAMES[v]).join(', ');
  return `; games in turn: ${names}; game ${M.game + 1}, ${VARIANT_NAMES[rotationGame()]}`;
}

/** The next game of the session; `begun` when the engine has started it
 *  already (a rotating match's `newsession`). */
async function newGame(begun = false) {
  takeSides();
  if (!M || M.winner) {
    // No session yet, or a finished match: the next game starts a new one.
    await newSession();
    return;
  }
  // In a rotating match each new game is the rotation's next one, under
  // its own rules, which the engine sets at `newgame`.
  if (M.rotation && !begun) M.game += 1;
  const variant = rotationGame() || $('variant').value;
  $('variant').value = variant;
  // In a rotating match the winner of each game starts the next, rolling
  // both dice (tavli's and tabla's rule; the engine's `newgame` does the
  // same). Otherwise, without an opening throw, the person starts.
  const byWinner = M.rotation && !begun && M.lastWinner ? M.lastWinner : null;
  M.lastWinner = null;
  const starter = byWinner || (pref('starts') === 'you' && !WATCH ? HUMAN : 'w');
  S = Object.assign(newState(variant), { keys: S ? S.keys : [], crawfordGame: M.crawford, starter, byWinner: byWinner !== null });
  const starts = byWinner ? ` ${WATCH ? (byWinner === 'w' ? 'White' : 'Black') : byWinner === HUMAN ? 'You' : 'The engine'} won the last game and ${WATCH || byWinner !== HUMAN ? 'starts' : 'start'}.` : '';
  setStatus(M.rotation ? `New game: ${VARIANT_NAMES[variant]}, game ${M.game + 1} of the match.${starts}` : 'New game.');
  if (!begun) await engine.cmd('newgame');
  if (M.rotation) await loadKeys();
  await syncCube();
  await sync();
  if (byWinner) S.last = `Game ${M.game + 1}, ${VARIANT_NAMES[variant]}:${starts} `;
  if (!byWinner && (pref('starts') === 'throw' || WATCH)) {
    S.phase = 'opening';
    // Watching, the engine throws for both sides at once.
    if (WATCH) {
      await openingThrow();
      return;
    }
    setStatus('New game. Throw for the opening: press Roll (or type the two dice, White\'s first, e.g. 53).');
    render();
    save();
    return;
  }
  render();
  await next();
}

/** The opening throw's dice in words (White's die first, as typed). */
function throwWords(w, b) {
  if (WATCH) return `White ${w}, Black ${b}`;
  return HUMAN === 'w' ? `you ${w}, the engine ${b}` : `the engine ${w}, you ${b}`;
}

/** The opening throw: one die each, the higher starts, a tie throws again. */
async function openingThrow() {
  if (S.phase !== 'opening') return;
  const r = rollOrSay();
  if (!r) return;
  if (!WATCH) markPlayed();
  const w = Number(r[0]);
  const b = Number(r[1]);
  if (w === b) {
    // Watching, nobody presses Roll: the engine throws again by itself.
    if (WATCH) {
      S.last = `Opening throw: ${throwWords(w, b)}, a tie, thrown again. `;
      await openingThrow();
      return;
    }
    setStatus(`Opening throw: ${throwWords(w, b)}. A tie: press Roll to throw again.`);
    return;
  }
  S.phase = 'idle';
  const winner = w > b ? 'w' : 'b';
  S.opening = { w, b };
  S.starter = winner;
  // `single`: the winner plays the two numbers thrown; `reroll`: it rolls afresh.
  const single = keyValue('rules.opening') !== 'reroll';
  if (single) {
    const token = `${Math.max(w, b)}${Math.min(w, b)}`;
    S.moves.push(token);
    S.turns.push({ side: winner, label: token, steps: [] });
    S.chainStart = Number(token[0]);
  }
  S.floor = S.moves.length;
  S.bounds = [];
  const who = WATCH ? `${winner === 'w' ? 'White' : 'Black'} starts` : winner === HUMAN ? 'You start' : 'The engine starts';
  S.last = `${S.phase === 'idle' && S.last.startsWith('Opening throw') ? S.last : ''}Opening throw: ${throwWords(w, b)}. ${who}${single ? ` with ${Math.max(w, b)}-${Math.min(w, b)}` : ', rolling both dice afresh'}. `;
  await sync();
  render();
  await next();
}

/** Whoever acts now: the person (roll or move) or the engine. */
async function next() {
  const s = S.show;
  if (s.result) {
    const r = s.result;
    if (r.stuck) {
      S.phase = 'over';
      setStatus(r.draw ? 'Both mothers are pinned: a draw, no points.' : 'The game is stuck: no points.');
      render();
      return;
    }
    if (S.scored) {
      S.phase = 'over';
      render();
    } else await gameOver(r.winner, r.points * S.cube.value, '', r.points);
    return;
  }
  const actor = S.passed ? other(s.tomove) : s.tomove;
  if (actor === ENGINE || WATCH) {
    await engineTurn();
    return;
  }
  if (S.passed || s.pending.kind === 'roll') {
    S.phase = 'roll';
    setStatus(`${S.warning ?? ''}${S.last}Your turn: roll the dice (or type them, e.g. 65).`);
    render();
    evaluate().catch(() => {});
    return;
  }
  if (s.pending.kind === 'remainder' && S.moves.length === S.floor && S.bounds.length === 0) {
    S.turns.push({ side: HUMAN, label: `r${s.pending.text}`, steps: [] });
  }
  await loadLegal();
}

async function loadLegal() {
  // Every order of a play's steps the rules allow, so either die may go first.
  const lines = await engine.cmd('legal orders');
  S.legal = [];
  S.orders = [];
  S.playable = 0;
  for (const l of lines) {
    if (l.startsWith('play ') && l !== 'play pass') {
      const steps = l.slice(5).split(' ');
      S.legal.push({ steps, norm: steps.map(stripHit) });
    } else if (l.startsWith('order ')) {
      // The same end as a play, its checker taking the dice the other way round.
      const steps = l.slice(6).split(' ');
      S.orders.push({ steps, norm: steps.map(stripHit) });
    } else if (l.startsWith('legal count')) S.playable = Number(l.split(' ')[4]);
  }
  S.stagePass = S.legal.length === 0;
  if (!S.stagePass && S.view === null) {
    const auto = autoPlay();
    if (auto) {
      S.phase = 'move';
      S.last = auto.why;
      await playSteps(auto.steps);
      return;
    }
  }
  if (S.stagePass) {
    S.phase = 'done';
    setStatus('You have no legal play. Press Done to pass.');
  } else {
    S.phase = 'move';
    setStatus(`${S.warning ?? ''}${S.last}Your move: ${stageText()}. Pick a checker, then where it goes.`);
  }
  render();
  // With the dice set, `eval` judges the position after the best play of
  // them: the bar then agrees with the top hint.
  evaluate().catch(() => {});
}

/** Whether the sides can no longer meet: every checker of each is past
 *  every checker of the other (the hitting games), or both are home. */
function noContact() {
  const b = S.board;
  if (b.bar.w || b.bar.b) return false;
  if (b.pins && Object.keys(b.pins).length) return false;
  if (opposite()) {
    // White runs down to 1, Black up to 24 (White's numbering).
    let lowestBlack = 25;
    let highestWhite = 0;
    for (let p = 1; p <= 24; p++) {
      if (b.pts[p] < 0) lowestBlack = Math.min(lowestBlack, p);
      if (b.pts[p] > 0) highestWhite = Math.max(highestWhite, p);
    }
    return highestWhite < lowestBlack;
  }
  for (let p = 1; p <= 24; p++) {
    if (b.pts[p] > 0 && p > 6) return false;
    if (b.pts[p] < 0 && toOwn('b', p) > 6) return false;
  }
  return true;
}

/** A play the settings make by themselves: the only legal one (forced
 *  moves), or one that bears a checker off with every die when nothing else
 *  matters (no contact). */
function autoPlay() {
  if (pref('autoForced') && S.legal.length === 1) return { steps: S.legal[0].norm, why: 'Forced move played for you. ' };
  if (pref('autoBearoff') && noContact()) {
    const off = S.legal.find((p) => p.norm.every((st) => stepTo(st) === 'off'));
    if (off) return { steps: off.norm, why: 'Borne off for you. ' };
  }
  return null;
}

/** [`nextRoll`], or null with the bad dice said in the status. */
function rollOrSay() {
  try {
    return nextRoll();
  } catch (e) {
    setStatus(e.message);
    return null;
  }
}

/** The next roll: typed dice first (one or more, e.g. "65 31"), else random. */
function nextRoll() {
  const input = $('dice-input');
  const toks = input.value.split(/[\s,;]+/).filter(Boolean);
  if (toks.length) {
    const t = toks[0].replace('-', '');
    if (!/^[1-6][1-6]$/.test(t)) throw new Error(`bad dice '${toks[0]}': type two digits 1..6, e.g. 65`);
    input.value = toks.slice(1).join(' ');
    return t;
  }
  const d = () => 1 + Math.floor(random() * 6);
  return `${d()}${d()}`;
}

async function roll() {
  if (S.view !== null) return;
  if (S.phase === 'opening') {
    await openingThrow();
    return;
  }
  if (S.phase !== 'roll') return;
  const r = rollOrSay();
  if (!r) return;
  markPlayed();
  S.last = '';
  S.warning = '';
  S.phase = 'idle';
  S.passed = false;
  S.moves.push(r);
  S.floor = S.moves.length;
  S.bounds = [];
  S.chainStart = Number(r[0]);
  S.turns.push({ side: HUMAN, label: r, steps: [] });
  await sync();
  // No legal play: the engine passed the turn on at once; say so at the
  // person's next prompt (the engine's turn comes first).
  if (!S.show.result && S.show.tomove !== HUMAN) {
    S.turns[S.turns.length - 1].dance = true;
    S.marks[HUMAN] = [];
    S.warning = `You rolled ${r[0]}-${r[1]} and could not move. `;
  }
  render();
  await next();
}

// The person's steps. A stage is sent to the engine once its steps are
// those of one of `legal`'s plays (in any order); a checker may also be
// moved by several dice at once along a play.

function multisetMinus(big, small) {
  const rest = big.slice();
  for (const s of small) {
    const i = rest.indexOf(s);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

const stepFrom = (s) => s.split('/')[0];
const stepTo = (s) => s.split('/')[1];

/** The board's key (White's numbering, `bar`, `off`) of a point of the person's. */
const keyOf = (p) => (p === 'bar' || p === 'off' ? p : String(toWhite(HUMAN, Number(p))));

function occupied(from) {
  if (from === 'bar') return S.board.bar[HUMAN] > 0;
  const n = S.board.pts[Number(keyOf(from))];
  return HUMAN === 'w' ? n > 0 : n < 0;
}

/** Map source -> Map destination -> steps, for the person's next move. */
function nextMoves() {
  const moves = new Map();
  const mustEnter = hitting() && S.board.bar[HUMAN] > 0;
  const add = (src, dest, path) => {
    if (!moves.has(src)) moves.set(src, new Map());
    const m = moves.get(src);
    if (!m.has(dest)) m.set(dest, path);
  };
  for (const p of [...S.legal, ...(S.orders ?? [])]) {
    const rest = multisetMinus(p.norm, S.stage);
    if (!rest) continue;
    for (const s of new Set(rest)) {
      const f = stepFrom(s);
      if (!occupied(f) || (mustEnter && f !== 'bar')) continue;
      // One die, then the same checker on along the play.
      const walk = (at, left, path) => {
        add(keyOf(f), keyOf(stepTo(path[path.length - 1])), path);
        if (at === 'off') return;
        for (const t of new Set(left)) {
          if (stepFrom(t) === at) walk(stepTo(t), multisetMinus(left, [t]), [...path, t]);
        }
      };
      walk(stepTo(s), multisetMinus(rest, [s]), [s]);
    }
  }
  return moves;
}

async function playSteps(path) {
  for (const s of path) {
    S.stage.push(s);
    applyStep(S.board, HUMAN, s);
  }
  S.selected = null;
  const done =
    S.stage.length === S.playable &&
    [...S.legal, ...(S.orders ?? [])].find((p) => {
      const rest = multisetMinus(p.norm, S.stage);
      return rest !== null && rest.length === 0;
    });
  if (!done) {
    render();
    return;
  }
  // The stage is whole: send it as `legal` wrote it (so hits are marked and
  // the order is one the rules accept).
  S.phase = 'idle';
  S.bounds.push({ start: S.moves.length, steps: S.stage.slice() });
  S.moves.push(...done.steps);
  S.turns[S.turns.length - 1].steps.push(...done.steps);
  S.stage = [];
  const drawn = cloneBoard(S.board);
  await sync();
  checkBoard(drawn, done.steps.join(' '));
  await afterStage();
}

/** After a stage of the person's: more of the turn, or the turn is over. */
async function afterStage() {
  const s = S.show;
  if (!s.result && s.tomove === HUMAN) {
    if (s.pending.kind === 'roll') {
      // A remainder played: the person's own roll comes next.
      S.phase = 'roll';
      setStatus('Remainder played. Roll the dice (or Undo).');
      render();
      return;
    }
    await loadLegal();
    return;
  }
  S.phase = 'done';
  setStatus(s.result ? 'Game over: press Done.' : 'Turn complete: press Done (or Undo).');
  render();
}

async function undo() {
  if (S.view !== null) return;
  if (S.stage.length) {
    S.stage.pop();
    S.board = cloneBoard(S.show.board);
    for (const s of S.stage) applyStep(S.board, HUMAN, s);
    S.selected = null;
    S.phase = S.stagePass ? 'done' : 'move';
    render();
    return;
  }
  const b = S.bounds.pop();
  if (!b) return;
  S.phase = 'idle';
  const t = S.turns[S.turns.length - 1];
  t.steps.splice(t.steps.length - (S.moves.length - b.start));
  S.moves.length = b.start;
  await sync();
  await loadLegal();
  // Back to the stage with all but its last step played.
  for (const s of b.steps.slice(0, -1)) {
    S.stage.push(s);
    applyStep(S.board, HUMAN, s);
  }
  render();
}

async function done() {
  if (S.phase !== 'done' || S.view !== null) return;
  const mine = [...S.turns].reverse().find((t) => t.side === HUMAN && !t.cube);
  if (mine) S.marks[HUMAN] = mine.steps.slice();
  if (S.stagePass) S.passed = true;
  S.stagePass = false;
  S.floor = S.moves.length;
  S.bounds = [];
  S.stage = [];
  await next();
}

/**
 * The stage of each of the `n` steps the engine plays from `pending`: an
 * escalating chain (four of each number up to 6) or a remainder (its dice,
 * then four of each higher number). `null` for a plain roll.
 */
function stagePlan(pending, n) {
  let die;
  let left;
  if (pending.kind === 'dice' && pending.escalating) [die, left] = [Number(pending.dice[0]), 4];
  else if (pending.kind === 'chain') [die, left] = [Number(pending.die), 4];
  else if (pending.kind === 'remainder') [die, left] = pending.text.split('x').map(Number);
  else return null;
  const plan = [];
  while (plan.length < n && die <= 6) {
    for (let done = 0; done < left && plan.length < n; done++) plan.push({ die, count: left, done });
    die += 1;
    left = 4;
  }
  return plan;
}

/** Who moved, in the status's words. */
function moverWords(side) {
  return WATCH ? (side === 'w' ? 'White' : 'Black') : side === HUMAN ? 'You' : 'The engine';
}

/** `side`'s last turn was a roll it could not play (a dance): the turn is
 *  marked so (not a move under way) and its old marks leave the board. */
function danced(side) {
  const t = S.turns[S.turns.length - 1];
  if (t && t.side === side && !t.cube && !t.steps.length) t.dance = true;
  S.marks[side] = [];
  S.last = `${moverWords(side)} could not move. `;
}

/** The engine's turn(s): rolls for it, asks `go`, shows the reply step by step. */
async function engineTurn() {
  // A new game or game started meanwhile (New game, another variant) ends
  // this turn: nothing of it may touch the new game's state.
  const game = S;
  const gone = () => S !== game;
  S.phase = 'engine';
  while (true) {
    const s = S.show;
    if (s.result) break;
    const actor = S.passed ? other(s.tomove) : s.tomove;
    if (actor !== ENGINE && !WATCH) break;
    if (!WATCH && !S.passed && s.pending.kind === 'roll' && (await engineCube())) return;
    if (gone()) return;
    if (S.passed || s.pending.kind === 'roll') {
      S.cubeAsked = false;
      let r;
      for (;;) {
        try {
          r = nextRoll();
          break;
        } catch (e) {
          // Only the bad token goes: the rest of the list is kept for the
          // rolls after it, and the person is told at the next prompt.
          const input = $('dice-input');
          input.value = input.value.split(/[\s,;]+/).filter(Boolean).slice(1).join(' ');
          S.warning = `${S.warning ?? ''}${e.message}: skipped. `;
        }
      }
      S.passed = false;
      S.moves.push(r);
      S.turns.push({ side: actor, label: r, steps: [] });
      await sync();
      if (gone()) return;
      if (!S.show.result && (S.show.tomove !== actor || S.show.pending.kind === 'roll')) {
        // Nothing to play with that roll: the turn passed by itself.
        danced(actor);
        continue;
      }
    } else if (s.pending.kind === 'remainder') {
      S.turns.push({ side: actor, label: `r${s.pending.text}`, steps: [] });
    }
    setStatus(`${S.warning ?? ''}The engine is thinking…`);
    render();
    const pending = S.show.pending;
    const lines = await engine.search('go', 'bestmove');
    if (gone()) return;
    const bm = lines.find((l) => l.startsWith('bestmove '));
    if (!bm) throw new Error(lines[lines.length - 1] || 'no bestmove');
    const steps = bm.slice(9).split(' ').filter((x) => x && x !== 'pass');
    if (!steps.length) {
      S.passed = true;
      danced(actor);
      continue;
    }
    const plan = stagePlan(pending, steps.length);
    for (const [k, st] of steps.entries()) {
      if (plan?.[k]) {
        S.anim = plan[k];
        setStatus(`The engine plays its chain: ${plan[k].count} ${plan[k].die}s.`);
      }
      applyStep(S.board, actor, st);
      render();
      if (pref('anim')) await sleep(pref('anim'));
      if (gone()) return;
    }
    S.anim = null;
    S.moves.push(...steps);
    S.turns[S.turns.length - 1].steps.push(...steps);
    S.marks[actor] = S.turns[S.turns.length - 1].steps.slice();
    S.last = `${moverWords(actor)} played ${shownSteps(actor, steps).join(' ')}. `;
    const drawn = cloneBoard(S.board);
    await sync();
    if (gone()) return;
    checkBoard(drawn, steps.join(' '));
  }
  S.floor = S.moves.length;
  S.bounds = [];
  await next();
}

async function hint() {
  if (S.view !== null) return;
  if (S.phase === 'cube' || (S.phase === 'roll' && mayDouble(HUMAN))) {
    await cubeHint();
    return;
  }
  if (S.phase !== 'move') return;
  const lines = await engine.search('hint 5 probs', 'hintok');
  S.hints = lines
    .filter((l) => l.startsWith('hint '))
    .map((l) => {
      // `hint <rank> equity <e> [cubeful <c> | mwc <m>] win <p> winmars <p> losemars <p> [winbg <p> losebg <p>] play <steps>`
      const t = l.split(' ');
      const at = t.indexOf('play');
      const worth = t[4] === 'mwc' || t[4] === 'cubeful' ? { kind: t[4], value: t[5] } : null;
      const probs = {};
      for (const k of ['win', 'winmars', 'losemars', 'winbg', 'losebg']) {
        const i = t.indexOf(k);
        if (i >= 0 && i < at) probs[k] = t[i + 1];
      }
      return { rank: t[1], equity: t[3], worth, probs: probs.win !== undefined ? probs : null, play: t.slice(at + 1).join(' ') };
    });
  const err = lines.find((l) => l.startsWith('error '));
  if (err) setStatus(err);
  render();
}

/** White's chances, from `eval` (given for the side to move). */
async function evaluate() {
  const lines = await engine.search('eval', 'evaluation');
  const l = lines.find((x) => x.startsWith('evaluation '));
  if (!l) return;
  const t = l.split(' ');
  const val = (k) => Number(t[t.indexOf(k) + 1]);
  const mover = S.show.tomove;
  const win = mover === 'w' ? val('win') : 1 - val('win');
  const eq = mover === 'w' ? val('equity') : -val('equity');
  const pct = Math.round(win * 1000) / 10;
  $('evalfill').style.width = `${pct}%`;
  $('evalbar').setAttribute('aria-valuenow', String(pct));
  const when = S.phase === 'cube' ? ' at the engine\'s double' : '';
  S.liveEval = `evaluation${when}: White wins ${pct}%, equity ${eq >= 0 ? '+' : ''}${eq.toFixed(3)} (White's view)`;
  if (S.view === null) $('evaltext').textContent = S.liveEval;
}

// ---------------------------------------------------------------- settings

/** The settings' names in words. */
const OPTION_WORDS = {
  'rules.opening': 'Opening',
  'rules.exempt_rolls': 'Rolls exempt from escalation',
  'rules.exempt_scope': 'Exempt rolls are counted',
  'rules.remainder': 'The rest of a broken chain',
  'rules.head_first_turn': 'Second checker off the head on the first turn',
  'rules.six_block': 'Six-block checked',
  'rules.prime': 'A six-point prime',
  'rules.start_rule': 'A second checker leaves the start once one has',
  'rules.pinned_bearoff': 'A pinned checker in the home',
  'rules.mother_timing': 'A pinned mother ends the game',
  'engine.ply': 'Engine depth',
  'engine.eval': 'Engine judges with',
};

function buildOptions() {
  const box = $('options');
  box.replaceChildren();
  for (const k of S.keys) {
    if (!(k.name.startsWith('rules.') || k.name === 'engine.ply' || k.name === 'engine.eval')) continue;
    const label = document.createElement('label');
    label.textContent = OPTION_WORDS[k.name] || k.name;
    label.title = `${k.name}: ${k.desc}`;
    let input;
    // A short range is a choice like an enum; a long one a number field.
    const values = k.type === 'enum' ? k.values : k.hi - k.lo <= 10 ? Array.from({ length: k.hi - k.lo + 1 }, (_, i) => String(k.lo + i)) : null;
    // The game's default, as the engine's variant table gives it (the
    // game the keys are of: the page's state may still be the last game's).
    const dflt = (GAMES[keyValue('game.variant')] || game()).options?.find((o) => o.key === k.name)?.default;
    if (values) {
      input = document.createElement('select');
      for (const v of values) {
        const o = document.createElement('option');
        o.value = v;
        o.textContent = v === dflt ? `${v} (default)` : v;
        input.append(o);
      }
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.min = k.lo;
      input.max = k.hi;
      input.size = 5;
    }
    input.value = k.value;
    input.id = `opt-${k.name}`;
    input.addEventListener('change', () => changeOption(k, input));
    label.append(input);
    // The rule explained beside it, in the engine's own words.
    const why = document.createElement('span');
    why.className = 'small explain';
    why.textContent = k.desc;
    label.append(why);
    box.append(label);
  }
}

async function changeOption(k, input) {
  await guard(async () => {
    if (k.name.startsWith('rules.') && !(await askDiscard('A change of rules'))) {
      input.value = k.value;
      return;
    }
    const lines = await engine.cmd(`set ${k.name} ${input.value}`);
    const err = lines.find((l) => l.startsWith('error '));
    if (err) {
      setStatus(err);
      input.value = k.value;
      return;
    }
    k.value = input.value;
    // A rule changes how the game so far reads: it starts a new game.
    if (k.name.startsWith('rules.')) await newGame();
    else {
      setStatus(`${OPTION_WORDS[k.name] || k.name}: ${input.value}.`);
      // Kept with the game at once (a reload before the next move keeps it).
      save();
    }
  });
}

/** New game, pressed or typed: asked first when a game is in progress. */
async function askedNewGame() {
  if (await askDiscard('A new game')) await newGame();
}

async function changeVariant() {
  await guard(async () => {
    if (!(await askDiscard('Another game'))) {
      $('variant').value = S.variant;
      return;
    }
    // Choosing a game ends a rotating match: its games are the one chosen.
    $('rotation').value = '';
    // Remembered for the next visit.
    prefs.variant = $('variant').value;
    savePrefs();
    await engine.cmd(`set game.variant ${$('variant').value}`);
    await loadKeys();
    await newSession();
  });
}

// ----------------------------------------------------------------- drawing

const SVGNS = 'http://www.w3.org/2000/svg';
function el(tag, attrs = {}, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// Geometry (viewBox 720 x 520): points 13..24 along the top, 12..1 along
// the bottom (White's home bottom right), the bar between the halves, the
// borne-off trays on the right.
const G = { L: 10, W: 46, BW: 40, TOP: 28, BOT: 492, H: 190, R: 20, TRAY: 612 };
const colX = (c) => G.L + c * G.W + (c >= 6 ? G.BW : 0);
const BAR_X = G.L + 6 * G.W;

/** The side whose home is drawn at the bottom right, its numbers on the
 *  points: the person's (White's when watching). The board is turned for
 *  a person playing Black. */
const viewer = () => (WATCH ? 'w' : HUMAN);

/** The column and row of White's point `p` on the board as drawn. */
function pointCol(p) {
  return ownCol(toOwn(viewer(), p));
}

/** The column and row of the viewer's own point `p`. */
function ownCol(p) {
  return p >= 13 ? { col: p - 13, top: true } : { col: 12 - p, top: false };
}

function checker(cx, cy, side, label) {
  const g = el('g');
  g.append(el('circle', { cx, cy, r: G.R - 1, class: `checker ${side}` }));
  if (label) g.append(el('text', { x: cx, y: cy, class: `count ${side}` }, label));
  return g;
}

/** A stack: up to five checkers from the edge, the count on the last. */
function stack(g, cx, n, side, top, fromY) {
  const shown = Math.min(n, 5);
  for (let i = 0; i < shown; i++) {
    const cy = top ? fromY + G.R + i * 2 * G.R : fromY - G.R - i * 2 * G.R;
    g.append(checker(cx, cy, side, i === shown - 1 && n > 1 ? String(n) : ''));
  }
}

function describe(n) {
  if (n === 0) return 'empty';
  return `${Math.abs(n)} ${n > 0 ? 'white' : 'black'}`;
}

function render() {
  const svg = $('board');
  const focused = document.activeElement?.closest?.('[data-point]')?.getAttribute('data-point');
  svg.replaceChildren();
  const me = viewer() === 'w' ? 'White' : 'Black';
  svg.setAttribute('aria-label', `the board, ${me}${WATCH ? '' : ' (you)'} plays from 24 to 1, home at the bottom right`);
  const viewing = S.view !== null;
  const b = viewing ? boardAfter(S.view) : S.board || parsePosition('0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0').board;
  const moving = S.phase === 'move' && !viewing ? nextMoves() : new Map();
  const dests = S.selected ? moving.get(S.selected) || new Map() : new Map();
  svg.append(el('rect', { x: G.L, y: 24, width: 12 * G.W + G.BW, height: 472, fill: '#2f6b47', rx: 4 }));
  svg.append(el('rect', { x: BAR_X, y: 24, width: G.BW, height: 472, fill: '#5b361b' }));
  const actionable = (key) => moving.has(key) || dests.has(key) || S.selected === key;
  const pointGroup = (key, label) => {
    const cls = ['point'];
    if (S.selected === key) cls.push('sel');
    else if (dests.has(key)) cls.push('dest');
    else if (!S.selected && moving.has(key)) cls.push('src');
    return el('g', {
      class: cls.join(' '),
      'data-point': key,
      role: 'button',
      // With a checker picked, Tab reaches its destinations first.
      tabindex: (S.selected ? dests.has(key) || S.selected === key : actionable(key)) ? 0 : -1,
      'aria-label': label,
    });
  };
  for (let p = 1; p <= 24; p++) {
    const { col, top } = pointCol(p);
    const x = colX(col);
    const n = b.pts[p];
    const pinned = b.pins && b.pins[p];
    const pinText = pinned ? `, pinning a ${pinned === 'w' ? 'white' : 'black'} checker` : '';
    const g = pointGroup(String(p), `point ${p}, ${describe(n)}${pinText}`);
    const tip = top ? G.TOP + G.H : G.BOT - G.H;
    const base = top ? G.TOP : G.BOT;
    g.append(el('rect', { x, y: top ? 2 : G.BOT, width: G.W, height: 26, class: 'pt-hit' }));
    g.append(
      el('polygon', {
        points: `${x + 1},${base} ${x + G.W - 1},${base} ${x + G.W / 2},${tip}`,
        fill: (p + (top ? 1 : 0)) % 2 ? '#e9d9b6' : '#a8683a',
      }),
    );
    g.append(el('rect', { x, y: top ? G.TOP : G.BOT - G.H - 10, width: G.W, height: G.H + 10, class: 'pt-hit' }));
    g.append(el('text', { x: x + G.W / 2, y: top ? 18 : 510, class: 'num' }, String(toOwn(viewer(), p))));
    if (pinned) {
      // The pinned checker at the edge, its pinners on top of it.
      const under = checker(x + G.W / 2, top ? base + G.R : base - G.R, pinned, '');
      under.setAttribute('class', 'pinned');
      under.setAttribute('data-pinned', pinned);
      g.append(under);
      stack(g, x + G.W / 2, Math.abs(n), n > 0 ? 'w' : 'b', top, top ? base + 2 * G.R : base - 2 * G.R);
    } else if (n) stack(g, x + G.W / 2, Math.abs(n), n > 0 ? 'w' : 'b', top, base);
    svg.append(g);
  }
  // The bar (the hitting games): White's checkers below, Black's above.
  if (hitting()) {
    const g = pointGroup('bar', `bar, ${b.bar.w} white, ${b.bar.b} black`);
    g.append(el('rect', { x: BAR_X, y: 24, width: G.BW, height: 472, class: 'pt-hit' }));
    g.append(el('text', { x: BAR_X + G.BW / 2, y: 262, class: 'label' }, 'bar'));
    // The viewer's checkers below, the other side's above.
    const near = viewer();
    const far = other(near);
    if (b.bar[far]) stack(g, BAR_X + G.BW / 2, b.bar[far], far, false, 244);
    if (b.bar[near]) stack(g, BAR_X + G.BW / 2, b.bar[near], near, true, 276);
    svg.append(g);
  }
  // Borne-off trays: Black's at the top, White's at the bottom.
  svg.append(el('rect', { x: G.TRAY, y: 24, width: 98, height: 472, fill: '#5b361b', rx: 4 }));
  const tray = (side, y0, dir) => {
    const n = b.off[side];
    for (let i = 0; i < n; i++) {
      svg.append(
        el('rect', {
          x: G.TRAY + 14,
          y: y0 + dir * (i * 10 + 9),
          width: 70,
          height: 8,
          rx: 2,
          class: `checker ${side}`,
          // The tray is a target as a whole (bearing off): its checkers do not catch the click.
          'pointer-events': 'none',
        }),
      );
    }
  };
  const near = viewer();
  const far = other(near);
  tray(far, 28, 1);
  // The person's tray takes the checkers it bears off: White's at the bottom.
  const offG = pointGroup('off', `borne off: ${b.off[HUMAN]} ${HUMAN === 'w' ? 'white' : 'black'}`);
  offG.append(el('rect', { x: G.TRAY, y: 292, width: 98, height: 204, class: 'pt-hit' }));
  svg.append(offG);
  tray(near, 492 - 8, -1);
  svg.append(el('text', { x: G.TRAY + 49, y: 190, class: 'label' }, `off ${b.off[far]}`));
  svg.append(el('text', { x: G.TRAY + 49, y: 336, class: 'label' }, `off ${b.off[near]}`));
  const pp = pips(b);
  // The cube of the position shown (no cube in the Crawford game).
  const withCube = !!(M && M.cube) && !crawfordNow();
  const pipX = G.TRAY + (withCube ? 28 : 49);
  const letter = (side) => (side === 'w' ? 'W' : 'B');
  svg.append(el('text', { x: pipX, y: 240, class: 'label' }, `${letter(far)} ${pp[far]}`));
  svg.append(el('text', { x: pipX, y: 290, class: 'label' }, `${letter(near)} ${pp[near]}`));
  if (withCube) {
    // The cube at its owner's side (Black's at the top), in the middle at 1;
    // an offered double shows the cube offered.
    // A position stepped through shows the cube of its moment.
    const then = viewing ? cubeAfter(S.view) : null;
    const offered = !viewing && S.phase === 'cube';
    const owner = then ? then.owner : offered ? 'center' : S.cube.owner;
    const value = then ? then.value : offered ? S.offer : S.cube.value;
    const y = owner === far ? 198 : owner === near ? 298 : 248;
    const g = el('g', { class: `cube${offered ? ' offered' : ''}`, 'data-owner': owner, 'aria-label': `the cube at ${value}` });
    g.append(el('rect', { x: G.TRAY + 58, y, width: 34, height: 34, rx: 5 }));
    g.append(el('text', { x: G.TRAY + 75, y: y + 18, class: 'cube-value' }, String(value === 1 ? 64 : value)));
    svg.append(g);
  }
  drawMarks(svg, viewing ? marksAfter(S.view) : S.marks);
  drawDice(svg);
  // A reviewed position: the turn picked in the review drawn on it.
  const picked = viewing && S.reviewPick ? S.review?.[S.reviewPick.i] : null;
  if (picked && picked.at === S.view) drawPlay(svg, picked.side, S.reviewPick.play, 'review-arrow');
  const reviewed = viewing ? reviewEvalText(S.view) : null;
  $('evaltext').textContent = reviewed ?? S.liveEval ?? $('evaltext').textContent;
  // Put the focus back where it was (the board is drawn anew each time).
  if (focused) svg.querySelector(`[data-point="${focused}"]`)?.focus();
  renderPanel(pp);
}

/** Where a mark of `side` sits on point `key` (White's numbering, `bar`, `off`). */
function markAt(key, side) {
  if (key === 'bar') return { x: BAR_X + G.BW / 2, y: side === viewer() ? 300 : 220 };
  if (key === 'off') return { x: G.TRAY + 49, y: side === viewer() ? 470 : 50 };
  const { col, top } = pointCol(Number(key));
  return { x: colX(col) + G.W / 2, y: top ? G.TOP + 10 : G.BOT - 10 };
}

/** Each side's last turn on the board: a line from each step's point to its
 *  destination, a ring where it left, a dot where it landed, × on a hit. */
function drawMarks(svg, marks) {
  for (const side of ['w', 'b']) {
    for (const step of marks[side] || []) {
      const [f, t] = stripHit(step).split('/');
      const from = f === 'bar' ? 'bar' : String(toWhite(side, Number(f)));
      const to = t === 'off' ? 'off' : String(toWhite(side, Number(t)));
      const a = markAt(from, side);
      const z = markAt(to, side);
      const g = el('g', { class: `mark ${side}`, 'pointer-events': 'none' });
      g.append(el('line', { x1: a.x, y1: a.y, x2: z.x, y2: z.y, class: 'mark-line' }));
      g.append(el('circle', { cx: a.x, cy: a.y, r: 7, class: 'mark-from', 'data-mark': `${side} from ${from}` }));
      g.append(el('circle', { cx: z.x, cy: z.y, r: 5, class: 'mark-to', 'data-mark': `${side} to ${to}` }));
      if (step.includes('*')) g.append(el('text', { x: z.x + 12, y: z.y, class: 'mark-hit', 'data-mark': `${side} hit ${to}` }, '×'));
      svg.append(g);
    }
  }
}

/** The steps of `play` (a turn of `side`, in its numbering) drawn as arrows of class `cls`. */
function drawPlay(svg, side, play, cls) {
  for (const step of play.split(' ').filter((x) => x.includes('/'))) {
    const [f, t] = stripHit(step).split('/');
    const key = (p) => (p === 'bar' || p === 'off' ? p : String(toWhite(side, Number(p))));
    const a = markAt(key(f), side);
    const z = markAt(key(t), side);
    const g = el('g', { class: `hint-arrow ${cls}`, 'pointer-events': 'none', 'data-play-step': step });
    g.append(el('line', { x1: a.x, y1: a.y, x2: z.x, y2: z.y }));
    g.append(el('circle', { cx: z.x, cy: z.y, r: 8 }));
    svg.append(g);
  }
}

/** The steps of hint `i` drawn on the board (while it is hovered or focused). */
function showHint(i) {
  const svg = $('board');
  svg.querySelectorAll('.hint-arrow').forEach((e) => e.remove());
  const h = i === null ? null : S.hints[i];
  if (!h) return;
  for (const step of h.play.split(' ').filter((x) => x.includes('/'))) {
    const [f, t] = stripHit(step).split('/');
    const a = markAt(keyOf(f), HUMAN);
    const z = markAt(keyOf(t), HUMAN);
    const g = el('g', { class: 'hint-arrow', 'pointer-events': 'none', 'data-hint-step': step });
    g.append(el('line', { x1: a.x, y1: a.y, x2: z.x, y2: z.y }));
    g.append(el('circle', { cx: z.x, cy: z.y, r: 8 }));
    svg.append(g);
  }
}

/** Plays hint `i` as if clicked step by step, stage by stage. */
async function playHint(i) {
  const h = S.hints[i];
  if (!h || S.phase !== 'move' || S.view !== null) return;
  // The hint starts where the stage started.
  S.stage = [];
  S.board = cloneBoard(S.show.board);
  let rest = h.play.split(' ').filter((x) => x.includes('/')).map(stripHit);
  while (rest.length && S.phase === 'move') {
    const part = rest.slice(0, Math.max(1, S.playable));
    // The stage must be one the rules list (a setting may have played a
    // forced stage of the chain meanwhile): otherwise stop here.
    if (![...S.legal, ...(S.orders ?? [])].some((p) => multisetMinus(p.norm, part)?.length === 0)) break;
    rest = rest.slice(part.length);
    await playSteps(part);
  }
}

function currentDice() {
  const s = S.show;
  if (!s || s.result) return null;
  const p = s.pending;
  if (p.kind === 'dice') return p.escalating ? [p.dice[0], p.dice[0], p.dice[0], p.dice[0]] : [...p.dice];
  if (p.kind === 'chain') return [p.die, p.die, p.die, p.die].map(String);
  if (p.kind === 'remainder') {
    const [d, n] = p.text.split('x');
    return Array(Number(n)).fill(d);
  }
  return null;
}

/** The pips a step moves: from its point to its destination (the bar 25, off 0). */
function stepPips(step) {
  const at = (p) => (p === 'bar' ? 25 : p === 'off' ? 0 : Number(p.replace('*', '')));
  return at(stepFrom(step)) - at(stepTo(step));
}

/**
 * Which of `dice` the steps played used: each step the die of its own
 * number; a checker borne off with a larger die than its point needs, the
 * smallest such die left.
 */
function usedDice(dice, steps) {
  const used = dice.map(() => false);
  for (const s of steps) {
    const n = stepPips(s);
    let i = dice.findIndex((d, j) => !used[j] && Number(d) === n);
    if (i < 0 && stepTo(s) === 'off') {
      let best = -1;
      dice.forEach((d, j) => {
        if (!used[j] && Number(d) > n && (best < 0 || Number(d) < Number(dice[best]))) best = j;
      });
      i = best;
    }
    if (i < 0) i = used.indexOf(false);
    if (i >= 0) used[i] = true;
  }
  return used;
}

function drawDice(svg) {
  // A position of the game stepped through: the dice of the turn played from it.
  if (S.view !== null) {
    const v = diceAt(S.view);
    if (v) paintDice(svg, v.dice, v.side, v.dice.map(() => false));
    return;
  }
  // A turn played whole, waiting for Done: its dice stay, all used.
  if (S.phase === 'done' && S.turnDice && !S.show?.result) {
    paintDice(svg, S.turnDice, HUMAN, S.turnDice.map(() => true));
    return;
  }
  // The engine's chain shows the stage it is playing, its played dice grey.
  const anim = S.phase === 'engine' ? S.anim : null;
  const dice = anim ? Array(anim.count).fill(String(anim.die)) : currentDice();
  if (!dice || S.phase === 'roll') return;
  if (S.phase === 'move') S.turnDice = dice.slice();
  const used = anim ? dice.map((_, i) => i < anim.done) : usedDice(dice, S.stage);
  paintDice(svg, dice, S.show.tomove, used);
}

/** Draws `dice` on `side`'s half of the board, the `used` ones grey. */
function paintDice(svg, dice, side, used) {
  const right = side === viewer();
  const x0 = (right ? G.L + 6 * G.W + G.BW + 3 * G.W : G.L + 3 * G.W) - (dice.length * 42) / 2;
  dice.forEach((d, i) => {
    const g = el('g', { class: `die${used[i] ? ' used' : ''}`, 'data-die': d });
    const x = x0 + i * 42, y = 242;
    g.append(el('rect', { x, y, width: 36, height: 36, rx: 6 }));
    const pipsAt = {
      1: [[18, 18]],
      2: [[9, 9], [27, 27]],
      3: [[9, 9], [18, 18], [27, 27]],
      4: [[9, 9], [27, 9], [9, 27], [27, 27]],
      5: [[9, 9], [27, 9], [18, 18], [9, 27], [27, 27]],
      6: [[9, 8], [27, 8], [9, 18], [27, 18], [9, 28], [27, 28]],
    }[Number(d)];
    for (const [px, py] of pipsAt) g.append(el('circle', { cx: x + px, cy: y + py, r: 3.5, class: 'pip' }));
    svg.append(g);
  });
}


function stageText() {
  const s = S.show;
  if (!s) return '–';
  if (S.phase === 'engine' && S.anim) return `${S.anim.count} ${S.anim.die}s of the engine's chain (up to 6s)`;
  const p = s.pending;
  if (s.result) return 'game over';
  switch (p.kind) {
    case 'roll':
      return 'to roll';
    case 'dice':
      if (p.escalating) return `four ${p.dice[0]}s, stage 1 of an escalating chain (${p.dice[0]}s up to 6s)`;
      return p.dice[0] === p.dice[1] ? `four ${p.dice[0]}s` : `${p.dice[0]}-${p.dice[1]}`;
    case 'chain': {
      const start = s.tomove === HUMAN && S.chainStart ? S.chainStart : null;
      const n = start ? ` ${p.die - start + 1} of ${7 - start}` : '';
      return `four ${p.die}s, stage${n} of an escalating chain`;
    }
    case 'remainder': {
      const [d, n] = p.text.split('x');
      const more = Number(d) < 6 ? `, then four of each higher number up to 6` : '';
      return `remainder: ${n} × ${d}${more}`;
    }
  }
  return '–';
}

function escalationText() {
  if (!escalating() || !S.show) return 'doublets do not escalate in this game';
  const s = S.show;
  if (s.result) return 'game over';
  const exempt = Number(keyValue('rules.exempt_rolls') ?? 3);
  const scope = keyValue('rules.exempt_scope') ?? 'player';
  const esc = (side) => (scope === 'game' ? s.rolls.w + s.rolls.b : s.rolls[side]) >= exempt;
  const parts = [];
  if (s.pending.kind === 'chain' || (s.pending.kind === 'dice' && s.pending.escalating)) parts.push('a chain is being played');
  if (s.pending.kind === 'remainder') parts.push(`remainder ${s.pending.text} pending`);
  parts.push(`next doublet escalates: White ${esc('w') ? 'yes' : 'no'}, Black ${esc('b') ? 'yes' : 'no'}`);
  parts.push(`first ${exempt} rolls ${scope === 'game' ? 'of the game' : 'of each player'} exempt`);
  return parts.join('; ');
}

function renderPanel(pp) {
  const s = S.show;
  $('f-variant').textContent = VARIANT_NAMES[S.variant] || S.variant;
  if (s) {
    const actor = S.passed ? other(s.tomove) : s.tomove;
    $('f-turn').textContent = s.result || S.drop || S.phase === 'over' ? 'game over' : S.phase === 'opening' ? 'the opening throw' : `${actor === 'w' ? 'White' : 'Black'} (${WATCH ? 'the engine' : actor === HUMAN ? 'you' : 'the engine'})`;
    $('f-rolls').textContent = `White ${s.rolls.w}, Black ${s.rolls.b}`;
  }
  $('f-pips').textContent = `White ${pp.w}, Black ${pp.b}`;
  $('f-stage').textContent = stageText();
  $('f-escalation').textContent = escalationText();
  // Rolls counted, chain stages and escalation are Gul bara's alone.
  $('gulbara-facts').hidden = !escalating();
  const viewing = S.view !== null;
  const humanCanUndo = !viewing && (S.phase === 'move' || S.phase === 'done' || S.phase === 'roll') && (S.stage.length > 0 || S.bounds.length > 0);
  $('roll').disabled = viewing || (S.phase !== 'roll' && S.phase !== 'opening');
  $('undo').disabled = !humanCanUndo;
  $('done').disabled = viewing || S.phase !== 'done';
  $('hint').disabled = viewing || !(S.phase === 'move' || S.phase === 'cube' || (S.phase === 'roll' && mayDouble(HUMAN)));
  $('hist-prev').disabled = S.turns.length === 0 || S.view === 0;
  $('hist-next').disabled = !viewing;
  $('hist-live').disabled = !viewing;
  $('review').disabled = S.turns.length === 0;
  $('double').hidden = !(M && M.cube);
  $('double').disabled = !(S.phase === 'roll' && mayDouble(HUMAN));
  $('take').hidden = S.phase !== 'cube';
  $('drop').hidden = S.phase !== 'cube';
  $('f-match').textContent = sessionText();
  renderPad();
  const hints = $('hints');
  const pct = (p) => `${(Number(p) * 100).toFixed(1)}%`;
  if (S.cubeHints) {
    const info = S.cubeHints[0].info;
    hints.replaceChildren(
      ...S.cubeHints.map((h, i) => {
        const li = document.createElement('li');
        li.dataset.cubeHint = h.action;
        const unit = info.mwc ? 'mwc' : 'cubeful equity';
        const diff = i === 0 ? '' : ` (${h.diff >= 0 ? '+' : '-'}${info.mwc ? `${(Math.abs(h.diff) * 100).toFixed(2)}%` : Math.abs(h.diff).toFixed(3)})`;
        li.textContent = `${h.action}  ${unit} ${cubeFigure(info, h.value)}${diff}`;
        return li;
      }),
      Object.assign(document.createElement('li'), {
        className: 'cube-proper',
        textContent: `The doubler's view: no double ${cubeFigure(info, info.nd)}, double/take ${cubeFigure(info, info.dt)}, double/pass ${cubeFigure(info, info.dp)}: ${info.action}`,
      }),
    );
  } else {
  const gammon = gammonGame() ? 'gammon' : 'mars';
  hints.replaceChildren(
    ...S.hints.map((h, i) => {
      const li = document.createElement('li');
      // The figure the plays are ranked by leads (match-winning chances at
      // a match score, the cubeful equity with the cube), with each play's
      // difference from the best; the cubeless equity follows.
      const lead = h.worth || { kind: 'equity', value: h.equity };
      const best = S.hints[0].worth ? Number(S.hints[0].worth.value) : Number(S.hints[0].equity);
      const d = Number(lead.value) - best;
      const diff = i === 0 ? '' : ` (${d >= 0 ? '+' : '-'}${Math.abs(d).toFixed(lead.kind === 'mwc' ? 4 : 3)})`;
      const cubeless = h.worth ? `  cubeless equity ${h.equity}` : '';
      const p = h.probs;
      const chances = p ? `  win ${pct(p.win)}, ${gammon} ${pct(p.winmars)}/${pct(p.losemars)}${p.winbg !== undefined ? `, backgammon ${pct(p.winbg)}/${pct(p.losebg)}` : ''}` : '';
      li.textContent = `${h.play}  ${lead.kind} ${lead.value}${diff}${cubeless}${chances}`;
      li.tabIndex = 0;
      li.setAttribute('role', 'button');
      li.dataset.hint = String(i);
      li.title = 'Shown on the board; click (or Enter) to play it';
      li.addEventListener('mouseenter', () => showHint(i));
      li.addEventListener('focus', () => showHint(i));
      li.addEventListener('mouseleave', () => showHint(null));
      li.addEventListener('blur', () => showHint(null));
      li.addEventListener('click', () => guard(() => playHint(i)));
      li.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          ev.stopPropagation();
          guard(() => playHint(i));
        }
      });
      return li;
    }),
  );
  }
  const list = $('moves');
  list.replaceChildren(
    ...S.turns.map((t, i) => {
      const li = document.createElement('li');
      const text = describeTurn(t);
      // A turn being played shows as under way; a turn with no move never does.
      li.textContent = !t.cube && !t.dance && !t.steps.length && i === S.turns.length - 1 && S.phase !== 'over' ? text.replace(/pass$/, '…') : text;
      // Reviewed: the turn's mark (?! doubtful, ? error, ?? blunder), and a cube error's.
      const judged = S.review?.find((d) => d.at === i);
      const cubeErr = t.cube ? S.reviewCube?.find((c) => c.at === i && c.error) : null;
      const mark = judged ? lossMark(judged.loss) : cubeErr ? '??' : '';
      if (mark) {
        li.textContent += ` ${mark}`;
        li.dataset.mark = mark;
      }
      if (viewing ? i === S.view - 1 : i === S.turns.length - 1) li.className = viewing ? 'cur viewed' : 'cur';
      li.dataset.turn = String(i);
      li.tabIndex = -1;
      li.title = 'Show the position after this move';
      li.addEventListener('click', () => setView(i + 1));
      return li;
    }),
  );
  // The turn shown in view (scrolling the list only, never the page).
  const cur = list.querySelector('.cur');
  if (cur && viewing) list.scrollTop = cur.offsetTop - list.offsetTop - list.clientHeight / 2;
  else list.scrollTop = list.scrollHeight;
  $('record').textContent = recordText();
}

/** The person's move as buttons (on a phone, where a point of the board
 *  is narrower than a fingertip): the points a checker can leave, then
 *  where the picked one can go, in the board's numbers. */
function renderPad() {
  const pad = $('pad');
  const moving = S.phase === 'move' && S.view === null ? nextMoves() : new Map();
  const name = (key) => (key === 'bar' || key === 'off' ? key : String(toOwn(viewer(), Number(key))));
  const button = (text, key, attr) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.dataset[attr] = key;
    b.addEventListener('click', () => guard(() => activate(key)));
    return b;
  };
  if (!moving.size) {
    pad.replaceChildren();
    return;
  }
  if (S.selected && moving.has(S.selected)) {
    const dests = [...moving.get(S.selected).keys()].map((k) => button(`${name(S.selected)} → ${name(k)}`, k, 'padTo'));
    pad.replaceChildren(...dests, button('cancel', S.selected, 'padFrom'));
    return;
  }
  pad.replaceChildren(...[...moving.keys()].map((k) => button(`from ${name(k)}`, k, 'padFrom')));
}

// ------------------------------------------------------------------ record

function rulesTag() {
  const words = S.keys.filter((k) => k.name.startsWith('rules.')).map((k) => `${k.name.slice(6)}=${k.value}`);
  if (S.variant !== 'gulbara') words.unshift(`variant=${S.variant}`);
  return words.join(' ');
}

/** The game in the record format of `gulbara replay` (src/record.rs). */
function recordText() {
  const out = [];
  // A game of a rotating match says which game of the rotation it is.
  out.push(M && M.rotation ? `; [Event "gulbara in the browser: a rotating match (${M.rotation.join(',')}), game ${M.game + 1}"]` : '; [Event "gulbara in the browser"]');
  out.push(`; [Variant "${S.variant}"]`);
  out.push(`; [Rules "${rulesTag()}"]`);
  if (M && (M.cube || M.kind === 'match')) {
    out.push(`; [Session "${M.kind === 'match' ? `match ${M.length} cube ${onOff(M.cube)} crawford on` : `money cube ${onOff(M.cube)} jacoby off beavers off`}"]`);
  }
  out.push('');
  out.push(' Game 1');
  const names = WATCH ? { w: 'gulbara', b: 'gulbara' } : { [HUMAN]: 'you', [ENGINE]: 'gulbara' };
  out.push(` White : ${names.w.padEnd(32)} Black : ${names.b}`);
  if (M && M.kind === 'match') {
    // The score when this game started.
    const before = { ...M.score };
    if (S.scored) before[S.scored.winner] -= S.scored.points;
    out.push(` Score ${before.w}-${before.b} to ${M.length}${S.crawfordGame ? ' Crawford' : ''}`);
  }
  const first = S.turns.find((t) => t.side === 'w' && !t.label.startsWith('r'));
  const open = first ? first.label : '00';
  const opening = S.byWinner ? 'winner' : S.opening ? `${S.opening.w}-${S.opening.b}` : `${open[0]}-${open[1]}`;
  out.push(` Opening ${opening} starter ${S.starter === 'b' ? 'Black' : 'White'}`);
  const slots = [];
  let cur = [[], []];
  const hasRoll = (v) => v.some((x) => !x.startsWith('r'));
  // A turn the person is still playing (a stage under way) is left out: a
  // record holds whole turns, as `gulbara replay` reads them.
  const last = S.turns[S.turns.length - 1];
  const turns = S.phase === 'move' && last?.side === HUMAN ? S.turns.slice(0, -1) : S.turns;
  // A cube action goes before its doubler's roll, in the same slot.
  let cubeWord = '';
  for (const t of turns) {
    if (t.cube) {
      if (t.label.endsWith(':drop')) {
        const i = t.side === 'w' ? 0 : 1;
        if (i === 0 ? cur[1].length > 0 || hasRoll(cur[0]) : hasRoll(cur[1])) {
          slots.push(cur);
          cur = [[], []];
        }
        cur[i].push(t.label);
      } else cubeWord = `${t.label} `;
      continue;
    }
    const i = t.side === 'w' ? 0 : 1;
    const fresh = i === 0 ? cur[1].length > 0 || hasRoll(cur[0]) : hasRoll(cur[1]);
    if (fresh) {
      slots.push(cur);
      cur = [[], []];
    }
    cur[i].push(`${t.label.startsWith('r') ? '' : cubeWord}${t.label}: ${t.steps.join(' ') || 'pass'}`);
    if (!t.label.startsWith('r')) cubeWord = '';
  }
  if (cur[0].length || cur[1].length) slots.push(cur);
  slots.forEach(([w, b], n) => {
    const ws = w.length ? w.join(' ') : '--';
    const bs = b.length ? b.join(' ') : '--';
    out.push(`${String(n + 1).padStart(3)}) ${ws.padEnd(40)} ${bs}`);
  });
  const r = S.show?.result;
  const plural = (n) => (n === 1 ? '' : 's');
  if (S.drop) {
    const n = S.cube.value;
    out.push(` Wins ${n} point${plural(n)} (${S.drop === 'w' ? 'White' : 'Black'}) on a drop`);
  } else if (r && r.stuck) out.push(' Stuck: no points');
  else if (r) {
    const scored = r.points * S.cube.value;
    const extra = scored !== r.points ? `, scoring ${scored}` : '';
    out.push(` Wins ${r.points} point${plural(r.points)} (${r.winner === 'w' ? 'White' : 'Black'})${extra}`);
  } else out.push(' Unfinished');
  out.push('');
  return out.join('\n');
}

function download() {
  const blob = new Blob([recordText()], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `gulbara-${S.variant}.txt`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Saves `text` as the file `name`. */
function saveFile(name, text) {
  const blob = new Blob([text], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The game as a gnubg `.mat` file (the server writes it from the record). */
async function downloadMat() {
  const res = await fetch('/api/mat', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: recordText() });
  const j = await res.json().catch(() => ({ error: `the server answered ${res.status}` }));
  if (!res.ok) throw new Error(`no .mat of this game: ${j.error || res.status}`);
  saveFile(`gulbara-${S.variant}.mat`, j.mat);
  setStatus('The game saved as a gnubg .mat file.');
}

/** The move tokens of the first `k` turns (rolls and steps; cube actions have none). */
function tokensAfter(k) {
  const out = [];
  for (const t of S.turns.slice(0, k)) {
    if (t.cube) continue;
    if (/^[1-6][1-6]$/.test(t.label)) out.push(t.label);
    out.push(...t.steps);
  }
  return out;
}

/** The position shown (a position stepped through, or the game's) as an
 *  XGID and a gnubg ID, from the engine's `show`; copied to the clipboard
 *  where the browser allows, and shown under the buttons. */
async function copyIds() {
  if (game().gnubg !== 'yes') throw new Error(`XGIDs and gnubg IDs describe only the games gnubg plays (${Object.keys(GAMES).filter((k) => GAMES[k].gnubg === 'yes').map((k) => GAMES[k].name).join(', ')})`);
  if (S.phase === 'engine' || !engine.idle) return;
  const k = S.view;
  let lines;
  try {
    if (k !== null) {
      await must(positionLine(tokensAfter(k)));
      const c = cubeAfter(k);
      if (M.cube && !crawfordNow()) await must(`setcube value ${c.value} owner ${ownerWord(c.owner)}`);
    }
    lines = await engine.cmd('show');
  } finally {
    if (k !== null) {
      await must(positionLine());
      await syncCube();
    }
  }
  const xgid = lines.find((l) => l.startsWith('xgid '))?.slice(5);
  const gnubg = lines.find((l) => l.startsWith('gnubgid '))?.slice(8);
  if (!xgid || !gnubg) throw new Error('the engine gave no IDs for this position');
  // With the dice of the turn played from a position stepped through.
  const dice = k !== null ? diceAt(k) : null;
  const xg = dice ? xgid.replace(/^(XGID=[^:]*:[^:]*:[^:]*:[^:]*:)00:/, `$1${dice.dice[0]}${dice.dice[1]}:`) : xgid;
  const text = `${xg}\ngnubg ID ${gnubg}`;
  $('ids').textContent = text;
  try {
    await navigator.clipboard.writeText(text);
    setStatus('The XGID and the gnubg ID are copied.');
  } catch {
    setStatus('The XGID and the gnubg ID are below the buttons (the browser did not allow copying).');
  }
}

// ------------------------------------------------------------------ review

/** The page's turn index of each turn the record holds (cube actions are not turns there). */
function recordTurns() {
  const last = S.turns[S.turns.length - 1];
  const turns = S.phase === 'move' && last?.side === HUMAN ? S.turns.length - 1 : S.turns.length;
  const idx = [];
  for (let i = 0; i < turns; i++) if (!S.turns[i].cube) idx.push(i);
  return idx;
}

/** The depth a review judges at: the setting, else the engine's own
 *  (`engine.ply`, root-inclusive: 1 = gnubg's 0-ply ... 3 = its 2-ply). */
function reviewPly() {
  const chosen = Number(pref('reviewPly'));
  if (chosen >= 1 && chosen <= 3) return chosen;
  return Math.max(1, Math.min(3, Number(keyValue('engine.ply')) || 2));
}

/** Reviews the game as `gulbara analyse --ply N` does (the server runs the
 *  same analysis): every decision with the equity it lost and the best
 *  turns, every cube decision with the cube, score and Crawford state of
 *  its moment, the luck of each roll; the figures per side. */
async function review() {
  if (!S.turns.length) return;
  const ply = reviewPly();
  const started = performance.now();
  const tick = () => setStatus(`Reviewing the game at depth ${ply}… ${Math.round((performance.now() - started) / 1000)} s`);
  tick();
  const timer = setInterval(tick, 1000);
  let res;
  let j;
  try {
    res = await fetch(`/api/analyse?ply=${ply}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: recordText() });
    j = await res.json().catch(() => ({ error: `the server answered ${res.status}` }));
  } finally {
    clearInterval(timer);
  }
  if (!res.ok) throw new Error(j.error || `the server answered ${res.status}`);
  const idx = recordTurns();
  // The page's turn index of a record turn, and of the cube action before it.
  const cubeAt = (turn) => {
    const i = idx[turn - 1];
    if (i === undefined) return S.turns.length;
    let k = i;
    while (k > 0 && S.turns[k - 1].cube) k -= 1;
    return k;
  };
  S.review = j.decisions.map((d) => ({ ...d, at: idx[d.turn - 1] ?? null }));
  S.reviewCube = (j.cube || []).map((c) => ({ ...c, at: cubeAt(c.turn) }));
  S.reviewLuck = (j.luck || []).map((l) => ({ ...l, at: idx[l.turn - 1] ?? null }));
  S.reviewPly = j.ply;
  S.reviewPick = null;
  S.reviewStats = { w: sideStats('w'), b: sideStats('b') };
  setStatus(`Review at depth ${j.ply}: ${S.review.length} decisions, ${S.reviewCube.length} at the cube. ${statsWords(HUMAN)} Click a point of the graph or a line to see the position.`);
  renderReview();
  render();
}

/** Equity lost from which a decision is doubtful (?!), an error (?) and a blunder (??). */
const DOUBTFUL_LOSS = 0.02;
const ERROR_LOSS = 0.04;
const BLUNDER_LOSS = 0.08;
const lossKind = (loss) => (loss >= BLUNDER_LOSS ? 'blunder' : loss >= ERROR_LOSS ? 'error' : loss >= DOUBTFUL_LOSS ? 'doubtful' : 'ok');
const lossMark = (loss) => ({ blunder: '??', error: '?', doubtful: '?!', ok: '' })[lossKind(loss)];

/** A side's figures: checker, cube and overall error rates in mEMG per
 *  decision (thousandths of the cube's unit; match figures are in equity
 *  too), PR as XG defines it (500 × the average error over the decisions),
 *  the cube errors by kind, its luck and the luck-adjusted result. */
function sideStats(side) {
  const mine = S.review.filter((d) => d.side === side);
  const cube = S.reviewCube.filter((c) => c.side === side);
  const checkerLoss = mine.reduce((a, d) => a + d.loss, 0);
  const cubeLoss = cube.reduce((a, c) => a + c.loss, 0);
  const rate = (loss, n) => (n ? (1000 * loss) / n : 0);
  const count = (e) => cube.filter((c) => c.error === e).length;
  const luck = S.reviewLuck.filter((l) => l.side === side).reduce((a, l) => a + l.luck, 0);
  const luckOther = S.reviewLuck.filter((l) => l.side !== side).reduce((a, l) => a + l.luck, 0);
  const r = S.scored || (S.show?.result && !S.show.result.stuck ? { winner: S.show.result.winner, points: S.show.result.points * S.cube.value } : null);
  const result = r ? (r.winner === side ? r.points : -r.points) : null;
  return {
    decisions: mine.length,
    cubeDecisions: cube.length,
    checkerLoss,
    cubeLoss,
    checkerRate: rate(checkerLoss, mine.length),
    cubeRate: rate(cubeLoss, cube.length),
    overallRate: rate(checkerLoss + cubeLoss, mine.length + cube.length),
    pr: mine.length + cube.length ? (500 * (checkerLoss + cubeLoss)) / (mine.length + cube.length) : 0,
    blunders: mine.filter((d) => lossKind(d.loss) === 'blunder').length,
    errors: mine.filter((d) => lossKind(d.loss) === 'error').length,
    missedDoubles: count('missed double'),
    wrongDoubles: count('wrong double'),
    wrongTakes: count('wrong take'),
    wrongPasses: count('wrong pass'),
    luck,
    result,
    adjusted: result === null ? null : result - (luck - luckOther),
  };
}

const sideWord = (side) => (WATCH ? (side === 'w' ? 'White' : 'Black') : side === HUMAN ? 'You' : 'The engine');
const signed = (v, n = 3) => `${v >= 0 ? '+' : ''}${v.toFixed(n)}`;

/** A side's figures in one sentence. */
function statsWords(side) {
  const t = S.reviewStats[side];
  const res = t.result === null ? '' : `; result ${signed(t.result, 0)}, luck-adjusted ${signed(t.adjusted)}`;
  return `${sideWord(side)}: error rate ${t.overallRate.toFixed(1)} mEMG (checker ${t.checkerRate.toFixed(1)}, cube ${t.cubeRate.toFixed(1)}), PR ${t.pr.toFixed(1)}; ${t.blunders} blunder${t.blunders === 1 ? '' : 's'} (??), ${t.errors} error${t.errors === 1 ? '' : 's'} (?); luck ${signed(t.luck)}${res}.`;
}

/** The review's table of figures, a column per side. */
function statsTable() {
  const table = document.createElement('table');
  table.className = 'review-stats';
  const rows = [
    ['', (s) => (WATCH ? (s === 'w' ? 'White' : 'Black') : s === HUMAN ? 'you' : 'the engine')],
    ['Checker decisions', (s, t) => String(t.decisions)],
    ['Checker error rate (mEMG)', (s, t) => t.checkerRate.toFixed(1)],
    ['Cube decisions', (s, t) => String(t.cubeDecisions)],
    ['Cube error rate (mEMG)', (s, t) => t.cubeRate.toFixed(1)],
    ['Overall error rate (mEMG)', (s, t) => t.overallRate.toFixed(1)],
    ['PR', (s, t) => t.pr.toFixed(1)],
    ['Blunders (??) / errors (?)', (s, t) => `${t.blunders} / ${t.errors}`],
    ['Missed / wrong doubles', (s, t) => `${t.missedDoubles} / ${t.wrongDoubles}`],
    ['Wrong takes / passes', (s, t) => `${t.wrongTakes} / ${t.wrongPasses}`],
    ['Luck (equity)', (s, t) => signed(t.luck)],
    ['Result / luck-adjusted', (s, t) => (t.result === null ? '–' : `${signed(t.result, 0)} / ${signed(t.adjusted)}`)],
  ];
  for (const [name, f] of rows) {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = name;
    tr.append(th);
    for (const side of ['w', 'b']) {
      const td = document.createElement(name ? 'td' : 'th');
      td.textContent = f(side, S.reviewStats[side]);
      td.dataset.side = side;
      tr.append(td);
    }
    table.append(tr);
  }
  return table;
}

function renderReview() {
  const box = $('sec-review');
  box.hidden = !S.review;
  if (!S.review) return;
  const ds = S.review;
  $('review-summary').replaceChildren(statsTable());
  const svg = $('graph');
  svg.replaceChildren();
  const W = 320, H = 130, pad = 8;
  // White's equity after each decision; the scale fits the game's swings.
  const ys = ds.map((d) => (d.side === 'w' ? d.played_equity : -d.played_equity));
  const top = Math.max(1, ...ys.map(Math.abs));
  const x = (i) => pad + (ds.length <= 1 ? 0 : (i * (W - 2 * pad)) / (ds.length - 1));
  const y = (v) => H / 2 - (v / top) * (H / 2 - pad);
  svg.append(el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' }));
  svg.append(el('text', { x: 2, y: 12, class: 'axis-label' }, `White +${top.toFixed(1)}`));
  svg.append(el('text', { x: 2, y: H - 3, class: 'axis-label' }, `Black +${top.toFixed(1)}`));
  svg.append(el('polyline', { points: ys.map((v, i) => `${x(i)},${y(v)}`).join(' '), class: 'equity' }));
  // Each side's decisions in its own colour, the errors larger.
  ds.forEach((d, i) => {
    const kind = lossKind(d.loss);
    const c = el('circle', { cx: x(i), cy: y(ys[i]), r: kind === 'ok' || kind === 'doubtful' ? 2.5 : 5, class: `dot ${kind} ${d.side}`, 'data-decision': i, tabindex: kind === 'ok' ? -1 : 0 });
    c.append(el('title', {}, `${d.side === 'w' ? 'White' : 'Black'} ${d.roll ?? 'remainder'}: lost ${d.loss.toFixed(3)}`));
    c.addEventListener('click', () => reviewJump(i));
    svg.append(c);
  });
  const luckOf = (d) => S.reviewLuck.find((l) => l.at === d.at);
  const list = $('review-list');
  list.replaceChildren(
    ...ds.map((d, i) => {
      const li = document.createElement('li');
      const kind = lossKind(d.loss);
      li.className = `${kind} ${d.side}${S.reviewPick?.i === i ? ' viewed' : ''}`;
      li.dataset.decision = String(i);
      const who = d.side === 'w' ? 'White' : 'Black';
      const words = (play) => shownSteps(d.side, play.split(' ')).join(' ');
      const l = luckOf(d);
      const luck = l ? `; luck ${signed(l.luck)}` : '';
      li.textContent = `${who} ${d.roll ?? 'remainder'}: played ${words(d.played)}${lossMark(d.loss)} (${signed(d.played_equity)}); best ${words(d.best)} (${signed(d.best_equity)}); lost ${d.loss.toFixed(3)}${luck}${kind === 'ok' ? '' : ` — ${kind}`}`;
      li.addEventListener('click', () => reviewJump(i));
      return li;
    }),
  );
  const cubeList = $('review-cube');
  cubeList.replaceChildren(
    ...S.reviewCube.map((c, i) => {
      const li = document.createElement('li');
      li.className = c.error ? 'blunder' : 'ok';
      li.dataset.cube = String(i);
      const f = (v) => (c.mwc ? `${(v * 100).toFixed(2)}%` : signed(v));
      li.textContent = `${c.side === 'w' ? 'White' : 'Black'} before turn ${c.turn}: ${c.did}; no double ${f(c.nodouble)}, double/take ${f(c.doubletake)}, double/pass ${f(c.doublepass)}: ${c.proper}${c.error ? ` — ${c.error}, lost ${c.loss.toFixed(3)}` : ''}`;
      li.addEventListener('click', () => {
        S.reviewPick = null;
        setView(c.at);
      });
      return li;
    }),
  );
  $('review-cube-head').hidden = S.reviewCube.length === 0;
  renderReviewDetail();
}

/** The decision picked in the review: its best turns, the played one
 *  marked, each with its difference from the best; a click draws it. */
function renderReviewDetail() {
  const box = $('review-detail');
  const pick = S.reviewPick;
  const d = pick ? S.review?.[pick.i] : null;
  if (!d) {
    box.replaceChildren();
    return;
  }
  const words = (play) => shownSteps(d.side, play.split(' ')).join(' ');
  const cands = d.candidates?.length ? d.candidates : [{ play: d.best, equity: d.best_equity }];
  const rows = cands.map((c, j) => ({ ...c, j }));
  if (!rows.some((c) => c.play === d.played)) rows.push({ play: d.played, equity: d.played_equity, j: rows.length });
  const ol = document.createElement('ol');
  ol.className = 'candidates';
  for (const c of rows) {
    const li = document.createElement('li');
    li.dataset.candidate = String(c.j);
    li.tabIndex = 0;
    li.className = `${c.play === d.played ? 'played' : ''}${pick.cand === c.j ? ' viewed' : ''}`;
    const diff = c.j === 0 ? '' : ` (${signed(c.equity - rows[0].equity)})`;
    li.textContent = `${words(c.play)}  ${signed(c.equity)}${diff}${c.play === d.played ? '  ← played' : ''}`;
    const draw = () => {
      S.reviewPick = { i: pick.i, cand: c.j, play: c.play };
      render();
      renderReviewDetail();
    };
    li.addEventListener('click', draw);
    li.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        draw();
      }
    });
    ol.append(li);
  }
  const head = document.createElement('p');
  head.className = 'small';
  head.textContent = `${d.side === 'w' ? 'White' : 'Black'} ${d.roll ?? 'remainder'}: the best turns at depth ${S.reviewPly} (click one to see it on the board).`;
  box.replaceChildren(head, ol);
}

/** Shows the position a reviewed decision was made in, with its dice, the
 *  cube of that moment and the best turn drawn. */
function reviewJump(i) {
  const d = S.review?.[i];
  if (!d || d.at === null) return;
  S.reviewPick = { i, cand: 0, play: d.candidates?.[0]?.play ?? d.best };
  setView(d.at);
  setStatus(`${$('status').textContent} Review: ${d.side === 'w' ? 'White' : 'Black'} played ${shownSteps(d.side, d.played.split(' ')).join(' ')} and lost ${d.loss.toFixed(3)}; best was ${shownSteps(d.side, d.best.split(' ')).join(' ')}.`);
  renderReview();
}

/** The cube after the first `k` turns: its value and owner. */
function cubeAfter(k) {
  let cube = { value: 1, owner: 'center' };
  for (const t of S.turns.slice(0, k)) {
    const m = t.cube && t.label.match(/^double=(\d+):(\w+)$/);
    if (!m) continue;
    const n = Number(m[1]);
    if (m[2] === 'take') cube = { value: n, owner: other(t.side) };
    else if (m[2] === 'beaver') cube = { value: 2 * n, owner: other(t.side) };
  }
  return cube;
}

/** The dice of the turn played from the position after `k` turns (none
 *  when a cube action or a remainder comes next). */
function diceAt(k) {
  const t = S.turns[k];
  if (!t || t.cube || !/^[1-6][1-6]$/.test(t.label)) return null;
  return { side: t.side, dice: t.label[0] === t.label[1] ? [t.label[0], t.label[0], t.label[0], t.label[0]] : [t.label[0], t.label[1]] };
}

/** The evaluation line of a reviewed position. */
function reviewEvalText(k) {
  const d = S.review?.find((x) => x.at === k);
  if (!d) return null;
  const who = d.side === 'w' ? 'White' : 'Black';
  return `review at depth ${S.reviewPly}: ${who} to play ${d.roll ?? 'a remainder'}; best ${signed(d.best_equity)}, played ${signed(d.played_equity)} (${who}'s equity), lost ${d.loss.toFixed(3)}`;
}

// ------------------------------------------------------------- loading games

/** The player confirms before a game in progress is thrown away. */
let confirming = null;
function askDiscard(what) {
  const live = S && S.moves.length > 0 && S.phase !== 'over' && !S.show?.result && !S.drop && !M?.winner;
  if (!live) return Promise.resolve(true);
  if (confirming) confirming(false);
  $('confirm-text').textContent = `${what} throws the game in progress away.`;
  $('confirm').hidden = false;
  $('confirm-no').focus();
  return new Promise((resolve) => {
    confirming = (yes) => {
      confirming = null;
      $('confirm').hidden = true;
      resolve(yes);
    };
  });
}

/** Loads what the player pasted: an XGID, a gnubg ID, position text, or a
 *  game record (`gulbara replay`'s format or a gnubg .mat). */
async function loadText(raw) {
  const text = raw.trim();
  if (!text) {
    setStatus('Paste a record, a gnubg ID, an XGID or position text first.');
    return;
  }
  let base = null;
  if (/^XGID=/i.test(text) || /^[-a-oA-O]{26}:/.test(text)) base = `xgid ${text.split(/\s+/)[0]}`;
  else if (/^[A-Za-z0-9+/]{14}(:[A-Za-z0-9+/]{12})?$/.test(text)) base = `gnubgid ${text}`;
  else if (/^-?\d+(,-?\d+){23}\s+[wb]\b/.test(text)) base = `board ${text.replace(/\s+/g, ' ')}`;
  if (!(await askDiscard('Loading'))) return;
  if (base) await loadPosition(base);
  else await loadRecord(text);
}

async function switchVariant(variant) {
  if (S.variant === variant) return;
  $('variant').value = variant;
  await must(`set game.variant ${variant}`);
  // The engine's rotation ends with the game set: so does the page's.
  if (M && M.rotation) {
    M.rotation = null;
    showSession();
  }
  S = newState(variant);
  await loadKeys();
}

async function loadPosition(base) {
  // gnubg IDs and XGIDs describe backgammon boards (short nardy's too).
  if ((base.startsWith('gnubgid') || base.startsWith('xgid')) && game().gnubg !== 'yes') await switchVariant('backgammon');
  const lines = await engine.cmd(`position ${base}`);
  const err = lines.find((l) => l.startsWith('error '));
  if (err) throw new Error(err);
  S = Object.assign(newState(S.variant), { keys: S.keys, base, crawfordGame: M.crawford });
  await sync();
  S.last = 'Position loaded. ';
  render();
  await next();
}

async function loadRecord(text) {
  const res = await fetch('/api/record', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: text });
  const j = await res.json().catch(() => ({ error: `the server answered ${res.status}` }));
  if (!res.ok) throw new Error(`not a record the rules accept: ${j.error || res.status}`);
  const g = j.games[j.games.length - 1];
  if (!g) throw new Error('the record has no game');
  await switchVariant(j.variant);
  for (const w of String(j.rules || '').split(/\s+/).filter(Boolean)) {
    const [k, v] = w.split('=');
    if (k && v && k !== 'variant') await must(`set rules.${k} ${v}`);
  }
  await loadKeys();
  S = Object.assign(newState(j.variant), { keys: S.keys, starter: g.starter, moves: g.tokens.slice(), turns: g.turns, crawfordGame: M.crawford });
  S.floor = S.moves.length;
  S.marks = marksAfter(S.turns.length);
  await syncCube();
  await sync();
  // A finished game is shown, not scored again.
  if (S.show.result) S.scored = { winner: S.show.result.winner, points: 0 };
  S.last = `Game loaded (${g.turns.length} turns). `;
  render();
  await next();
  if (S.phase === 'over') {
    // A finished game: said so, with its result.
    const r = S.show.result;
    const result = r && !r.stuck ? `${r.winner === 'w' ? 'White' : 'Black'} won ${r.points} point${r.points === 1 ? '' : 's'}` : 'no points';
    setStatus(`Game loaded (${g.turns.length} turns): it is over, ${result}. Step through it (← →), press Review, or New game.`);
  }
}

// ------------------------------------------------------------------ input

/** Runs an action; a failure is shown, never thrown into the console. */
/** An engine error line in words a player reads. */
function sentence(msg) {
  const m = /^error (\w+) (.*)$/.exec(msg);
  if (!m) return msg;
  const what = {
    bad_value: 'the engine cannot take that',
    bad_command: 'the engine does not know that command',
    bad_state: 'that is not possible now',
    unknown_command: 'the engine does not know that command',
    bad_argument: 'the engine cannot take that',
  }[m[1]] || 'the engine refused';
  return `${what} (${m[2].replace(/^bad value: /, '')})`;
}

async function guard(f) {
  try {
    await f();
  } catch (e) {
    setStatus(`Error: ${sentence(e.message)}`);
    S.phase = S.phase === 'engine' ? 'idle' : S.phase;
    render();
  }
}

async function activate(key) {
  if (S.phase !== 'move' || S.view !== null) return;
  const moving = nextMoves();
  if (S.selected && key === S.selected) {
    S.selected = null;
  } else if (S.selected && moving.get(S.selected)?.has(key)) {
    await playSteps(moving.get(S.selected).get(key));
    return;
  } else if (moving.has(key)) {
    S.selected = key;
    render();
    // Tab (and the focus) go to its destinations first.
    $('board').querySelector('.point.dest')?.focus();
    return;
  } else {
    S.selected = null;
  }
  render();
}

/** A double-click moves the checker by the higher die it can use (else the lower). */
async function moveByHigher(key) {
  if (S.phase !== 'move' || S.view !== null) return;
  const dests = nextMoves().get(key);
  if (!dests) return;
  const singles = [...dests.values()].filter((path) => path.length === 1);
  if (!singles.length) return;
  const dice = currentDice() || [];
  const used = usedDice(dice, S.stage);
  const left = dice.filter((_, i) => !used[i]).map(Number);
  // A checker borne off by a larger die than its point needs takes that die.
  const die = (path) => {
    const n = stepPips(path[0]);
    const larger = left.filter((d) => d >= n);
    return stepTo(path[0]) === 'off' && larger.length ? Math.min(...larger) : n;
  };
  singles.sort((a, b) => die(b) - die(a));
  await playSteps(singles[0]);
}

let drag = null;
/** The last click on a point, for double-clicks. */
let lastTap = null;
const DOUBLE_CLICK_MS = 400;

function svgPoint(ev) {
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function setupBoardInput() {
  const svg = $('board');
  svg.addEventListener('pointerdown', (ev) => {
    const g = ev.target.closest('[data-point]');
    if (!g) return;
    drag = { key: g.getAttribute('data-point'), x: ev.clientX, y: ev.clientY, moved: false, ghost: null };
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag || S.phase !== 'move') return;
    if (!drag.moved && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 8 && nextMoves().has(drag.key)) {
      drag.moved = true;
      S.selected = drag.key;
      render();
      drag.ghost = el('circle', { r: G.R - 1, class: `checker ${HUMAN}`, 'pointer-events': 'none', opacity: 0.8 });
      svg.append(drag.ghost);
    }
    if (drag.ghost) {
      const p = svgPoint(ev);
      drag.ghost.setAttribute('cx', p.x);
      drag.ghost.setAttribute('cy', p.y);
    }
  });
  svg.addEventListener('pointerup', (ev) => {
    const d = drag;
    drag = null;
    if (!d) return;
    if (!d.moved) {
      // A second click (or tap) on the same point soon after the first is a
      // double-click: the board is drawn anew between them, so the
      // browser's own dblclick cannot be relied on.
      const now = performance.now();
      if (lastTap && lastTap.key === d.key && now - lastTap.at < DOUBLE_CLICK_MS) {
        lastTap = null;
        guard(() => moveByHigher(d.key));
        return;
      }
      lastTap = null;
      guard(async () => {
        await activate(d.key);
        // Only a click that picked the checker can begin a double-click (a
        // click that moved one there cannot).
        if (S.selected === d.key) lastTap = { key: d.key, at: now };
      });
      return;
    }
    d.ghost?.remove();
    const under = document.elementFromPoint(ev.clientX, ev.clientY)?.closest?.('[data-point]');
    const key = under?.getAttribute('data-point');
    guard(() => (key && key !== d.key ? activate(key) : Promise.resolve(render())));
  });
  svg.addEventListener('pointercancel', () => {
    drag?.ghost?.remove();
    drag = null;
  });
  svg.addEventListener('keydown', (ev) => {
    const g = ev.target.closest?.('[data-point]');
    // With the turn whole, Enter ends it (the page's handler), wherever the focus is.
    if (g && S.phase === 'move' && (ev.key === 'Enter' || ev.key === ' ')) {
      ev.preventDefault();
      ev.stopPropagation();
      guard(() => activate(g.getAttribute('data-point')));
    }
  });
}

function setupControls() {
  $('roll').addEventListener('click', () => guard(roll));
  $('undo').addEventListener('click', () => guard(undo));
  $('done').addEventListener('click', () => guard(done));
  $('hint').addEventListener('click', () => guard(hint));
  $('double').addEventListener('click', () => guard(humanDouble));
  $('take').addEventListener('click', () => guard(() => answer('take')));
  $('drop').addEventListener('click', () => guard(() => answer('drop')));
  for (const id of ['session-kind', 'match-length', 'cube', 'rotation']) {
    $(id).addEventListener('change', () =>
      guard(async () => {
        if (await askDiscard('A new session')) {
          await newSession();
          return;
        }
        // Kept: the controls show the session being played.
        showSession();
        $('cube').value = M.cube ? 'on' : 'off';
      }),
    );
  }
  $('newgame').addEventListener('click', () => guard(askedNewGame));
  $('confirm-yes').addEventListener('click', () => confirming?.(true));
  $('confirm-no').addEventListener('click', () => confirming?.(false));
  $('hist-prev').addEventListener('click', () => setView((S.view ?? S.turns.length) - 1));
  $('hist-next').addEventListener('click', () => S.view !== null && setView(S.view + 1));
  $('hist-live').addEventListener('click', () => setView(null));
  $('review').addEventListener('click', () => guard(review));
  $('load').addEventListener('click', () => guard(() => loadText($('load-text').value)));
  $('rules-link').addEventListener('click', () => {
    $('rules-link').href = `/rules.html#${S.variant}`;
  });
  $('pref-side').value = prefs.side;
  $('pref-side').addEventListener('change', (ev) =>
    guard(async () => {
      if (!(await askDiscard('Changing sides'))) {
        ev.target.value = WATCH ? 'watch' : HUMAN;
        return;
      }
      prefs.side = ev.target.value;
      delete visit.side;
      savePrefs();
      await newGame();
    }),
  );
  const choices = { starts: 'starts', numbering: 'numbering', anim: 'anim', reviewPly: 'reviewPly' };
  for (const [id, name] of Object.entries(choices)) {
    $(`pref-${id}`).value = String(prefs[name]);
    $(`pref-${id}`).addEventListener('change', (ev) => {
      prefs[name] = name === 'anim' ? Number(ev.target.value) : ev.target.value;
      delete visit[name];
      savePrefs();
      render();
    });
  }
  for (const name of ['autoForced', 'autoBearoff']) {
    $(`pref-${name}`).checked = !!prefs[name];
    $(`pref-${name}`).addEventListener('change', (ev) => {
      prefs[name] = ev.target.checked;
      savePrefs();
    });
  }
  $('download').addEventListener('click', download);
  $('download-mat').addEventListener('click', () => guard(downloadMat));
  $('copy-ids').addEventListener('click', () => guard(copyIds));
  $('variant').addEventListener('change', changeVariant);
  $('settings').addEventListener('submit', (ev) => ev.preventDefault());
  $('dice-input').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      guard(roll);
    }
  });
  $('reconnect').addEventListener('click', () =>
    guard(async () => {
      const keep = S;
      await connect();
      await engine.cmd(`set game.variant ${keep.variant}`);
      for (const k of keep.keys) {
        if (k.name.startsWith('rules.') || k.name === 'engine.ply') await engine.cmd(`set ${k.name} ${k.value}`);
      }
      await must(sessionLine());
      await syncCube();
      await sync();
      render();
      await next();
    }),
  );
  document.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!$('confirm').hidden) {
      if (ev.key === 'Escape') confirming?.(false);
      return;
    }
    if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
      ev.preventDefault();
      if (ev.key === 'ArrowLeft') setView((S.view ?? S.turns.length) - 1);
      else if (S.view !== null) setView(S.view + 1);
      return;
    }
    if (ev.key === 'Escape' && S.view !== null) {
      setView(null);
      return;
    }
    const act = { r: roll, u: undo, h: hint, n: askedNewGame, d: humanDouble }[ev.key];
    if (act) {
      ev.preventDefault();
      guard(act);
    } else if (ev.key === 'Enter' && !(t instanceof HTMLButtonElement) && S.phase === 'done') {
      ev.preventDefault();
      guard(done);
    } else if (ev.key === 'Escape') {
      S.selected = null;
      render();
    }
  });
  // The server closes sessions idle for a while: a quiet line keeps an open page's alive.
  // (`?keepalive=MS` sets its period, for tests.)
  const period = Math.max(50, Number(params.get('keepalive')) || 45000);
  setInterval(() => {
    if (engine && engine.idle && engine.ws.readyState === WebSocket.OPEN) engine.ping().catch(() => {});
  }, period);
}

async function main() {
  if (prefs.played) document.body.classList.add('played');
  S = newState('gulbara');
  render();
  setupBoardInput();
  setupControls();
  await guard(async () => {
    await connect();
    if (await restore()) return;
    // The game played last time (Gul bara, the engine's own, on a first visit).
    const first = VARIANT_NAMES[prefs.variant] ? prefs.variant : 'gulbara';
    S = newState(first);
    $('variant').value = first;
    await engine.cmd(`set game.variant ${first}`);
    await loadKeys();
    await newSession();
  });
}

// Read-only views for the browser tests (which act only by clicking and typing).
window.gulbara = {
  state: () => S,
  session: () => M,
  /** The last protocol lines, sent (`> `) and received (`< `). */
  log: () => protocolLog.slice(),
  errors: () => pageErrors.slice(),
  /** The board's key of a point in the person's numbering (`bar` and `off` as they are). */
  key: (p) => keyOf(String(p)),
  /** Sends one protocol line to the engine and resolves to its answer's lines (for the console). */
  command: (line) => engine.cmd(String(line)),
};

main();
