// The variables the build reads (vite.config.mts).
interface ImportMetaEnv {
  /** The service's origin, e.g. http://localhost:3000; unset: the page's own origin. */
  readonly VITE_PRS_API?: string;
  /** A key created with trustedDocumentsOnly: it runs this app's registered documents and nothing else. */
  readonly VITE_PRS_KEY?: string;
}
