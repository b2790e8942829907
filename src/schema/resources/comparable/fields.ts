// Every field of a comparable property, once (read-only until comparables become writable).
import type { FieldTable } from "../../fields";

export const comparableFields = {
  id: { type: "ID", rest: "id", description: "The comparable's id (a UUID)" },
  address: { type: "String", rest: "address", description: "Street address" },
  city: { type: "String", rest: "city", nullable: true, description: "City" },
  state: { type: "String", rest: "state", nullable: true, description: "State or region" },
  zip: { type: "String", rest: "zip", nullable: true, description: "Postal code" },
  price: { type: "Float", rest: "price", nullable: true, description: "Closed price when sold, else list price" },
  beds: { type: "Int", rest: "beds", nullable: true, description: "Bedrooms" },
  baths: { type: "Float", rest: "baths", nullable: true, description: "Bathrooms" },
  sqft: { type: "Int", rest: "sqft", nullable: true, description: "Living area in square feet" },
  distanceMiles: { type: "Float", rest: "distance_miles", nullable: true, description: "Distance from the subject in miles" },
  saleDate: { type: "DateTime", rest: "sale_date", nullable: true, description: "Sale date" },
  status: { type: "String", rest: "status", nullable: true, description: "sold, active, pending or off_market" },
  source: { type: "String", rest: "source", nullable: true, description: "Where the comparable came from" },
  createdAt: { type: "DateTime", rest: "created_at", description: "When the comparable was added" },
} satisfies FieldTable;
