import { useT } from '../i18n/i18n-context';
import { PageHeader } from '../ui/page-header';

/** What a signed-in user who is not a platform admin sees on an admin screen (the menu does not lead here). */
export function AdminOnly({ title }: { title: string }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} className="mb-0" />
      <p className="rounded-lg border border-border bg-surface p-4 text-fg">{t('app.adminOnly')}</p>
    </div>
  );
}
