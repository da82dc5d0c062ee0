/* eslint-disable -- Apps Script files of one project: the services and the other files' functions are globals, and the runtime calls the entry points by name. */
/**
 * Shared by the bench's alternative scripts (bench/alternatives/*.js): written the way merchant
 * scripts commonly are, not the add-on's way. Never shipped: bench/bundle.ts appends these files
 * to a copy of dist/Code.js for the bench's runtime only, as extra .gs files of the same project,
 * so they reach the same connection (the OAuth2 library's token in the connecting user's properties).
 */

/**
 * The apps-script-oauth2 service over the add-on's connection, configured as the add-on's own
 * (src/server/auth/service.ts): one service per spreadsheet in the connecting user's properties,
 * with that user's lock and no cache: the add-on keeps the token in its property alone, so a
 * cached copy here would go stale when the add-on renews it.
 */
function altService() {
  var config = PropertiesService.getScriptProperties();
  var base = config.getProperty('MA_API_BASE_URL');
  var id = config.getProperty('MA_CLIENT_ID');
  var secret = config.getProperty('MA_CLIENT_SECRET');
  return OAuth2.createService('merchant-analytics.' + SpreadsheetApp.getActive().getId())
    .setAuthorizationBaseUrl(base + '/api/auth/oauth2/authorize')
    .setTokenUrl(base + '/api/auth/oauth2/token')
    .setClientId(id)
    .setClientSecret(secret)
    .setPropertyStore(PropertiesService.getUserProperties())
    .setLock(LockService.getUserLock())
    .setTokenHeaders({ Authorization: 'Basic ' + Utilities.base64Encode(id + ':' + secret) })
    .setTokenPayloadHandler(function (payload) {
      delete payload.client_secret;
      return payload;
    });
}

/** GET an API path; a 429 waits for Retry-After and tries again, anything else not 200 throws. */
function altGet(path, token, stats) {
  var base = PropertiesService.getScriptProperties().getProperty('MA_API_BASE_URL');
  for (;;) {
    var response = UrlFetchApp.fetch(base + path, {
      headers: { Authorization: 'Bearer ' + token },
      muteHttpExceptions: true,
    });
    var code = response.getResponseCode();
    if (code === 429) {
      stats.waits++;
      Utilities.sleep(Number(response.getHeaders()['Retry-After'] || 1) * 1000);
      continue;
    }
    if (code !== 200) throw new Error('API answered ' + code);
    return JSON.parse(response.getContentText());
  }
}

/** An order as one row: its own fields, then its nested objects' fields; arrays are left out. */
function altFlatten(record) {
  var row = {};
  Object.keys(record).forEach(function (key) {
    var value = record[key];
    if (Array.isArray(value)) return;
    if (value !== null && typeof value === 'object') {
      Object.keys(value).forEach(function (inner) {
        row[inner] = value[inner];
      });
    } else {
      row[key] = value;
    }
  });
  return row;
}

function altOrderRows(orders) {
  return orders.map(altFlatten);
}

function altLineItemRows(orders) {
  var rows = [];
  orders.forEach(function (order) {
    order.line_items.forEach(function (item) {
      var row = { order_id: order.id };
      Object.keys(item).forEach(function (key) {
        row[key] = item[key];
      });
      rows.push(row);
    });
  });
  return rows;
}

/** Header = the first record's keys; null becomes an empty cell. */
function altValues(objects, header) {
  return objects.map(function (o) {
    return header.map(function (h) {
      return o[h] === null || o[h] === undefined ? '' : o[h];
    });
  });
}

function altSheet(name) {
  var ss = SpreadsheetApp.getActive();
  return ss.getSheetByName(name) || ss.insertSheet(name);
}

/** getRange past the grid throws in Sheets: grow it first. */
function altEnsureGrid(sheet, rows, columns) {
  if (sheet.getMaxRows() < rows) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  if (sheet.getMaxColumns() < columns) sheet.insertColumnsAfter(sheet.getMaxColumns(), columns - sheet.getMaxColumns());
}

/** Appends rows after the last row in one setValues (header first when the sheet is empty). */
function altAppend(sheet, objects) {
  if (objects.length === 0) return;
  var last = sheet.getLastRow();
  var header = last === 0 ? Object.keys(objects[0]) : sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0];
  var values = altValues(objects, header);
  if (last === 0) {
    values.unshift(header);
  }
  altEnsureGrid(sheet, last + values.length, header.length);
  sheet.getRange(last + 1, 1, values.length, header.length).setValues(values);
}

/** Stops starting pages after five minutes, as such scripts do to stay under the six-minute limit. */
var ALT_BUDGET_MS = 5 * 60 * 1000;
