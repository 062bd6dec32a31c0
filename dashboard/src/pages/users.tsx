import { useState } from 'preact/hooks';
import { usePaged } from '../load.tsx';
import { userName, userTag } from '../names.ts';
import { Link } from '../router.tsx';
import { api } from '../session.ts';
import { at, code, ListTable } from '../table.tsx';
import { Page, Section } from '../ui.tsx';

/** The search box above the list: what it holds is searched when submitted (empty: every user). */
function Search(props: { onSearch: (text: string) => void }) {
  return (
    <search>
      <form
        aria-label="Search users"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearch(String(new FormData(e.currentTarget).get('search') ?? '').trim());
        }}
      >
        <div class="field">
          <label for="user-search">Id prefix, tag or name</label>
          <input id="user-search" name="search" type="search" />
        </div>
        <button type="submit">Search</button>
      </form>
    </search>
  );
}

export function Users() {
  const [search, setSearch] = useState('');
  const users = usePaged((page) => api.listUsers({ page, limit: 10, search: search || undefined }), [search]);
  return (
    <Page title="Users">
      <Section title="Find users">
        <Search onSearch={setSearch} />
        <p role="status">
          {users.data &&
            (search
              ? `${users.data.count} users match “${search}”.`
              : `${users.data.count} users, newest first.`)}
        </p>
        <ListTable
          list={users}
          columns={[
            {
              head: 'Name',
              cell: (u) => (
                <Link to={`/users/${u.userId}`}>
                  {userName(u.userData) ?? `User ${u.userId.slice(0, 8)}`}
                </Link>
              ),
            },
            { head: 'User id', cell: (u) => code(u.userId) },
            { head: 'Tag', cell: (u) => userTag(u.userData) ?? '' },
            { head: 'Onboarded', cell: (u) => at(u.createdAt) },
          ]}
        />
        {users.pager('Users')}
      </Section>
    </Page>
  );
}
