/**
 * The partitions (days, placed_day) one job may modify: "Quotas and limits"
 * (https://cloud.google.com/bigquery/quotas), Partitioned tables, "Number of partitions modified by
 * a single job: 4,000". A flush's MERGE and the reconciliation pass's DELETE stay within it.
 */
export const PARTITIONS_PER_JOB = 4_000;
