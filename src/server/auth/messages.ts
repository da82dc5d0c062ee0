import type { ConnectionDetail, ConnectionStateName, StoreRef } from './types';
import type { UserAction } from '../../contract/sidebar';

export interface StateMessage {
  message: string;
  action: UserAction | null;
}

const KEPT = 'Your data in the sheets is kept.';
const OPERATOR =
  'Please contact whoever set up Merchant Analytics for your organisation (the add-on operator); there is nothing to change in the spreadsheet.';

function storeName(store: StoreRef | null): string {
  return store ? `"${store.name}"` : 'your store';
}

/** The plain-language message and the action for each connection state. */
export function messageFor(
  state: ConnectionStateName,
  store: StoreRef | null,
  detail: ConnectionDetail | null,
  otherStore: StoreRef | null = null,
): StateMessage {
  const name = storeName(store);
  switch (state) {
    case 'not_configured':
      return {
        message:
          'Merchant Analytics has not been set up for your organisation yet. ' +
          OPERATOR.replace('Please contact', 'Please ask'),
        action: 'configure',
      };
    case 'not_connected':
      if (detail === 'copy_of_connected_spreadsheet') {
        return {
          message:
            'Not connected: this is a copy of a connected spreadsheet — connect it yourself. The connection of the spreadsheet it was copied from is not used here; open Extensions → Merchant Analytics → Open sidebar and click Connect.',
          action: 'connect',
        };
      }
      return {
        message: 'This spreadsheet is not connected to a Merchant Analytics store. Click Connect to choose one.',
        action: 'connect',
      };
    case 'connected':
      return { message: `Connected to ${name}.`, action: null };
    case 'revoked':
      return {
        message:
          detail === 'no_plan'
            ? `This spreadsheet's connection to ${name} stopped because the Merchant Analytics workspace no longer has a plan. ${KEPT} Once the plan is active again, click Reconnect to resume syncing.`
            : `This spreadsheet's connection to ${name} was turned off in Merchant Analytics (Settings → Connected apps), or the Merchant Analytics workspace no longer has a plan. ${KEPT} Click Reconnect to resume syncing.`,
        action: 'reconnect',
      };
    case 'store_changed':
      if (detail === 'store_differs_from_sheets') {
        return {
          // The connection may have moved here (a pick in the consent window) or elsewhere (the same user connected another spreadsheet).
          message: `This spreadsheet's connection now reads ${storeName(otherStore)}, but the sheets in this spreadsheet hold data of ${name}. Nothing was changed and the two stores are never mixed. Click Reconnect and pick ${name} to resume syncing here, or connect ${storeName(otherStore)} from a new spreadsheet.`,
          action: 'reconnect',
        };
      }
      return {
        message: `This connection now reads another store${otherStore ? ` (${storeName(otherStore)})` : ''}: the same Merchant Analytics user connected a different store (here or in another spreadsheet), which moves the user's only connection. ${KEPT} Reconnect here, or connect the other store with a different merchant user.`,
        action: 'reconnect',
      };
    case 'invalid_claims':
      return {
        message: `Merchant Analytics did not accept this spreadsheet's connection to ${name} (the sign-in is not tied to a store). ${KEPT} Click Reconnect and pick the store again.`,
        action: 'reconnect',
      };
    case 'missing_scope':
      return {
        message: `Merchant Analytics refused part of the data for ${name}: the connection was approved without every permission the add-on asks for (read store, orders, products and profitability, and stay connected). ${KEPT} Click Reconnect and approve all of them.`,
        action: 'reconnect',
      };
    case 'lapsed':
      return {
        message: `${lapsedCause(name, detail)} ${KEPT} Click Reconnect to resume syncing.`,
        action: 'reconnect',
      };
    case 'operator_problem':
      return { message: operatorProblemMessage(detail), action: 'contact_operator' };
  }
}

/** Why Merchant Analytics refused the connection's refresh token: only what the add-on knows happened. */
function lapsedCause(name: string, detail: ConnectionDetail | null): string {
  switch (detail) {
    case 'renewal_interrupted':
      return `This spreadsheet's connection to ${name} was lost while its access was being renewed: the run was stopped before the add-on could save the new access (by Google's time limit for one run, by the day's allowance of trigger run time, or by hand), or Google's daily limit on saved settings refused to save it, and Merchant Analytics no longer accepts the old one.`;
    case 'renewal_unanswered':
      return `Merchant Analytics no longer accepts this spreadsheet's connection to ${name}. Either a renewal of its access got no readable answer (Merchant Analytics may have issued new access that never arrived), or its access was ended or replaced in Merchant Analytics.`;
    case 'unused_90_days':
      return `This spreadsheet's connection to ${name} lapsed: it was not used for 90 days.`;
    case 'access_ended':
      return `Merchant Analytics no longer accepts this spreadsheet's connection to ${name} (it was used within the last 90 days): its access was ended or replaced in Merchant Analytics.`;
    default:
      return `This spreadsheet's connection to ${name} is no longer valid: it was not used for 90 days, or it was turned off or replaced in Merchant Analytics.`;
  }
}

const CHECK_ADDRESS =
  "Please ask whoever set up Merchant Analytics for your organisation to check the script property MA_API_BASE_URL: it must be the service's own address, whose sign-in answers without redirecting. There is nothing to change in the spreadsheet.";

function operatorProblemMessage(detail: ConnectionDetail | null): string {
  if (detail === 'token_endpoint_redirected') {
    return `Merchant Analytics' sign-in address (its token endpoint) answered with a redirect. The add-on never follows it with its sign-in, so it cannot connect or renew its access. ${CHECK_ADDRESS}`;
  }
  if (detail === 'unsupported_token_type') {
    return `Merchant Analytics answered the sign-in with a kind of access token this add-on cannot use (it uses Bearer tokens only), so the token was not used. ${CHECK_ADDRESS}`;
  }
  return (
    'Merchant Analytics does not currently accept this add-on (the application is not provisioned or was disabled). ' +
    OPERATOR
  );
}
