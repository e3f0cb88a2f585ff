/**
 * One result of an online source (web, literature, patents) as the answer cites it: the shape
 * every adapter returns, so the search-type menu (全部/网页/文献/专利) can merge and de-duplicate
 * sources without knowing them.
 */
export interface OnlineHit {
  /** Where the reader goes when they click the citation (http or https). */
  url: string;
  title: string;
  /** The site's or source's name shown beside the citation (“PubMed”, “example.com”). */
  site: string;
  /** A few sentences of the result, plain text. */
  snippet: string;
  /** Which kind of source found it. */
  kind: 'web' | 'literature' | 'patent';
}

/** What a search adapter is asked with. */
export interface OnlineQuery {
  query: string;
  /** Most results wanted. */
  limit: number;
  signal: AbortSignal;
}

/** A source of online results: one adapter, or several tried with failover. */
export type OnlineSearch = (q: OnlineQuery) => Promise<OnlineHit[]>;
