// The GraphQL schema: the builder plus every type file, which registers its types, queries and mutations.
import { builder } from "./builder";
import "./types/team";
import "./types/collections";
import "./types/report";
import "./types/showing";
import "./types/apiKey";
import "./types/viewer";

export const schema = builder.toSchema({ sortSchema: false });
