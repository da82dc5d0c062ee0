/** Products (with variants) by updated_after, the same frame as orders; each written page is a checkpoint. */
import type { Product } from '../api/types';
import { PRODUCTS, VARIANTS } from '../sheets/schema';
import { laterOf, pageContext, PAGE_LIMIT, updatedAfterFor, type JobContext, type JobResult } from './job-context';
import { pageThrough, type Feed } from './feed';
import { MemberIndex } from './members';
import { planProductPage } from './product-page';
import { noteSkipped } from './skipped-records';

export function runProductsJob(ctx: JobContext): JobResult {
  if (pageThrough(ctx.budget, productsFeed(ctx)))
    return { job: 'products', caughtUp: true, message: 'Products are up to date.' };
  return {
    job: 'products',
    caughtUp: false,
    message: 'Products: stopped before the time limit; the next run continues.',
  };
}

function productsFeed(ctx: JobContext): Feed<Product> {
  const productIndex = ctx.workbook.index(PRODUCTS);
  const variantIndex = ctx.workbook.index(VARIANTS);
  const members = new MemberIndex(variantIndex);
  let updatedAfter = updatedAfterFor(ctx.state.get('products').watermark);
  return {
    list: (cursor) => ctx.api.listProducts({ limit: PAGE_LIMIT, updatedAfter, cursor }),
    take(page, { last }) {
      const plan = planProductPage(page.data, productIndex, variantIndex, members, pageContext(ctx));
      const rows = [
        { schema: PRODUCTS, rows: plan.products },
        { schema: VARIANTS, rows: plan.variants },
      ];
      // The last page rides along with the run's next write (one request less); earlier ones keep a request each.
      if (last) ctx.workbook.deferRows(rows);
      else ctx.workbook.write(rows);
      ctx.tally.pages++;
      ctx.tally.counts.products += plan.counts.inserted + plan.counts.updated;
      ctx.tally.counts.variants += plan.counts.children;
      ctx.tally.rows += plan.products.length + plan.variants.length;
      noteSkipped(ctx, 'products', plan.skipped, plan.written);
      const state = ctx.state.get('products');
      ctx.state.update('products', { watermark: laterOf(state.watermark, plan.maxUpdatedAt), caughtUp: !page.hasMore });
      return last ? 'done' : 'next';
    },
    fromCheckpoint() {
      updatedAfter = updatedAfterFor(ctx.state.get('products').watermark);
    },
  };
}
