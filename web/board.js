// The board: position text, steps applied to a board, and the drawing.
import { crawfordNow, keyOf, multisetMinus, nextMoves, playSteps, stepFrom, stepTo } from './game.js';
import { renderPanel } from './panel.js';
import { parsePosition } from './protocol.js';
import { cubeAfter, diceAt, reviewEvalText } from './review.js';
import { $, hitting, HUMAN, M, other, pinning, pref, S, toOwn, toWhite, viewer, WATCH } from './state.js';

export const cloneBoard = (b) => ({ pts: b.pts.slice(), bar: { ...b.bar }, off: { ...b.off }, pins: { ...(b.pins || {}) } });
export const pinsKey = (b) => Object.keys(b.pins || {}).sort((x, y) => x - y).map((p) => `${p}${b.pins[p]}`).join(',');
export const boardKey = (b) => `${b.pts.slice(1).join(',')} bar ${b.bar.w},${b.bar.b} off ${b.off.w},${b.off.b} pins ${pinsKey(b)}`;

/** The board drawn step by step must be the engine's after the play: a
 *  difference is a bug of this page, reported on the console. */
export function checkBoard(drawn, what) {
  if (boardKey(drawn) !== boardKey(S.board)) {
    console.error(`board drawn after ${what} (${boardKey(drawn)}) is not the engine's (${boardKey(S.board)})`);
  }
}
export const stripHit = (s) => s.replace(/\*/g, '');

/** Applies one step of `side` (in its numbering) to board `b`; returns
 *  whether it hit. */
export function applyStep(b, side, step) {
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

export function pips(b) {
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
export function boardToken(side, tok) {
  if (side === viewer()) return tok;
  return tok.replace(/(^|\/)(\d+)/g, (_, pre, n) => `${pre}${toOwn(viewer(), toWhite(side, Number(n)))}`);
}

/** Steps of `side` as the move list shows them: in the board's numbering
 *  (White's) unless the player chose each side's own. */
export function shownSteps(side, steps) {
  if (pref('numbering') !== 'board') return steps;
  return steps.map((t) => boardToken(side, t));
}

/** The board after the first `k` turns of the game. */
export function boardAfter(k) {
  if (!S.startBoard) return S.board;
  const b = cloneBoard(S.startBoard);
  for (const t of S.turns.slice(0, k)) for (const st of t.steps) applyStep(b, t.side, st);
  return b;
}

/** The last turn of each side up to the first `k` turns (the marks drawn). */
export function marksAfter(k) {
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

// ----------------------------------------------------------------- drawing

export const SVGNS = 'http://www.w3.org/2000/svg';
export function el(tag, attrs = {}, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// Geometry (viewBox 720 x 520): points 13..24 along the top, 12..1 along
// the bottom (White's home bottom right), the bar between the halves, the
// borne-off trays on the right.
export const G = { L: 10, W: 46, BW: 40, TOP: 28, BOT: 492, H: 190, R: 20, TRAY: 612 };
export const colX = (c) => G.L + c * G.W + (c >= 6 ? G.BW : 0);
export const BAR_X = G.L + 6 * G.W;

/** The column and row of White's point `p` on the board as drawn. */
export function pointCol(p) {
  return ownCol(toOwn(viewer(), p));
}

/** The column and row of the viewer's own point `p`. */
export function ownCol(p) {
  return p >= 13 ? { col: p - 13, top: true } : { col: 12 - p, top: false };
}

export function checker(cx, cy, side, label) {
  const g = el('g');
  g.append(el('circle', { cx, cy, r: G.R - 1, class: `checker ${side}` }));
  if (label) g.append(el('text', { x: cx, y: cy, class: `count ${side}` }, label));
  return g;
}

/** A stack: up to five checkers from the edge, the count on the last. */
export function stack(g, cx, n, side, top, fromY) {
  const shown = Math.min(n, 5);
  for (let i = 0; i < shown; i++) {
    const cy = top ? fromY + G.R + i * 2 * G.R : fromY - G.R - i * 2 * G.R;
    g.append(checker(cx, cy, side, i === shown - 1 && n > 1 ? String(n) : ''));
  }
}

export function describe(n) {
  if (n === 0) return 'empty';
  return `${Math.abs(n)} ${n > 0 ? 'white' : 'black'}`;
}

export function render() {
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
export function markAt(key, side) {
  if (key === 'bar') return { x: BAR_X + G.BW / 2, y: side === viewer() ? 300 : 220 };
  if (key === 'off') return { x: G.TRAY + 49, y: side === viewer() ? 470 : 50 };
  const { col, top } = pointCol(Number(key));
  return { x: colX(col) + G.W / 2, y: top ? G.TOP + 10 : G.BOT - 10 };
}

/** Each side's last turn on the board: a line from each step's point to its
 *  destination, a ring where it left, a dot where it landed, × on a hit. */
export function drawMarks(svg, marks) {
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
export function drawPlay(svg, side, play, cls) {
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
export function showHint(i) {
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
export async function playHint(i) {
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

export function currentDice() {
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
export function stepPips(step) {
  const at = (p) => (p === 'bar' ? 25 : p === 'off' ? 0 : Number(p.replace('*', '')));
  return at(stepFrom(step)) - at(stepTo(step));
}

/**
 * Which of `dice` the steps played used: each step the die of its own
 * number; a checker borne off with a larger die than its point needs, the
 * smallest such die left.
 */
export function usedDice(dice, steps) {
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

export function drawDice(svg) {
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
export function paintDice(svg, dice, side, used) {
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
