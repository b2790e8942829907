// What every page of the dashboard is given (PageProps) and the signed-in key it is given it for (Who): its own
// module, so the pages and main.tsx, which renders them, import it without importing each other.
import { graphql, type ResultOf } from "./graphql";

export const WHO = graphql(`
  query Who {
    me {
      team { id name }
      apiKey { id name prefix permissions rateLimitTier expiresAt }
    }
  }
`);
export type Who = ResultOf<typeof WHO>["me"];

export interface PageProps {
  apiKey: string;
  who: Who;
  /** The route's parameters (#/reports?page=2): a page keeps its state there so Back and reload return to it. */
  params: URLSearchParams;
  onUnauthorized: () => void;
}
