// Pothos plans each Prisma field's query from the GraphQL selection on every request (@pothos/selection-mapper
// `Plan.fromInfo`). For a REST route that is most of the cost of going through GraphQL (BENCHMARKS.md, scenario 1),
// and wasted: a REST route runs one fixed document, so the plan at a given position in it is the same on every
// request. Documents registered here have their plans made once and replayed per request, each replay recording
// its loader mappings on that request's context (so nested relations still resolve from the one query).
//
// Sound only because, for a registered document, nothing a plan depends on varies between requests:
//   - the selection below its root fields uses no variables and no directives (checked at registration);
//   - a plan is cached only at a position outside any list, made by the plain entry point (no typeName, paths or
//     initial selection) and complete at once (no select callback returned a promise);
//   - the schema's select and relation queries are constants: none reads the context or arguments. Keep it so,
//     or leave the affected documents unregistered.
// GraphQL documents from clients are never registered: they are planned on every request as usual.
import { Plan } from "@pothos/selection-mapper";
import { Kind, visit, type DocumentNode, type GraphQLResolveInfo, type OperationDefinitionNode } from "graphql";

type AnyPlan = Plan<unknown, unknown>;
type FromInfo = (...args: Parameters<typeof Plan.fromInfo<unknown, unknown>>) => AnyPlan | undefined;

const plansByOperation = new WeakMap<OperationDefinitionNode, Map<string, AnyPlan>>();

/** Whether the selections below the operation's root fields are fixed: no variables, no directives. */
function hasFixedSelections(operation: OperationDefinitionNode, document: DocumentNode): boolean {
  let fixed = true;
  const inspect = (node: Parameters<typeof visit>[0]) =>
    visit(node, {
      Variable: () => void (fixed = false),
      Directive: () => void (fixed = false),
    });
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return false;
    if (selection.selectionSet) inspect(selection.selectionSet);
  }
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) inspect(definition);
  return fixed;
}

/** Plans the document's Prisma queries once instead of on every request. Returns false when it cannot. */
export function cachePlansOf(document: DocumentNode): boolean {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || !hasFixedSelections(operations[0], document)) return false;
  plansByOperation.set(operations[0], new Map());
  return true;
}

/** "reports.items", or undefined for a position inside a list (rows differ there). */
function fixedPosition(path: GraphQLResolveInfo["path"]): string | undefined {
  let key = "";
  for (let p: GraphQLResolveInfo["path"] | undefined = path; p; p = p.prev) {
    if (typeof p.key === "number") return undefined;
    key = key ? `${p.key}.${key}` : p.key;
  }
  return key;
}

// A plan whose select callbacks answered with promises comes back as a promise (typed as a plan).
const isThenable = (value: object): boolean => typeof (value as { then?: unknown }).then === "function";

const planFromInfo: FromInfo = Plan.fromInfo.bind(Plan);

(Plan as { fromInfo: FromInfo }).fromInfo = (adapter, options) => {
  const plans = plansByOperation.get(options.info.operation);
  const plain = !options.typeName && !options.path?.length && !options.paths?.length && options.initial === undefined;
  const position = plans && plain ? fixedPosition(options.info.path) : undefined;
  if (!plans || position === undefined) return planFromInfo(adapter, options);

  const cached = plans.get(position);
  if (cached) {
    // The same settled plan, speaking for this request: its loader mappings go on this request's context.
    return Object.assign(Object.create(Object.getPrototypeOf(cached) as object) as AnyPlan, cached, { context: options.context, info: options.info });
  }
  const plan = planFromInfo(adapter, options);
  if (plan && !isThenable(plan)) plans.set(position, plan);
  return plan;
};
