/** The store whose data a run writes (checked against each data sheet's tag) and its currency (number formats). */
export class StoreBinding {
  private storeId: string | null = null;
  currency: string | null = null;

  bind(storeId: string, currency: string | null): void {
    this.storeId = storeId;
    this.currency = currency;
  }

  requireStore(): string {
    if (this.storeId === null)
      throw new Error('No store is bound: store data cannot be written before the account is read.');
    return this.storeId;
  }
}
