// The promotion chooser, as on lichess: the four pieces in a column over the
// promotion square, in the mover's colour, the board dimmed; a piece picked
// plays the move, Escape or a click beside them takes it back.
import { $ } from './dom.js';

export class Promotion {
  /** `done(move)`: the promotion in UCI (`e7e8q`), or null when it was taken back. */
  constructor(done) {
    this.done = done;
    /** The move waiting for its piece (`e7e8`), if any. */
    this.pending = null;
    for (const button of document.querySelectorAll('#promotion button')) {
      button.addEventListener('click', () => this.close(button.dataset.role));
    }
    // A click beside the pieces: the pawn goes back.
    $('#promotion').addEventListener('click', (event) => {
      if (event.target === $('#promotion')) this.close(null);
    });
  }

  /** Whether the chooser is showing. */
  get open() {
    return this.pending !== null;
  }

  /** Shows the chooser for `move` (`e7e8`) on a board with `orientation` at the bottom, `turn` promoting. */
  show(move, orientation, turn) {
    this.pending = move;
    const dest = move.slice(2, 4);
    const file = dest.charCodeAt(0) - 97;
    const choices = $('#promotion .choices');
    choices.style.left = `${(orientation === 'white' ? file : 7 - file) * 12.5}%`;
    choices.classList.toggle('bottom', (dest[1] === '8') !== (orientation === 'white'));
    for (const piece of choices.querySelectorAll('piece')) piece.className = `${piece.dataset.role} ${turn}`;
    $('#promotion').hidden = false;
    choices.querySelector('button').focus();
  }

  /** Closes the chooser: with `role` (`q`, `n`, `r`, `b`) the move is played, without it the pawn goes back. */
  close(role) {
    const move = role && this.pending ? this.pending + role : null;
    $('#promotion').hidden = true;
    this.pending = null;
    this.done(move);
  }
}
