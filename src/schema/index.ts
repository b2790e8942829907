// The GraphQL schema: the builder, the scalars, and every resource, each registering its types, queries and mutations.
import { GraphQLDeferDirective, GraphQLStreamDirective } from "@graphql-tools/utils";
import { specifiedDirectives } from "graphql";
import { builder } from "./builder";
import { countBuiltItems } from "./limits";
import "./scalars";
import "./types/team";
import "./resources/comparable/object";
import "./resources/social-post/object";
import "./resources/social-post/import";
import "./resources/social-post/engagement";
import "./resources/insight/object";
import "./resources/report/object";
import "./resources/report/queries";
import "./resources/report/mutations";
import "./resources/showing/object";
import "./resources/showing/queries";
import "./resources/showing/mutations";
import "./resources/summary/object";
import "./resources/webhook/object";
import "./resources/webhook/queries";
import "./resources/webhook/mutations";
import "./resources/crm/destination";
import "./resources/share-link/object";
import "./resources/photo/object";
import "./resources/sign-in/links";
import "./resources/sign-in/consents";
import "./resources/attendee-rights";
import "./resources/connections";
import "./types/api-key";
import "./types/audit-log";
import "./types/graphql-documents";
import "./types/usage-export";
import "./types/viewer";
import "./types/live-events";
import "./types/permission-catalog";

// Every list of objects counts what it builds against the limit of one request (limits.ts, the second line of defence).
// @defer and @stream are declared here (src/yoga/use-incremental-delivery.ts executes them): Yoga's defer-stream plugin would otherwise
// replace the schema with a copy that the compiled engine and the one-statement path do not know.
export const schema = countBuiltItems(builder.toSchema({ sortSchema: false, directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective] }));
