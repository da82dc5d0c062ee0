import type { OrderRecord, ProductRecord, StoreRecord } from './model.js';

type Keyed = { id: string; updatedMs: number };

function compareByUpdated(a: Keyed, b: Keyed): number {
  return a.updatedMs - b.updatedMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** First index in `items` (sorted by id) whose id is greater than `id`. */
export function indexAfterId<T extends { id: string }>(items: readonly T[], id: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]!.id <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in `items` (sorted by (updatedMs, id)) after the key (updatedMs, id); with id null, the first at or after updatedMs (updated_after is inclusive, spec 4.4). */
export function indexAfterUpdated<T extends Keyed>(items: readonly T[], updatedMs: number, id: string | null): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = items[mid]!;
    const before = m.updatedMs < updatedMs || (m.updatedMs === updatedMs && id !== null && m.id <= id);
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in `orders` (sorted by id, hence by created_at) whose createdMs is at or after `ms`. */
export function indexCreatedFrom(orders: readonly OrderRecord[], ms: number): number {
  let lo = 0;
  let hi = orders.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (orders[mid]!.createdMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One store's records with the indexes paging needs: orders by id (= creation order) and by
 * (updated_at, id), lookups by id and external id. Every mutation goes through here.
 */
export class StoreData {
  readonly ordersById: OrderRecord[];
  readonly ordersByUpdated: OrderRecord[];
  private readonly orderIndex = new Map<string, OrderRecord>();
  private readonly orderByExternal = new Map<string, OrderRecord>();
  readonly productsById: ProductRecord[];
  readonly productsByUpdated: ProductRecord[];
  private readonly productIndex = new Map<string, ProductRecord>();
  private readonly productByExternal = new Map<string, ProductRecord>();

  constructor(
    readonly store: StoreRecord,
    orders: OrderRecord[],
    products: ProductRecord[],
  ) {
    this.ordersById = [...orders].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.ordersByUpdated = [...orders].sort(compareByUpdated);
    for (const o of orders) {
      this.orderIndex.set(o.id, o);
      this.orderByExternal.set(o.externalId, o);
    }
    this.productsById = [...products].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.productsByUpdated = [...products].sort(compareByUpdated);
    for (const p of products) {
      this.productIndex.set(p.id, p);
      this.productByExternal.set(p.externalId, p);
    }
  }

  /** By service id or `external:<platform id>`. */
  findOrder(ref: string): OrderRecord | undefined {
    return ref.startsWith('external:') ? this.orderByExternal.get(ref.slice(9)) : this.orderIndex.get(ref);
  }

  findProduct(ref: string): ProductRecord | undefined {
    return ref.startsWith('external:') ? this.productByExternal.get(ref.slice(9)) : this.productIndex.get(ref);
  }

  addOrder(order: OrderRecord): void {
    this.ordersById.splice(indexAfterId(this.ordersById, order.id), 0, order);
    this.ordersByUpdated.splice(indexAfterUpdated(this.ordersByUpdated, order.updatedMs, order.id), 0, order);
    this.orderIndex.set(order.id, order);
    this.orderByExternal.set(order.externalId, order);
  }

  /** Moves an order's change marker and keeps the (updated_at, id) index sorted. */
  touchOrder(order: OrderRecord, updatedMs: number): void {
    this.removeFrom(this.ordersByUpdated, order);
    order.updatedMs = updatedMs;
    this.ordersByUpdated.splice(indexAfterUpdated(this.ordersByUpdated, order.updatedMs, order.id), 0, order);
  }

  touchProduct(product: ProductRecord, updatedMs: number): void {
    this.removeFrom(this.productsByUpdated, product);
    product.updatedMs = updatedMs;
    this.productsByUpdated.splice(indexAfterUpdated(this.productsByUpdated, product.updatedMs, product.id), 0, product);
  }

  /** Removes an order from every view, leaving no trace in any feed. */
  vanishOrder(order: OrderRecord): void {
    this.removeFrom(this.ordersByUpdated, order);
    const i = indexAfterId(this.ordersById, order.id) - 1;
    if (this.ordersById[i] === order) this.ordersById.splice(i, 1);
    this.orderIndex.delete(order.id);
    this.orderByExternal.delete(order.externalId);
  }

  private removeFrom<T extends Keyed>(list: T[], item: T): void {
    const at = indexAfterUpdated(list, item.updatedMs, item.id) - 1;
    if (list[at] === item) list.splice(at, 1);
    else {
      const found = list.indexOf(item);
      if (found >= 0) list.splice(found, 1);
    }
  }
}
