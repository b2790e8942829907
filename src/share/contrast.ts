// WCAG 2.x contrast for the report's own colours (docs/api.md "Share links": the page is in the
// report's colours with sufficient contrast whatever colours were chosen). Text on a colour is black or white,
// whichever contrasts more (one of them always reaches 4.58:1); a colour used as text on white is darkened until it
// reaches 4.5:1, and as a shape beside white until 3:1 (WCAG 1.4.3 and 1.4.11).

export type Rgb = [number, number, number];

/** `#RGB` or `#RRGGBB` (the report's colour rule) as 0..255 channels; null for anything else. */
export function parseHex(hex: string | null | undefined): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex ?? "");
  if (!m) return null;
  const digits = m[1].length === 3 ? [...m[1]].map((d) => d + d) : [m[1].slice(0, 2), m[1].slice(2, 4), m[1].slice(4, 6)];
  return digits.map((d) => parseInt(d, 16)) as Rgb;
}

export const toHex = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** Relative luminance (WCAG 2.x). */
export function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two colours, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export const BLACK: Rgb = [0, 0, 0];
export const WHITE: Rgb = [255, 255, 255];

/** Black or white, whichever contrasts more with `background`. */
export const textOn = (background: Rgb): Rgb => (contrast(background, BLACK) >= contrast(background, WHITE) ? BLACK : WHITE);

/** `color` darkened (towards black, in steps of 5 %, whole channel values) until it contrasts at least `ratio` with `background`. */
export function darkenUntil(color: Rgb, background: Rgb, ratio: number): Rgb {
  let current = color;
  for (let step = 0; contrast(current, background) < ratio && step < 20; step++) current = color.map((c) => Math.round(c * (1 - (step + 1) * 0.05))) as Rgb;
  return current;
}
