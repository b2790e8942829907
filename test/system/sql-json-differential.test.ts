// The two read engines compared on every document generated from the schema (test/support/differential.ts).
import { differentialSuite } from "../support/differential";

differentialSuite("full");
