import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const BASE = '/dashboard';
const listeners = new Set<() => void>();

export function navigate(to: string): void {
  history.pushState(null, '', to);
  for (const l of listeners) l();
}

/** The page's path below /dashboard (`/rules`), kept current across links and back/forward. */
export function usePath(): string {
  const read = () => location.pathname.slice(BASE.length).replace(/\/$/, '') || '/';
  const [path, setPath] = useState(read);
  useEffect(() => {
    const update = () => setPath(read());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

export function Link(props: { to: string; children: ComponentChildren; current?: boolean }) {
  const href = `${BASE}${props.to === '/' ? '' : props.to}`;
  return (
    <a
      href={href}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {props.children}
    </a>
  );
}
