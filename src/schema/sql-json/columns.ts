// Table and column names of the Prisma models, from the generated client's own data model (the @map/@@map names
// of prisma/schema.prisma): the one-statement read path writes SQL over them.
import { prisma } from "../../db";
import type { Columns } from "./plan";

interface RuntimeModel {
  dbName: string | null;
  fields: Array<{ name: string; kind: string; type: string; dbName?: string | null }>;
}

let models: Record<string, RuntimeModel> | undefined;

function model(name: string): RuntimeModel {
  models ??= (prisma as unknown as { _runtimeDataModel?: { models: Record<string, RuntimeModel> } })._runtimeDataModel?.models;
  const found = models?.[name];
  if (!found) throw new Error(`No Prisma model ${name} (the client's data model is not readable)`);
  return found;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const columns: Columns = {
  table: (name) => quoted(model(name).dbName ?? name),
  column(name, field) {
    const found = model(name).fields.find((f) => f.name === field && f.kind !== "object");
    if (!found) throw new Error(`No column for ${name}.${field}`);
    return quoted(found.dbName ?? found.name);
  },
};
