// The game flow: the session, the cube, whose turn, the person's moves,
// the engine's, and games kept or loaded.
import { applyStep, checkBoard, cloneBoard, marksAfter, render, shownSteps, stripHit } from './board.js';
import { stageText } from './panel.js';
import { Engine, parseCubeInfo, parseKey, parseShow } from './protocol.js';
import { buildOptions } from './settings.js';
import { $, ENGINE, engine, game, GAME_KEY, GAMES, gammonGame, hitting, HUMAN, keyValue, loadVariants, M, markPlayed, newState, opposite, other, pref, random, RESTORE, S, setEngine, setM, setS, setSides, setStatus, sleep, takeSides, toOwn, toWhite, VARIANT_NAMES, WATCH } from './state.js';

/** Steps through the game: shows the position after `k` turns, read-only;
 *  `null` (or the last position) goes back to the game. */
export function setView(k) {
  if (k === null || k >= S.turns.length) S.view = null;
  else S.view = Math.max(0, k);
  S.selected = null;
  if (S.view === null) setStatus(`${S.last}Back to the game.`);
  else setStatus(`Move ${S.view} of ${S.turns.length}, ${S.view ? describeTurn(S.turns[S.view - 1]) : 'the start'} (read-only): ← → to step, Esc to go back to the game.`);
  render();
}

export function describeTurn(t) {
  const who = t.side === 'w' ? 'White' : 'Black';
  if (t.cube) {
    const [, offered, word] = t.label.match(/^double=(\d+):(\w+)$/) || [];
    const answerer = t.side === 'w' ? 'Black' : 'White';
    return `${who} doubles to ${offered}: ${answerer} ${word === 'drop' ? 'drops' : word === 'beaver' ? 'beavers' : 'takes'}`;
  }
  if (t.dance) return `${who} ${t.label}: cannot move`;
  return `${who} ${t.label}: ${shownSteps(t.side, t.steps).join(' ') || 'pass'}`;
}

// ------------------------------------------------------------- the session

export function onUnsolicited(line) {
  // Notices of the server (idle timeout, shutdown) come without a request.
  if (line.startsWith('error ') || line.startsWith('info string')) setStatus(`Engine: ${line}`);
}

export function onClose() {
  $('conn').textContent = 'disconnected';
  $('reconnect').hidden = false;
  setStatus('The connection to the engine closed. Press Reconnect to go on with this game.');
  S.phase = 'idle';
  render();
}

export async function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  setEngine(new Engine(url, onUnsolicited, onClose));
  await engine.opened;
  $('conn').textContent = 'connected';
  $('reconnect').hidden = true;
  const lines = await engine.cmd('ubgi');
  const name = lines.find((l) => l.startsWith('id name '));
  if (name) $('conn').textContent = `connected to ${name.slice(8)}`;
  await loadVariants();
}

/** The `position` line of the game so far. */
export function positionLine(moves = S.moves) {
  const base = S.base === 'startpos' && S.starter === 'b' ? 'startpos b' : S.base;
  return `position ${base}${moves.length ? ` moves ${moves.join(' ')}` : ''}`;
}

/** Sends the whole game and reads the state back. */
export async function sync() {
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
export async function startBoardFromEngine() {
  await must(positionLine([]));
  S.startBoard = cloneBoard(parseShow(await engine.cmd('show')).board);
  await must(positionLine());
}

// ------------------------------------------------------------ keeping games
// The game, its session and its settings are kept in the browser after
// every change, and taken up again when the page is loaded.

export function save() {
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
export async function restore() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(GAME_KEY) || 'null');
  } catch {
    kept = null;
  }
  const g = kept?.game;
  if (!RESTORE || !g || !VARIANT_NAMES[kept.variant] || !Array.isArray(g.moves) || !Array.isArray(g.turns) || !kept.session) return false;
  try {
    setM(Object.assign({ rotation: null, game: 0 }, kept.session));
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
    setSides(kept.side);
    showSession();
    $('cube').value = kept.cubeChoice || 'default';
    if (!M.rotation) await must(sessionLine());
    setS(Object.assign(newState(kept.variant), { keys: S.keys }, g));
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

export async function loadKeys() {
  S.keys = (await engine.cmd('keys')).filter((l) => l.startsWith('key ')).map(parseKey);
  buildOptions();
}

// ------------------------------------------------------ session and cube
// The session (money games or a match to N points, with or without the
// cube) and its score live on the page across games; the engine is told
// them (`newsession`, `setscore`, `setcube`) before each decision that
// depends on them.

export function sessionFromSettings() {
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
export function rotationGame() {
  return M && M.rotation ? M.rotation[M.game % M.rotation.length] : null;
}

/** Shows the session controls as the session is (`values`: their values
 *  too, which a new session from the settings leaves as the person is
 *  typing them). */
export function showSession(values = true) {
  if (values) {
    $('session-kind').value = M.kind;
    $('match-length').value = String(M.length || 5);
    $('rotation').value = M.rotation ? M.rotation.join(',') : '';
  }
  $('length-label').hidden = M.kind !== 'match';
  $('rotation-label').hidden = M.kind !== 'match';
}

export const onOff = (b) => (b ? 'on' : 'off');
export const ownerWord = (o) => (o === 'w' ? 'white' : o === 'b' ? 'black' : 'center');
export const sideName = (side) => (side === HUMAN ? 'you' : 'the engine');

export async function must(line) {
  const lines = await engine.cmd(line);
  const err = lines.find((l) => l.startsWith('error '));
  if (err) throw new Error(err);
  return lines;
}

/** A new session from the settings, and its first game. */
export async function newSession() {
  setM(sessionFromSettings());
  showSession(false);
  // Nothing is played on the last game while the engine sets the new
  // session up: a Roll pressed meanwhile would roll in a game about to go.
  if (S && S.phase !== 'engine') {
    S.phase = 'idle';
    render();
  }
  await must(sessionLine());
  // A rotating match's `newsession` has started its first game.
  await newGame(M.rotation !== null);
}

export function sessionLine() {
  const rotation = M.rotation ? ` rotation ${M.rotation.join(',')}` : '';
  return M.kind === 'match' ? `newsession type match length ${M.length} cube ${onOff(M.cube)}${rotation}` : `newsession type money cube ${onOff(M.cube)}`;
}

/** Tells the engine the score and the cube of the game. */
export async function syncCube() {
  if (M.kind === 'match') await must(`setscore ${M.score.w} ${M.score.b} ${M.crawford ? 'crawford' : 'postcrawford'}`);
  if (M.cube) await must(`setcube value ${S.cube.value} owner ${ownerWord(S.cube.owner)}`);
}

/** Whether `side` may double now (before its roll). */
export function mayDouble(side) {
  if (WATCH || !M || !M.cube || M.crawford || M.winner || !S.show || S.show.result || S.drop) return false;
  // Nobody doubles before the game's first roll.
  if (S.show.pending.kind !== 'roll' || S.passed || S.moves.length === 0) return false;
  return S.cube.owner === 'center' || S.cube.owner === side;
}

/** The person doubles: the engine answers with `go cube`. */
export async function humanDouble() {
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
export async function engineCube() {
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

/** A cube figure in words: match-winning chances as a percentage, else equity. */
export function cubeFigure(info, v) {
  return info.mwc ? `${(v * 100).toFixed(2)}%` : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`;
}

/** The cube hint: before the person's roll, double or not; with the
 *  engine's double waiting, take or pass. Cubeful figures from `go cube`,
 *  the person's view, best first, each with its difference from the best. */
export async function cubeHint() {
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
export async function answer(word) {
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
export function winWords(kind) {
  if (kind === 3) return 'a backgammon';
  if (kind === 2) return gammonGame() ? 'a gammon' : 'a mars';
  return gammonGame() ? 'a single game' : 'an oin (a single game)';
}

/** Scores a finished game for `winner` and says so; the match may be over.
 *  `kind` is the result's own points (single, gammon or mars, backgammon),
 *  when the game was played out. */
export async function gameOver(winner, points, why, kind) {
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
export function scoreWords() {
  if (WATCH) return `White ${M.score.w}, Black ${M.score.b}`;
  return `you ${M.score[HUMAN]}, the engine ${M.score[ENGINE]}`;
}

export function sessionText() {
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
export function crawfordNow() {
  return !!(M && M.kind === 'match' && (S.crawfordGame ?? M.crawford));
}

/** The rotation in words, with the game in play: '' outside one. */
export function rotationText() {
  if (!M || !M.rotation) return '';
  const names = M.rotation.map((v) => VARIANT_NAMES[v]).join(', ');
  return `; games in turn: ${names}; game ${M.game + 1}, ${VARIANT_NAMES[rotationGame()]}`;
}

/** The next game of the session; `begun` when the engine has started it
 *  already (a rotating match's `newsession`). */
export async function newGame(begun = false) {
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
  setS(Object.assign(newState(variant), { keys: S ? S.keys : [], crawfordGame: M.crawford, starter, byWinner: byWinner !== null }));
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
export function throwWords(w, b) {
  if (WATCH) return `White ${w}, Black ${b}`;
  return HUMAN === 'w' ? `you ${w}, the engine ${b}` : `the engine ${w}, you ${b}`;
}

/** The opening throw: one die each, the higher starts, a tie throws again. */
export async function openingThrow() {
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
export async function next() {
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

export async function loadLegal() {
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
export function noContact() {
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
export function autoPlay() {
  if (pref('autoForced') && S.legal.length === 1) return { steps: S.legal[0].norm, why: 'Forced move played for you. ' };
  if (pref('autoBearoff') && noContact()) {
    const off = S.legal.find((p) => p.norm.every((st) => stepTo(st) === 'off'));
    if (off) return { steps: off.norm, why: 'Borne off for you. ' };
  }
  return null;
}

/** [`nextRoll`], or null with the bad dice said in the status. */
export function rollOrSay() {
  try {
    return nextRoll();
  } catch (e) {
    setStatus(e.message);
    return null;
  }
}

/** The next roll: typed dice first (one or more, e.g. "65 31"), else random. */
export function nextRoll() {
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

export async function roll() {
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

export function multisetMinus(big, small) {
  const rest = big.slice();
  for (const s of small) {
    const i = rest.indexOf(s);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

export const stepFrom = (s) => s.split('/')[0];
export const stepTo = (s) => s.split('/')[1];

/** The board's key (White's numbering, `bar`, `off`) of a point of the person's. */
export const keyOf = (p) => (p === 'bar' || p === 'off' ? p : String(toWhite(HUMAN, Number(p))));

export function occupied(from) {
  if (from === 'bar') return S.board.bar[HUMAN] > 0;
  const n = S.board.pts[Number(keyOf(from))];
  return HUMAN === 'w' ? n > 0 : n < 0;
}

/** Map source -> Map destination -> steps, for the person's next move. */
export function nextMoves() {
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

export async function playSteps(path) {
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
export async function afterStage() {
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

export async function undo() {
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

export async function done() {
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
export function stagePlan(pending, n) {
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
export function moverWords(side) {
  return WATCH ? (side === 'w' ? 'White' : 'Black') : side === HUMAN ? 'You' : 'The engine';
}

/** `side`'s last turn was a roll it could not play (a dance): the turn is
 *  marked so (not a move under way) and its old marks leave the board. */
export function danced(side) {
  const t = S.turns[S.turns.length - 1];
  if (t && t.side === side && !t.cube && !t.steps.length) t.dance = true;
  S.marks[side] = [];
  S.last = `${moverWords(side)} could not move. `;
}

/** The engine's turn(s): rolls for it, asks `go`, shows the reply step by step. */
export async function engineTurn() {
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

export async function hint() {
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
export async function evaluate() {
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

// ------------------------------------------------------------- loading games

/** The player confirms before a game in progress is thrown away. */
export let confirming = null;
export function askDiscard(what) {
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
export async function loadText(raw) {
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

export async function switchVariant(variant) {
  if (S.variant === variant) return;
  $('variant').value = variant;
  await must(`set game.variant ${variant}`);
  // The engine's rotation ends with the game set: so does the page's.
  if (M && M.rotation) {
    M.rotation = null;
    showSession();
  }
  setS(newState(variant));
  await loadKeys();
}

export async function loadPosition(base) {
  // gnubg IDs and XGIDs describe backgammon boards (short nardy's too).
  if ((base.startsWith('gnubgid') || base.startsWith('xgid')) && game().gnubg !== 'yes') await switchVariant('backgammon');
  const lines = await engine.cmd(`position ${base}`);
  const err = lines.find((l) => l.startsWith('error '));
  if (err) throw new Error(err);
  setS(Object.assign(newState(S.variant), { keys: S.keys, base, crawfordGame: M.crawford }));
  await sync();
  S.last = 'Position loaded. ';
  render();
  await next();
}

export async function loadRecord(text) {
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
  setS(Object.assign(newState(j.variant), { keys: S.keys, starter: g.starter, moves: g.tokens.slice(), turns: g.turns, crawfordGame: M.crawford }));
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
