import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorClock } from '../clock';
import { redirectWith, type AuthorizationRequest } from './authorize-request';
import { renderConsentPage, renderErrorPage } from './consent-page';
import type { GrantStore } from './grant-store';
import { parseForm, sendHtml, sendRedirect } from './http-io';
import { constantTimeEqual, Signer } from './secrets';
import type { RegisteredClient, StoreSummary } from './types';

/** The demo merchant's sign-in, pre-filled on the page. Any e-mail with this password signs in as that merchant user. */
export const DEMO_MERCHANT = { email: 'demo-merchant@example.com', password: 'demo-password' } as const;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

interface PendingConsent {
  request: AuthorizationRequest;
  expiresAt: number;
}

export interface ConsentContext {
  clock: EmulatorClock;
  consentSeconds: () => number;
  grants: GrantStore;
  client: () => RegisteredClient;
  stores: () => StoreSummary[];
}

/** Spec 5.4: the sign-in + consent page and its POST, bound to a server-side transaction. */
export class ConsentFlow {
  private pending = new Map<string, PendingConsent>();
  private readonly signer = new Signer();

  constructor(private readonly ctx: ConsentContext) {}

  clear(): void {
    this.pending.clear();
    this.signer.rotate();
  }

  show(res: ServerResponse, request: AuthorizationRequest): void {
    const now = this.ctx.clock.now();
    for (const [key, pending] of this.pending) if (pending.expiresAt <= now) this.pending.delete(key);
    const id = randomBytes(18).toString('base64url');
    this.pending.set(id, { request, expiresAt: now + this.ctx.consentSeconds() * 1000 });
    this.render(res, 200, request, this.signer.sign(id));
  }

  submit(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const form = parseForm(req, body);
    if (!form.ok) return sendHtml(res, 400, renderErrorPage('Bad request', form.message));
    const single = (name: string): string | null => {
      const values = form.fields.get(name);
      return values && values.length === 1 ? values[0]! : null;
    };
    const signed = single('transaction');
    const id = signed === null ? null : this.signer.verify(signed);
    const pending = id === null ? undefined : this.pending.get(id);
    if (id === null || !pending || pending.expiresAt <= this.ctx.clock.now()) {
      if (id !== null) this.pending.delete(id);
      return sendHtml(
        res,
        400,
        renderErrorPage(
          'This page has expired',
          'This sign-in page has expired or was already used. Start connecting again from the application.',
        ),
      );
    }
    const { request } = pending;
    const client = this.ctx.client();
    if (client.disabled || client.clientId !== request.clientId) {
      this.pending.delete(id);
      return sendHtml(
        res,
        400,
        renderErrorPage(
          'Application unavailable',
          'This application has been disabled by the Merchant Analytics operator.',
        ),
      );
    }
    const decision = single('decision');
    if (decision === 'deny') {
      this.pending.delete(id);
      return sendRedirect(
        res,
        redirectWith(request.redirectUri, {
          error: 'access_denied',
          error_description: 'the merchant denied access',
          state: request.state,
        }),
      );
    }
    if (decision !== 'approve') return this.render(res, 400, request, signed!, 'Choose Approve or Deny.');

    const email = (single('merchant_email') ?? '').trim().toLowerCase();
    const password = single('merchant_password') ?? '';
    if (!EMAIL.test(email) || !constantTimeEqual(password, DEMO_MERCHANT.password)) {
      return this.render(
        res,
        400,
        request,
        signed!,
        `The e-mail or password is not right (the demo merchant is ${DEMO_MERCHANT.email}).`,
      );
    }
    const storeIds = form.fields.get('store_id') ?? [];
    const store = storeIds.length === 1 ? this.ctx.stores().find((s) => s.id === storeIds[0]) : undefined;
    if (!store) return this.render(res, 400, request, signed!, 'Choose exactly one store.');

    this.pending.delete(id);
    const connection = this.ctx.grants.connect(email, request.clientId, store.id);
    const code = this.ctx.grants.issueCode({
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: request.scopes,
      storeId: store.id,
      connection,
    });
    sendRedirect(res, redirectWith(request.redirectUri, { code, state: request.state }));
  }

  private render(
    res: ServerResponse,
    status: number,
    request: AuthorizationRequest,
    transaction: string,
    error?: string,
  ): void {
    const view = {
      appName: this.ctx.client().appName,
      scopes: request.scopes,
      stores: this.ctx.stores(),
      transaction,
      merchantEmail: DEMO_MERCHANT.email,
      merchantPassword: DEMO_MERCHANT.password,
    };
    sendHtml(res, status, renderConsentPage(error === undefined ? view : { ...view, error }));
  }
}
