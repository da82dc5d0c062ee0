/** Google scopes the user has not granted the add-on (granular consent), as the sidebar shows them. */
export interface GoogleConsentView {
  /** What the add-on cannot do without them, in the user's words. */
  missing: string[];
  /** Google's page where the user grants them; null when Google gives none. */
  authorizationUrl: string | null;
}
