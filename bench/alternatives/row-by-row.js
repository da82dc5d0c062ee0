/* eslint-disable -- Apps Script files of one project: the services and the other files' functions are globals, and the runtime calls the entry points by name. */
/**
 * Alternative (b): incremental like the add-on (updated_after = watermark - 5 min, status=all,
 * 250 a page, the watermark saved after each page), but each changed row is written with its own
 * setValues call, the way such scripts usually update rows they find by id; new rows are appended
 * with one setValues per page. A run that stops at its budget continues from the watermark.
 * Returns { done, pages, waits }.
 */
function altRowByRow() {
  var started = Date.now();
  var props = PropertiesService.getDocumentProperties();
  var watermark = props.getProperty('altRowByRow.watermark') || '1970-01-01T00:00:00.000Z';
  var orders = altSheet('B Orders');
  var items = altSheet('B Line items');
  var orderRows = altIdRows(orders, 'id');
  var itemRows = altIdRows(items, 'id');
  var token = altService().getAccessToken();
  var stats = { pages: 0, waits: 0 };
  var since = new Date(Date.parse(watermark) - 5 * 60 * 1000).toISOString();
  var cursor = null;
  do {
    var path =
      '/api/v1/orders?status=all&limit=250&updated_after=' +
      encodeURIComponent(since) +
      (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    var page = altGet(path, token, stats);
    altUpsert(orders, orderRows, altOrderRows(page.data));
    altUpsert(items, itemRows, altLineItemRows(page.data));
    page.data.forEach(function (o) {
      if (o.updated_at > watermark) watermark = o.updated_at;
    });
    props.setProperty('altRowByRow.watermark', watermark);
    stats.pages++;
    cursor = page.page.next_cursor;
  } while (cursor && Date.now() - started < ALT_BUDGET_MS);
  return { done: !cursor, pages: stats.pages, waits: stats.waits };
}

/** id → row number, from the id column read once per run. */
function altIdRows(sheet, idHeader) {
  var map = {};
  var last = sheet.getLastRow();
  if (last < 2) return map;
  var header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0];
  var column = header.indexOf(idHeader) + 1;
  var ids = sheet.getRange(2, column, last - 1, 1).getValues();
  for (var i = 0; i < ids.length; i++) map[ids[i][0]] = i + 2;
  return map;
}

/** Rows already in the sheet: one setValues each; new rows: appended together. */
function altUpsert(sheet, rowsById, objects) {
  if (objects.length === 0) return;
  var fresh = [];
  var header = sheet.getLastRow() === 0 ? null : sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0];
  objects.forEach(function (o) {
    var row = rowsById[o.id];
    if (row && header) sheet.getRange(row, 1, 1, header.length).setValues(altValues([o], header));
    else fresh.push(o);
  });
  var first = sheet.getLastRow() === 0 ? 2 : sheet.getLastRow() + 1;
  altAppend(sheet, fresh);
  fresh.forEach(function (o, i) {
    rowsById[o.id] = first + i;
  });
}
