// The REST route table: every route of /v1, each declared once beside its GraphQL operations (./route.ts says what a
// declaration holds). The Express router, the 405 answers, the OpenAPI document, the auth middleware's fast-path
// choice and the tests' list of routes are all made from it; its order is the OpenAPI document's and, where two
// paths could match one request (/v1/reports/search, /v1/reports/{reportId}), the literal one comes first.
import { auditLogRoutes } from "./audit-log";
import { comparableRoutes } from "./comparables";
import { graphqlDocumentRoutes } from "./graphql-documents";
import { insightRoutes } from "./insights";
import { photoRoutes } from "./photos";
import { reportRoutes } from "./reports";
import { statementChecked, type RestRoute } from "./route";
import { shareLinkRoutes } from "./share-links";
import { showingRoutes } from "./showings";
import { signInLinkRoutes } from "./sign-in-links";
import { attendeeRoutes } from "./attendees";
import { socialPostRoutes } from "./social-posts";
import { summaryRoutes } from "./summary";
import { usageRoutes } from "./usage";
import { userRoutes } from "./users";
import { webhookRoutes } from "./webhooks";
import { crmDestinationRoutes } from "./crm-destinations";

export const ROUTES: readonly RestRoute[] = [
  ...reportRoutes,
  ...showingRoutes,
  ...comparableRoutes,
  ...photoRoutes,
  ...insightRoutes,
  ...socialPostRoutes,
  ...summaryRoutes,
  ...shareLinkRoutes,
  ...signInLinkRoutes,
  ...attendeeRoutes,
  ...webhookRoutes,
  ...crmDestinationRoutes,
  ...userRoutes,
  ...auditLogRoutes,
  ...usageRoutes,
  ...graphqlDocumentRoutes,
];

/** Reads that check the request's key in their own statement (the auth middleware's `checkedByStatement`). */
export const readsReports = statementChecked(ROUTES);
