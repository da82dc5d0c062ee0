/**
 * The order a person means in "Change an order": its id (ord_…) or its order number as the Orders
 * sheet shows it (#2742, or 2742 without the #). Pure.
 */
export interface OrderRef {
  id: string;
  order_number?: unknown;
}

const numberPart = (text: string): string => text.trim().replace(/^#/, '').trim();

/** The id of the order `typed` names, or null when no order has that id or number. */
export function orderIdFor(typed: string, orders: readonly OrderRef[]): string | null {
  const wanted = typed.trim();
  if (wanted === '') return null;
  const byId = orders.find((o) => o.id === wanted);
  if (byId) return byId.id;
  const number = numberPart(wanted);
  if (number === '') return null;
  const byNumber = orders.find((o) => typeof o.order_number === 'string' && numberPart(o.order_number) === number);
  return byNumber ? byNumber.id : null;
}
