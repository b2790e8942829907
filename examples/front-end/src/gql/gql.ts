/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query Reports($first: Int!, $after: String) {\n  reportsConnection(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        address\n        city\n        state\n        price\n        status\n        showingsCount\n      }\n    }\n  }\n}\n\nquery ReportDetail($id: ID!) {\n  report(id: $id) {\n    id\n    address\n    city\n    state\n    price\n    status\n    showings(limit: 100) {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparables(limit: 100) {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}\n\nsubscription ReportChanges($reportId: ID!) {\n  reportEvents(reportId: $reportId) {\n    id\n    type\n    showing {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparable {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}": typeof types.ReportsDocument,
};
const documents: Documents = {
    "query Reports($first: Int!, $after: String) {\n  reportsConnection(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        address\n        city\n        state\n        price\n        status\n        showingsCount\n      }\n    }\n  }\n}\n\nquery ReportDetail($id: ID!) {\n  report(id: $id) {\n    id\n    address\n    city\n    state\n    price\n    status\n    showings(limit: 100) {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparables(limit: 100) {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}\n\nsubscription ReportChanges($reportId: ID!) {\n  reportEvents(reportId: $reportId) {\n    id\n    type\n    showing {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparable {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}": types.ReportsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Reports($first: Int!, $after: String) {\n  reportsConnection(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        address\n        city\n        state\n        price\n        status\n        showingsCount\n      }\n    }\n  }\n}\n\nquery ReportDetail($id: ID!) {\n  report(id: $id) {\n    id\n    address\n    city\n    state\n    price\n    status\n    showings(limit: 100) {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparables(limit: 100) {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}\n\nsubscription ReportChanges($reportId: ID!) {\n  reportEvents(reportId: $reportId) {\n    id\n    type\n    showing {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparable {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}"): (typeof documents)["query Reports($first: Int!, $after: String) {\n  reportsConnection(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        address\n        city\n        state\n        price\n        status\n        showingsCount\n      }\n    }\n  }\n}\n\nquery ReportDetail($id: ID!) {\n  report(id: $id) {\n    id\n    address\n    city\n    state\n    price\n    status\n    showings(limit: 100) {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparables(limit: 100) {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}\n\nsubscription ReportChanges($reportId: ID!) {\n  reportEvents(reportId: $reportId) {\n    id\n    type\n    showing {\n      id\n      showingDate\n      eventType\n      attendeeName\n      rating\n    }\n    comparable {\n      id\n      address\n      price\n      sqft\n      distanceMiles\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;