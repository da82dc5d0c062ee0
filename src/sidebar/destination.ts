/**
 * The sidebar's "Where orders go" card: this spreadsheet (the default) or BigQuery with the Cloud
 * project and dataset; what BigQuery means; the server's refusal of a name shown in place; the
 * permission Google withholds, with its link; and the move offered when the sheets fill up. The
 * main script calls renderDestination(state) with every state and wireDestination(actions) once.
 */
import type { OrdersDestinationRequest, SidebarState } from '../contract/sidebar';
import { BIGQUERY_MEANING, PERMISSION_MISSING_TEXT, savedText } from './destination-text';
import { byId, setText, show } from './dom';
import { call } from './server';

export interface DestinationActions {
  perform(label: string, what: string, action: () => Promise<string>): Promise<void>;
  /** Reads and shows the whole state again. */
  reload(): Promise<void>;
}

/** A choice changed here and not saved yet: a state read meanwhile leaves the controls as the user set them. */
let edited = false;

const radio = (kind: OrdersDestinationRequest['kind']) => byId<HTMLInputElement>(`destination-${kind}`);

export function renderDestination(state: SidebarState): void {
  const view = state.connection.state === 'connected' ? (state.destination ?? null) : null;
  show('destination-card', view !== null);
  if (!view) return;
  show('destination-move', Boolean(view.move));
  setText('destination-move', view.move ?? '');
  show('destination-offer', view.offer !== null);
  setText('destination-offer', view.offer ?? '');
  // Also where the Columns card says how many orders fit: the other way out of the cell limit.
  show('columns-move', view.offer !== null);
  setText('columns-move-text', view.offer ?? '');
  const permission = view.permissionMissing;
  show('destination-permission', permission !== null);
  setText('destination-permission-text', PERMISSION_MISSING_TEXT);
  const link = byId<HTMLAnchorElement>('destination-permission-link');
  link.hidden = !permission || permission.authorizationUrl === null;
  if (permission && permission.authorizationUrl !== null) link.href = permission.authorizationUrl;
  if (edited) return;
  const chosen = view.chosen;
  radio('sheets').checked = chosen.kind === 'sheets';
  radio('bigquery').checked = chosen.kind === 'bigquery';
  byId<HTMLInputElement>('destination-project').value = chosen.kind === 'bigquery' ? chosen.projectId : '';
  byId<HTMLInputElement>('destination-dataset').value = chosen.kind === 'bigquery' ? chosen.datasetId : '';
  showFields();
}

function showFields(): void {
  setText('destination-meaning', BIGQUERY_MEANING);
  show('destination-bigquery-fields', radio('bigquery').checked);
}

function markEdited(): void {
  edited = true;
  show('destination-result', false);
  show('destination-problem', false);
  showFields();
}

function request(): OrdersDestinationRequest {
  if (!radio('bigquery').checked) return { kind: 'sheets' };
  return {
    kind: 'bigquery',
    projectId: byId<HTMLInputElement>('destination-project').value,
    datasetId: byId<HTMLInputElement>('destination-dataset').value,
  };
}

const save = (actions: DestinationActions) =>
  actions.perform('Saving where orders go…', 'save where orders go', async () => {
    show('destination-result', false);
    show('destination-problem', false);
    let chosen: OrdersDestinationRequest;
    try {
      chosen = await call('setOrdersDestination', request());
    } catch (error) {
      // The server's check says what to fix (a project id's form, a hidden dataset): beside the fields.
      setText('destination-problem', error instanceof Error ? error.message : String(error));
      show('destination-problem', true);
      return 'Where orders go was not changed.';
    }
    edited = false;
    await actions.reload();
    const text = savedText(chosen);
    setText('destination-result', text);
    show('destination-result', true);
    return text;
  });

/** The Columns card's offer: BigQuery chosen in this card, its first field focused for the project id. */
function offerMove(): void {
  radio('bigquery').checked = true;
  markEdited();
  byId('destination-card').scrollIntoView({ block: 'start' });
  byId<HTMLInputElement>('destination-project').focus();
}

export function wireDestination(actions: DestinationActions): void {
  byId('columns-move-button').addEventListener('click', offerMove);
  byId('destination-choice').addEventListener('change', markEdited);
  byId('destination-project').addEventListener('input', markEdited);
  byId('destination-dataset').addEventListener('input', markEdited);
  byId('destination-save').addEventListener('click', () => void save(actions));
}
