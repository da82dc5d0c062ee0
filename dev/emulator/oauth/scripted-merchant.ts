import { httpRequest } from '../../shared/http-exchange';
import { DEMO_MERCHANT } from './consent';

export { httpRequest, type RawResponse } from '../../shared/http-exchange';

/** The consent form as a browser would see it: action, hidden fields, pre-filled inputs, store choices. */
export interface ConsentForm {
  action: string;
  fields: Record<string, string>;
  storeIds: string[];
  decisions: string[];
}

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return match ? decodeEntities(match[1]!) : null;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Reads form#consent from the page; throws when the page has none. */
export function parseConsentForm(html: string, pageUrl: string): ConsentForm {
  const form = /<form\b[^>]*\sid="consent"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error('the page has no consent form');
  const action = new URL(attribute(form[0].slice(0, form[0].indexOf('>') + 1), 'action') ?? '', pageUrl).toString();
  const fields: Record<string, string> = {};
  const storeIds: string[] = [];
  for (const [tag] of form[1]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(tag, 'name');
    if (name === null) continue;
    const value = attribute(tag, 'value') ?? '';
    if (attribute(tag, 'type') === 'radio') {
      if (name === 'store_id') storeIds.push(value);
    } else {
      fields[name] = value;
    }
  }
  const decisions = [...form[1]!.matchAll(/<button\b[^>]*>/gi)]
    .filter(([tag]) => attribute(tag, 'name') === 'decision')
    .map(([tag]) => attribute(tag, 'value') ?? '');
  return { action, fields, storeIds, decisions };
}

export interface MerchantChoice {
  /** Store to pick; default the first one offered. */
  storeId?: string;
  decision?: 'approve' | 'deny';
  email?: string;
  password?: string;
}

/**
 * Plays the merchant: opens the authorize URL, fills the consent form and submits it.
 * Returns the redirect target (the client's redirect_uri with code or error, and state).
 */
export async function approveAuthorization(authorizeUrl: string, choice: MerchantChoice = {}): Promise<string> {
  const page = await httpRequest(authorizeUrl);
  if (page.status === 302) return String(page.headers.location);
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${page.body.slice(0, 200)}`);
  const form = parseConsentForm(page.body, authorizeUrl);
  const storeId = choice.storeId ?? form.storeIds[0];
  const fields = new URLSearchParams({
    ...form.fields,
    merchant_email: choice.email ?? form.fields['merchant_email'] ?? DEMO_MERCHANT.email,
    merchant_password: choice.password ?? form.fields['merchant_password'] ?? DEMO_MERCHANT.password,
    decision: choice.decision ?? 'approve',
  });
  if (storeId !== undefined) fields.set('store_id', storeId);
  const submitted = await httpRequest(form.action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
  if (submitted.status !== 302)
    throw new Error(`consent answered ${submitted.status}: ${submitted.body.slice(0, 300)}`);
  return String(submitted.headers.location);
}
