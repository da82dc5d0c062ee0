/** The "Where orders go" card's sentences (pure: shared with its unit test). */
import type { OrdersDestinationRequest } from '../contract/sidebar';

/** What choosing BigQuery means, said before the user saves it. */
export const BIGQUERY_MEANING =
  'Orders and line items go to the tables orders and line_items in this dataset (the add-on creates the dataset and tables at the next sync), ' +
  'and a sheet connected to BigQuery shows them here with a pivot of net revenue and net profit by month. ' +
  'Daily P&L, Monthly P&L, Checks, closes and the dashboard stay in this spreadsheet. ' +
  'BigQuery bills your Cloud project for storage and queries.';

export function savedText(chosen: OrdersDestinationRequest): string {
  if (chosen.kind === 'sheets')
    return (
      'Saved: orders go to this spreadsheet. The next sync reads every order from the store into the Orders and Line items sheets. ' +
      'The tables in BigQuery stay as they are: they are your data, and the add-on deletes nothing there.'
    );
  return (
    `Saved: orders go to BigQuery (${chosen.projectId}.${chosen.datasetId}). The next sync moves the rows the Orders and Line items sheets hold into it, ` +
    'then reads the orders they do not hold; once the tie-out in BigQuery is ✓, those rows are removed from the sheets, freeing their cells.'
  );
}

/** The run stops before writing while this is said (the sync's own message names the same fix). */
export const PERMISSION_MISSING_TEXT =
  'Google has not given the add-on your permission to write the store’s orders into your BigQuery dataset: the sync does not run until you grant it.';
