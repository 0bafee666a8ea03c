// Input: clicks, drags and keys on the board, and the controls.
import { currentDice, el, G, render, stepPips, usedDice } from './board.js';
import { answer, askDiscard, confirming, connect, done, hint, humanDouble, loadText, must, newGame, newSession, next, nextMoves, playSteps, roll, sessionLine, setView, showSession, stepTo, sync, syncCube, undo } from './game.js';
import { sentence } from './protocol.js';
import { copyIds, download, downloadMat } from './record.js';
import { review } from './review.js';
import { askedNewGame, changeVariant } from './settings.js';
import { $, engine, HUMAN, M, prefs, S, savePrefs, setStatus, visit, WATCH } from './state.js';

// ------------------------------------------------------------------ input

/** Runs an action; a failure is shown, never thrown into the console. */
export async function guard(f) {
  try {
    await f();
  } catch (e) {
    setStatus(`Error: ${sentence(e.message)}`);
    S.phase = S.phase === 'engine' ? 'idle' : S.phase;
    render();
  }
}

export async function activate(key) {
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
export async function moveByHigher(key) {
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

export let drag = null;
/** The last click on a point, for double-clicks. */
export let lastTap = null;
export const DOUBLE_CLICK_MS = 400;

export function svgPoint(ev) {
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

export function setupBoardInput() {
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

export function setupControls() {
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
}
