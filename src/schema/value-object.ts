// Object types of plain values (results, counts, stats; not Prisma rows), declared as a table: most of their fields
// show a property of the value as it is, so an entry names its scalar type and description, and only a field that
// computes something is written as a Pothos field. The table's order is the schema's field order.
import type { ObjectFieldThunk } from "@pothos/core";
import { builder, type Types } from "./builder";

/** The scalars a value of type V may be exposed as. */
type ScalarOf<V> = V extends string ? "String" | "ID" : V extends number ? "Int" | "Float" : V extends boolean ? "Boolean" : V extends Date ? "DateTime" : never;

/** A property exposed as it is: its scalar and description; "nullable" exactly when the property may be null. */
type Exposed<V> = null extends V ? readonly [ScalarOf<NonNullable<V>>, string, "nullable"] : readonly [ScalarOf<V>, string];

/** A computed field: a Pothos field of the object, e.g. `(t) => t.int({ description, resolve })`. */
type Computed<Shape> = ObjectFieldThunk<Types, Shape>;

/** Field name → an exposed property of the same name, or a computed field. */
export type ValueFields<Shape> = { [K in keyof Shape]?: Exposed<Shape[K]> | Computed<Shape> } & Record<string, readonly [string, string, "nullable"?] | Computed<Shape>>;

/** The object type `name` of values of type Shape, its fields in the table's order. */
export function valueObject<Shape extends object>(name: string, description: string, fields: ValueFields<Shape>) {
  return builder.objectRef<Shape>(name).implement({
    description,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields).map(([field, spec]) => [
          field,
          typeof spec === "function"
            ? spec(t)
            : // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the property and scalar are checked against Shape by ValueFields; Pothos types expose's name as a literal
              t.expose(field as any, { type: spec[0], nullable: spec[2] === "nullable", description: spec[1] } as any),
        ]),
      ),
  });
}
