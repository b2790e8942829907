// Every GraphQL type, field, argument, input field and enum value the schema declares carries a description
// (GraphiQL's docs explorer and the committed schema.graphql are the reference for GraphQL clients).
import { isEnumType, isInputObjectType, isObjectType, isScalarType, isSpecifiedScalarType } from "graphql";
import { schema } from "../src/schema";

it("describes every type, field, argument and input field", () => {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__") || (isScalarType(type) && isSpecifiedScalarType(type))) continue;
    if (!type.description) missing.push(type.name);
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) if (!field.description) missing.push(`${type.name}.${field.name}`);
    if (isEnumType(type) && !type.description) missing.push(type.name);
  }
  expect(missing).toEqual([]);
});
