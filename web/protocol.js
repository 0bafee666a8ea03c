// The protocol client: one session over the WebSocket at /ws, and the
// parsers of the engine's answers (protocol/SPEC.md).

// ---------------------------------------------------------------- protocol

/** The last protocol lines sent (`> `) and received (`< `), for the console and the tests. */
export const protocolLog = [];
export function remember(line) {
  protocolLog.push(line);
  if (protocolLog.length > 300) protocolLog.shift();
}

/** One protocol session over a WebSocket; requests are answered in order. */
export class Engine {
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

export function parseShow(lines) {
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

export function parseKey(line) {
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

/** `info cube [mwc] nodouble <e> doubletake <e> doublepass <e> action <words>`. */
export function parseCubeInfo(line) {
  if (!line) return null;
  const t = line.split(' ');
  const val = (k) => Number(t[t.indexOf(k) + 1]);
  const at = t.indexOf('action');
  return { mwc: t.includes('mwc'), nd: val('nodouble'), dt: val('doubletake'), dp: val('doublepass'), action: at >= 0 ? t.slice(at + 1).join(' ') : '' };
}


/** `variant ...` and `option ...` lines of `variants` into GAMES. */
export function parseVariants(lines) {
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


/** An engine error line in words a player reads. */
export function sentence(msg) {
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


/** Parses position text: 24 counts, side, roll counts, optional fields. */
export function parsePosition(text) {
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
