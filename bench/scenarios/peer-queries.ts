// PostGraphile's side of scenarios 8 and 9: the same selections as the service's, in PostGraphile 5's names
// (aliased back to the service's where a name differs; collections are connections there, so one `nodes` level more).
const ITEMS = {
  comparables: "id: rowId address price distanceMiles",
  showings: "id: rowId attendeeName eventType showingDate",
  socialMediaPosts: "id: rowId platform likes postedAt",
  agentInsights: "id: rowId title body",
};
const oldestFirst = "first: 100, orderBy: [CREATED_AT_ASC, ROW_ID_ASC]";

/** bench/scenarios/statements.ts NESTED_QUERY for PostGraphile: the team's newest `limit` reports, 4 collections. */
export const PEER_NESTED_QUERY = `query PeerNested($teamId: UUID!, $limit: Int!) {
  reports: allReports(condition: { teamId: $teamId }, first: $limit, orderBy: [CREATED_AT_DESC, ROW_ID_DESC]) {
    total: totalCount
    items: nodes {
      id: rowId address price status
      showingsCount: showingsByReportIdAndTeamId { totalCount }
      comparables: comparablesByReportIdAndTeamId(${oldestFirst}) { nodes { ${ITEMS.comparables} } }
      showings: showingsByReportIdAndTeamId(${oldestFirst}) { nodes { ${ITEMS.showings} } }
      socialMediaPosts: socialMediaPostsByReportIdAndTeamId(${oldestFirst}) { nodes { ${ITEMS.socialMediaPosts} } }
      agentInsights: agentInsightsByReportIdAndTeamId(${oldestFirst}) { nodes { ${ITEMS.agentInsights} } }
    }
  }
}`;

// Every column of the report and of its four collections (the REST detail's content; its computed fields aside).
const REPORT_COLUMNS = "id: rowId address city state zip price beds baths sqft yearBuilt propertyType status publishedAt viewsCount savesCount createdAt updatedAt description lotSize portalUrl portalPropertyId mlsId listingAgent createdBy customAgentName customAgentEmail primaryColor secondaryColor executiveSummary showCompsOnReport showNeighborhoodOnReport showSocialOnReport showShowingsOnReport showAgentInsightsOnReport";
const COMPARABLE_COLUMNS = "id: rowId reportId address city state zip price beds baths sqft lotSize yearBuilt distanceMiles saleDate daysOnMarket status source mlsId latitude longitude adjustments included createdAt updatedAt";
const SHOWING_COLUMNS = "id: rowId serviceId reportId showingDate scheduledDate attendeeName attendeeEmail attendeePhone agentName feedback rating interested eventType title attendeesCount uniqueShowingKey showingTimeStart showingTimeEnd createdAt updatedAt";
const POST_COLUMNS = "id: rowId reportId platform externalId url caption postedAt likes comments shares saves views reach metricsAt createdAt updatedAt";
const INSIGHT_COLUMNS = "id: rowId reportId title body category author source createdAt updatedAt";

/** GET /v1/reports/{id} for PostGraphile: reportByRowId with every column and the four collections (first 100). */
export const PEER_DETAIL_QUERY = `query PeerDetail($id: UUID!) {
  report: reportByRowId(rowId: $id) {
    ${REPORT_COLUMNS}
    showingsCount: showingsByReportIdAndTeamId { totalCount }
    comparables: comparablesByReportIdAndTeamId(${oldestFirst}) { nodes { ${COMPARABLE_COLUMNS} } }
    showings: showingsByReportIdAndTeamId(${oldestFirst}) { nodes { ${SHOWING_COLUMNS} } }
    socialMediaPosts: socialMediaPostsByReportIdAndTeamId(${oldestFirst}) { nodes { ${POST_COLUMNS} } }
    agentInsights: agentInsightsByReportIdAndTeamId(${oldestFirst}) { nodes { ${INSIGHT_COLUMNS} } }
  }
}`;
