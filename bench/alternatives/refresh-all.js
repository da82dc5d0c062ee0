/* eslint-disable -- Apps Script files of one project: the services and the other files' functions are globals, and the runtime calls the entry points by name. */
/**
 * Alternative (a): re-fetch everything and rewrite the sheets on every run, the approach of
 * connectors that "refresh" a whole import. A run clears the sheets, then pages every order
 * (status=all, 250 a page, following next_cursor) and appends each page with one setValues per
 * sheet. A refresh longer than one execution continues in the next from the saved cursor.
 * Returns { done, pages, waits }.
 */
function altRefreshAll() {
  var started = Date.now();
  var props = PropertiesService.getDocumentProperties();
  var state = JSON.parse(props.getProperty('altRefresh') || 'null');
  var orders = altSheet('A Orders');
  var items = altSheet('A Line items');
  if (!state) {
    orders.clearContents();
    items.clearContents();
    state = { cursor: null };
  }
  var token = altService().getAccessToken();
  var stats = { pages: 0, waits: 0 };
  do {
    var path =
      '/api/v1/orders?status=all&limit=250' + (state.cursor ? '&cursor=' + encodeURIComponent(state.cursor) : '');
    var page = altGet(path, token, stats);
    altAppend(orders, altOrderRows(page.data));
    altAppend(items, altLineItemRows(page.data));
    stats.pages++;
    state.cursor = page.page.next_cursor;
    props.setProperty('altRefresh', JSON.stringify(state));
  } while (state.cursor && Date.now() - started < ALT_BUDGET_MS);
  if (!state.cursor) props.deleteProperty('altRefresh');
  return { done: !state.cursor, pages: stats.pages, waits: stats.waits };
}
