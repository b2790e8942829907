// GraphQL selections of the REST responses and their mapping to the snake_case bodies of spec.md
// (the zod response schemas in ./schemas describe the results).

export const SUMMARY_FIELDS = `id address city state zip price beds baths sqft yearBuilt propertyType status isPublished isDraft publishedAt
  viewsCount savesCount showingsCount createdAt updatedAt`;

export const REPORT_FRAGMENT = `fragment RestReport on Report {
  ${SUMMARY_FIELDS}
  description lotSize portalUrl portalPropertyId mlsId listingAgent createdBy customAgentName customAgentEmail
  primaryColor secondaryColor executiveSummary showComps showNeighborhood showSocial showShowings showAgentInsights
}`;

export const SHOWING_FRAGMENT = `fragment RestShowing on Showing {
  id serviceId reportId showingDate scheduledDate attendeeName attendeeEmail attendeePhone agentName feedback rating
  interested eventType title attendeesCount uniqueShowingKey showingTimeStart showingTimeEnd createdAt updatedAt
}`;

export const DETAIL_FRAGMENT = `fragment RestReportDetail on Report {
  ...RestReport
  comparables { id address city state zip price beds baths sqft distanceMiles saleDate status source createdAt }
  showings { ...RestShowing }
  socialMediaPosts { id platform externalId url caption postedAt likes comments shares views }
  agentInsights { id author title body category createdAt }
}
${REPORT_FRAGMENT}
${SHOWING_FRAGMENT}`;

type Nullable<T> = T | null;

export interface GqlSummary {
  id: string;
  address: string;
  city: Nullable<string>;
  state: Nullable<string>;
  zip: Nullable<string>;
  price: Nullable<number>;
  beds: Nullable<number>;
  baths: Nullable<number>;
  sqft: Nullable<number>;
  yearBuilt: Nullable<number>;
  propertyType: Nullable<string>;
  status: string;
  isPublished: boolean;
  isDraft: boolean;
  publishedAt: Nullable<string>;
  viewsCount: number;
  savesCount: number;
  showingsCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface GqlReport extends GqlSummary {
  description: Nullable<string>;
  lotSize: Nullable<number>;
  portalUrl: Nullable<string>;
  portalPropertyId: Nullable<string>;
  mlsId: Nullable<string>;
  listingAgent: string;
  createdBy: string;
  customAgentName: Nullable<string>;
  customAgentEmail: Nullable<string>;
  primaryColor: Nullable<string>;
  secondaryColor: Nullable<string>;
  executiveSummary: Nullable<string>;
  showComps: boolean;
  showNeighborhood: boolean;
  showSocial: boolean;
  showShowings: boolean;
  showAgentInsights: boolean;
}

export interface GqlShowing {
  id: string;
  serviceId: string;
  reportId: string;
  showingDate: Nullable<string>;
  scheduledDate: Nullable<string>;
  attendeeName: Nullable<string>;
  attendeeEmail: Nullable<string>;
  attendeePhone: Nullable<string>;
  agentName: Nullable<string>;
  feedback: Nullable<string>;
  rating: Nullable<number>;
  interested: Nullable<boolean>;
  eventType: string;
  title: Nullable<string>;
  attendeesCount: Nullable<number>;
  uniqueShowingKey: Nullable<string>;
  showingTimeStart: Nullable<string>;
  showingTimeEnd: Nullable<string>;
  createdAt: string;
  updatedAt: string;
}

interface GqlComparable {
  id: string;
  address: string;
  city: Nullable<string>;
  state: Nullable<string>;
  zip: Nullable<string>;
  price: Nullable<number>;
  beds: Nullable<number>;
  baths: Nullable<number>;
  sqft: Nullable<number>;
  distanceMiles: Nullable<number>;
  saleDate: Nullable<string>;
  status: Nullable<string>;
  source: Nullable<string>;
  createdAt: string;
}

interface GqlPost {
  id: string;
  platform: string;
  externalId: Nullable<string>;
  url: Nullable<string>;
  caption: Nullable<string>;
  postedAt: Nullable<string>;
  likes: number;
  comments: number;
  shares: number;
  views: number;
}

interface GqlInsight {
  id: string;
  author: string;
  title: Nullable<string>;
  body: string;
  category: Nullable<string>;
  createdAt: string;
}

/** Collections are null when the key may not read them. */
export interface GqlReportDetail extends GqlReport {
  comparables: Nullable<GqlComparable[]>;
  showings: Nullable<GqlShowing[]>;
  socialMediaPosts: Nullable<GqlPost[]>;
  agentInsights: Nullable<GqlInsight[]>;
}

/** A list item: the documented list schema and the sample names (DECISIONS "Names and aliases"). */
export const toReportSummary = (r: GqlSummary) => ({
  id: r.id,
  address: r.address,
  city: r.city,
  state: r.state,
  zip: r.zip,
  price: r.price,
  beds: r.beds,
  baths: r.baths,
  sqft: r.sqft,
  year_built: r.yearBuilt,
  property_type: r.propertyType,
  status: r.status,
  is_published: r.isPublished,
  is_draft: r.isDraft,
  published_at: r.publishedAt,
  views_count: r.viewsCount,
  saves_count: r.savesCount,
  showings_count: r.showingsCount,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  bedrooms: r.beds,
  bathrooms: r.baths,
  square_feet: r.sqft,
  date_created: r.createdAt,
});

export const toReport = (r: GqlReport) => ({
  ...toReportSummary(r),
  description: r.description,
  lot_size: r.lotSize,
  portal_url: r.portalUrl,
  portal_property_id: r.portalPropertyId,
  mls_id: r.mlsId,
  listing_agent: r.listingAgent,
  created_by: r.createdBy,
  custom_agent_name: r.customAgentName,
  custom_agent_email: r.customAgentEmail,
  primary_color: r.primaryColor,
  secondary_color: r.secondaryColor,
  executive_summary: r.executiveSummary,
  show_comps_on_report: r.showComps,
  show_neighborhood_on_report: r.showNeighborhood,
  show_social_on_report: r.showSocial,
  show_showings_on_report: r.showShowings,
  show_agent_insights_on_report: r.showAgentInsights,
});

export const toShowing = (s: GqlShowing) => ({
  id: s.id,
  service_id: s.serviceId,
  report_id: s.reportId,
  showing_date: s.showingDate,
  scheduled_date: s.scheduledDate,
  attendee_name: s.attendeeName,
  attendee_email: s.attendeeEmail,
  attendee_phone: s.attendeePhone,
  agent_name: s.agentName,
  feedback: s.feedback,
  rating: s.rating,
  interested: s.interested,
  event_type: s.eventType,
  title: s.title,
  attendees_count: s.attendeesCount,
  unique_showing_key: s.uniqueShowingKey,
  showing_time_start: s.showingTimeStart,
  showing_time_end: s.showingTimeEnd,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

const toComparable = (c: GqlComparable) => ({
  id: c.id,
  address: c.address,
  city: c.city,
  state: c.state,
  zip: c.zip,
  price: c.price,
  beds: c.beds,
  baths: c.baths,
  sqft: c.sqft,
  distance_miles: c.distanceMiles,
  sale_date: c.saleDate,
  status: c.status,
  source: c.source,
  created_at: c.createdAt,
});

const toPost = (p: GqlPost) => ({
  id: p.id,
  platform: p.platform,
  external_id: p.externalId,
  url: p.url,
  caption: p.caption,
  posted_at: p.postedAt,
  likes: p.likes,
  comments: p.comments,
  shares: p.shares,
  views: p.views,
});

const toInsight = (i: GqlInsight) => ({ id: i.id, author: i.author, title: i.title, body: i.body, category: i.category, created_at: i.createdAt });

/** The detail: every field and the collections the key may read (the others are left out). */
export const toReportDetail = (r: GqlReportDetail) => ({
  ...toReport(r),
  ...(r.comparables && { comparable_properties: r.comparables.map(toComparable) }),
  ...(r.showings && { showing_events: r.showings.map(toShowing) }),
  ...(r.socialMediaPosts && { social_media_posts: r.socialMediaPosts.map(toPost) }),
  ...(r.agentInsights && { agent_insights: r.agentInsights.map(toInsight) }),
});
