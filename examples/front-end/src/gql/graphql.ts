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
  limit: number;
}>;


export type ReportsQuery = { reports: { total: number, items: Array<{ id: string, address: string, city: string | null, state: string | null, price: number | null, status: ReportStatus, showingsCount: number }> } };

export type ReportDetailQueryVariables = Exact<{
  id: string | number;
}>;


export type ReportDetailQuery = { report: { id: string, address: string, city: string | null, state: string | null, price: number | null, status: ReportStatus, showings: Array<{ id: string, showingDate: string | null, eventType: ShowingEventType, attendeeName: string | null, rating: number | null }> | null, comparables: Array<{ id: string, address: string, price: number | null, sqft: number | null, distanceMiles: number | null }> | null } | null };


export const ReportsDocument = {"__meta__":{"hash":"sha256:662d7f75ba275d6842a86c38818cfbbe924da9d63e4dfa052557271cc34971f3"}} as unknown as DocumentNode<ReportsQuery, ReportsQueryVariables>;
export const ReportDetailDocument = {"__meta__":{"hash":"sha256:b01ce3902c42b97b78208e7a6801bace392fb1095fdb2aa4136cd9a354869163"}} as unknown as DocumentNode<ReportDetailQuery, ReportDetailQueryVariables>;