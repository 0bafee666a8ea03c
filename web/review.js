// The review: every decision judged by the server's analysis, the figures
// per side, the graph, and the positions shown as they were.
import { el, render, shownSteps } from './board.js';
import { setView } from './game.js';
import { recordText } from './record.js';
import { $, HUMAN, keyValue, other, pref, S, setStatus, WATCH } from './state.js';

// ------------------------------------------------------------------ review

/** The page's turn index of each turn the record holds (cube actions are not turns there). */
export function recordTurns() {
  const last = S.turns[S.turns.length - 1];
  const turns = S.phase === 'move' && last?.side === HUMAN ? S.turns.length - 1 : S.turns.length;
  const idx = [];
  for (let i = 0; i < turns; i++) if (!S.turns[i].cube) idx.push(i);
  return idx;
}

/** The depth a review judges at: the setting, else the engine's own
 *  (`engine.ply`, root-inclusive: 1 = gnubg's 0-ply ... 3 = its 2-ply). */
export function reviewPly() {
  const chosen = Number(pref('reviewPly'));
  if (chosen >= 1 && chosen <= 3) return chosen;
  return Math.max(1, Math.min(3, Number(keyValue('engine.ply')) || 2));
}

/** Reviews the game as `gulbara analyse --ply N` does (the server runs the
 *  same analysis): every decision with the equity it lost and the best
 *  turns, every cube decision with the cube, score and Crawford state of
 *  its moment, the luck of each roll; the figures per side. */
export async function review() {
  if (!S.turns.length) return;
  const ply = reviewPly();
  const started = performance.now();
  // The server tells each turn judged: k of the game's n.
  let done = null;
  const tick = () => {
    const secs = Math.round((performance.now() - started) / 1000);
    const part = done ? ` ${done[0]}/${done[1]} turns judged,` : '';
    setStatus(`Reviewing the game at depth ${ply}…${part} ${secs} s`);
    const bar = $('review-progress');
    bar.hidden = false;
    if (done) {
      bar.max = done[1];
      bar.value = done[0];
    } else bar.removeAttribute('value');
  };
  tick();
  const timer = setInterval(tick, 1000);
  let j;
  try {
    j = await analyseStreaming(ply, (k, n) => {
      done = [k, n];
      tick();
    });
  } finally {
    clearInterval(timer);
    $('review-progress').hidden = true;
  }
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
  // Luck and results in the session's unit: points (money play, each
  // roll's luck times the cube of its moment) or match-winning chances.
  S.reviewUnit = j.luck_unit === 'mwc' ? 'mwc' : 'points';
  S.reviewResult = j.result_scaled ?? null;
  S.reviewPly = j.ply;
  S.reviewPick = null;
  S.reviewStats = { w: sideStats('w'), b: sideStats('b') };
  setStatus(`Review at depth ${j.ply}: ${S.review.length} decisions, ${S.reviewCube.length} at the cube. ${statsWords(HUMAN)} Click a point of the graph or a line to see the position.`);
  renderReview();
  render();
}

/** Asks the server to analyse the game at depth `ply`, telling
 *  `progress(k, n)` as each of its n turns is judged; resolves to the
 *  analysis. The answer is JSON lines: `{"progress":[k,n]}` ..., then
 *  `{"result":{...}}` or `{"error":"..."}`. */
async function analyseStreaming(ply, progress) {
  const res = await fetch(`/api/analyse?ply=${ply}&progress=1`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: recordText() });
  if (!res.ok || !res.body) throw new Error(`the server answered ${res.status}`);
  const reader = res.body.getReader();
  const text = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    buf += text.decode(value ?? new Uint8Array(), { stream: !done });
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      const m = JSON.parse(line);
      if (m.progress) progress(m.progress[0], m.progress[1]);
      else if (m.error) throw new Error(m.error);
      else if (m.result) return m.result;
    }
    if (done) throw new Error('the analysis ended without a result');
  }
}

/** Equity lost from which a decision is doubtful (?!), an error (?) and a blunder (??). */
export const DOUBTFUL_LOSS = 0.02;
export const ERROR_LOSS = 0.04;
export const BLUNDER_LOSS = 0.08;
export const lossKind = (loss) => (loss >= BLUNDER_LOSS ? 'blunder' : loss >= ERROR_LOSS ? 'error' : loss >= DOUBTFUL_LOSS ? 'doubtful' : 'ok');
export const lossMark = (loss) => ({ blunder: '??', error: '?', doubtful: '?!', ok: '' })[lossKind(loss)];

/** A side's figures: checker, cube and overall error rates in mEMG per
 *  decision (thousandths of the cube's unit; match figures are in equity
 *  too), PR as XG defines it (500 × the average error over the decisions),
 *  the cube errors by kind, its luck and the luck-adjusted result. */
export function sideStats(side) {
  const mine = S.review.filter((d) => d.side === side);
  const cube = S.reviewCube.filter((c) => c.side === side);
  const checkerLoss = mine.reduce((a, d) => a + d.loss, 0);
  const cubeLoss = cube.reduce((a, c) => a + c.loss, 0);
  const rate = (loss, n) => (n ? (1000 * loss) / n : 0);
  const count = (e) => cube.filter((c) => c.error === e).length;
  // Each roll's luck scaled as gnubg does: times the cube of its moment
  // (points), or the match-winning chances it gained.
  const luck = S.reviewLuck.filter((l) => l.side === side).reduce((a, l) => a + l.scaled, 0);
  const luckOther = S.reviewLuck.filter((l) => l.side !== side).reduce((a, l) => a + l.scaled, 0);
  // The result in the same unit: White's from the server's analysis.
  const white = S.reviewResult;
  const result = white === null || white === undefined ? null : side === 'w' ? white : -white;
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

export const sideWord = (side) => (WATCH ? (side === 'w' ? 'White' : 'Black') : side === HUMAN ? 'You' : 'The engine');
export const signed = (v, n = 3) => `${v >= 0 ? '+' : ''}${v.toFixed(n)}`;

/** Luck or a result in the review's unit: points (money play) or
 *  match-winning chances as a percentage (a match). */
export const inUnit = (v, n = 3) => (S.reviewUnit === 'mwc' ? `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)}%` : signed(v, n));
/** The review's unit in words. */
const unitWords = () => (S.reviewUnit === 'mwc' ? 'MWC' : 'points');

/** A side's figures in one sentence. */
export function statsWords(side) {
  const t = S.reviewStats[side];
  const res = t.result === null ? '' : `; result ${inUnit(t.result, 0)}, luck-adjusted ${inUnit(t.adjusted)}`;
  return `${sideWord(side)}: error rate ${t.overallRate.toFixed(1)} mEMG (checker ${t.checkerRate.toFixed(1)}, cube ${t.cubeRate.toFixed(1)}), PR ${t.pr.toFixed(1)}; ${t.blunders} blunder${t.blunders === 1 ? '' : 's'} (??), ${t.errors} error${t.errors === 1 ? '' : 's'} (?); luck ${inUnit(t.luck)} ${unitWords()}${res}.`;
}

/** The review's table of figures, a column per side. */
export function statsTable() {
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
    [`Luck (${unitWords()})`, (s, t) => inUnit(t.luck)],
    [`Result / luck-adjusted (${unitWords()})`, (s, t) => (t.result === null ? '–' : `${inUnit(t.result, 0)} / ${inUnit(t.adjusted)}`)],
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

export function renderReview() {
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
      const luck = l ? `; luck ${inUnit(l.scaled)}${S.reviewUnit === 'points' && l.cube > 1 ? ` (cube ${l.cube})` : ''}` : '';
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
export function renderReviewDetail() {
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
export function reviewJump(i) {
  const d = S.review?.[i];
  if (!d || d.at === null) return;
  S.reviewPick = { i, cand: 0, play: d.candidates?.[0]?.play ?? d.best };
  setView(d.at);
  setStatus(`${$('status').textContent} Review: ${d.side === 'w' ? 'White' : 'Black'} played ${shownSteps(d.side, d.played.split(' ')).join(' ')} and lost ${d.loss.toFixed(3)}; best was ${shownSteps(d.side, d.best.split(' ')).join(' ')}.`);
  renderReview();
}

/** The cube after the first `k` turns: its value and owner. */
export function cubeAfter(k) {
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
export function diceAt(k) {
  const t = S.turns[k];
  if (!t || t.cube || !/^[1-6][1-6]$/.test(t.label)) return null;
  return { side: t.side, dice: t.label[0] === t.label[1] ? [t.label[0], t.label[0], t.label[0], t.label[0]] : [t.label[0], t.label[1]] };
}

/** The evaluation line of a reviewed position. */
export function reviewEvalText(k) {
  const d = S.review?.find((x) => x.at === k);
  if (!d) return null;
  const who = d.side === 'w' ? 'White' : 'Black';
  return `review at depth ${S.reviewPly}: ${who} to play ${d.roll ?? 'a remainder'}; best ${signed(d.best_equity)}, played ${signed(d.played_equity)} (${who}'s equity), lost ${d.loss.toFixed(3)}`;
}
