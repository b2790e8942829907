// How deep a request's input nests, measured without recursion: input nested deeper than any legitimate request is
// refused before anything walks it recursively (parsers, JSON.stringify, coercion), whose stack it would overflow.

/**
 * The nesting depth of a JSON value (a scalar 0, `{}` or `[]` 1), counted up to `max + 1` at most. Bytes (a body kept
 * raw, e.g. the engagement import's CSV) are a scalar: walking a 4 MiB Buffer as an object of 4 million numbers took a
 * second of CPU.
 */
export function jsonDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: Array<[object, number]> = [];
  const visit = (item: unknown, depth: number) => {
    if (item !== null && typeof item === "object" && !ArrayBuffer.isView(item)) stack.push([item, depth]);
  };
  visit(value, 1);
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > max) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) visit(child, depth + 1);
  }
  return deepest;
}

const OPENING = new Set(["{", "[", "("]);
const CLOSING = new Set(["}", "]", ")"]);

/**
 * The bracket nesting of a GraphQL document's text ({ } selection sets and object values, [ ] lists and list types,
 * ( ) arguments), outside strings, block strings and comments, counted up to `max + 1` at most: one pass over the
 * text, before the parser (which recurses once or more per level) sees it.
 */
export function graphqlNesting(source: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "#") {
      while (i < source.length && source[i] !== "\n" && source[i] !== "\r") i++;
    } else if (c === '"') {
      i = source.startsWith('"""', i) ? blockStringEnd(source, i + 3) : stringEnd(source, i + 1);
    } else if (OPENING.has(c)) {
      deepest = Math.max(deepest, ++depth);
      if (deepest > max) return deepest;
    } else if (CLOSING.has(c)) {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}

/** The index of the quote closing a string whose text starts at `i` (or the line's end: the parser refuses it). */
function stringEnd(source: string, i: number): number {
  for (; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === '"' || c === "\n" || c === "\r") return i;
  }
  return i;
}

/** The index of the last quote closing a block string whose text starts at `i` (\""" does not close it). */
function blockStringEnd(source: string, i: number): number {
  for (; i < source.length; i++) {
    if (source.startsWith('\\"""', i)) i += 3;
    else if (source.startsWith('"""', i)) return i + 2;
  }
  return i;
}
