// The page's shared state and small helpers: the person's side, the
// settings kept in the browser, the game being played (`S`), the session
// (`M`), the engine connection, and what each game is (from the engine).
import { parseVariants } from './protocol.js';

export let HUMAN = 'w';
export let ENGINE = 'b';
export let WATCH = false;
export const params = new URLSearchParams(location.search);

// The player's own settings, kept in the browser across games and reloads.
export const PREFS_KEY = 'gulbara.prefs';
export const GAME_KEY = 'gulbara.game';
export const prefs = Object.assign(
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
export const visit = {};
if (params.has('anim')) visit.anim = Math.max(0, Number(params.get('anim')) || 0);
if (params.get('start') === 'you') visit.starts = 'you';
if (['w', 'b', 'watch'].includes(params.get('side'))) visit.side = params.get('side');
/** A setting: this visit's from the address, else the player's. */
export const pref = (name) => visit[name] ?? prefs[name];

/** Takes the sides from the settings (at each new game). */
export function takeSides() {
  setSides(pref('side'));
}

/** The sides of `side` (`w`, `b` or `watch`): the person's, the engine's. */
export function setSides(side) {
  WATCH = side === 'watch';
  HUMAN = side === 'b' ? 'b' : 'w';
  ENGINE = other(HUMAN);
}
export const RESTORE = params.get('saved') !== 'off';
// ?seed=N: the dice not typed come from a seeded generator (to replay a
// game's dice), else from Math.random.
export const random = (() => {
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
export function markPlayed() {
  document.body.classList.add('played');
  if (!prefs.played) {
    prefs.played = true;
    savePrefs();
  }
}

export function savePrefs() {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // A browser without storage keeps the settings for this visit only.
  }
}

// Everything that would reach the console as an error is also kept here,
// so the browser tests can require that there is none.
export const pageErrors = [];
window.addEventListener('error', (ev) => pageErrors.push(`error: ${ev.message || ev.target?.src || ev.type}`), true);
window.addEventListener('unhandledrejection', (ev) => pageErrors.push(`unhandled: ${ev.reason}`));
document.addEventListener('securitypolicyviolation', (ev) => pageErrors.push(`csp: ${ev.violatedDirective} ${ev.blockedURI}`));
export const consoleError = console.error.bind(console);
console.error = (...args) => {
  pageErrors.push(`console: ${args.join(' ')}`);
  consoleError(...args);
};

export const $ = (id) => document.getElementById(id);
export const other = (side) => (side === 'w' ? 'b' : 'w');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------- rules
// Only what drawing needs: where a step of either side lands in White's
// numbering. Everything else (what is legal, when a stage ends) the
// engine says.

export let S = null; // the page's state, set by newState()
/** Sets the page's state (modules read `S`, only this sets it). */
export function setS(v) {
  S = v;
  return v;
}

/** What the board needs to know of each game, from the engine's variant
 *  table (`variants`, asked once on connect): its name (`display`), which
 *  way the sides run (`direction`), what landing on a lone checker does
 *  (`landing`: blocked, hit or pin), what a double win is called
 *  (`doublewin`), whether doublets escalate, the default cube, whether
 *  gnubg's formats describe it, and its `rules.*` options with their
 *  values and defaults. Filled in place by `loadVariants`. */
export const GAMES = {};
/** Each game's name for people, by its protocol name (filled with GAMES). */
export const VARIANT_NAMES = {};

/** Asks the engine what its games are (once a connection is open). */
export async function loadVariants() {
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
export const game = () => GAMES[S.variant] || {};
export const hitting = () => game().landing === 'hit';
export const pinning = () => game().landing === 'pin';
export const opposite = () => game().direction === 'opposite';
/** Whether this game calls a double win a gammon (else a mars). */
export const gammonGame = () => game().doublewin === 'gammon';
/** Whether doublets escalate in this game (Gul bara). */
export const escalating = () => game().escalating === 'yes';

/** The mover's point `q` in White's numbering (NOTATION.md, "Numbering"). */
export function toWhite(side, q) {
  if (side === 'w') return q;
  if (opposite()) return 25 - q;
  return q <= 12 ? q + 12 : q - 12;
}

/** A point in White's numbering in `side`'s own numbering. */
export function toOwn(side, p) {
  if (side === 'w') return p;
  if (opposite()) return 25 - p;
  return p > 12 ? p - 12 : p + 12;
}

// ------------------------------------------------------------------- state

export function newState(variant) {
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

export const keyValue = (name) => S.keys.find((k) => k.name === name)?.value;

/** The side whose home is drawn at the bottom right, its numbers on the
 *  points: the person's (White's when watching). The board is turned for
 *  a person playing Black. */
export const viewer = () => (WATCH ? 'w' : HUMAN);


export function setStatus(text) {
  $('status').textContent = text;
}


export let engine = null;
/** Sets the engine connection. */
export function setEngine(e) {
  engine = e;
}


/** The session: money games or a match, the cube, the score. */
export let M = null;
/** Sets the session. */
export function setM(m) {
  M = m;
  return m;
}
