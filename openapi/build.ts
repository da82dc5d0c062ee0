/**
 * Source of openapi/merchant-analytics.openapi.json (run `npx tsx openapi/build.ts`, then
 * `npm run gen:api-types`). A test checks the JSON file is this script's current output.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Schema = Record<string, unknown>;

const str = (description?: string): Schema => (description ? { type: 'string', description } : { type: 'string' });
const num = (description?: string): Schema => (description ? { type: 'number', description } : { type: 'number' });
const int = (description?: string): Schema => (description ? { type: 'integer', description } : { type: 'integer' });
const bool = (description?: string): Schema => (description ? { type: 'boolean', description } : { type: 'boolean' });
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const dateTime = (description?: string): Schema => ({
  type: 'string',
  format: 'date-time',
  ...(description ? { description } : {}),
});
const date = (description?: string): Schema => ({
  type: 'string',
  format: 'date',
  ...(description ? { description } : {}),
});
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties),
  properties,
  additionalProperties: false,
});
const amounts = (names: readonly string[]): Record<string, Schema> => Object.fromEntries(names.map((n) => [n, num()]));

const TOTALS = [
  'gross_revenue',
  'refunds',
  'net_revenue',
  'cogs',
  'ad_spend',
  'payment_fees',
  'fulfillment_cost',
  'product_margin_cm1',
  'gross_profit_cm2',
  'contribution_margin_cm3',
  'ebitda',
  'net_profit',
  'shipping_revenue',
  'discounts',
  'tax',
  'shipping_cost',
  'variable_costs',
  'opex',
  'amortised_expenses',
  'interest_expense',
];

const schemas: Record<string, Schema> = {
  Error: obj({
    success: { const: false },
    error: obj({ code: str('machine-readable code (spec 7)'), message: str('human-readable explanation') }),
  }),
  Page: obj({
    has_more: bool('false on the last page'),
    next_cursor: nullable(str('opaque; pass with the same filters to get the next page; null on the last page')),
    limit: int('page size in effect'),
  }),
  HistoryMeta: obj({
    history_available_from: nullable(date('earliest included date; null when history is unlimited')),
    truncated: bool('the plan window cut off part of the requested range'),
  }),
  Store: obj({
    id: str('stable service store id'),
    name: str(),
    platform: str(),
    shop_domain: str(),
    currency: str(),
    timezone: str('IANA time zone'),
  }),
  Account: obj({
    store: ref('Store'),
    plan: { type: 'string', enum: ['starter', 'pro', 'plus'] },
    connection: obj({ client_id: str(), scopes: { type: 'array', items: str() } }),
    data_availability: obj({
      history_days: nullable(int('null = unlimited')),
      available_from: nullable(date()),
      last_sync_at: dateTime(),
      stale: bool(),
    }),
    rate_limits: obj({
      burst_per_minute: int(),
      hourly: int(),
      daily: int(),
      concurrent_requests: int(),
      client_global_per_minute: int(),
    }),
  }),
  Economics: obj({
    ...amounts(['gross_revenue', 'shipping_revenue', 'discount', 'tax']),
    tax_included_in_price: bool(),
    ...amounts(['refunds', 'net_revenue', 'cogs']),
    cogs_source: str(),
    cogs_coverage_pct: num('estimate: share of units with a known cost'),
    fulfillment_cost: num(),
    fulfillment_cost_source: str(),
    payment_fee: num(),
    ad_spend_allocated: num('estimate: blended daily allocation'),
    ad_spend_basis: str(),
    contribution_profit: num(),
    contribution_margin_pct: num('0 when net_revenue <= 0'),
    allocated_overhead: num(),
    net_profit: num(),
    net_margin_pct: num('0 when net_revenue <= 0'),
  }),
  Attribution: obj({
    primary_source: str(),
    is_paid: bool(),
    utm_source: nullable(str()),
    utm_medium: nullable(str()),
    utm_campaign: nullable(str()),
    utm_term: nullable(str()),
    utm_content: nullable(str()),
    landing_page: str(),
    referrer: str(),
    device_type: str(),
  }),
  LineItem: obj({
    id: str('li_ prefix'),
    sku: str(),
    name: str(),
    product_id: str(),
    variant_id: str(),
    quantity: int(),
    price: num('unit price'),
    total: num('post-discount revenue; 0 is legitimate'),
    cogs: num('cost applied to this sale'),
    fulfillment_cost: num(),
    refund_amount: num(),
    refunded_quantity: int(),
  }),
  Order: obj({
    id: str('ord_ prefix'),
    external_order_id: str(),
    external_order_gid: str(),
    order_number: str(),
    platform: str(),
    store_id: str(),
    created_at: dateTime(),
    updated_at: dateTime('change marker; compare with updated_after'),
    canceled_at: nullable(dateTime()),
    refunded_at: nullable(dateTime()),
    currency: str(),
    financial_status: str(),
    fulfillment_status: str(),
    sales_channel: { type: 'string', enum: ['d2c', 'b2b'] },
    is_first_order: bool(),
    customer_order_sequence: int(),
    is_subscription_renewal: bool(),
    economics: ref('Economics'),
    attribution: ref('Attribution'),
    shipping_country_code: str(),
    customer_ref: str('pseudonymous'),
    line_items: { type: 'array', items: ref('LineItem') },
  }),
  Cost: obj({
    unit_cost: num(),
    handling_cost: num(),
    currency: str(),
    effective_from: dateTime(),
    source: str(),
    cost_is_tiered: bool(),
    cost_is_market_specific: bool(),
  }),
  Variant: obj({
    id: str(),
    external_variant_id: str(),
    title: str(),
    sku: str(),
    barcode: str(),
    position: int(),
    status: str(),
    price: num(),
    cogs: { oneOf: [ref('Cost'), { type: 'null' }], description: 'null = cost unknown (not zero)' },
  }),
  Product: obj({
    id: str('prd_ prefix'),
    external_product_id: str(),
    name: str(),
    sku: str(),
    price: num(),
    status: str(),
    url: str(),
    image_url: str(),
    compare_at_price: num(),
    created_at: dateTime(),
    updated_at: dateTime(),
    cogs: { oneOf: [ref('Cost'), { type: 'null' }], description: 'null = cost unknown (not zero)' },
    variants: { type: 'array', items: ref('Variant') },
  }),
  Totals: obj(amounts(TOTALS)),
  DailyRow: obj({ date: date('store timezone'), ...amounts(TOTALS) }),
  Summary: obj({
    period: obj({ start: date(), end: date(), days: int() }),
    currency: str(),
    cogs_coverage_pct: num(),
    units_sold: int(),
    units_with_known_cost: int(),
    basis: obj({
      refund_recognition: str('sale_date: a refunded order is recognised on its placement date'),
      tax_treated_as_cost: bool(),
      ad_spend: str('always blended_daily'),
    }),
    totals: ref('Totals'),
  }),
};

const envelope = (data: Schema, extra: Record<string, Schema> = {}): Schema =>
  obj({ success: { const: true }, data, ...extra });
Object.assign(schemas, {
  AccountResponse: envelope(ref('Account')),
  StoreList: envelope({ type: 'array', items: ref('Store'), minItems: 1, maxItems: 1 }),
  OrderList: envelope({ type: 'array', items: ref('Order') }, { page: ref('Page'), meta: ref('HistoryMeta') }),
  OrderResponse: envelope(ref('Order')),
  ProductList: envelope({ type: 'array', items: ref('Product') }, { page: ref('Page') }),
  ProductResponse: envelope(ref('Product')),
  SummaryResponse: envelope(ref('Summary'), { meta: ref('HistoryMeta') }),
  DailyList: envelope({ type: 'array', items: ref('DailyRow') }, { page: ref('Page'), meta: ref('HistoryMeta') }),
});

const errorResponse = (description: string, codes: string[], headers: Record<string, Schema> = {}): Schema => ({
  description: `${description} (error.code: ${codes.join(', ')})`,
  ...(Object.keys(headers).length ? { headers } : {}),
  content: { 'application/json': { schema: ref('Error') } },
});
const responses = {
  BadRequest: errorResponse('Invalid parameter or cursor', [
    'invalid_parameter',
    'CURSOR_FILTER_MISMATCH',
    'INVALID_CURSOR',
  ]),
  Unauthorized: errorResponse(
    'Missing, expired or revoked token',
    ['missing_token', 'invalid_token', 'invalid_token_claims', 'grant_revoked'],
    {
      'WWW-Authenticate': { required: true, schema: str(), description: 'points at the protected-resource metadata' },
    },
  ),
  Forbidden: errorResponse('Scope missing or application disabled', ['insufficient_scope', 'client_not_authorized']),
  NotFound: errorResponse('No such record in this store, or beyond the plan window', ['not_found']),
  MethodNotAllowed: errorResponse('The API is read-only', ['method_not_allowed']),
  RateLimited: errorResponse('A rate limit was exceeded', ['rate_limited'], {
    'Retry-After': { required: true, schema: int(), description: 'seconds' },
    'X-RateLimit-Reason': {
      required: true,
      schema: { type: 'string', enum: ['burst', 'hour', 'day', 'concurrency', 'client_global'] },
    },
  }),
  InternalError: errorResponse('Failure on the service side; retry with backoff', ['internal_error']),
};
const rateHeaders = {
  'RateLimit-Limit': { required: true, schema: int(), description: 'the hourly budget' },
  'RateLimit-Remaining': { required: true, schema: int(), description: 'requests left in the sliding hour' },
  'RateLimit-Reset': { schema: int(), description: 'seconds until the oldest request of the hour stops counting' },
  'RateLimit-Policy': { required: true, schema: str(), description: 'e.g. 1000;w=3600' },
};
const r = (name: string): Schema => ({ $ref: `#/components/responses/${name}` });
const p = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` });

const parameters = {
  updated_after: {
    name: 'updated_after',
    in: 'query',
    description: 'records changed at or after this instant; results oldest change first',
    schema: dateTime(),
  },
  created_after: {
    name: 'created_after',
    in: 'query',
    description: 'placed on or after this date (start of day, store timezone)',
    schema: date(),
  },
  created_before: {
    name: 'created_before',
    in: 'query',
    description: 'placed on or before this date (end of day, store timezone)',
    schema: date(),
  },
  order_status: {
    name: 'status',
    in: 'query',
    description: 'default: revenue-bearing orders; all: adds cancelled orders',
    schema: { type: 'string', enum: ['default', 'all'], default: 'default' },
  },
  sales_channel: { name: 'sales_channel', in: 'query', schema: { type: 'string', enum: ['d2c', 'b2b'] } },
  order_limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 250, default: 100 } },
  product_limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 250, default: 100 } },
  product_status: {
    name: 'status',
    in: 'query',
    schema: { type: 'string', enum: ['all', 'active', 'draft', 'archived'], default: 'all' },
  },
  daily_limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 400, default: 100 } },
  cursor: {
    name: 'cursor',
    in: 'query',
    description: 'page.next_cursor of the previous page; repeat every filter',
    schema: str(),
  },
  start_date: {
    name: 'start_date',
    in: 'query',
    description: 'store timezone; default: 29 days before end_date',
    schema: date(),
  },
  end_date: { name: 'end_date', in: 'query', description: 'store timezone; default: today', schema: date() },
  id: { name: 'id', in: 'path', required: true, description: 'service id or external:<platform id>', schema: str() },
};

const ok = (schema: string, headers: Record<string, Schema> = {}): Schema => ({
  description: 'OK',
  headers: { ...rateHeaders, ...headers },
  content: { 'application/json': { schema: ref(schema) } },
});
const cacheControl = {
  'Cache-Control': { required: true, schema: str(), description: 'clients honour it (spec 8.5)' },
};
const op = (
  operationId: string,
  scope: string,
  summary: string,
  params: string[],
  response: Schema,
  extra: string[] = [],
): Schema => ({
  get: {
    operationId,
    summary,
    security: [{ oauth2: [scope] }, { bearer: [] }],
    parameters: params.map(p),
    responses: Object.fromEntries([
      ['200', response],
      ['400', r('BadRequest')],
      ['401', r('Unauthorized')],
      ['403', r('Forbidden')],
      ...extra.map((code) => [code, r('NotFound')]),
      ['405', r('MethodNotAllowed')],
      ['429', r('RateLimited')],
      ['500', r('InternalError')],
    ]),
  },
});

export const document = {
  openapi: '3.1.0',
  info: {
    title: 'Merchant Analytics Public API',
    version: '1.0.0',
    description:
      'Read-only access to one merchant store: orders with economics, products with costs, profitability. Every endpoint is GET; any other method returns 405.',
  },
  servers: [{ url: '/', description: 'the API host; paths carry the /api/v1 prefix' }],
  paths: {
    '/api/v1/account': op(
      'getAccount',
      'store:read',
      'The store this token reads, the connection, data freshness, rate limits',
      [],
      ok('AccountResponse', cacheControl),
    ),
    '/api/v1/stores': op(
      'listStores',
      'store:read',
      'Stores covered by the authorization (always one)',
      [],
      ok('StoreList', cacheControl),
    ),
    '/api/v1/orders': op(
      'listOrders',
      'orders:read',
      'Orders, keyset-paginated',
      ['updated_after', 'created_after', 'created_before', 'order_status', 'sales_channel', 'order_limit', 'cursor'],
      ok('OrderList'),
    ),
    '/api/v1/orders/{id}': op('getOrder', 'orders:read', 'One order', ['id'], ok('OrderResponse'), ['404']),
    '/api/v1/products': op(
      'listProducts',
      'products:read',
      'Products with variants and current base cost',
      ['updated_after', 'product_status', 'product_limit', 'cursor'],
      ok('ProductList'),
    ),
    '/api/v1/products/{id}': op('getProduct', 'products:read', 'One product', ['id'], ok('ProductResponse'), ['404']),
    '/api/v1/profitability/summary': op(
      'getProfitSummary',
      'profitability:read',
      'Profitability totals for a period',
      ['start_date', 'end_date'],
      ok('SummaryResponse', cacheControl),
    ),
    '/api/v1/profitability/daily': op(
      'listProfitDaily',
      'profitability:read',
      'Daily profitability rows, oldest first, paged by date',
      ['start_date', 'end_date', 'daily_limit', 'cursor'],
      ok('DailyList'),
    ),
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This document (no authentication)',
        security: [],
        responses: {
          '200': {
            description: 'OpenAPI 3.1 document',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '405': r('MethodNotAllowed'),
        },
      },
    },
  },
  components: {
    schemas,
    responses,
    parameters,
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        description: 'Authorization code with PKCE (S256); confidential client with HTTP Basic at the token endpoint.',
        flows: {
          authorizationCode: {
            authorizationUrl: '/api/auth/oauth2/authorize',
            tokenUrl: '/api/auth/oauth2/token',
            refreshUrl: '/api/auth/oauth2/token',
            scopes: {
              'store:read': 'the store and connection',
              'orders:read': 'orders',
              'products:read': 'products',
              'profitability:read': 'profitability summary and daily rows',
              offline_access: 'a refresh token',
            },
          },
        },
      },
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <access token>' },
    },
  },
};

export const OPENAPI_JSON_PATH = fileURLToPath(new URL('./merchant-analytics.openapi.json', import.meta.url));
export const documentText = (): string => `${JSON.stringify(document, null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_JSON_PATH, documentText());
  process.stdout.write(`wrote ${OPENAPI_JSON_PATH}\n`);
}
