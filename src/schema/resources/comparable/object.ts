import { builder } from "../../builder";
import { objectFields } from "../../fields";
import { comparableFields } from "./fields";

builder.prismaObject("Comparable", {
  description: "A comparable property of a report.",
  fields: (t) => objectFields(comparableFields, t),
});
