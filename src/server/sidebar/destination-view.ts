/**
 * The sidebar's "Where orders go" card from the saved setting (pure): the choice, whether Google
 * withholds the permission BigQuery needs (read from the consent view the sidebar shows anyway,
 * so it costs no second call), the move offered when the sheets near Google's 10 M cells, and
 * how far a move under way has come.
 */
import type { CellsView, DestinationView, GoogleConsentView } from '../../contract/sidebar';
import { BIGQUERY_DESTINATION_SCOPES, purposesText } from '../auth/google-consent';
import type { Destination } from '../bigquery/destination-setting';
import type { SwitchRecord } from '../bigquery/switch-record';
import { moveProgress } from './move-progress';

export function destinationView(
  destination: Destination,
  consent: GoogleConsentView | null,
  cells: CellsView,
  move: SwitchRecord | null = null,
): DestinationView {
  const needed = purposesText(BIGQUERY_DESTINATION_SCOPES);
  const withheld = destination.kind === 'bigquery' && consent !== null && consent.missing.indexOf(needed) >= 0;
  return {
    chosen: destination,
    permissionMissing: withheld && consent ? { authorizationUrl: consent.authorizationUrl } : null,
    offer: destination.kind === 'sheets' && cells.warn ? moveOffer(cells) : null,
    move: moveProgress(move),
  };
}

/** The same threshold as the cells warning (70 %): the move is offered where the sheets are said to fill up. */
function moveOffer(cells: CellsView): string {
  return (
    `This spreadsheet uses ${cells.percent}% of Google’s ${cells.limit.toLocaleString('en-US')} cells. ` +
    'Orders and line items can go to your BigQuery dataset instead, which holds the whole order history; ' +
    'the P&L, Checks and closes stay here.'
  );
}
