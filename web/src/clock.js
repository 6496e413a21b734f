// A chess clock with an increment (Fischer): the side to move's time runs;
// a move adds the increment to the mover and starts the other side's time.

export class Clock {
  /** `initial` and `increment` in milliseconds; `now` a millisecond timer (tests pass their own). */
  constructor(initial, increment, now = () => performance.now()) {
    this.initial = initial;
    this.increment = increment;
    this.now = now;
    this.left = { white: initial, black: initial };
    /** The side whose time runs, or null. */
    this.running = null;
    this.since = 0;
  }

  /** Starts (or goes on with) `color`'s time. */
  start(color) {
    this.pause();
    this.running = color;
    this.since = this.now();
  }

  /** Stops the running time where it is. */
  pause() {
    if (this.running) this.left[this.running] = this.remaining(this.running);
    this.running = null;
  }

  /** The side to move has moved: the increment to it, then the other side's time runs. */
  press() {
    const mover = this.running;
    if (!mover) return;
    this.pause();
    this.left[mover] += this.increment;
    this.start(mover === 'white' ? 'black' : 'white');
  }

  /** `color`'s time left in milliseconds, never below zero. */
  remaining(color) {
    const used = this.running === color ? this.now() - this.since : 0;
    return Math.max(0, this.left[color] - used);
  }

  /** The side whose time has run out, if any. */
  flagged() {
    return this.running && this.remaining(this.running) === 0 ? this.running : null;
  }

  /** What the clock needs to come back after a reload (stopped). */
  toJSON() {
    return { initial: this.initial, increment: this.increment, left: { white: this.remaining('white'), black: this.remaining('black') } };
  }

  /** A clock as `toJSON` saved it, stopped. */
  static from(saved, now) {
    const clock = new Clock(saved.initial, saved.increment, now);
    clock.left = { white: Number(saved.left?.white) || 0, black: Number(saved.left?.black) || 0 };
    return clock;
  }
}

/** `4:59`, `0:09.5` under ten seconds (tenths, as lichess shows them), `1:02:03` past an hour. */
export function clockText(ms) {
  if (ms < 10000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const seconds = Math.floor(ms / 1000);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/**
 * The engine's `go` in play: the Strength level's (`strength`); with a
 * clock, also held to a share of `turn`'s time left (a thirtieth, and most
 * of the increment), so that it never loses on time.
 */
export function playGo(strength, clock, turn) {
  if (!clock) return strength;
  const budget = Math.max(50, Math.floor(clock.remaining(turn) / 30 + clock.increment * 0.8));
  const movetime = /movetime (\d+)/.exec(strength);
  return movetime ? `go movetime ${Math.min(Number(movetime[1]), budget)}` : `${strength} movetime ${budget}`;
}

/** Shows `color`'s time on `clock` in `box` (a `.clock` with `.who` and `.time`), called `who`: lit while it runs, red under 20 s. */
export function renderClock(box, clock, color, who) {
  const left = clock.remaining(color);
  box.querySelector('.who').textContent = who;
  box.querySelector('.time').textContent = clockText(left);
  box.classList.toggle('running', clock.running === color);
  box.classList.toggle('low', left < 20000);
}
