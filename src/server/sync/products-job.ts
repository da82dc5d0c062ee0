/** Products (with variants) by updated_after, the same frame as orders. */
import type { Page } from '../api';
import type { Product } from '../api/types';
import { PRODUCTS, VARIANTS } from '../sheets/schema';
import {
  isCursorRejected,
  laterOf,
  pageContext,
  PAGE_LIMIT,
  updatedAfterFor,
  type JobContext,
  type JobResult,
} from './job-context';
import { MemberIndex } from './members';
import { planProductPage } from './product-page';
import { noteSkipped } from './skipped-records';

export function runProductsJob(ctx: JobContext): JobResult {
  const productIndex = ctx.workbook.index(PRODUCTS);
  const variantIndex = ctx.workbook.index(VARIANTS);
  const members = new MemberIndex(variantIndex);
  let cursor: string | null = null;
  let updatedAfter = updatedAfterFor(ctx.state.get('products').watermark);
  let restarts = 0;
  while (ctx.budget.canStartStep()) {
    let page: Page<Product>;
    try {
      page = ctx.api.listProducts({ limit: PAGE_LIMIT, updatedAfter, cursor });
    } catch (e) {
      if (!isCursorRejected(e) || cursor === null || restarts >= 2) throw e;
      restarts++;
      cursor = null;
      updatedAfter = updatedAfterFor(ctx.state.get('products').watermark);
      continue;
    }
    const plan = planProductPage(page.data, productIndex, variantIndex, members, pageContext(ctx));
    ctx.workbook.write([
      { schema: PRODUCTS, rows: plan.products },
      { schema: VARIANTS, rows: plan.variants },
    ]);
    ctx.tally.pages++;
    ctx.tally.counts.products += plan.counts.inserted + plan.counts.updated;
    ctx.tally.counts.variants += plan.counts.children;
    ctx.tally.rows += plan.products.length + plan.variants.length;
    noteSkipped(ctx, 'products', plan.skipped, plan.written);
    const state = ctx.state.get('products');
    ctx.state.update('products', { watermark: laterOf(state.watermark, plan.maxUpdatedAt), caughtUp: !page.hasMore });
    if (!page.hasMore || !page.nextCursor)
      return { job: 'products', caughtUp: true, message: 'Products are up to date.' };
    cursor = page.nextCursor;
  }
  return {
    job: 'products',
    caughtUp: false,
    message: 'Products: stopped before the time limit; the next run continues.',
  };
}
