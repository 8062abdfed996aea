import { useMemo } from 'preact/hooks';
import {
  ErrorBox,
  FieldForm,
  linesOf,
  PageTitle,
  useLoad,
  type FormValues,
} from '../components';
import { useApi } from '../context';
import type { PageProps } from '../router';

interface TenantSettings {
  id: string;
  name: string;
  adminRoles: string[];
  linkReturnUrls: string[];
}

const FIELDS = [
  { name: 'name', label: 'Name', hint: '1 to 200 characters.' },
  {
    name: 'adminRoles',
    label: 'Admin roles',
    kind: 'lines' as const,
    hint: 'One role a line: identities holding one of them administer the identities of the tenant.',
  },
  {
    name: 'linkReturnUrls',
    label: 'Link return URLs',
    kind: 'lines' as const,
    hint: 'One URL a line: where a browser may be sent back after linking an account.',
  },
];

/** The tenant's settings, changed with PATCH and If-Match. */
export function SettingsPage(_props: PageProps) {
  const api = useApi();
  const settings = useLoad(() => api.get<TenantSettings>('/tenant'), [api]);
  const initial = useMemo<FormValues | undefined>(
    () =>
      settings.data && {
        name: settings.data.data.name,
        adminRoles: settings.data.data.adminRoles,
        linkReturnUrls: settings.data.data.linkReturnUrls,
      },
    [settings.data],
  );
  const save = async (values: FormValues) => {
    const saved = await api.send<TenantSettings>('PATCH', '/tenant', {
      ifMatch: settings.data?.etag,
      body: {
        name: String(values.name ?? '').trim(),
        adminRoles: linesOf(values.adminRoles),
        linkReturnUrls: linesOf(values.linkReturnUrls),
      },
    });
    settings.update(saved);
  };
  return (
    <>
      <PageTitle>Settings</PageTitle>
      <ErrorBox error={settings.error} />
      {settings.loading && <p class="muted">Loading…</p>}
      {settings.data && initial && (
        <>
          <p>
            Tenant <code>{settings.data.data.id}</code>
          </p>
          <FieldForm
            fields={FIELDS}
            initial={initial}
            submitLabel="Save settings"
            onSubmit={save}
            onReload={settings.reload}
          />
        </>
      )}
    </>
  );
}
