import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl, newPkcePair } from '../../dev/emulator/oauth/oauth-client';
import { httpRequest, parseConsentForm, type ConsentForm } from '../../dev/emulator/oauth/scripted-merchant';
import { startAuthOnlyServer } from '../../dev/emulator/oauth/standalone';

const REDIRECT = 'http://127.0.0.1:1/usercallback';
const HOSTILE_APP = 'Sheets <img src=x onerror="alert(1)"> & "Co"';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ orders: 20, products: 5, days: 30, redirectUris: [REDIRECT] });
});
afterAll(() => emulator.close());

async function openConsent(
  scope = 'store:read orders:read products:read profitability:read offline_access',
  state = 'state-1',
  target: { url: string; clientId: string } = emulator,
) {
  const url = authorizeUrl(target.url, {
    clientId: target.clientId,
    redirectUri: REDIRECT,
    scope,
    state,
    challenge: newPkcePair().challenge,
  });
  const page = await httpRequest(url);
  expect(page.status).toBe(200);
  return { html: page.body, form: parseConsentForm(page.body, url) };
}

async function submit(form: ConsentForm, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...form.fields, ...fields })) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  return httpRequest(form.action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}

function text(html: string): string {
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('5.4 the consent page shows what the merchant agrees to', () => {
  it('names the application', async () => {
    const { html } = await openConsent();
    expect(text(html)).toContain('Connect Merchant Analytics for Google Sheets');
  });

  it('names the application HTML-escaped when the name is hostile', async () => {
    const hostile = await startAuthOnlyServer({ redirectUris: [REDIRECT], appName: HOSTILE_APP });
    try {
      const { html } = await openConsent(undefined, undefined, hostile);
      expect(html).not.toContain('<img');
      expect(html).toContain('Sheets &#60;img src=x onerror=&#34;alert(1)&#34;&#62; &#38; &#34;Co&#34;');
    } finally {
      await hostile.close();
    }
  });

  it('explains each requested scope and only those', async () => {
    const { html } = await openConsent('store:read orders:read');
    const page = text(html);
    expect(page).toContain('store:read');
    expect(page).toContain('orders:read');
    expect(page).not.toContain('profitability:read');
    expect(page).not.toContain('offline_access');
  });

  it('states the pseudonymous customer reference, the withheld personal data and read-only access', async () => {
    const page = text((await openConsent()).html).toLowerCase();
    expect(page).toContain('pseudonymous customer reference');
    for (const withheld of ['names', 'e-mail addresses', 'phone numbers', 'shipping addresses'])
      expect(page).toContain(withheld);
    expect(page).toContain('read-only');
  });

  it('offers every store as a radio button, none pre-chosen, and Approve/Deny buttons', async () => {
    const { html, form } = await openConsent();
    expect(form.storeIds).toEqual(emulator.state.storeRecords().map((s) => s.id));
    expect(html).not.toMatch(/type="radio"[^>]*checked/);
    expect(form.decisions).toEqual(['approve', 'deny']);
    for (const store of emulator.state.storeRecords()) expect(text(html)).toContain(store.name);
  });

  it('carries only a signed transaction id, not the request parameters', async () => {
    const { form } = await openConsent('store:read', 'state-visible?');
    expect(Object.keys(form.fields).sort()).toEqual(['merchant_email', 'merchant_password', 'transaction']);
    expect(form.fields['transaction']).not.toContain('state-visible');
    expect(new URL(form.action).origin).toBe(emulator.url);
  });
});

describe('5.4 the merchant chooses exactly one store', () => {
  it('Approve with no store re-shows the page with an error and no redirect', async () => {
    const { form } = await openConsent();
    const response = await submit(form, { decision: 'approve' });
    expect(response.status).toBe(400);
    expect(text(response.body)).toContain('Choose exactly one store');
    expect(response.headers.location).toBeUndefined();
  });

  it('Approve with two stores is refused', async () => {
    const { form } = await openConsent();
    const response = await submit(form, { decision: 'approve', store_id: form.storeIds });
    expect(response.status).toBe(400);
  });

  it('Approve with a store that is not offered is refused', async () => {
    const { form } = await openConsent();
    const response = await submit(form, { decision: 'approve', store_id: 'sto_someone_else' });
    expect(response.status).toBe(400);
  });

  it('Approve with one store redirects with a code and the state', async () => {
    const { form } = await openConsent(undefined, 'state-approve');
    const response = await submit(form, { decision: 'approve', store_id: form.storeIds[1]! });
    expect(response.status).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('state-approve');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('Deny redirects with error=access_denied and the state, without a code', async () => {
    const { form } = await openConsent(undefined, 'state-deny');
    const response = await submit(form, { decision: 'deny' });
    expect(response.status).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-deny');
    expect(location.searchParams.has('code')).toBe(false);
  });
});

describe('5.4 sign-in and the transaction', () => {
  it('a wrong password re-shows the page and issues no code', async () => {
    const { form } = await openConsent();
    const response = await submit(form, {
      decision: 'approve',
      store_id: form.storeIds[0]!,
      merchant_password: 'guess',
    });
    expect(response.status).toBe(400);
    expect(response.headers.location).toBeUndefined();
  });

  it('a transaction can be submitted once', async () => {
    const { form } = await openConsent();
    expect((await submit(form, { decision: 'approve', store_id: form.storeIds[0]! })).status).toBe(302);
    const again = await submit(form, { decision: 'approve', store_id: form.storeIds[0]! });
    expect(again.status).toBe(400);
    expect(again.headers.location).toBeUndefined();
  });

  it('a forged or tampered transaction id is refused', async () => {
    const { form } = await openConsent();
    const [id, mac] = form.fields['transaction']!.split('.');
    const tampered = await submit(form, {
      decision: 'approve',
      store_id: form.storeIds[0]!,
      transaction: `${id}x.${mac}`,
    });
    expect(tampered.status).toBe(400);
    const forged = await submit(form, { decision: 'approve', store_id: form.storeIds[0]!, transaction: 'made-up' });
    expect(forged.status).toBe(400);
  });

  it('the page expires on the emulator clock', async () => {
    const { form } = await openConsent();
    emulator.clock.advance(601);
    const response = await submit(form, { decision: 'approve', store_id: form.storeIds[0]! });
    expect(response.status).toBe(400);
    expect(text(response.body)).toContain('expired');
  });

  it('the consent endpoint takes POST only and form bodies only', async () => {
    const { form } = await openConsent();
    expect((await httpRequest(form.action)).status).toBe(405);
    const json = await httpRequest(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
  });
});
