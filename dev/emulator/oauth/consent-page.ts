import { escapeHtml } from './http-io';
import { SCOPE_DESCRIPTIONS } from './scopes';
import type { StoreSummary } from './types';
import { CONSENT_PATH } from './types';

export interface ConsentView {
  appName: string;
  scopes: string[];
  stores: StoreSummary[];
  /** Signed transaction id: the only thing the form carries about the request. */
  transaction: string;
  merchantEmail: string;
  merchantPassword: string;
  error?: string;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#202124}
fieldset{border:1px solid #dadce0;border-radius:6px;margin:1rem 0;padding:.75rem 1rem}
label{display:block;margin:.35rem 0}.error{color:#b3261e;font-weight:600}
input[type=email],input[type=password]{width:18rem;max-width:100%}
.notice{background:#f1f3f4;padding:.75rem 1rem;border-radius:6px}button{margin-right:.5rem;padding:.5rem 1.25rem}`;

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head><body>${body}</body></html>`
  );
}

/** Spec 5.4: sign-in, application name, scopes in plain words, privacy and read-only statement, store picker. */
export function renderConsentPage(view: ConsentView): string {
  const app = escapeHtml(view.appName);
  const scopes = view.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)}</li>`)
    .join('');
  const stores = view.stores
    .map(
      (store, index) =>
        `<label><input type="radio" name="store_id" id="store_${index}" value="${escapeHtml(store.id)}" required> ` +
        `${escapeHtml(store.name)} <small>(${escapeHtml(store.domain)})</small></label>`,
    )
    .join('');
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  return page(
    `Connect ${view.appName} to Merchant Analytics`,
    `<h1>Connect <span id="app-name">${app}</span></h1>${error}
<form id="consent" method="post" action="${CONSENT_PATH}">
<input type="hidden" name="transaction" value="${escapeHtml(view.transaction)}">
<fieldset><legend>Sign in to Merchant Analytics</legend>
<label>E-mail <input type="email" name="merchant_email" value="${escapeHtml(view.merchantEmail)}" autocomplete="username"></label>
<label>Password <input type="password" name="merchant_password" value="${escapeHtml(view.merchantPassword)}" autocomplete="current-password"></label>
</fieldset>
<p><strong>${app}</strong> asks to:</p><ul id="scopes">${scopes}</ul>
<p class="notice" id="privacy">Only a pseudonymous customer reference is provided: never names, e-mail addresses, phone numbers or shipping addresses (only the shipping country code). The connection is read-only: ${app} cannot change anything in your store.</p>
<fieldset id="stores"><legend>Choose exactly one store ${app} may read</legend>${stores}</fieldset>
<p><small>You hold one connection per application: choosing a different store than before moves the connection, and access granted for the previous store stops working.</small></p>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>`,
  );
}

export function renderErrorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p class="error" id="error">${escapeHtml(message)}</p>`);
}
