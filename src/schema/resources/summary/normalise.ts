// The form in which the fair-housing screen reads a text, so that a phrase written to look like a listed one is read
// as that phrase: "family‑friendly" with a non-breaking hyphen, "mas­ter" with a soft hyphen, a Cyrillic "а", a
// Greek "ο", full-width letters, accents added with combining marks. Only the screen reads this form: the text
// saved and answered is the one written.
import unhomoglyph from "unhomoglyph";

// After compatibility decomposition: invisible characters (default-ignorable and format characters: soft hyphen,
// zero-width spaces and joiners, direction marks, tag characters) and combining marks.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{M}]/gu;
// Every dash and minus sign is one hyphen (before the confusables step, which maps the em dash to a katakana mark).
const DASHES = /[\p{Pd}\u02D7\u2043\u2212\u2796\uFE63\uFF0D]/gu;
// Runs of spaces, the Braille blank (drawn as a space) among them, are one space.
const BLANKS = /[\s\u2800]+/gu;

const isAscii = (text: string) => /^\p{ASCII}*$/u.test(text);

/**
 * One character in lower case with its look-alike replaced by the letters it imitates (Unicode's confusables, by
 * unhomoglyph). The confusables table is case-sensitive: Greek "Ι" maps to "l" but its lower case "ι" to "i", and
 * Cyrillic "М" maps to "M" but "м" to "ʍ"; whichever order gives Latin letters is taken. Latin letters are
 * folded too ("m" is "rn", "0" is "o", "1" is "l"), and the phrases are read in this same form, so the two agree.
 */
function foldCharacter(char: string): string {
  const lowerFirst = unhomoglyph(char.toLowerCase()).toLowerCase();
  if (isAscii(char) || isAscii(lowerFirst)) return lowerFirst;
  const mappedFirst = unhomoglyph(unhomoglyph(char).toLowerCase()).toLowerCase();
  return isAscii(mappedFirst) ? mappedFirst : lowerFirst;
}

const ASCII_FOLDS = Array.from({ length: 128 }, (_, code) => foldCharacter(String.fromCharCode(code)));
/** Other characters already folded; bounded, so a text of many distinct characters cannot grow it without end. */
const folded = new Map<string, string>();
const MAX_FOLDED = 10_000;

function fold(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 128) return ASCII_FOLDS[code];
  let result = folded.get(char);
  if (result === undefined) {
    result = foldCharacter(char);
    if (folded.size < MAX_FOLDED) folded.set(char, result);
  }
  return result;
}

/**
 * The screen's form of a text: compatibility-decomposed (NFKD: NFKC's full-width and styled letters as plain ones,
 * then NFD's accents apart from their letters), invisible characters and combining marks removed, every dash a
 * hyphen, every character folded to lower case and its Latin look-alike, runs of spaces one space.
 */
export function screenForm(text: string): string {
  const plain = text.normalize("NFKD").replace(INVISIBLE, "").replace(DASHES, "-").replace(BLANKS, " ");
  let result = "";
  for (const char of plain) result += fold(char);
  return result;
}
