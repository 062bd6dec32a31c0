import { gauge, oneReadPerScrape } from './metrics.ts';

export interface ScrapedGauge<R> {
  name: string;
  help: string;
  value: (reading: R) => number;
}

export interface ScrapedGauges<L extends string, R> {
  /** Reports this source's reading under these labels at every scrape until the returned function is called. */
  watch(labels: Record<L, string>, read: () => Promise<R>): () => void;
}

/**
 * Gauges that report parts of one reading, taken at scrape time from every live source (a
 * queue, an outbox, a consumer), each under its own labels. The gauges of a scrape share one read of
 * a source; a source that cannot answer (its database is down) is left out of that scrape.
 */
export function scrapedGauges<L extends string, R>(
  labelNames: readonly L[],
  gauges: readonly ScrapedGauge<R>[],
): ScrapedGauges<L, R> {
  const sources = new Map<string, { labels: Record<L, string>; read: () => Promise<R> }>();
  const created = gauges.map(({ name, help, value }) =>
    gauge({
      name,
      help,
      labelNames,
      async collect() {
        await Promise.all(
          [...sources.values()].map(async ({ labels, read }) => {
            try {
              this.set(labels, value(await read()));
            } catch {
              this.remove(labels);
            }
          }),
        );
      },
    }),
  );
  return {
    watch(labels, read) {
      const key = JSON.stringify(labelNames.map((l) => labels[l]));
      sources.set(key, { labels, read: oneReadPerScrape(read) });
      return () => {
        sources.delete(key);
        for (const g of created) g.remove(labels);
      };
    },
  };
}
