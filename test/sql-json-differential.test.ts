// The two read engines compared on a reduced set of the documents generated from the schema: every served field at
// once, two roots in one document, another team's key (test/support/differential.ts; the system tier runs them all).
import { differentialSuite } from "./support/differential";

differentialSuite("reduced");
