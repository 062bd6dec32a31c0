import type { Permission } from '@coin/contracts';
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AcceptInvite } from './pages/accept-invite.tsx';
import { ApiKeys } from './pages/api-keys.tsx';
import { AuditLog } from './pages/audit-log.tsx';
import { SignIn, SignUp } from './pages/auth.tsx';
import { Leaderboards } from './pages/leaderboards.tsx';
import { Ledger } from './pages/ledger.tsx';
import { Onboarding } from './pages/onboarding.tsx';
import { Overview } from './pages/overview.tsx';
import { Rules } from './pages/rules.tsx';
import { Team } from './pages/team.tsx';
import { Tiers } from './pages/tiers.tsx';
import { Treasury } from './pages/treasury.tsx';
import { UserPage } from './pages/user.tsx';
import { Users } from './pages/users.tsx';
import { Webhooks } from './pages/webhooks.tsx';
import { Link, usePath } from './router.tsx';
import { restore, signOut, useSession } from './session.ts';
import { StepUpDialog } from './step-up.tsx';

/**
 * The signed-in pages, in the navigation's order (the first is also every unknown path's), each with
 * the permission without which it is not offered (the others need only `read`).
 */
const PAGES: [string, string, FunctionComponent, Permission?][] = [
  ['/', 'Overview', Overview],
  ['/users', 'Users', Users],
  ['/onboarding', 'Onboarding', Onboarding],
  ['/treasury', 'Treasury', Treasury],
  ['/ledger', 'Ledger', Ledger],
  ['/rules', 'Rules', Rules],
  ['/tiers', 'Tiers', Tiers],
  ['/leaderboards', 'Leaderboards', Leaderboards],
  ['/webhooks', 'Webhooks', Webhooks],
  ['/api-keys', 'API keys', ApiKeys, 'credentials'],
  ['/team', 'Team', Team, 'team'],
  ['/audit-log', 'Audit log', AuditLog, 'audit'],
];

function signedInPage(path: string, pages: typeof PAGES) {
  if (path.startsWith('/users/'))
    return <UserPage userId={decodeURIComponent(path.slice('/users/'.length))} />;
  const [, , Shown] = pages.find(([to]) => to === path) ?? pages[0];
  return <Shown />;
}

export function App() {
  const path = usePath();
  const session = useSession();
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    restore().finally(() => setRestored(true));
  }, []);
  if (!restored) return <main aria-busy="true">Loading…</main>;
  if (path === '/accept-invite')
    return (
      <main>
        <AcceptInvite />
      </main>
    );
  const pages = PAGES.filter(([, , , needs]) => !needs || session.can(needs));
  return (
    <>
      <header>
        <p class="brand">Coin rewards</p>
        {session.signedIn && (
          <>
            <nav aria-label="Dashboard">
              <ul>
                {pages.map(([to, text]) => (
                  <li key={to}>
                    <Link to={to} current={path === to || (to === '/users' && path.startsWith('/users/'))}>
                      {text}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <p class="who">
              {session.partner?.name}
              {session.member && ` · ${session.member.email} (${session.member.role})`}{' '}
              <button type="button" onClick={() => signOut()}>
                Sign out
              </button>
            </p>
          </>
        )}
      </header>
      <main>
        {session.signedIn ? signedInPage(path, pages) : path === '/sign-up' ? <SignUp /> : <SignIn />}
      </main>
      <StepUpDialog />
    </>
  );
}
