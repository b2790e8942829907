// Which rows a root query field reads, declared once as data — model field → the key's team, or an argument — from
// which both read engines are derived: the resolver's Prisma `where` (`prisma`) and the one-statement read path's
// SQL (sql-json/sql.ts). A soft delete or another scope added here holds on both paths at once
// (ARCHITECTURE.md "The two read engines").
import { columns } from "./sql-json/columns";
import { isUuid } from "./scope";

/** The key's team (every query is scoped by it). */
export const team = { from: "team" } as const;

export interface ArgRef {
  from: "arg";
  /** The argument's name. */
  name: string;
  /** The value of the argument that means every row: no condition on this field (e.g. status "all"). */
  any?: unknown;
}

/** The field equals this argument's value (`any`: the value that means every row). */
export const arg = (name: string, options: { any?: unknown } = {}): ArgRef => ({ from: "arg", name, ...options });

export type Condition = Record<string, typeof team | ArgRef>;

export interface RowFilter<Where = Record<string, unknown>> {
  model: string;
  condition: Condition;
  /**
   * False when the arguments hold a value its column cannot hold (an id that is no UUID): no row matches, and the
   * resolver answers without asking the database.
   */
  accepts(args: Record<string, unknown>): boolean;
  /** The Prisma `where` of the arguments and the key's team; null when `accepts` is false. */
  prisma(args: Record<string, unknown>, teamId: string): Where | null;
}

/** The rows of `model` whose fields equal the condition's values. */
export function where<Where = Record<string, unknown>>(model: string, condition: Condition): RowFilter<Where> {
  const entries = Object.entries(condition);
  const uuidArgs = entries.flatMap(([field, ref]) => (ref.from === "arg" && columns.isUuid(model, field) ? [ref.name] : []));
  const accepts = (args: Record<string, unknown>) => uuidArgs.every((name) => isUuid(String(args[name])));
  return {
    model,
    condition,
    accepts,
    prisma(args, teamId) {
      if (!accepts(args)) return null;
      const result: Record<string, unknown> = {};
      for (const [field, ref] of entries) {
        if (ref.from === "team") result[field] = teamId;
        else if (!("any" in ref && args[ref.name] === ref.any)) result[field] = uuidArgs.includes(ref.name) ? String(args[ref.name]) : args[ref.name];
      }
      return result as Where;
    },
  };
}
