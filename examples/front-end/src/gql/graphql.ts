/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Publication state of a report */
export type ReportStatus =
  | 'draft'
  | 'published';

/** A private showing or an open house */
export type ShowingEventType =
  | 'open_house'
  | 'showing';

export type ReportsQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type ReportsQuery = { reportsConnection: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, address: string, city: string | null, state: string | null, price: number | null, status: ReportStatus, showingsCount: number } }> } };

export type ReportDetailQueryVariables = Exact<{
  id: string | number;
}>;


export type ReportDetailQuery = { report: { id: string, address: string, city: string | null, state: string | null, price: number | null, status: ReportStatus, showings: Array<{ id: string, showingDate: string | null, eventType: ShowingEventType, attendeeName: string | null, rating: number | null }> | null, comparables: Array<{ id: string, address: string, price: number | null, sqft: number | null, distanceMiles: number | null }> | null } | null };

export type ReportChangesSubscriptionVariables = Exact<{
  reportId: string | number;
}>;


export type ReportChangesSubscription = { reportEvents: { id: string, type: string, showing: { id: string, showingDate: string | null, eventType: ShowingEventType, attendeeName: string | null, rating: number | null } | null, comparable: { id: string, address: string, price: number | null, sqft: number | null, distanceMiles: number | null } | null } };


export const ReportsDocument = {"__meta__":{"hash":"sha256:00d5c822aab5763c762bb755c04fc3b5d45ea90c79b31c5fb275eb278cbb7cd5"}} as unknown as DocumentNode<ReportsQuery, ReportsQueryVariables>;
export const ReportDetailDocument = {"__meta__":{"hash":"sha256:b01ce3902c42b97b78208e7a6801bace392fb1095fdb2aa4136cd9a354869163"}} as unknown as DocumentNode<ReportDetailQuery, ReportDetailQueryVariables>;
export const ReportChangesDocument = {"__meta__":{"hash":"sha256:66fb8c58391a996fd762ae257424fc9a6ae31b6d1c4599ad4e0bf3622d60b123"}} as unknown as DocumentNode<ReportChangesSubscription, ReportChangesSubscriptionVariables>;