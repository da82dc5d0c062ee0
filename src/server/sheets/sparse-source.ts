/** What a sparse index stands on: the row index's counts, and the whole read it falls back to. */
export interface SparseSource {
  /** Keyed rows of the table when the row index was last written. */
  size: number;
  /** The last keyed row then. */
  lastRow: number;
  /** Reads the key columns whole and fills the index (fill). */
  whole: () => void;
}
