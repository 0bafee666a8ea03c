// The game record: our text format, gnubg's .mat, XGID and gnubg ID.
import { crawfordNow, must, onOff, ownerWord, positionLine, syncCube } from './game.js';
import { cubeAfter, diceAt } from './review.js';
import { $, ENGINE, engine, game, GAMES, HUMAN, M, S, setStatus, WATCH } from './state.js';

// ------------------------------------------------------------------ record

export function rulesTag() {
  const words = S.keys.filter((k) => k.name.startsWith('rules.')).map((k) => `${k.name.slice(6)}=${k.value}`);
  if (S.variant !== 'gulbara') words.unshift(`variant=${S.variant}`);
  return words.join(' ');
}

/** The game in the record format of `gulbara replay` (src/record.rs). */
export function recordText() {
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

export function download() {
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
export function saveFile(name, text) {
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
export async function downloadMat() {
  const res = await fetch('/api/mat', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: recordText() });
  const j = await res.json().catch(() => ({ error: `the server answered ${res.status}` }));
  if (!res.ok) throw new Error(`no .mat of this game: ${j.error || res.status}`);
  saveFile(`gulbara-${S.variant}.mat`, j.mat);
  setStatus('The game saved as a gnubg .mat file.');
}

/** The move tokens of the first `k` turns (rolls and steps; cube actions have none). */
export function tokensAfter(k) {
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
export async function copyIds() {
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
