/**
 * Text from a catalogue made safe to print on an operator's terminal or in a log: terminal escape
 * sequences (colour, cursor moves, window titles, hyperlinks) are removed whole, and every other control
 * character, line breaks included, is written as a visible `\xNN`, so a plan name can neither redraw the
 * screen nor forge a log line of its own.
 */
// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-byte ESC sequences, and their 8-bit C1 forms.
const ESCAPE_SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[@-Z\\-_]/g;
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

export function printable(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
