// @defer on the one-statement read path (docs/features/read-cost-and-incremental-delivery.md "Incremental
// delivery"): a document whose deferred fragments the one statement can answer is run as two statements of its own
// — the document without its deferred fragments, sent as the first part, then the whole document, from whose answer
// each deferred fragment's payload is taken at its path — instead of on graphql-tools' executor over the resolvers.
// The parts are those the executor sends: the first `{ data, hasNext: true }`, then `{ incremental: [{ data, path,
// label? }], hasNext: false }` with one payload per deferred fragment and object it applies to, an outer fragment's
// before those nested in it. What this does not take (it stays on the executor): @stream, a @defer whose `if` is a
// variable, @skip or @include on a deferred fragment, a selection on an interface or union, and a document whose
// first part would leave a selection empty.
import {
  Kind,
  TypeInfo,
  getNamedType,
  getOperationAST,
  isObjectType,
  visit,
  visitWithTypeInfo,
  type DirectiveNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type InlineFragmentNode,
  type SelectionSetNode,
} from "graphql";
import { schema } from "./index";
import { RawData } from "./sql-json/raw";

export interface DeferredSplit {
  /** The document without its deferred fragments: the first part. */
  initial: DocumentNode;
  /** The document with every fragment in place: the deferred payloads are taken from its answer. */
  full: DocumentNode;
  /** The operation's selection in the original document, where the deferred fragments are marked. */
  selection: SelectionSetNode;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
}

type Fragment = InlineFragmentNode | FragmentSpreadNode;
type Payload = { data: Record<string, unknown> | null; path: Array<string | number>; label?: string; errors?: ExecutionResult["errors"] };

const deferOf = (node: Fragment): DirectiveNode | undefined => node.directives?.find((d) => d.name.value === "defer");

/** Whether a @defer applies: no `if`, or `if: true`; undefined when `if` is a variable. */
function applies(directive: DirectiveNode): boolean | undefined {
  const arg = directive.arguments?.find((a) => a.name.value === "if");
  if (!arg) return true;
  return arg.value.kind === Kind.BOOLEAN ? arg.value.value : undefined;
}

const deferred = (node: Fragment): boolean => {
  const directive = deferOf(node);
  return directive !== undefined && applies(directive) === true;
};

/** Whether this module can split the document (see the top of the file). */
function splittable(document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let ok = true;
  const fragment = (node: Fragment) => {
    const directive = deferOf(node);
    if (directive && (applies(directive) === undefined || node.directives!.some((d) => d.name.value === "skip" || d.name.value === "include"))) ok = false;
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Directive(node) {
        if (node.name.value === "stream") ok = false;
      },
      InlineFragment: fragment,
      FragmentSpread: fragment,
      SelectionSet() {
        const type = typeInfo.getType();
        if (type && !isObjectType(getNamedType(type))) ok = false;
      },
    }),
  );
  return ok;
}

/** The fragment definitions the document's selections spread, by name. */
function spreadNames(document: DocumentNode): Set<string> {
  const names = new Set<string>();
  visit(document, { FragmentSpread: (node) => void names.add(node.name.value) });
  return names;
}

function split(document: DocumentNode, operationName: string | null | undefined): DeferredSplit | null {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== "query" || !splittable(document)) return null;
  const withoutDefer = { Directive: (node: DirectiveNode) => (node.name.value === "defer" ? null : undefined) };
  const full = visit(document, withoutDefer);
  const cut = visit(document, { InlineFragment: (node) => (deferred(node) ? null : undefined), FragmentSpread: (node) => (deferred(node) ? null : undefined) });
  const used = spreadNames(cut);
  const initial = visit(
    { ...cut, definitions: cut.definitions.filter((d) => d.kind !== Kind.FRAGMENT_DEFINITION || used.has(d.name.value)) },
    withoutDefer,
  );
  let empty = false;
  visit(initial, { SelectionSet: (node) => void (node.selections.length === 0 && (empty = true)) });
  if (empty) return null;
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  return { initial, full, selection: operation.selectionSet, fragments };
}

const splits = new WeakMap<DocumentNode, Map<string, DeferredSplit | null>>();

/** The document's split for the one-statement path, or null when it stays on the executor (kept per document). */
export function deferredSplit(document: DocumentNode, operationName: string | null | undefined): DeferredSplit | null {
  let byName = splits.get(document);
  if (!byName) splits.set(document, (byName = new Map()));
  const name = operationName ?? "";
  if (!byName.has(name)) byName.set(name, split(document, operationName));
  return byName.get(name)!;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const selectionOf = (node: Fragment, fragments: DeferredSplit["fragments"]): SelectionSetNode =>
  node.kind === Kind.INLINE_FRAGMENT ? node.selectionSet : fragments.get(node.name.value)!.selectionSet;

/** Two answers to the same field put together (the same field selected twice with different sub-selections). */
function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((item, i) => merge(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const out: Json = { ...a };
    for (const key in b) out[key] = key in out ? merge(out[key], b[key]) : b[key];
    return out;
  }
  return b;
}

/** What `selection` (deferred fragments in it left out: they come on their own) answers of `value`. */
function project(value: unknown, selection: SelectionSetNode, fragments: DeferredSplit["fragments"]): unknown {
  if (Array.isArray(value)) return value.map((item) => project(item, selection, fragments));
  if (!isObject(value)) return value;
  const out: Json = {};
  const put = (key: string, v: unknown) => (out[key] = key in out ? merge(out[key], v) : v);
  for (const node of selection.selections) {
    if (node.kind === Kind.FIELD) {
      const key = (node.alias ?? node.name).value;
      if (key in value) put(key, node.selectionSet ? project(value[key], node.selectionSet, fragments) : value[key]);
    } else if (!deferred(node)) {
      const part = project(value, selectionOf(node, fragments), fragments) as Json;
      for (const key in part) put(key, part[key]);
    }
  }
  return out;
}

/** Each deferred fragment's payload at each object it applies to, outer fragments before those nested in them. */
function payloads(value: unknown, selection: SelectionSetNode, fragments: DeferredSplit["fragments"], path: Array<string | number>, out: Payload[]): void {
  if (Array.isArray(value)) return value.forEach((item, i) => payloads(item, selection, fragments, [...path, i], out));
  if (!isObject(value)) return;
  for (const node of selection.selections) {
    if (node.kind === Kind.FIELD) {
      const key = (node.alias ?? node.name).value;
      if (node.selectionSet && key in value) payloads(value[key], node.selectionSet, fragments, [...path, key], out);
      continue;
    }
    const inner = selectionOf(node, fragments);
    if (deferred(node)) {
      const label = deferOf(node)!.arguments?.find((a) => a.name.value === "label")?.value;
      out.push({ data: project(value, inner, fragments) as Json, path, ...(label?.kind === Kind.STRING ? { label: label.value } : {}) });
    }
    payloads(value, inner, fragments, path, out);
  }
}

const plain = (data: ExecutionResult["data"]): Json | null | undefined => (data instanceof RawData ? (data.toJSON() as Json) : data);

/**
 * Answers a split document by two executions of `run` (the engine: one statement each): the first part, then every
 * deferred payload. A first execution that answered no data is answered whole, in one part.
 */
export async function answerDeferred(
  args: ExecutionArgs,
  found: DeferredSplit,
  run: (args: ExecutionArgs) => Promise<ExecutionResult>,
): Promise<ExecutionResult | AsyncIterable<unknown>> {
  const first = await run({ ...args, document: found.initial });
  const data = plain(first.data);
  if (!data) return first;
  return (async function* () {
    yield { ...first, data, hasNext: true };
    const whole = await run({ ...args, document: found.full });
    const full = plain(whole.data);
    const out: Payload[] = [];
    if (full) payloads(full, found.selection, found.fragments, [], out);
    // An error of the whole document's statement (an answer past the size bound): at the root, as the executor puts a
    // deferred fragment's error at its path.
    if (whole.errors?.length) out.push({ data: null, path: [], errors: whole.errors });
    yield out.length ? { incremental: out, hasNext: false } : { hasNext: false };
  })();
}
