import { CoinApiError } from '@coin/sdk';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { withStepUp } from './step-up.tsx';

/** Loads on mount and whenever `deps` change; `reload` loads again (after a change). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const run = useCallback(() => {
    load().then(
      (data) => setState({ data }),
      (err: Error) => setState({ error: messageOf(err) }),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

const messageOf = (err: Error) => (err instanceof CoinApiError ? err.error : err.message);

/**
 * A paginated list: `load(page)` on mount and whenever the page or `deps` change; a change of
 * `deps` (a filter) goes back to page 1.
 */
export function usePaged<T extends { lastpage: number }>(
  load: (page: number) => Promise<T>,
  deps: unknown[],
) {
  const key = JSON.stringify(deps);
  const [at, setAt] = useState({ page: 1, key });
  const page = at.key === key ? at.page : 1;
  const list = useLoad(() => load(page), [key, page]);
  const pager = (label: string) =>
    list.data && (
      <Pager
        label={label}
        page={page}
        lastpage={list.data.lastpage}
        onPage={(p) => setAt({ page: p, key })}
      />
    );
  return { ...list, page, pager };
}

function Pager(props: { page: number; lastpage: number; onPage: (p: number) => void; label: string }) {
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous page
      </button>
      <span>
        Page {props.page} of {props.lastpage}
      </span>
      <button
        type="button"
        disabled={props.page >= props.lastpage}
        onClick={() => props.onPage(props.page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}

/**
 * Buttons that change something and then reload what shows it: `run(() => api.x(…))` clears the
 * last failure, and a new one is `failure` (for the list's alert).
 */
export function useAction(after: () => void) {
  const [failure, setFailure] = useState<string>();
  const run = (change: () => Promise<unknown>) => {
    setFailure(undefined);
    withStepUp(change).then(after, (err: Error) => setFailure(messageOf(err)));
  };
  return { failure, run };
}

export type PagedList<T extends { lastpage: number }> = ReturnType<typeof usePaged<T>>;
