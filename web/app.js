// The browser board: a plain protocol client of the engine over the
// WebSocket at /ws (one text message per protocol line, see
// protocol/SPEC.md). It keeps the game as a `position startpos moves ...`
// list, as any GUI does, and asks the engine for everything the rules
// decide: `show` for the state, `legal` for the steps a person may take,
// `go` for the engine's reply, `hint` and `eval` for advice. The page is
// ES modules with no build step; this one starts it.
import { render } from './board.js';
import { connect, keyOf, loadKeys, newSession, restore } from './game.js';
import { guard, setupBoardInput, setupControls } from './input.js';
import { protocolLog } from './protocol.js';
import { $, engine, M, newState, pageErrors, params, prefs, S, setS, VARIANT_NAMES } from './state.js';

export async function main() {
  if (prefs.played) document.body.classList.add('played');
  setS(newState('gulbara'));
  render();
  setupBoardInput();
  setupControls();
  // The server closes sessions idle for a while: a quiet line keeps an open page's alive.
  // (`?keepalive=MS` sets its period, for tests.)
  const period = Math.max(50, Number(params.get('keepalive')) || 45000);
  setInterval(() => {
    if (engine && engine.idle && engine.ws.readyState === WebSocket.OPEN) engine.ping().catch(() => {});
  }, period);
  await guard(async () => {
    await connect();
    if (await restore()) return;
    // The game played last time (Gul bara, the engine's own, on a first visit).
    const first = VARIANT_NAMES[prefs.variant] ? prefs.variant : 'gulbara';
    setS(newState(first));
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
