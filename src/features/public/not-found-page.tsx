import { useT } from '../../i18n/i18n-context';
import { LinkButton } from '../../ui/button';
import { PublicLayout } from '../../layout/public-layout';

export function NotFoundPage() {
  const t = useT();
  return (
    <PublicLayout>
      <p aria-hidden="true" className="text-5xl font-bold text-primary">
        404
      </p>
      <h1 className="mt-2 text-2xl font-semibold text-fg">{t('notFound.title')}</h1>
      <p className="mt-2 text-muted">{t('notFound.text')}</p>
      <LinkButton href="/login" variant="primary" className="mt-6">
        {t('notFound.toLogin')}
      </LinkButton>
    </PublicLayout>
  );
}
