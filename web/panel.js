// The side panel: the game's facts, the controls' states, hints, the move
// list and the phone's move buttons.
import { playHint, showHint } from './board.js';
import { cubeFigure, describeTurn, mayDouble, nextMoves, sessionText, setView } from './game.js';
import { activate, guard } from './input.js';
import { recordText } from './record.js';
import { lossMark } from './review.js';
import { $, escalating, gammonGame, HUMAN, keyValue, M, other, S, toOwn, VARIANT_NAMES, viewer, WATCH } from './state.js';

export function stageText() {
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

export function escalationText() {
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

export function renderPanel(pp) {
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
export function renderPad() {
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
