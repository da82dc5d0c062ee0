/**
 * Document properties, obtained once per execution: every PropertiesService call is a billed
 * service call (apps-script-cost-model.md), and each execution starts with fresh module state.
 */
let documentStore: GoogleAppsScript.Properties.Properties | null = null;

export function documentProperties(): GoogleAppsScript.Properties.Properties {
  return (documentStore ??= PropertiesService.getDocumentProperties());
}
