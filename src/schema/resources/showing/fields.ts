// Every field of a showing (a private showing or an open house of a report), once.
import { enumSpec, type FieldTable } from "../../fields";
import { count, email, label, rating, text, uuid } from "../../rules";
import { sealed } from "../../sealed";

export const ShowingEventType = enumSpec("ShowingEventType", ["showing", "open_house"] as const, "A private showing or an open house");

const both = { create: "optional", update: true, nullable: true } as const;

export const showingFields = {
  id: { type: "ID", rest: "id", description: "The showing's id (a UUID)" },
  serviceId: { type: "ID", rest: "service_id", description: "A second UUID the service generates at creation" },
  reportId: { type: "ID", rest: "report_id", rule: uuid(), create: "required", description: "The report the showing belongs to (a UUID)" },
  showingDate: { type: "DateTime", rest: "showing_date", ...both, description: "When the showing took place", example: "2026-05-01T14:00:00Z" },
  scheduledDate: { type: "DateTime", rest: "scheduled_date", ...both, description: "When it was scheduled", example: "2026-04-28T09:30:00Z" },
  // Stored encrypted, answered decrypted (docs/data-protection.md); written through sealShowingAttendee (./attendee.ts).
  attendeeName: { type: "String", rest: "attendee_name", rule: text(), ...both, ...sealed("attendeeName", true), description: "Attendee's name", example: "Jordan Buyer" },
  attendeeEmail: { type: "String", rest: "attendee_email", rule: email(), ...both, ...sealed("attendeeEmail", true), description: "Attendee's e-mail", example: "jordan@example.com" },
  attendeePhone: { type: "String", rest: "attendee_phone", rule: text(), ...both, ...sealed("attendeePhone", true), description: "Attendee's phone number" },
  agentName: { type: "String", rest: "agent_name", rule: text(), ...both, description: "Agent who ran the showing" },
  feedback: { type: "String", rest: "feedback", rule: text(20000), ...both, description: "Feedback (at most 20,000 characters)" },
  rating: { type: "Int", rest: "rating", rule: rating(), ...both, description: "Rating, 1 to 5", example: 4 },
  interested: { type: "Boolean", rest: "interested", ...both, description: "Whether the attendee is interested" },
  eventType: { type: ShowingEventType, rest: "event_type", create: "optional", update: true, description: "showing (default) or open_house" },
  title: { type: "String", rest: "title", rule: text(), ...both, description: "Title, e.g. of an open house" },
  attendeesCount: { type: "Int", rest: "attendees_count", rule: count(), ...both, description: "Number of attendees", example: 12 },
  uniqueShowingKey: { type: "String", rest: "unique_showing_key", rule: label(255), ...both, description: "Your own key for the showing, unique in the team", example: "crm-48151" },
  showingTimeStart: { type: "DateTime", rest: "showing_time_start", ...both, description: "Start of the showing", example: "2026-05-01T14:00:00Z" },
  showingTimeEnd: { type: "DateTime", rest: "showing_time_end", ...both, description: "End of the showing, not before its start", example: "2026-05-01T15:00:00Z" },
  createdAt: { type: "DateTime", rest: "created_at", description: "When the showing was created" },
  updatedAt: { type: "DateTime", rest: "updated_at", description: "When the showing last changed" },
} satisfies FieldTable;
