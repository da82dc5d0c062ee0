/**
 * The sidebar's Columns card, so a large store can sync fewer columns and fit more orders: per table (Orders, Line items) a preset, Essentials / All /
 * Custom, where Custom lists the table's columns (those always synced checked and locked, those no
 * longer synced marked); how many orders fit in 10 M cells; the fill pass's progress; and Apply,
 * which sends setColumns and says what the next sync does. The main script calls
 * renderColumns(state) with every state and wireColumns(actions) once.
 */
import type {
  ColumnChoiceRequest,
  ColumnPresetName,
  ColumnsView,
  ColumnTableView,
  SidebarState,
} from '../contract/sidebar';
import { chosenFitText, fillingText, fitText, heldFitText, SAVED_TEXT } from './columns-text';
import { byId, element, setText, show } from './dom';
import { call } from './server';

export interface ColumnsActions {
  perform(label: string, what: string, action: () => Promise<string>): Promise<void>;
  /** Shows a whole state (the one setColumns answers). */
  apply(state: SidebarState): void;
}

type TableName = ColumnTableView['table'];
const PRESETS: Array<{ value: ColumnPresetName; label: string }> = [
  { value: 'essentials', label: 'Essentials' },
  { value: 'all', label: 'All' },
  { value: 'custom', label: 'Custom' },
];

/**
 * A choice changed here and not applied yet: a state read meanwhile (the idle watcher's) updates
 * the figures but leaves the controls as the user set them.
 */
let edited = false;

const slug = (table: TableName): string => table.toLowerCase().replace(/[^a-z]+/g, '-');

export function renderColumns(state: SidebarState): void {
  const view = state.connection.state === 'connected' ? (state.columns ?? null) : null;
  show('columns-card', view !== null);
  if (!view) return;
  setText('columns-fit', fitText(view.fit));
  const chosen = chosenFitText(view.fit);
  show('columns-chosen-fit', chosen !== null);
  setText('columns-chosen-fit', chosen ?? '');
  const held = heldFitText(view.fit);
  show('columns-held-fit', held !== null);
  setText('columns-held-fit', held ?? '');
  const filling = fillingText(view.filling);
  show('columns-filling', filling !== null);
  setText('columns-filling', filling ?? '');
  if (!edited || !sameTables(view)) renderTables(view);
}

function sameTables(view: ColumnsView): boolean {
  return view.tables.every((t) => document.querySelector(`fieldset[data-table="${t.table}"]`) !== null);
}

function renderTables(view: ColumnsView): void {
  edited = false;
  byId('columns-tables').replaceChildren(...view.tables.map(tableControls));
}

function tableControls(table: ColumnTableView): HTMLFieldSetElement {
  const id = slug(table.table);
  const box = element('fieldset', 'column-table', '');
  box.dataset.table = table.table;
  box.append(element('legend', '', table.table));
  const presets = element('div', 'presets', '');
  for (const preset of PRESETS) {
    const input = element('input', '', '');
    input.type = 'radio';
    input.name = `columns-${id}`;
    input.id = `columns-${id}-${preset.value}`;
    input.value = preset.value;
    input.checked = table.preset === preset.value;
    const label = element('label', 'check', '');
    label.append(input, ` ${preset.label}`);
    presets.append(label);
  }
  const list = element('ul', 'column-list', '');
  list.id = `columns-${id}-list`;
  list.setAttribute('aria-label', `${table.table} columns`);
  list.hidden = table.preset !== 'custom';
  list.append(...table.columns.map((column) => columnItem(column)));
  presets.addEventListener('change', () => {
    markEdited();
    list.hidden = presetOf(box) !== 'custom';
  });
  list.addEventListener('change', markEdited);
  box.append(presets, list);
  return box;
}

/** A change not applied yet: the last "Saved." no longer describes what the card shows. */
function markEdited(): void {
  edited = true;
  show('columns-result', false);
}

function columnItem(column: ColumnTableView['columns'][number]): HTMLLIElement {
  const item = element('li', '', '');
  const input = element('input', '', '');
  input.type = 'checkbox';
  input.value = column.header;
  input.checked = column.chosen || column.kept;
  const label = element('label', 'check', '');
  label.append(input, ` ${column.header}`);
  if (column.kept) {
    // Locked for good: the busy state's re-enabling of controls skips it (setBusy).
    input.disabled = true;
    input.dataset.locked = 'true';
    label.title = 'always synced';
  }
  item.append(label);
  if (column.retired) {
    item.className = 'retired';
    item.append(element('span', 'small muted', ' no longer synced, values cleared'));
  }
  return item;
}

function presetOf(box: HTMLElement): ColumnPresetName {
  const checked = box.querySelector<HTMLInputElement>('.presets input:checked');
  return (checked ? checked.value : 'all') as ColumnPresetName;
}

/** The request the controls say: a preset per table, and for Custom the checked columns. */
function choiceRequest(): ColumnChoiceRequest {
  const request: ColumnChoiceRequest = {};
  document.querySelectorAll<HTMLFieldSetElement>('#columns-tables fieldset[data-table]').forEach((box) => {
    const table = box.dataset.table as TableName;
    const preset = presetOf(box);
    if (preset !== 'custom') {
      request[table] = { preset };
      return;
    }
    const columns = Array.from(box.querySelectorAll<HTMLInputElement>('.column-list input:checked')).map(
      (input) => input.value,
    );
    request[table] = { preset, columns };
  });
  return request;
}

const applyColumns = (actions: ColumnsActions) =>
  actions.perform('Saving the columns…', 'save the columns', async () => {
    show('columns-result', false);
    const state = await call('setColumns', choiceRequest());
    edited = false;
    actions.apply(state);
    setText('columns-result', SAVED_TEXT);
    show('columns-result', true);
    return SAVED_TEXT;
  });

export function wireColumns(actions: ColumnsActions): void {
  byId('columns-apply').addEventListener('click', () => void applyColumns(actions));
}
