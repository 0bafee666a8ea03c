// The settings: the engine's options built from its keys, the choice of game.
import { askDiscard, loadKeys, newGame, newSession, save } from './game.js';
import { guard } from './input.js';
import { $, engine, game, GAMES, keyValue, prefs, S, savePrefs, setStatus } from './state.js';

// ---------------------------------------------------------------- settings

/** The settings' names in words. */
export const OPTION_WORDS = {
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

export function buildOptions() {
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

export async function changeOption(k, input) {
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
export async function askedNewGame() {
  if (await askDiscard('A new game')) await newGame();
}

export async function changeVariant() {
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
