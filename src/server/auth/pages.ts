/** The pages the browser shows after the merchant comes back from Merchant Analytics. */

export type CallbackOutcome =
  | 'connected'
  | 'denied'
  | 'expired'
  | 'link_used'
  | 'wrong_spreadsheet'
  | 'other_account'
  | 'store_mismatch'
  | 'missing_scope'
  | 'operator'
  | 'server_error';

export interface CallbackPage {
  outcome: CallbackOutcome;
  title: string;
  /** Sentences a finance person understands; already plain text. */
  paragraphs: string[];
  /** A short code for support, never a token. */
  reference: string | null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => '&#' + ch.charCodeAt(0) + ';');
}

export function renderCallbackPage(page: CallbackPage): string {
  const ok = page.outcome === 'connected';
  const body = page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const reference = page.reference ? `<p class="ref">Reference for support: ${escapeHtml(page.reference)}</p>` : '';
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"><title>' + escapeHtml(page.title) + '</title>',
    '<style>body{font-family:Arial,Helvetica,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;color:#202124}',
    'h1{font-size:1.4em;color:' + (ok ? '#137333' : '#a50e0e') + '}.ref{color:#5f6368;font-size:.85em}</style></head>',
    `<body data-outcome="${page.outcome}">`,
    `<h1>${escapeHtml(page.title)}</h1>`,
    body,
    reference,
    '<p>You can close this tab and return to your spreadsheet.</p>',
    '</body></html>',
  ].join('\n');
}

const RETRY = 'Go back to the spreadsheet and click Connect in the Merchant Analytics sidebar to try again.';

export function connectedPage(storeName: string | null): CallbackPage {
  return {
    outcome: 'connected',
    title: storeName ? `Connected to ${storeName}` : 'Connected to Merchant Analytics',
    paragraphs: [
      storeName
        ? `This spreadsheet can now read "${storeName}" from Merchant Analytics (read-only: nothing in your store can be changed from the spreadsheet).`
        : 'This spreadsheet can now read your store from Merchant Analytics (read-only). The store details will appear in the sidebar.',
      // True after a first connection and after a reconnect alike: the page cannot tell which the sheets are in.
      'Go back to the spreadsheet: the Merchant Analytics sidebar, if it is still open, shows the connection within a few seconds (otherwise open it from Extensions → Merchant Analytics → Open sidebar). ' +
        'Sync now then fetches your data; after a reconnect it continues from where the sheets left off, and automatic sync that the lost connection paused resumes once the sidebar shows the connection.',
    ],
    reference: null,
  };
}

export function deniedPage(): CallbackPage {
  return {
    outcome: 'denied',
    title: 'Connection not made',
    paragraphs: [
      'You chose not to allow access, so nothing was connected and nothing in the spreadsheet changed.',
      RETRY,
    ],
    reference: null,
  };
}

export function expiredPage(reference: string): CallbackPage {
  return {
    outcome: 'expired',
    title: 'The sign-in took too long',
    paragraphs: [
      'For your security the approval is only valid for a short time, and it ran out before the connection was made. Nothing was changed.',
      RETRY,
    ],
    reference,
  };
}

export function linkUsedPage(): CallbackPage {
  return {
    outcome: 'link_used',
    title: 'This sign-in link was already used',
    paragraphs: [
      'Each sign-in link works once, and this one has been used or has run out. Nothing was changed. If the sidebar does not show your store as connected, connect again.',
      RETRY,
    ],
    reference: 'link_used',
  };
}

export function wrongSpreadsheetPage(): CallbackPage {
  return {
    outcome: 'wrong_spreadsheet',
    title: 'This sign-in belongs to another spreadsheet',
    paragraphs: [
      'The sign-in was started from a different spreadsheet, so nothing was connected here and nothing was changed.',
      'Open the spreadsheet you want to connect and click Connect in its Merchant Analytics sidebar.',
    ],
    reference: 'wrong_spreadsheet',
  };
}

/** Several Google accounts signed in: Google ran the sign-in's return as another one than the one that clicked Connect. */
export function otherAccountPage(): CallbackPage {
  return {
    outcome: 'other_account',
    title: 'Signed in to several Google accounts',
    paragraphs: [
      'Your browser is signed in to more than one Google account, and Google finished this sign-in as a different account from the one that clicked Connect. Nothing was connected and nothing was changed.',
      'Open the spreadsheet in a window signed in to one Google account only (for example a private or guest window, or a browser profile of that account) and click Connect in its Merchant Analytics sidebar again.',
    ],
    reference: 'other_account',
  };
}

export function serverErrorPage(reference: string): CallbackPage {
  return {
    outcome: 'server_error',
    title: 'Merchant Analytics could not finish connecting',
    paragraphs: [
      'Something went wrong on the Merchant Analytics side while connecting. Nothing was changed in the spreadsheet.',
      RETRY + ' If it keeps happening, contact whoever set up the add-on for your organisation.',
    ],
    reference,
  };
}

export function operatorPage(message: string, reference: string): CallbackPage {
  return {
    outcome: 'operator',
    title: 'Merchant Analytics is not available for this add-on',
    paragraphs: [message],
    reference,
  };
}

export function missingScopePage(message: string): CallbackPage {
  return {
    outcome: 'missing_scope',
    title: 'Merchant Analytics was not given every permission',
    paragraphs: [message],
    reference: 'insufficient_scope',
  };
}

export function storeMismatchPage(message: string): CallbackPage {
  return {
    outcome: 'store_mismatch',
    title: 'This spreadsheet belongs to another store',
    paragraphs: [message],
    reference: 'store_changed',
  };
}
