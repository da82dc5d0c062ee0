import { orderJson, productJson, storeJson } from '../api/serialize.js';
import {
  applyOrderChange,
  applyProductChange,
  ChangeConflict,
  ORDER_CHANGE_KINDS,
  PRODUCT_CHANGE_KINDS,
  type OrderChangeKind,
  type ProductChangeKind,
} from '../data/changes.js';
import { fulfil } from '../data/orders.js';
import { PatchError, patchedOrder } from '../data/patch.js';
import { isRawFieldPath, rawJsonMark } from '../data/raw-fields.js';
import { dailyRows } from '../data/pnl.js';
import type { StoreData } from '../data/store-data.js';
import { FaultInjector, parseFault } from '../faults.js';
import type { AuthServer } from '../oauth/index.js';
import { MAX_ORDERS, mergeOptions, OptionError, type EmulatorOptions } from '../options.js';
import type { RateLimiter } from '../ratelimit.js';
import type { EmulatorState } from '../state.js';
import type { RequestStats } from '../stats.js';
import { addDays, isCalendarDate, localDate } from '../timezone.js';

type Json = Record<string, unknown>;

/** A control request that cannot be applied; status and code as the API's errors. */
export class ApplyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MAX_NEW_ORDERS = 100_000;

export interface ControlDeps {
  state: EmulatorState;
  auth: AuthServer;
  limiter: RateLimiter;
  faults: FaultInjector;
  stats: RequestStats;
  startOptions: EmulatorOptions;
}

/** What each control route does to the state; the control routes only map paths to these. */
export class ControlActions {
  readonly state: EmulatorState;

  constructor(private readonly deps: ControlDeps) {
    this.state = deps.state;
  }

  reset(json: Json): Json {
    let options: EmulatorOptions;
    try {
      options = mergeOptions(this.deps.startOptions, json);
    } catch (error) {
      if (error instanceof OptionError) throw new ApplyError(400, 'invalid_parameter', error.message);
      throw error;
    }
    if (options.port !== this.deps.startOptions.port)
      throw new ApplyError(400, 'invalid_parameter', 'port cannot change on reset');
    this.state.reset(options);
    this.deps.auth.reset({ redirectUris: options.redirectUris });
    this.deps.limiter.reset();
    this.deps.faults.clear();
    this.deps.stats.clear();
    return {
      ok: true,
      now: this.state.clock.nowDate().toISOString(),
      stores: this.state.storeRecords().map(storeJson),
      default_store_id: this.state.defaultStoreId,
    };
  }

  clockNow(): Json {
    return { now: this.state.clock.nowDate().toISOString() };
  }

  advanceClock(json: Json): Json {
    const seconds = json.advance_seconds;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
      throw new ApplyError(400, 'invalid_parameter', 'advance_seconds must be a non-negative number');
    this.state.clock.advance(seconds);
    return this.clockNow();
  }

  storeFor(params: URLSearchParams | Json): { data: StoreData } {
    const given = params instanceof URLSearchParams ? params.get('store') : params.store;
    const id = given === null || given === undefined ? this.state.defaultStoreId : given;
    const data = typeof id === 'string' ? this.state.store(id) : undefined;
    if (!data) throw new ApplyError(404, 'not_found', `no store ${String(id)}`);
    return { data };
  }

  placeOrders(json: Json): Json {
    const count = json.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_NEW_ORDERS) {
      throw new ApplyError(400, 'invalid_parameter', `count must be an integer from 1 to ${MAX_NEW_ORDERS}`);
    }
    const { data } = this.storeFor(json);
    const generated = this.state.generated(data.store.id)!;
    const now = this.state.clock.now();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const order = generated.factory.build(now, generated.random);
      order.financialStatus = 'processing';
      fulfil(order, order.salesChannel === 'b2b' ? 4500 : 700, 'estimate');
      order.fulfillmentStatus = 'unfulfilled';
      data.addOrder(order);
      ids.push(order.id);
    }
    return { created: ids };
  }

  changeOrder(id: string, json: Json): Json {
    const kind = json.kind;
    if (typeof kind !== 'string' || !(ORDER_CHANGE_KINDS as readonly string[]).includes(kind)) {
      throw new ApplyError(400, 'invalid_parameter', `kind must be one of ${ORDER_CHANGE_KINDS.join(', ')}`);
    }
    const { data, order } = this.findOrder(id);
    const now = this.state.clock.now();
    try {
      applyOrderChange(order, kind as OrderChangeKind, now, this.state.generated(data.store.id)!.random);
    } catch (error) {
      if (error instanceof ChangeConflict) throw new ApplyError(409, 'conflict', error.message);
      throw error;
    }
    data.touchOrder(order, this.state.nextMarker(order.updatedMs));
    return { success: true, data: orderJson(order, data.store.taxTreatedAsCost) };
  }

  patchOrder(id: string, json: Json): Json {
    return this.applyPatch(id, json, true);
  }

  /**
   * Test control only: the patch of `patchOrder`, but the change marker does not move (updated_at
   * stays): a correction the service made without telling the feed, as a late writer that never
   * bumped updated_at. Orders, daily rows and the summary show it at once; an incremental feed never does.
   */
  silentPatchOrder(id: string, json: Json): Json {
    return this.applyPatch(id, json, false);
  }

  /** The patch applied; `moveMarker` false leaves updated_at as it was. */
  private applyPatch(id: string, json: Json, moveMarker: boolean): Json {
    const { data, order } = this.findOrder(id);
    let copy;
    try {
      copy = patchedOrder(order, json);
    } catch (error) {
      if (error instanceof PatchError) throw new ApplyError(400, 'invalid_parameter', error.message);
      throw error;
    }
    Object.assign(order, copy);
    if (moveMarker) data.touchOrder(order, this.state.nextMarker(order.updatedMs));
    return { success: true, data: orderJson(order, data.store.taxTreatedAsCost) };
  }

  /**
   * Test control only: `{field, json}` serves `field` (`customer_ref`, `line_items.0.name`) as the
   * raw JSON text `json`, spec or not; `json: null` serves the field as before. A change: updated_at moves.
   */
  rawOrderField(id: string, json: Json): Json {
    const { data, order } = this.findOrder(id);
    const field = json.field;
    if (typeof field !== 'string' || !isRawFieldPath(field))
      throw new ApplyError(400, 'invalid_parameter', 'field must be an order field name or line_items.<index>.<field>');
    const raw = { ...order.rawFields };
    if (json.json === null) delete raw[field];
    else {
      if (typeof json.json !== 'string')
        throw new ApplyError(400, 'invalid_parameter', 'json must be JSON text, or null to serve the field as before');
      try {
        JSON.parse(json.json);
      } catch {
        throw new ApplyError(400, 'invalid_parameter', 'json is not valid JSON text');
      }
      raw[field] = rawJsonMark(json.json);
    }
    order.rawFields = Object.keys(raw).length > 0 ? raw : undefined;
    data.touchOrder(order, this.state.nextMarker(order.updatedMs));
    return { success: true, id: order.id, updated_at: new Date(order.updatedMs).toISOString() };
  }

  vanishOrder(id: string): Json {
    const { data, order } = this.findOrder(id);
    data.vanishOrder(order);
    return { vanished: order.id };
  }

  changeProduct(id: string, json: Json): Json {
    const kind = json.kind;
    if (typeof kind !== 'string' || !(PRODUCT_CHANGE_KINDS as readonly string[]).includes(kind)) {
      throw new ApplyError(400, 'invalid_parameter', `kind must be one of ${PRODUCT_CHANGE_KINDS.join(', ')}`);
    }
    const data = this.state.storeHolding({ product: id });
    const product = data?.findProduct(id);
    if (!data || !product) throw new ApplyError(404, 'not_found', `no product ${id}`);
    const now = this.state.clock.now();
    applyProductChange(
      product,
      kind as ProductChangeKind,
      now,
      this.state.generated(data.store.id)!.random,
      data.store.currency,
    );
    data.touchProduct(product, this.state.nextMarker(product.updatedMs));
    return { success: true, data: productJson(product) };
  }

  addFault(json: Json): Json {
    try {
      this.deps.faults.add(parseFault(json));
    } catch (error) {
      throw new ApplyError(400, 'invalid_parameter', error instanceof Error ? error.message : String(error));
    }
    return this.faultList();
  }

  /** Drops every pending fault (nothing else changes): the service has recovered. */
  clearFaults(): Json {
    const cleared = this.deps.faults.pending().reduce((sum, f) => sum + f.remaining, 0);
    this.deps.faults.clear();
    return { cleared, pending: [] };
  }

  faultList(): Json {
    return {
      pending: this.deps.faults.pending().map((f) => ({
        status: f.status,
        remaining: f.remaining,
        after: f.after,
        path_prefix: f.pathPrefix,
        reason: f.reason,
        retry_after: f.retryAfter,
        body: f.body,
      })),
    };
  }

  lateWriters(json: Json): Json {
    const max = json.max_backdate_seconds;
    if (typeof max !== 'number' || !Number.isFinite(max) || max < 0 || max > 86_400) {
      throw new ApplyError(400, 'invalid_parameter', 'max_backdate_seconds must be a number from 0 (off) to 86400');
    }
    this.state.setLateWriters(max);
    return { max_backdate_seconds: this.state.lateWriterMaxSeconds };
  }

  /**
   * The merchant's own setting (spec 2.3 rule 6): with tax treated as a cost every order's
   * net_profit and the P&L change at once, while no change marker moves.
   */
  merchantSettings(json: Json): Json {
    const { data } = this.storeFor(json);
    const unknown = Object.keys(json).filter((k) => k !== 'tax_treated_as_cost' && k !== 'store');
    if (unknown.length > 0)
      throw new ApplyError(
        400,
        'invalid_parameter',
        `unknown setting ${unknown.join(', ')}; settable: tax_treated_as_cost`,
      );
    const tax = json.tax_treated_as_cost;
    if (typeof tax !== 'boolean')
      throw new ApplyError(400, 'invalid_parameter', 'tax_treated_as_cost must be true or false');
    data.store.taxTreatedAsCost = tax;
    return { tax_treated_as_cost: data.store.taxTreatedAsCost };
  }

  /** The store's plan changes at once, and with it the history window (spec 8.3). */
  changePlan(json: Json): Json {
    const { data } = this.storeFor(json);
    const plan = json.plan;
    if (plan !== 'starter' && plan !== 'pro' && plan !== 'plus')
      throw new ApplyError(400, 'invalid_parameter', 'plan must be starter, pro or plus');
    data.store.plan = plan;
    const window = this.state.historyWindow(data.store);
    return { plan: data.store.plan, history_days: window.days, history_available_from: window.from };
  }

  stats(): Json {
    return { ...this.deps.stats.snapshot(), auth: this.deps.auth.stats() };
  }

  truthStore(params: URLSearchParams): Json {
    const { data } = this.storeFor(params);
    const window = this.state.historyWindow(data.store);
    const orders = data.ordersById;
    return {
      store: storeJson(data.store),
      plan: data.store.plan,
      tax_treated_as_cost: data.store.taxTreatedAsCost,
      history_days: window.days,
      history_available_from: window.from,
      orders: orders.length,
      products: data.productsById.length,
      first_order_date: orders[0]?.localDate ?? null,
      today: localDate(this.state.clock.now(), data.store.timezone),
      late_writers_max_backdate_seconds: this.state.lateWriterMaxSeconds,
      seed: this.state.options.seed,
    };
  }

  /** Every current order of the store, unbounded by plan, as status=all returns it. */
  /** `offset` and `limit` give a slice (by id): a million orders are more JSON than one string can hold. */
  truthOrders(params: URLSearchParams): Json {
    const { data } = this.storeFor(params);
    const count = data.ordersById.length;
    const offset = params.has('offset') ? integerParam(params, 'offset', count) : 0;
    const limit = params.has('limit') ? integerParam(params, 'limit', MAX_ORDERS) : count;
    const slice = data.ordersById.slice(offset, offset + limit);
    return { success: true, total: count, data: slice.map((o) => orderJson(o, data.store.taxTreatedAsCost)) };
  }

  truthProducts(params: URLSearchParams): Json {
    const { data } = this.storeFor(params);
    return { success: true, data: data.productsById.map(productJson) };
  }

  truthStores(): Json {
    return { success: true, data: this.state.storeRecords().map(storeJson) };
  }

  /** Daily rows unbounded by plan; defaults: first order date to today. */
  truthDaily(params: URLSearchParams): Json {
    const { data } = this.storeFor(params);
    const today = localDate(this.state.clock.now(), data.store.timezone);
    const start = params.get('start_date') ?? data.ordersById[0]?.localDate ?? today;
    const end = params.get('end_date') ?? today;
    if (!isCalendarDate(start) || !isCalendarDate(end))
      throw new ApplyError(400, 'invalid_parameter', 'start_date and end_date must be YYYY-MM-DD');
    if (end < start) throw new ApplyError(400, 'invalid_parameter', 'end_date must not be before start_date');
    if (addDays(start, 20_000) < end) throw new ApplyError(400, 'invalid_parameter', 'the range is too long');
    return { success: true, data: dailyRows(data, start, end) };
  }

  private findOrder(id: string): { data: StoreData; order: NonNullable<ReturnType<StoreData['findOrder']>> } {
    const data = this.state.storeHolding({ order: id });
    const order = data?.findOrder(id);
    if (!data || !order) throw new ApplyError(404, 'not_found', `no order ${id}`);
    return { data, order };
  }
}

function integerParam(params: URLSearchParams, name: string, max: number): number {
  const n = Number(params.get(name));
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new ApplyError(400, 'invalid_parameter', `${name} must be an integer from 0 to ${max}`);
  return n;
}
