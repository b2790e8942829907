// Tables, columns, relations and SQL types of the Prisma models, from the data model of Prisma's DMMF
// (src/generated/datamodel.ts, written by prisma/datamodel-generator.js): the @@map/@map names and the fields each
// relation joins on. The one-statement read path writes every name in its SQL through this module
// (ARCHITECTURE.md "The two read engines").
import { datamodel } from "../../generated/datamodel";
import type { RowSql } from "../computed";

interface DmmfField {
  name: string;
  kind: "scalar" | "enum" | "object" | "unsupported";
  type: string;
  dbName: string | null;
  isList: boolean;
  isId: boolean;
  nativeType: [string, unknown[]] | null;
  relationName: string | null;
  relationFromFields: string[];
  relationToFields: string[];
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
const dmmf = datamodel as { models: DmmfModel[]; enums: Array<{ name: string; dbName: string | null }> };
const models = new Map(dmmf.models.map((m) => [m.name, m]));

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

function model(name: string): DmmfModel {
  const found = models.get(name);
  if (!found) throw new Error(`No Prisma model ${name} in the data model`);
  return found;
}

function field(modelName: string, name: string): DmmfField {
  const found = model(modelName).fields.find((f) => f.name === name);
  if (!found) throw new Error(`No field ${modelName}.${name} in the data model`);
  return found;
}

/** The child rows of a relation: its model and the pairs (child field, parent field) they join on. */
export interface Relation {
  model: string;
  join: Array<readonly [child: string, parent: string]>;
}

/** Scalar types as parameter casts (the statement's text fixes each parameter's type). */
const SQL_TYPES: Record<string, string> = { String: "text", Int: "int", BigInt: "int8", Float: "float8", Boolean: "bool", DateTime: "timestamptz" };

export const columns = {
  /** The table of a model. */
  table: (name: string): string => quoted(model(name).dbName ?? name),
  /** The column of a model's scalar field. */
  column(modelName: string, name: string): string {
    const found = field(modelName, name);
    if (found.kind === "object") throw new Error(`${modelName}.${name} is a relation, not a column`);
    return quoted(found.dbName ?? found.name);
  },
  /** Whether a field's column holds UUIDs (a value that is no UUID matches no row). */
  isUuid: (modelName: string, name: string): boolean => field(modelName, name).nativeType?.[0] === "Uuid",
  /** The SQL type of a field's column, for a parameter compared with it. */
  sqlType(modelName: string, name: string): string {
    const found = field(modelName, name);
    if (found.kind === "enum") return quoted(dmmf.enums.find((e) => e.name === found.type)?.dbName ?? found.type);
    if (found.nativeType?.[0] === "Uuid") return "uuid";
    const type = SQL_TYPES[found.type];
    if (!type) throw new Error(`No SQL type for ${modelName}.${name} (${found.type})`);
    return type;
  },
  /**
   * A list relation of a model (e.g. Report.comparables): the related model and the fields it joins on, read from
   * the other side's `@relation(fields, references)` — what Prisma itself joins on. When those include the parent's
   * @id (reportId → id of (reportId, teamId) → (id, teamId)), that pair alone is the join: the foreign key makes the
   * others equal too, and the child's (report_id, …) index answers it without reading the rows.
   */
  relation(modelName: string, name: string): Relation {
    const list = field(modelName, name);
    if (list.kind !== "object" || !list.relationName) throw new Error(`${modelName}.${name} is not a relation`);
    const back = model(list.type).fields.find((f) => f.relationName === list.relationName && f !== list && f.relationFromFields.length);
    if (!back) throw new Error(`${modelName}.${name}: the related model holds no foreign key (only lists held by the other side are read)`);
    const pairs = back.relationFromFields.map((child, i) => [child, back.relationToFields[i]] as const);
    const byId = pairs.filter(([, parent]) => field(modelName, parent).isId);
    return { model: list.type, join: byId.length ? byId : pairs };
  },
  /** SQL over one row of a model under `alias`: its columns, and counts of its related rows. */
  row(modelName: string, alias: string): RowSql {
    return {
      column: (name) => `${alias}.${columns.column(modelName, name)}`,
      count(relationName) {
        const { model: child, join } = columns.relation(modelName, relationName);
        const c = `${alias}$c`;
        const on = join.map(([childField, parentField]) => `${c}.${columns.column(child, childField)} = ${alias}.${columns.column(modelName, parentField)}`);
        return `(SELECT count(*) FROM ${columns.table(child)} ${c} WHERE ${on.join(" AND ")})`;
      },
    };
  },
};

export type Columns = typeof columns;
